/* sysbatch core: the planner's entry - sb_plan_region() sets up the shared
 * planner state (options, the region's calls, each call's catalogue row and
 * the reason it cannot be batched even alone) and hands the region to the
 * straight-line planner (plan-group.c, plan-encode.c) or the branchy one
 * (plan-branchy.c).  Also the reason table (sb_why_text, sb_why_name).
 * Implements phases 2 and 3 of the description in core.h; plan-internal.h
 * lists the files.
 *
 * Before and after, for
 *     fd = open(p, O_RDONLY); n = read(fd, buf, 4096); close(fd);
 * the region {open a0=avail a1=const:0; read a0=ret:0 ...; close a0=ret:0}
 * becomes one batch of five slots:
 *     openat(-100, a0, 0, 0) fail=stop; copy ret[0] -> slot 2 arg 0;
 *     read(ret0, a1, 4096); copy ret[0] -> slot 4 arg 0; close(ret0)
 */
#include "plan-internal.h"

#include <stdlib.h>
#include <string.h>

void sb_options_default(struct sb_options *opts)
{
    opts->min_batch = 2;
    opts->max_slots = 64;
    opts->allow_blocking = true;
    opts->series_yield = true;
    opts->loops = true;
    opts->join_split = true;
    opts->loop_slots = 16;
}

static const char why_yield_queue[] =
    "no-tock-yield: the app's yield() may not be the bare trap (libtock-c "
    "before June 2025 ran a task queued with tock_enqueue instead of "
    "trapping), which a series frame cannot do";

/* ------------------------------------------------------------- reasons */

static const struct {
    const char *name;
    const char *text;
} reasons[SB_WHY__COUNT] = {
    [SB_WHY_NONE] = {"none", "batched"},
    [SB_WHY_NOT_IN_CATALOG] = {"not-in-catalog",
                               "the callee is not in the syscall catalogue"},
    [SB_WHY_WRONG_ABI] = {"wrong-abi",
                          "the catalogue row belongs to another kernel ABI"},
    [SB_WHY_NEVER_BATCH] = {"never-batch", "this call is never batched"},
    [SB_WHY_NR_NOT_CONSTANT] = {"nr-not-constant",
                                "syscall() with a number that is not a "
                                "compile-time constant"},
    [SB_WHY_NR_UNKNOWN] = {"nr-unknown",
                           "syscall() with a number the catalogue does not "
                           "describe"},
    [SB_WHY_MAY_BLOCK] = {"may-block",
                          "the call may block and blocking calls are not "
                          "batched for this target"},
    [SB_WHY_ARG_COMPUTED] = {"arg-computed",
                             "an argument is computed by code after the "
                             "batch would start"},
    [SB_WHY_ARG_FROM_UNBATCHED] = {"arg-from-unbatched",
                                   "an argument is the result of a call that "
                                   "runs after the batch would start"},
    [SB_WHY_CODE_CONFLICT] = {"code-conflict",
                              "code between the calls may not be moved "
                              "across this call"},
    [SB_WHY_BARRIER] = {"barrier",
                        "code between the calls may touch anything (unknown "
                        "call, volatile or atomic access)"},
    [SB_WHY_BELOW_MIN_BATCH] = {"below-min-batch",
                                "too few calls in a row to pay for a batch"},
    [SB_WHY_BATCH_FULL] = {"batch-full",
                           "the batch reached its slot limit"},
    [SB_WHY_FRONT_END] = {"front-end", "the compiler front end refused it"},
    [SB_WHY_LIBC_PRECHECK] = {"libc-precheck",
                               "the libc wrapper answers some values of an "
                               "argument itself, without a system call, and "
                               "this one is not known to pass"},
    [SB_WHY_NOT_REACHED] = {"not-reached",
                            "every path to this call leaves the batch before "
                            "it (an earlier call on the path is not batched, "
                            "or the path leaves the region)"},
    [SB_WHY_SERIES_ENDED] = {"series-ended",
                             "the batch ended at a yield, which may only be "
                             "the last call of a Tock series"},
    [SB_WHY_LOOP_CARRIED] = {"loop-carried",
                             "an argument depends on the call's result in an "
                             "earlier iteration of the loop"},
    [SB_WHY_LOOP_UNREPEATABLE] = {"loop-arg-unrepeatable",
                                  "an argument is computed by loop code that "
                                  "cannot run ahead of the calls"},
    [SB_WHY_LOOP_GUARD] = {"loop-guard",
                           "whether an iteration reaches the call depends on "
                           "code that cannot run ahead of the calls"},
    [SB_WHY_LOOP_ALWAYS_STOPS] = {"loop-always-stops",
                                  "every result of the call may leave the "
                                  "loop or cross code the next iteration's "
                                  "call may not move above"},
    [SB_WHY_LOOP_SPECULATIVE] = {"loop-speculative-load",
                                 "running ahead would load memory the loop "
                                 "may never reach"},
    [SB_WHY_LOOP_SHARED_BUFFER] = {"loop-shared-buffer",
                                   "every iteration writes one buffer and the "
                                   "bytes the call writes are not known"},
    [SB_WHY_LOOP_BUILT_ARG] = {"loop-built-arg",
                               "an argument is a buffer the loop fills each "
                               "iteration in a way that cannot be repeated "
                               "into a private copy"},
    [SB_WHY_LOOP_SEVERAL_CALLS] = {"loop-several-calls",
                                   "the loop has more than one system call "
                                   "site; its body is planned as "
                                   "straight-line code"},
    [SB_WHY_CONVERTED_MIX] = {"converted-mix",
                              "the runtime reads a converted call's input "
                              "(sigaction's act) when the batch is issued "
                              "and writes its output after the batch, so "
                              "it shares a batch only with calls that take "
                              "no pointers"},
    [SB_WHY_LOOP_RETRY] = {"loop-retry",
                           "the loop makes the call again only after it "
                           "failed (a retry on EINTR): every success leaves "
                           "the loop, so a run makes one call unless it "
                           "fails, and no later iteration's call is known "
                           "to happen before the one at hand returns"},
    [SB_WHY_NO_CHAINING] = {"no-chaining",
                            "an argument is the result of an earlier call in "
                            "the batch and this target cannot chain results"},
};

