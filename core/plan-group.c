/* sysbatch core: phase 2 for a straight-line region - which calls form
 * batches, and why every other call was left alone.
 *
 * Grouping, in one sentence: walk the calls in order, keep a batch open as
 * long as each next call is batchable, takes its operands from constants,
 * values available before the batch or results of calls already in it, and
 * is not pinned by code since the batch's first call; close it otherwise,
 * let the call that did not fit open the next batch, and finally dissolve
 * batches smaller than min_batch.
 *
 * Why a refused call gets the reason it gets: a call that is not batchable
 * by itself (not in the catalogue, never-batch, ...) gets that reason.  A
 * call that could not join the batch before it opens the next batch; if that
 * batch is then too small, the call is refused with the reason it could not
 * join (code-conflict, barrier, arg-computed, batch-full, no-chaining),
 * because that is what a user can act on; every other call of a dissolved
 * batch gets below-min-batch, and a call alone in its batch also says what
 * kept its neighbour out (plan-alone.c).
 */
#include "plan-internal.h"

#include <stdlib.h>
#include <string.h>

const char why_narrowed[] =
    "a conversion narrows the result it chains from, and a chain copies the "
    "whole result";

/* Does a conversion between the producer and this use change a value the
 * producer may hand on? */
bool narrowing_changes(const struct planner *pl,
                       const struct sb_operand *op)
{
    return op->kind == SB_OPND_RESULT &&
           !sb_conversion_keeps_result(pl->region->abi, pl->calls[op->call],
                                       op->narrowest_bits);
}

/* An operand of call c as seen from a batch whose first call is `first`. */
enum operand_use operand_use(const struct planner *pl,
                            const struct sb_operand *op, int first)
{
    switch (op->kind) {
    case SB_OPND_CONST:
    case SB_OPND_AVAILABLE:
        return USE_DIRECT;
    case SB_OPND_RESULT:
        /* A producer before the batch point has run (batched or not) when
         * the batch is issued; calls from `first` on are in the batch,
         * because a call that is not closes it.  A chain copies the raw
         * result, so a conversion that could change it computes a value. */
        if (op->call < first)
            return USE_DIRECT;
        return narrowing_changes(pl, op) ? USE_LOCAL : USE_CHAIN;
    case SB_OPND_MEMORY: {
        /* Written by a call before the batch: the load that reads it runs
         * after the batch point, like any computed value.  Written inside
         * the batch: a word copy from the buffer, whose address must be
         * known when the batch is built (not itself chained). */
        int w = op->call;
        if (w < first)
            return USE_LOCAL;
        if (w == first)
            return USE_CHAIN;
        const struct sb_operand *buf = &pl->calls[w]->args[op->arg];
        return operand_use(pl, buf, first) == USE_DIRECT ? USE_CHAIN
                                                         : USE_LOCAL;
    }
    default:
        /* Computed in the region: ready where the first call stood, not
         * necessarily any earlier. */
        return USE_LOCAL;
    }
}


static const char *const precheck_detail[] = {
    [SB_PRE_NONE] = NULL,
    [SB_PRE_FD_NONNEG] = "glibc returns EBADF for a negative fd without "
                         "entering the kernel; the fd is not a "
                         "non-negative constant, chained from this batch, "
                         "checked by a branch before the call or taken by "
                         "an earlier call of the batch that fails on a "
                         "negative fd",
    [SB_PRE_NONNULL] = "glibc returns EINVAL for a NULL path without "
                       "entering the kernel; the path is not a non-NULL "
                       "constant or known to be non-NULL at the call",
    [SB_PRE_PAGE_ALIGNED] = "glibc returns EINVAL for an unaligned offset "
                            "without entering the kernel; the offset is not "
                            "a page-aligned constant",
    [SB_PRE_COUNT_INT_MAX] = "glibc clamps a count above INT_MAX before the "
                             "system call; the count is not a constant of "
                             "at most INT_MAX",
    [SB_PRE_CONST_ALLOWED] = "glibc issues this as one plain system call only "
                             "for some constant values of the argument "
                             "(others it emulates, rewrites or treats as a "
                             "pointer); the argument is not one of them",
    [SB_PRE_CONST_NONZERO] = "glibc issues a different system call when the "
                             "argument is 0; the argument is not a nonzero "
                             "constant",
};

