/* sysbatch core: why a lone call stayed alone.  A straight-line batch of
 * one call is dissolved (below-min-batch); what a user can act on is what
 * kept the call's neighbour out, so the refusal's detail names it, decided
 * here once for both compilers:
 *
 *   - the batch ended before the next call of the region: the code between
 *     them (a barrier - an unknown call - or code that may not move across
 *     the next call), or the next call itself (not batchable, or unable to
 *     join);
 *   - the region ended after the call: the front end's facts about what
 *     lies between the end of the call's block and the next candidate call
 *     (sb_region_end): no other call in the function, a barrier after the
 *     call, no call on any path, a loop's back edge or exit, a branch, a
 *     jump to a join.
 *
 *     fd = open(p, O_RDONLY);   ->  open not batched: below-min-batch (...:
 *     log_open(p);                  barrier: a call to log_open stands
 *     fstat(fd, &st);               between it and the next call, fstat)
 */
#include "plan-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const lone_names[SB_LONE__COUNT] = {
    [SB_LONE_UNSAID] = "unsaid",
    [SB_LONE_BARRIER] = "barrier",
    [SB_LONE_CONFLICT] = "conflict",
    [SB_LONE_NEXT_REFUSED] = "next-refused",
    [SB_LONE_NEXT_CANNOT_JOIN] = "next-cannot-join",
    [SB_LONE_ONLY_CALL] = "only-call",
    [SB_LONE_LAST_CALL] = "last-call",
    [SB_LONE_LOOP_BACK_EDGE] = "loop-back-edge",
    [SB_LONE_LOOP_EXIT] = "loop-exit",
    [SB_LONE_BRANCH] = "branch",
    [SB_LONE_BLOCK_END] = "block-end",
    [SB_LONE_REGION_SPLIT] = "region-split",
    [SB_LONE_NEXT_DECIDED] = "next-decided",
};

const char *sb_lone_cause_name(enum sb_lone_cause cause)
{
    if ((int)cause < 0 || cause >= SB_LONE__COUNT)
        return "unknown";
    return lone_names[cause];
}

static const char *symbol_of(const struct planner *pl, int c)
{
    const char *s = pl->calls[c]->symbol;
    return s ? s : "?";
}

/* The batch ended before call `next`: what kept it out. */
static enum sb_lone_cause next_call_cause(const struct planner *pl,
                                          const struct sb_batch_plan *bp,
                                          char *buf, size_t size)
{
    const char *next = symbol_of(pl, bp->end_call);
    const char *what = bp->end_detail;
    switch (bp->end_why) {
    case SB_WHY_BARRIER:
        snprintf(buf, size, "%s stands between it and the next call, %s",
                 what ? what : "code that may touch anything", next);
        return SB_LONE_BARRIER;
    case SB_WHY_CODE_CONFLICT:
        snprintf(buf, size, "%s may not move across the next call, %s",
                 what ? what : "code between them", next);
        return SB_LONE_CONFLICT;
    default:
        break;
    }
    if (pl->alone[bp->end_call].why != SB_WHY_NONE) {
        snprintf(buf, size, "the next call, %s, is not batched (%s)", next,
                 sb_why_name(bp->end_why));
        return SB_LONE_NEXT_REFUSED;
    }
    snprintf(buf, size, "the next call, %s, cannot join it (%s)", next,
             sb_why_name(bp->end_why));
    return SB_LONE_NEXT_CANNOT_JOIN;
}

/* The region ended after the call: what the front end saw after it.  The
 * order goes from what is nearest the call (its own block) outwards. */