const char *sb_why_text(enum sb_why why)
{
    if ((int)why < 0 || why >= SB_WHY__COUNT)
        return "unknown reason";
    return reasons[why].text;
}

const char *sb_why_name(enum sb_why why)
{
    if ((int)why < 0 || why >= SB_WHY__COUNT)
        return "unknown";
    return reasons[why].name;
}

/* ------------------------------------------------- checks alone */

/* The libc argument description of call c's argument k (shifted by one for
 * syscall(NR, ...)), or NULL. */
static const struct sb_arg_desc *arg_desc(const struct planner *pl, int c,
                                          int k)
{
    const struct sb_syscall *row = pl->raw_row[c];
    if (!row)
        return NULL;
    if (sb_call_is_raw_syscall(pl->calls[c]))
        k--;
    return k >= 0 && k < row->libc_argc ? &row->libc_args[k] : NULL;
}

/* A memory operand must name a word the writer's catalogue row says it
 * writes: an output buffer, with the word inside it when its size is
 * fixed.  A writer that is refused anyway is not checked (the operand then
 * only matters as a value computed in the region). */
static bool memory_operand_ok(const struct planner *pl,
                              const struct sb_operand *op)
{
    int w = op->call;
    if (pl->alone[w].why != SB_WHY_NONE)
        return true;
    if (op->arg < 0 || op->arg >= pl->calls[w]->nargs || op->value < 0)
        return false;
    const struct sb_arg_desc *d = arg_desc(pl, w, op->arg);
    if (!d || d->kind != SB_ARG_OUT_BUF)
        return false;
    return d->size_arg >= 0 || op->value + 8 <= (long)d->fixed_size;
}