/* Does call g's slot, when it runs, prove that its libc argument 0 is not
 * negative - or fail?  A row whose kernel call fails on every negative fd
 * (SB_ROW_FD0_FAILS_NEGATIVE); or a row whose own negative-fd precheck is
 * on argument 0: a slot of it runs only when that precheck passed, so its
 * fd is not negative then. */
static bool fails_on_negative_fd0(const struct planner *pl, int g)
{
    const struct sb_call_event *ev = pl->calls[g];
    const struct sb_syscall *row = ev->row;
    if (!row || sb_call_is_raw_syscall(ev) || row->abi != SB_ABI_LINUX_X86_64 ||
        row->libc_argc < 1 || row->libc_args[0].kind != SB_ARG_FD)
        return false;
    return (row->flags & SB_ROW_FD0_FAILS_NEGATIVE) ||
           (row->precheck == SB_PRE_FD_NONNEG && row->precheck_arg == 0);
}

/* The latest call of `ran_before` that took the same fd as call c's
 * argument k (the same value number where the batch is issued) and fails
 * when it is negative, or -1.  Stopping the batch when that call fails
 * (its slot's fail jump, which the caller sets) leaves c's slot unrun on
 * every negative value: c then runs at its own call site, and glibc
 * answers EBADF there as in the original. */
static int fd_guard(const struct planner *pl, int c, int k,
                    uint64_t ran_before)
{
    const struct sb_operand *op = &pl->calls[c]->args[k];
    if (op->kind != SB_OPND_AVAILABLE || op->same == 0)
        return -1;
    for (int g = c - 1; g >= 0; g--) {
        if (g >= 64 || !((ran_before >> g) & 1))
            continue;
        const struct sb_call_event *gev = pl->calls[g];
        if (gev->nargs < 1 || !fails_on_negative_fd0(pl, g))
            continue;
        const struct sb_operand *gop = &gev->args[0];
        if (gop->kind == SB_OPND_AVAILABLE && gop->same == op->same)
            return g;
    }
    return -1;
}

/* Would call c reach the kernel exactly when the original call did?  Only
 * rows with a glibc precheck can fail.  `ran_before`: bit g for each call
 * of the batch whose slot runs before c's on every path to it; *guard
 * (when not NULL) gets the call that proves c's fd, which must then stop
 * the batch when it fails, or -1. */
struct refusal check_precheck(const struct planner *pl, int c,
                              uint64_t ran_before, int *guard)
{
    const struct sb_call_event *ev = pl->calls[c];
    const struct sb_syscall *row = ev->row;
    if (guard)
        *guard = -1;
    if (sb_call_is_raw_syscall(ev) || !row || row->precheck == SB_PRE_NONE)
        return refuse(SB_WHY_NONE, NULL);
    bool ok = false;
    int k = row->precheck_arg;
    const struct sb_operand *op = k < ev->nargs ? &ev->args[k] : NULL;
    if (op) {
        switch (row->precheck) {
        case SB_PRE_FD_NONNEG:
            if (op->kind == SB_OPND_CONST) {
                ok = op->value >= 0 && op->value <= INT32_MAX;
            } else if (op->kind == SB_OPND_AVAILABLE && op->nonneg) {
                ok = true; /* checked by a dominating branch */
            } else if (op->kind == SB_OPND_RESULT && op->call < 64 &&
                       ((ran_before >> op->call) & 1)) {
                /* Chained: the producer stops the batch when it fails, and
                 * an int-returning -1/errno call succeeds with 0..INT_MAX. */
                const struct sb_call_event *p = pl->calls[op->call];
                ok = sb_call_ret_conv(pl->region->abi, p) == SB_RET_ERRNO &&
                     sb_call_result_bits(pl->region->abi, p) == 32;
            } else if (guard) {
                *guard = fd_guard(pl, c, k, ran_before);
                ok = *guard >= 0;
            }
            break;
        case SB_PRE_NONNULL:
            ok = (op->kind == SB_OPND_CONST && op->value != 0) ||
                 (op->kind == SB_OPND_AVAILABLE && op->nonnull);
            break;
        case SB_PRE_PAGE_ALIGNED:
            ok = op->kind == SB_OPND_CONST && (op->value & 4095) == 0;
            break;
        case SB_PRE_COUNT_INT_MAX:
            ok = op->kind == SB_OPND_CONST && op->value >= 0 &&
                 op->value <= INT32_MAX;
            break;
        case SB_PRE_CONST_ALLOWED:
            for (int v = 0; op->kind == SB_OPND_CONST && !ok &&
                            v < row->pre_allowed_count;
                 v++)
                ok = op->value == row->pre_allowed[v];
            break;
        case SB_PRE_CONST_NONZERO:
            ok = op->kind == SB_OPND_CONST && op->value != 0;
            break;
        }
    }
    return ok ? refuse(SB_WHY_NONE, NULL)
              : refuse(SB_WHY_LIBC_PRECHECK, precheck_detail[row->precheck]);
}