static enum sb_lone_cause region_end_cause(const struct sb_region_end *end,
                                           char *buf, size_t size)
{
    if (end->only_call) {
        snprintf(buf, size, "no other system call in the function");
        return SB_LONE_ONLY_CALL;
    }
    if (end->barrier) {
        snprintf(buf, size, "%s follows it in its block", end->barrier);
        return SB_LONE_BARRIER;
    }
    if (end->split) {
        snprintf(buf, size, "its block's next calls are planned as another "
                            "region (at most %d calls in one)",
                 SB_MAX_REGION_CALLS);
        return SB_LONE_REGION_SPLIT;
    }
    /* Before last-call: the walk found no candidate because the look
     * before inlining had already planned what follows (that look saw
     * both calls and could not join them, or the call was a wrapper then:
     * either way its reason is not this look's to give). */
    if (end->decided_next) {
        snprintf(buf, size, "the next call, %s, was planned by the look "
                            "before inlining, which left this call out",
                 end->decided_next);
        return SB_LONE_NEXT_DECIDED;
    }
    if (end->no_call_follows || end->term == SB_ENDT_RETURN) {
        snprintf(buf, size, "no system call follows it on any path");
        return SB_LONE_LAST_CALL;
    }
    if (end->back_edge) {
        snprintf(buf, size, "a loop's back edge comes before the next call "
                            "(the next call is the next iteration's)");
        return SB_LONE_LOOP_BACK_EDGE;
    }
    if (end->loop_exit) {
        snprintf(buf, size, "the path to the next call leaves the loop");
        return SB_LONE_LOOP_EXIT;
    }
    if (end->term == SB_ENDT_BRANCH) {
        if (end->branch_why)
            snprintf(buf, size, "its block ends in a branch the batch does "
                                "not follow: %s", end->branch_why);
        else
            snprintf(buf, size, "its block ends in a branch the batch does "
                                "not follow");
        return SB_LONE_BRANCH;
    }
    if (end->term == SB_ENDT_JUMP) {
        snprintf(buf, size, "its block ends in a jump to a block other paths "
                            "enter too");
        return SB_LONE_BLOCK_END;
    }
    return SB_LONE_UNSAID;
}

int explain_lone_call(const struct planner *pl, const struct sb_batch_plan *bp,
                      struct sb_call_plan *cp)
{
    char text[768];
    enum sb_lone_cause cause =
        bp->end_call >= 0
            ? next_call_cause(pl, bp, text, sizeof text)
            : region_end_cause(&pl->region->end, text, sizeof text);
    cp->lone = (uint8_t)cause;
    if (cause == SB_LONE_UNSAID)
        return 0;
    const char *name = sb_lone_cause_name(cause);
    size_t len = strlen(name) + 2 + strlen(text) + 1;
    char *detail = malloc(len);
    if (!detail)
        return -1;
    snprintf(detail, len, "%s: %s", name, text);
    free(cp->owned_detail);
    cp->owned_detail = detail;
    cp->detail = detail;
    return 0;
}

const char *sb_branch_end_why(const struct sb_region *region,
                              const struct sb_plan *plan,
                              const char *const *term_why, char *buf,
                              size_t size)
{
    if (!region || !plan || region->nblocks < 1 ||
        region->nblocks > SB_MAX_REGION_BLOCKS || !region->blocks || !buf ||
        size == 0 || plan->ncalls > SB_MAX_REGION_CALLS)
        return NULL;
    const struct sb_block *entry = &region->blocks[0];
    if (entry->term == SB_TERM_EXIT) {
        if (!term_why || !term_why[0])
            return NULL;
        snprintf(buf, size, "%s", term_why[0]);
        return buf;
    }
    int entry_calls = 0;
    for (int e = entry->first_event; e < entry->first_event + entry->nevents;
         e++)
        entry_calls += region->events[e].kind == SB_EV_CALL;
    /* The nearest call after the branch that has a reason of its own:
     * not-reached and below-min-batch say only that the batch ended
     * before it, or was too small. */
    for (int c = entry_calls; c < plan->ncalls; c++) {
        const struct sb_call_plan *cp = &plan->calls[c];
        if (cp->why == SB_WHY_NONE || cp->why == SB_WHY_NOT_REACHED ||
            cp->why == SB_WHY_BELOW_MIN_BATCH)
            continue;
        const struct sb_call_event *ev = sb_region_call(region, c);
        const char *sym = ev && ev->symbol ? ev->symbol : "?";
        snprintf(buf, size, "the next call after it, %s, cannot join it (%s: %s)",
                 sym, sb_why_name(cp->why),
                 cp->detail ? cp->detail : sb_why_text(cp->why));
        return buf;
    }
    for (int b = 1; term_why && b < region->nblocks; b++)
        if (term_why[b]) {
            snprintf(buf, size, "a later branch ends the region: %s",
                     term_why[b]);
            return buf;
        }
    return NULL;
}