/* Phase 2, part 1: reasons that do not depend on the neighbours. */
static struct refusal check_alone(const struct planner *pl, int c)
{
    const struct sb_call_event *ev = pl->calls[c];
    enum sb_abi abi = pl->region->abi;

    if (c >= SB_MAX_REGION_CALLS)
        return refuse(SB_WHY_FRONT_END,
                      "a region describes at most 64 calls");
    if (ev->why_not)
        return refuse(SB_WHY_FRONT_END, ev->why_not);
    if (ev->nargs < 0 || ev->nargs > SB_MAX_ARGS + 1)
        return refuse(SB_WHY_FRONT_END, "argument count out of range");
    for (int k = 0; k < ev->nargs; k++) {
        const struct sb_operand *op = &ev->args[k];
        if (op->kind > SB_OPND_MEMORY)
            return refuse(SB_WHY_FRONT_END, "unknown operand kind");
        if ((op->kind == SB_OPND_RESULT || op->kind == SB_OPND_MEMORY) &&
            (op->call < 0 || op->call >= c))
            return refuse(SB_WHY_FRONT_END,
                          "an argument names a call that is not earlier in "
                          "the region");
        if (op->kind == SB_OPND_MEMORY && !memory_operand_ok(pl, op))
            return refuse(SB_WHY_FRONT_END,
                          "a memory operand is not a word inside an output "
                          "buffer its call writes");
    }

    const struct sb_syscall *row;
    if (sb_call_is_raw_syscall(ev)) {
        /* syscall(NR, ...) is a Linux entry point; Tock has no such call. */
        if (abi != SB_ABI_LINUX_X86_64)
            return refuse(SB_WHY_WRONG_ABI, NULL);
        if (ev->nargs < 1 || ev->args[0].kind != SB_OPND_CONST)
            return refuse(SB_WHY_NR_NOT_CONSTANT, NULL);
        row = sb_catalog_by_nr(abi, ev->args[0].value);
        if (!row)
            return refuse(SB_WHY_NR_UNKNOWN, NULL);
    } else {
        row = ev->row;
        if (!row)
            return refuse(SB_WHY_NOT_IN_CATALOG, NULL);
    }
    if (row->abi != abi)
        return refuse(SB_WHY_WRONG_ABI, NULL);
    if (row->flags & SB_ROW_NEVER)
        return refuse(SB_WHY_NEVER_BATCH, row->never_why);
    /* Only yield() ran a queued task in old libtock-c; yield_wait_for
     * (which takes arguments) was always the bare trap. */
    if ((row->flags & SB_ROW_SERIES_LAST) && row->libc_argc == 0 &&
        !pl->opts.series_yield)
        return refuse(SB_WHY_NEVER_BATCH, why_yield_queue);
    if ((row->flags & SB_ROW_MAY_BLOCK) && !pl->opts.allow_blocking)
        return refuse(SB_WHY_MAY_BLOCK, NULL);

    /* Every raw argument must have a source; only a trailing variadic one
     * may be missing (it becomes 0, as glibc passes for open's mode). */
    bool raw_form = sb_call_is_raw_syscall(ev);
    int have = raw_form ? ev->nargs - 1 : ev->nargs;
    int need = raw_form ? row->raw_argc : row->libc_argc;
    bool variadic = (row->flags & SB_ROW_VARIADIC) != 0;
    if (have < need - (variadic ? 1 : 0))
        return refuse(SB_WHY_FRONT_END,
                      "fewer arguments than the catalogue row takes");
    if (!raw_form && have > row->libc_argc)
        return refuse(SB_WHY_FRONT_END,
                      "more arguments than the catalogue row takes");
    return refuse(SB_WHY_NONE, NULL);
}

/* ------------------------------------------------------------- driver */

void sb_plan_free(struct sb_plan *plan)
{
    if (!plan)
        return;
    for (int b = 0; b < plan->nbatches; b++)
        free(plan->batches[b].slots);
    for (int c = 0; plan->calls && c < plan->ncalls; c++)
        free(plan->calls[c].owned_detail);
    free(plan->batches);
    free(plan->calls);
    memset(plan, 0, sizeof *plan);
}