/* Calls first..c-1 (a straight-line batch runs them in order before c). */
static uint64_t calls_between(int first, int c)
{
    uint64_t mask = 0;
    for (int g = first; g < c && g < 64; g++)
        mask |= (uint64_t)1 << g;
    return mask;
}

static bool is_converted(const struct planner *pl, int c)
{
    const struct sb_syscall *row = pl->raw_row[c];
    return row && (row->flags & SB_ROW_RUNTIME_CONVERTED);
}

/* No argument of the call is a pointer the kernel follows.  syscall(NR,
 * ...) passes raw words the catalogue describes only through NR's row. */
static bool takes_no_pointer(const struct planner *pl, int c)
{
    const struct sb_syscall *row = pl->raw_row[c];
    if (!row || sb_call_is_raw_syscall(pl->calls[c]))
        return false;
    for (int k = 0; k < row->libc_argc; k++)
        if (row->libc_args[k].kind != SB_ARG_VALUE &&
            row->libc_args[k].kind != SB_ARG_FD)
            return false;
    return true;
}

struct refusal check_converted_mix(const struct planner *pl, int c, int first,
                                   const bool *in_batch)
{
    bool converted = is_converted(pl, c), plain = takes_no_pointer(pl, c);
    if (converted || plain) {
        for (int m = first; m < c; m++) {
            if (in_batch && !in_batch[m])
                continue;
            bool ok = converted ? is_converted(pl, m) || takes_no_pointer(pl, m)
                                : true;
            if (!ok)
                return refuse(SB_WHY_CONVERTED_MIX, NULL);
        }
        return refuse(SB_WHY_NONE, NULL);
    }
    /* c takes pointers: no converted call may be in the batch. */
    for (int m = first; m < c; m++)
        if ((!in_batch || in_batch[m]) && is_converted(pl, m))
            return refuse(SB_WHY_CONVERTED_MIX, NULL);
    return refuse(SB_WHY_NONE, NULL);
}

/* Phase 2, part 2: may call c join the open batch [first, c)? */
static struct refusal check_join(const struct planner *pl, int c, int first,
                                 int nslots)
{
    const struct sb_event *events = pl->region->events;
    for (int e = pl->event_of[first] + 1; e < pl->event_of[c]; e++) {
        if (events[e].kind != SB_EV_CODE)
            continue;
        const struct sb_code_event *code = &events[e].u.code;
        if (code->barrier)
            return refuse(SB_WHY_BARRIER, code->why);
        if (c < 64 && (code->conflicts >> c) & 1)
            return refuse(SB_WHY_CODE_CONFLICT, code->why);
    }

    const struct sb_call_event *ev = pl->calls[c];
    bool chained = false;
    for (int k = 0; k < ev->nargs; k++) {
        if (sb_call_is_raw_syscall(ev) && k == 0)
            continue; /* NR: a checked constant */
        enum operand_use use = operand_use(pl, &ev->args[k], first);
        if (use == USE_LOCAL)
            return refuse(SB_WHY_ARG_COMPUTED,
                          ev->args[k].call >= first &&
                                  narrowing_changes(pl, &ev->args[k])
                              ? why_narrowed
                              : NULL);
        if (use == USE_CHAIN)
            chained = true;
    }
    if (chained && pl->region->abi != SB_ABI_LINUX_X86_64)
        return refuse(SB_WHY_NO_CHAINING, NULL);
    int guard;
    struct refusal pre =
        check_precheck(pl, c, calls_between(first, c), &guard);
    if (pre.why != SB_WHY_NONE)
        return pre;
    struct refusal mix = check_converted_mix(pl, c, first, NULL);
    if (mix.why != SB_WHY_NONE)
        return mix;
    if (nslots + 1 + chains_needed(pl, c, first) > pl->opts.max_slots)
        return refuse(SB_WHY_BATCH_FULL, NULL);
    if (guard >= 0)
        pl->stop_on_fail[guard] = true;
    return refuse(SB_WHY_NONE, NULL);
}