static void planner_free(struct planner *pl)
{
    free(pl->calls);
    free(pl->event_of);
    free(pl->raw_row);
    free(pl->alone);
    free(pl->join);
    free(pl->stop_on_fail);
}

static void planner_set_options(struct planner *pl,
                                const struct sb_options *opts)
{
    if (opts)
        pl->opts = *opts;
    else
        sb_options_default(&pl->opts);
    if (pl->opts.min_batch < 1)
        pl->opts.min_batch = 1;
    if (pl->opts.max_slots < 1)
        pl->opts.max_slots = 1;
}

/* The region's calls in order, each with its event, the reason it is not
 * batchable alone and (when it is) the row it issues.  -1: out of memory. */
static int planner_index_calls(struct planner *pl, struct sb_plan *plan)
{
    const struct sb_region *region = pl->region;
    int nevents = region->events ? region->nevents : 0;
    size_t n = (size_t)pl->ncalls;
    pl->calls = calloc(n, sizeof *pl->calls);
    pl->event_of = calloc(n, sizeof *pl->event_of);
    pl->raw_row = calloc(n, sizeof *pl->raw_row);
    pl->alone = calloc(n, sizeof *pl->alone);
    pl->join = calloc(n, sizeof *pl->join);
    pl->stop_on_fail = calloc(n, sizeof *pl->stop_on_fail);
    plan->calls = calloc(n, sizeof *plan->calls);
    if (!pl->calls || !pl->event_of || !pl->raw_row || !pl->alone ||
        !pl->join || !pl->stop_on_fail || !plan->calls)
        return -1;
    plan->ncalls = pl->ncalls;

    for (int e = 0, c = 0; e < nevents; e++) {
        if (region->events[e].kind != SB_EV_CALL)
            continue;
        pl->calls[c] = &region->events[e].u.call;
        pl->event_of[c] = e;
        c++;
    }
    for (int c = 0; c < pl->ncalls; c++) {
        pl->alone[c] = check_alone(pl, c);
        if (pl->alone[c].why == SB_WHY_NONE)
            pl->raw_row[c] = sb_call_raw_row(region->abi, pl->calls[c]);
    }
    return 0;
}

const struct sb_call_event *sb_region_call(const struct sb_region *region,
                                           int call)
{
    for (int e = 0, c = 0; region->events && e < region->nevents; e++) {
        if (region->events[e].kind != SB_EV_CALL)
            continue;
        if (c++ == call)
            return &region->events[e].u.call;
    }
    return NULL;
}

bool sb_plan_spans_blocks(const struct sb_plan *plan, const int *block_of_call)
{
    if (plan->nbatches != 1)
        return false;
    int block = -1;
    bool several = false;
    for (int c = 0; c < plan->ncalls; c++) {
        if (plan->calls[c].batch != 0)
            continue;
        several |= block >= 0 && block_of_call[c] != block;
        block = block_of_call[c];
    }
    return several;
}

int planner_open(struct planner *pl, const struct sb_region *region,
                 const struct sb_options *opts, struct sb_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    memset(pl, 0, sizeof *pl);
    pl->region = region;
    planner_set_options(pl, opts);

    int nevents = region->events ? region->nevents : 0;
    for (int e = 0; e < nevents; e++)
        if (region->events[e].kind == SB_EV_CALL)
            pl->ncalls++;
    if (pl->ncalls == 0)
        return 0;
    return planner_index_calls(pl, plan);
}

void planner_close(struct planner *pl)
{
    planner_free(pl);
}

int sb_plan_region(const struct sb_region *region,
                   const struct sb_options *opts, struct sb_plan *plan)
{
    struct planner pl;
    int rc = planner_open(&pl, region, opts, plan);
    if (rc == 0 && pl.ncalls > 0)
        rc = region->nblocks != 0 ? plan_branchy(&pl, plan)
                                  : plan_straight_line(&pl, plan);
    planner_free(&pl);
    if (rc != 0)
        sb_plan_free(plan);
    return rc;
}