/* Greedy grouping into `batches` (one per call at most); returns their
 * number.  Every call's plan entry gets its refusal, if any. */
static int group_calls(struct planner *pl, struct sb_plan *plan,
                       struct sb_batch_plan *batches)
{
    /* Phase 2: greedy grouping. */
    int nbatches = 0;
    struct sb_batch_plan *open = NULL;
    int open_slots = 0;
    bool open_closed = false; /* its last call must stay last (yield) */
    for (int c = 0; c < pl->ncalls; c++) {
        struct sb_call_plan *cp = &plan->calls[c];
        cp->batch = -1;
        cp->slot = -1;
        if (open && open_closed) {
            open->end_call = c;
            open->end_why = SB_WHY_SERIES_ENDED;
            open->end_detail = NULL;
            open = NULL;
        }
        if (pl->alone[c].why != SB_WHY_NONE) {
            if (open) {
                open->end_call = c;
                open->end_why = pl->alone[c].why;
                open->end_detail = pl->alone[c].detail;
                open = NULL;
            }
            cp->why = pl->alone[c].why;
            cp->detail = pl->alone[c].detail;
            continue;
        }
        if (open) {
            struct refusal r = check_join(pl, c, open->first_call, open_slots);
            if (r.why == SB_WHY_NONE) {
                open->last_call = c;
                open_slots += 1 + chains_needed(pl, c, open->first_call);
                open_closed = (pl->raw_row[c]->flags & SB_ROW_SERIES_LAST) != 0;
                continue;
            }
            open->end_call = c;
            open->end_why = r.why;
            open->end_detail = r.detail;
            pl->join[c] = r;
            open = NULL;
        }
        /* As the first call of a batch nothing can be chained into it. */
        struct refusal pre = check_precheck(pl, c, 0, NULL);
        if (pre.why != SB_WHY_NONE) {
            cp->why = pre.why;
            cp->detail = pre.detail;
            continue;
        }
        open = &batches[nbatches++];
        open->first_call = open->last_call = c;
        open->end_call = -1;
        open->end_why = SB_WHY_NONE;
        open_slots = 1;
        open_closed = (pl->raw_row[c]->flags & SB_ROW_SERIES_LAST) != 0;
    }
    return nbatches;
}

/* Dissolve batches below the minimum; encode the rest into plan->batches
 * (which then owns `batches`, also on failure). */
static int dissolve_and_encode(struct planner *pl, struct sb_plan *plan,
                               struct sb_batch_plan *batches, int nbatches)
{
    int kept = 0;
    for (int b = 0; b < nbatches; b++) {
        struct sb_batch_plan bp = batches[b];
        int count = bp.last_call - bp.first_call + 1;
        if (count < pl->opts.min_batch) {
            for (int c = bp.first_call; c <= bp.last_call; c++) {
                struct sb_call_plan *cp = &plan->calls[c];
                if (c == bp.first_call && pl->join[c].why != SB_WHY_NONE) {
                    cp->why = pl->join[c].why;
                    cp->detail = pl->join[c].detail;
                } else {
                    cp->why = SB_WHY_BELOW_MIN_BATCH;
                    cp->detail = NULL;
                    if (count == 1 && explain_lone_call(pl, &bp, cp) != 0) {
                        plan->batches = batches;
                        plan->nbatches = kept;
                        return -1;
                    }
                }
            }
            continue;
        }
        batches[kept] = bp;
        if (encode_batch(pl, &batches[kept], plan, kept) != 0) {
            plan->batches = batches;
            plan->nbatches = kept;
            return -1;
        }
        kept++;
    }
    plan->batches = batches;
    plan->nbatches = kept;
    return 0;
}

int plan_straight_line(struct planner *pl, struct sb_plan *plan)
{
    /* At most one batch per call. */
    struct sb_batch_plan *batches =
        calloc((size_t)pl->ncalls, sizeof *batches);
    if (!batches)
        return -1;
    int nbatches = group_calls(pl, plan, batches);
    return dissolve_and_encode(pl, plan, batches, nbatches);
}
