/* sysbatch core: the planner - which calls of a region form batches, how
 * each batch is encoded as sys_batch slots, and why every other call was
 * left alone.  Implements phases 2 and 3 of the description in core.h.
 *
 * Grouping, in one sentence: walk the calls in order, keep a batch open as
 * long as each next call is batchable, takes its operands from constants,
 * values available before the batch or results of calls already in it, and
 * is not pinned by code since the batch's first call; close it otherwise,
 * let the call that did not fit open the next batch, and finally dissolve
 * batches smaller than min_batch.
 *
 * Before and after, for
 *     fd = open(p, O_RDONLY); n = read(fd, buf, 4096); close(fd);
 * the region {open a0=avail a1=const:0; read a0=ret:0 ...; close a0=ret:0}
 * becomes one batch of five slots:
 *     openat(-100, a0, 0, 0) fail=stop; copy ret[0] -> slot 2 arg 0;
 *     read(ret0, a1, 4096); copy ret[0] -> slot 4 arg 0; close(ret0)
 *
 * Why a refused call gets the reason it gets: a call that is not batchable
 * by itself (not in the catalogue, never-batch, ...) gets that reason.  A
 * call that could not join the batch before it opens the next batch; if that
 * batch is then too small, the call is refused with the reason it could not
 * join (code-conflict, barrier, arg-computed, batch-full, no-chaining),
 * because that is what a user can act on; every other call of a dissolved
 * batch gets below-min-batch.
 *
 * A branchy region (several blocks with conditional jumps on call results)
 * is planned by plan_branchy() below instead: one batch issued at the
 * region's first call, slots in block order, each producer followed by its
 * word copies, forward jumps per result class (see "branchy" below).
 */
#include "sysbatch/core.h"

#include <stdlib.h>
#include <string.h>

/* glibc's __OPEN_NEEDS_MODE: the mode argument is read only for these. */
#define OPEN_O_CREAT 0100
#define OPEN_O_TMPFILE_BIT 020000000

void sb_options_default(struct sb_options *opts)
{
    opts->min_batch = 2;
    opts->max_slots = 64;
    opts->allow_blocking = true;
    opts->series_yield = false;
}

static const char why_yield_queue[] =
    "libtock-c's yield() runs a task queued with tock_enqueue instead of "
    "trapping when one is queued, which a series frame cannot do (the "
    "tock-yield option batches it when the app's yield is the bare trap)";

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

/* ------------------------------------------------------------- grouping */

struct refusal {
    enum sb_why why;
    const char *detail;
};

struct planner {
    const struct sb_region *region;
    struct sb_options opts;
    int ncalls;
    const struct sb_call_event **calls; /* by call index */
    int *event_of;                      /* call index -> event index */
    const struct sb_syscall **raw_row;  /* the row each call issues */
    struct refusal *alone;              /* not batchable even alone */
    struct refusal *join;               /* why it could not join the batch
                                           before it */
    bool branchy;                       /* planning a branchy region: every
                                           RESULT/MEMORY operand of an
                                           included call (but the entry) is
                                           chained */
};

/* Libc argument index feeding raw argument `i` of call `c`, or -1 when the
 * raw argument is not a libc argument. */
static int libc_arg_of_raw(const struct planner *pl, int c, int i)
{
    const struct sb_call_event *ev = pl->calls[c];
    if (sb_call_is_raw_syscall(ev))
        return i + 1;
    const struct sb_raw_arg *ra = &pl->raw_row[c]->raw_args[i];
    return ra->from == SB_RAW_LIBC_ARG ? ra->index : -1;
}

static struct refusal refuse(enum sb_why why, const char *detail)
{
    struct refusal r = {why, detail};
    return r;
}

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
    if ((row->flags & SB_ROW_SERIES_LAST) && !pl->opts.series_yield)
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

static const char why_narrowed[] =
    "a conversion narrows the result it chains from, and a chain copies the "
    "whole result";

/* Does a conversion between the producer and this use change a value the
 * producer may hand on? */
static bool narrowing_changes(const struct planner *pl,
                              const struct sb_operand *op)
{
    return op->kind == SB_OPND_RESULT &&
           !sb_conversion_keeps_result(pl->region->abi, pl->calls[op->call],
                                       op->narrowest_bits);
}

/* An operand of call c as seen from a batch whose first call is `first`. */
enum operand_use { USE_DIRECT, USE_CHAIN, USE_LOCAL };

static enum operand_use operand_use(const struct planner *pl,
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

static int chains_needed(const struct planner *pl, int c, int first);

static const char *const precheck_detail[] = {
    [SB_PRE_NONE] = NULL,
    [SB_PRE_FD_NONNEG] = "glibc returns EBADF for a negative fd without "
                         "entering the kernel; the fd is neither a "
                         "non-negative constant nor chained from this batch",
    [SB_PRE_NONNULL] = "glibc returns EINVAL for a NULL path without "
                       "entering the kernel; the path is not a non-NULL "
                       "constant",
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

/* Would call c, in a batch starting at `first`, reach the kernel exactly
 * when the original call did?  Only rows with a glibc precheck can fail. */
static struct refusal check_precheck(const struct planner *pl, int c,
                                     int first)
{
    const struct sb_call_event *ev = pl->calls[c];
    const struct sb_syscall *row = ev->row;
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
            } else if (op->kind == SB_OPND_RESULT && op->call >= first &&
                       op->call < c) {
                /* Chained: the producer stops the batch when it fails, and
                 * an int-returning -1/errno call succeeds with 0..INT_MAX. */
                const struct sb_call_event *p = pl->calls[op->call];
                ok = sb_call_ret_conv(pl->region->abi, p) == SB_RET_ERRNO &&
                     sb_call_result_bits(pl->region->abi, p) == 32;
            }
            break;
        case SB_PRE_NONNULL:
            ok = op->kind == SB_OPND_CONST && op->value != 0;
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
    struct refusal pre = check_precheck(pl, c, first);
    if (pre.why != SB_WHY_NONE)
        return pre;
    if (nslots + 1 + chains_needed(pl, c, first) > pl->opts.max_slots)
        return refuse(SB_WHY_BATCH_FULL, NULL);
    return refuse(SB_WHY_NONE, NULL);
}

/* ------------------------------------------------------------- encoding */

/* Where a chained raw argument comes from: the result of call `call`, or
 * (arg >= 0) the word at offset `offset` of its libc argument `arg`. */
struct chain_src {
    int call;
    int arg;
    long offset;
};

static void fill_raw_arg(const struct planner *pl, int c, int first, int i,
                         struct sb_fill_arg *out, struct chain_src *src)
{
    const struct sb_call_event *ev = pl->calls[c];
    const struct sb_syscall *row = pl->raw_row[c];
    bool raw_form = sb_call_is_raw_syscall(ev);
    src->call = src->arg = -1;
    src->offset = 0;
    memset(out, 0, sizeof *out);

    if (!raw_form) {
        const struct sb_raw_arg *ra = &row->raw_args[i];
        if (ra->from == SB_RAW_CONST) {
            out->fill = SB_FILL_CONST;
            out->value = ra->value;
            return;
        }
        if (ra->from == SB_RAW_EMPTY_STRING) {
            out->fill = SB_FILL_EMPTY_STRING;
            return;
        }
    }
    int k = libc_arg_of_raw(pl, c, i);
    if (k >= ev->nargs) { /* missing variadic argument */
        out->fill = SB_FILL_CONST;
        return;
    }
    /* glibc reads open's mode only when the flags need it and passes 0
     * otherwise; with constant flags the plan can say the same. */
    if (!raw_form && (row->flags & SB_ROW_OPEN_MODE) &&
        k == row->libc_argc - 1) {
        const struct sb_operand *flags = &ev->args[k - 1];
        if (flags->kind == SB_OPND_CONST &&
            !(flags->value & OPEN_O_CREAT) &&
            !(flags->value & OPEN_O_TMPFILE_BIT)) {
            out->fill = SB_FILL_CONST;
            return;
        }
    }
    const struct sb_operand *op = &ev->args[k];
    if (op->kind == SB_OPND_CONST) {
        out->fill = SB_FILL_CONST;
        out->value = op->value;
    } else if (c != first &&
               (pl->branchy ? (op->kind == SB_OPND_RESULT ||
                               op->kind == SB_OPND_MEMORY)
                            : operand_use(pl, op, first) == USE_CHAIN)) {
        out->fill = SB_FILL_CHAINED;
        out->index = (int8_t)k; /* what verify compares the copy with */
        src->call = op->call;
        if (op->kind == SB_OPND_MEMORY) {
            src->arg = op->arg;
            src->offset = op->value;
        }
    } else {
        out->fill = SB_FILL_LIBC_ARG;
        out->index = (int8_t)k;
    }
}

/* Copy slots call c needs inside a batch starting at `first`: one per raw
 * argument that fill_raw_arg() makes CHAINED (an argument glibc drops, such
 * as open's mode without O_CREAT, needs none). */
static int chains_needed(const struct planner *pl, int c, int first)
{
    if (c == first)
        return 0;
    int n = 0;
    for (int i = 0; i < pl->raw_row[c]->raw_argc; i++) {
        struct sb_fill_arg fill;
        struct chain_src src;
        fill_raw_arg(pl, c, first, i, &fill, &src);
        if (src.call >= 0)
            n++;
    }
    return n;
}

static void init_slot(struct sb_slot_plan *s)
{
    memset(s, 0, sizeof *s);
    s->call = -1;
    s->copy_src_slot = s->copy_dst_slot = s->copy_dst_arg = -1;
    s->copy_src_arg = -1;
}

/* Phase 3: slots for the calls first..last. */
static int encode_batch(const struct planner *pl, struct sb_batch_plan *b,
                        struct sb_plan *plan, int batch_index)
{
    int nslots = 0;
    for (int c = b->first_call; c <= b->last_call; c++)
        nslots += 1 + chains_needed(pl, c, b->first_call);
    b->slots = calloc((size_t)nslots, sizeof *b->slots);
    if (!b->slots)
        return -1;
    b->nslots = nslots;
    b->ncalls = b->last_call - b->first_call + 1;
    b->nchains = nslots - b->ncalls;

    int s = 0;
    for (int c = b->first_call; c <= b->last_call; c++) {
        const struct sb_syscall *row = pl->raw_row[c];
        struct sb_slot_plan call;
        init_slot(&call);
        call.kind = SB_SLOT_CALL;
        call.call = c;
        call.nr = row->nr;
        call.argc = row->raw_argc;
        struct chain_src producers[SB_MAX_ARGS];
        for (int i = 0; i < row->raw_argc; i++)
            fill_raw_arg(pl, c, b->first_call, i, &call.args[i],
                         &producers[i]);
        int ncopies = chains_needed(pl, c, b->first_call);
        int call_slot = s + ncopies;
        for (int i = 0; i < row->raw_argc; i++) {
            if (producers[i].call < 0)
                continue;
            int src = plan->calls[producers[i].call].slot;
            struct sb_slot_plan *copy = &b->slots[s++];
            init_slot(copy);
            copy->kind = SB_SLOT_COPY;
            copy->call = c;
            copy->nr = -2;
            copy->argc = 2;
            copy->copy_src_slot = src;
            copy->copy_dst_slot = call_slot;
            copy->copy_dst_arg = i;
            copy->copy_src_arg = producers[i].arg;
            copy->copy_src_offset = producers[i].offset;
            /* A failed producer must not hand -errno to its consumer: stop,
             * and the consumer runs unbatched with libc's -1. */
            b->slots[src].jump_fail = -1;
        }
        /* Tock series run with the stop policy: after a failed call the
         * calls behind it are left to their own call sites, which is right
         * whether or not the code tests the result before going on. */
        if (pl->region->abi == SB_ABI_TOCK)
            call.jump_fail = -1;
        b->slots[s] = call;
        plan->calls[c].batch = batch_index;
        plan->calls[c].slot = s;
        s++;
    }
    return 0;
}

/* ------------------------------------------------------------- branchy
 *
 * A region of several blocks (sb_region.nblocks > 0) becomes at most one
 * batch, issued where the region's first call was: a batch has one issue
 * point, and every block of the region is reached from the entry block
 * only, so one batch is all a single-entry region can have.  The kernel
 * then follows, slot by slot, the path the original code takes afterwards
 * (branches depend only on the sign class of a call's raw result), and
 * every call site tests its own slot against SYSBATCH_NOT_RUN.
 *
 * Walk (blocks in their topological order): a block is live when it is the
 * entry or an edge from a live block that was not cut leads to it.  Its
 * conflict state is the OR of the states its live predecessors ended with.
 * The first call that is not included cuts its block: the batch stops there
 * on that path and the block's terminator is not followed.  Operands chain
 * only from included calls that dominate the consumer in the live DAG.
 *
 * Layout: slots follow live blocks in order; each producer's word copies
 * follow it directly (it stops on failure and falls into them on zero and
 * positive results), so the slot after its copies must be where both its
 * zero and positive outcomes lead.  When it is not, the consumers that need
 * the chain are refused and the walk is repeated (a fixpoint: the refused
 * set only grows).
 */

static const char *const branchy_malformed[] = {
    "branchy region: the block count is outside 1..64 or the blocks are "
    "missing",
    "branchy region: block event ranges are not contiguous and in order from "
    "event 0 (every block starts where the one before it ended)",
    "branchy region: the blocks do not cover every event",
    "branchy region: a block has an unknown terminator kind",
    "branchy region: a goto's target is not a later block or exit",
    "branchy region: a conditional branch's target is not a later block or "
    "exit",
    "branchy region: a conditional branch's call is not the last call of its "
    "block",
    "branchy region: the entry block has no call (the batch is issued at the "
    "region's first call)",
};

/* The first structural error of a branchy region, or NULL. */
static const char *branchy_validate(const struct planner *pl)
{
    const struct sb_region *r = pl->region;
    int nb = r->nblocks;
    if (nb < 1 || nb > SB_MAX_REGION_BLOCKS || !r->blocks)
        return branchy_malformed[0];
    int nevents = r->events ? r->nevents : 0;
    int next = 0;
    for (int b = 0; b < nb; b++) {
        const struct sb_block *bl = &r->blocks[b];
        if (bl->first_event != next || bl->nevents < 0 ||
            bl->nevents > nevents - next)
            return branchy_malformed[1];
        next += bl->nevents;
    }
    if (next != nevents)
        return branchy_malformed[2];
    int call = 0;
    for (int b = 0; b < nb; b++) {
        const struct sb_block *bl = &r->blocks[b];
        int last_call = -1;
        for (int e = bl->first_event; e < bl->first_event + bl->nevents; e++)
            if (r->events[e].kind == SB_EV_CALL)
                last_call = call++;
        if (b == 0 && last_call < 0)
            return branchy_malformed[7];
        int nsucc;
        switch (bl->term) {
        case SB_TERM_EXIT:
            nsucc = 0;
            break;
        case SB_TERM_GOTO:
            nsucc = 1;
            break;
        case SB_TERM_COND:
            nsucc = 3;
            if (last_call < 0 || bl->cond_call != last_call)
                return branchy_malformed[6];
            break;
        default:
            return branchy_malformed[3];
        }
        for (int k = 0; k < nsucc; k++) {
            int t = bl->succ[k];
            if (t != SB_BLOCK_EXIT && (t <= b || t >= nb))
                return branchy_malformed[nsucc == 1 ? 4 : 5];
        }
    }
    return NULL;
}

/* Code crossed since the batch point, on some live path. */
struct cstate {
    uint64_t mask; /* calls some crossed code may not move across */
    bool barrier;
    const char *barrier_why;
    const char *why[SB_MAX_REGION_CALLS]; /* the first code naming call j */
};

static void cstate_add_code(struct cstate *st, const struct sb_code_event *c)
{
    if (c->barrier && !st->barrier) {
        st->barrier = true;
        st->barrier_why = c->why;
    }
    for (int j = 0; j < SB_MAX_REGION_CALLS; j++)
        if (((c->conflicts >> j) & 1) && !((st->mask >> j) & 1))
            st->why[j] = c->why;
    st->mask |= c->conflicts;
}

static void cstate_merge(struct cstate *into, const struct cstate *from)
{
    struct sb_code_event as_code = {from->barrier, 0, from->barrier_why};
    cstate_add_code(into, &as_code);
    for (int j = 0; j < SB_MAX_REGION_CALLS; j++)
        if (((from->mask >> j) & 1) && !((into->mask >> j) & 1))
            into->why[j] = from->why[j];
    into->mask |= from->mask;
}

#define SLOT_END (-1) /* resolve(): the path leaves the batch */

struct branchy {
    struct planner *pl;
    const struct sb_block *blocks;
    int nblocks;
    int *block_of;            /* call -> block */
    struct refusal *forced;   /* a consumer refused by the layout */
    /* result of one walk */
    bool live[SB_MAX_REGION_BLOCKS], cut[SB_MAX_REGION_BLOCKS];
    uint64_t dom[SB_MAX_REGION_BLOCKS]; /* blocks dominating b (live DAG) */
    struct cstate *in;        /* per block: state on entry */
    bool *included;
    struct refusal *why;
    int nincluded;
    /* layout */
    int *slot_of;             /* call -> slot, -1 */
    int *ncopies;             /* producer call -> copies following it */
    int first_slot[SB_MAX_REGION_BLOCKS], last_inc[SB_MAX_REGION_BLOCKS];
    int nslots;
};

static bool branchy_dominates(const struct branchy *br, int p, int j)
{
    int bp = br->block_of[p], bj = br->block_of[j];
    if (bp == bj)
        return p < j;
    return (br->dom[bj] >> bp) & 1;
}

/* May call j (not the entry) run in the kernel at its place on the path,
 * with `st` crossed since the batch point and `nslots` slots used? */
static struct refusal branchy_check(const struct branchy *br, int j,
                                    const struct cstate *st, int nslots)
{
    const struct planner *pl = br->pl;
    if (st->barrier)
        return refuse(SB_WHY_BARRIER, st->barrier_why);
    if (j < SB_MAX_REGION_CALLS && (st->mask >> j) & 1)
        return refuse(SB_WHY_CODE_CONFLICT, st->why[j]);
    if (br->forced[j].why != SB_WHY_NONE)
        return br->forced[j];
    const struct sb_call_event *ev = pl->calls[j];
    bool chained = false;
    for (int k = 0; k < ev->nargs; k++) {
        if (sb_call_is_raw_syscall(ev) && k == 0)
            continue; /* NR: a checked constant */
        const struct sb_operand *op = &ev->args[k];
        switch (op->kind) {
        case SB_OPND_CONST:
        case SB_OPND_AVAILABLE:
            break;
        case SB_OPND_RESULT:
            if (!br->included[op->call])
                return refuse(SB_WHY_ARG_FROM_UNBATCHED, NULL);
            if (!branchy_dominates(br, op->call, j))
                return refuse(SB_WHY_ARG_COMPUTED,
                              "the call producing it does not run on every "
                              "path to this call");
            if (narrowing_changes(pl, op))
                return refuse(SB_WHY_ARG_COMPUTED, why_narrowed);
            chained = true;
            break;
        case SB_OPND_MEMORY: {
            /* The writer ran before the batch point (it is not in the
             * batch): the load runs after it, like any computed value. */
            if (!br->included[op->call])
                return refuse(SB_WHY_ARG_COMPUTED, NULL);
            if (!branchy_dominates(br, op->call, j))
                return refuse(SB_WHY_ARG_COMPUTED,
                              "the call writing it does not run on every path "
                              "to this call");
            /* A word copy reads the buffer at an address known when the
             * batch is built. */
            const struct sb_operand *buf = &pl->calls[op->call]->args[op->arg];
            if (op->call != 0 && buf->kind != SB_OPND_CONST &&
                buf->kind != SB_OPND_AVAILABLE)
                return refuse(SB_WHY_ARG_COMPUTED, NULL);
            chained = true;
            break;
        }
        default:
            return refuse(SB_WHY_ARG_COMPUTED, NULL);
        }
    }
    if (chained && pl->region->abi != SB_ABI_LINUX_X86_64)
        return refuse(SB_WHY_NO_CHAINING, NULL);
    /* Operands are checked: a RESULT fd is chained from an included
     * dominating call, which is what check_precheck's "in the batch" means
     * with the batch starting at call 0. */
    struct refusal pre = check_precheck(pl, j, 0);
    if (pre.why != SB_WHY_NONE)
        return pre;
    if (nslots + 1 + chains_needed(pl, j, 0) > pl->opts.max_slots)
        return refuse(SB_WHY_BATCH_FULL, NULL);
    return refuse(SB_WHY_NONE, NULL);
}

/* One walk over the blocks with the current forced refusals. */
static void branchy_walk(struct branchy *br)
{
    const struct planner *pl = br->pl;
    const struct sb_event *events = pl->region->events;
    memset(br->live, 0, sizeof br->live);
    memset(br->cut, 0, sizeof br->cut);
    memset(br->dom, 0, sizeof br->dom);
    memset(br->in, 0, (size_t)br->nblocks * sizeof *br->in);
    br->nincluded = 0;
    br->live[0] = true;
    int nslots = 0;
    int c = 0;
    for (int b = 0; b < br->nblocks; b++) {
        const struct sb_block *bl = &br->blocks[b];
        br->dom[b] |= (uint64_t)1 << b;
        struct cstate st = br->in[b];
        bool started = b != 0; /* code before the entry call does not matter */
        for (int e = bl->first_event; e < bl->first_event + bl->nevents; e++) {
            if (events[e].kind == SB_EV_CODE) {
                if (started && br->live[b] && !br->cut[b])
                    cstate_add_code(&st, &events[e].u.code);
                continue;
            }
            int j = c++;
            br->included[j] = false;
            if (pl->alone[j].why != SB_WHY_NONE) {
                br->why[j] = pl->alone[j];
            } else if (!br->live[b] || br->cut[b]) {
                br->why[j] = refuse(SB_WHY_NOT_REACHED, NULL);
                continue;
            } else if (j == 0) {
                /* The entry stands where the batch is issued: as the first
                 * call of a straight-line batch. */
                br->why[j] = check_precheck(pl, 0, 0);
            } else {
                br->why[j] = branchy_check(br, j, &st, nslots);
            }
            started = true;
            if (!br->live[b] || br->cut[b])
                continue;
            if (br->why[j].why != SB_WHY_NONE) {
                br->cut[b] = true;
                continue;
            }
            br->included[j] = true;
            br->nincluded++;
            nslots += 1 + chains_needed(pl, j, 0);
        }
        if (!br->live[b] || br->cut[b])
            continue;
        int nsucc = bl->term == SB_TERM_GOTO ? 1
                    : bl->term == SB_TERM_COND ? 3 : 0;
        for (int k = 0; k < nsucc; k++) {
            int t = bl->succ[k];
            if (t == SB_BLOCK_EXIT)
                continue;
            if (!br->live[t]) {
                br->live[t] = true;
                br->dom[t] = br->dom[b];
                br->in[t] = st;
            } else {
                br->dom[t] &= br->dom[b];
                cstate_merge(&br->in[t], &st);
            }
        }
    }
}

/* The slot where a path entering block t continues, or SLOT_END. */
static int branchy_resolve(const struct branchy *br, int t)
{
    while (t != SB_BLOCK_EXIT && br->live[t]) {
        if (br->first_slot[t] >= 0)
            return br->first_slot[t];
        if (br->cut[t] || br->blocks[t].term != SB_TERM_GOTO)
            return SLOT_END;
        t = br->blocks[t].succ[0]; /* a call-free block: follow its goto */
    }
    return SLOT_END;
}

/* Can a result of this sign class occur at all under the convention? */
static bool class_possible(enum sb_ret_conv conv, int k)
{
    switch (conv) {
    case SB_RET_MAP_FAILED:
        return k != 1;
    case SB_RET_POSITIVE_ERROR:
        return k != 2;
    case SB_RET_NEVER_FAILS:
        return k != 0;
    default:
        return true;
    }
}

/* Where each outcome (fail, zero, pos) of included call c leads: a slot
 * or SLOT_END, ignoring any chain. */
static void branchy_targets(const struct branchy *br, int c, int out[3])
{
    int b = br->block_of[c];
    const struct sb_block *bl = &br->blocks[b];
    out[0] = out[1] = out[2] = SLOT_END;
    if (c != br->last_inc[b]) {
        /* The next included call of the block, after c's copies. */
        out[0] = out[1] = out[2] = br->slot_of[c] + 1 + br->ncopies[c];
        return;
    }
    if (br->cut[b])
        return;
    if (bl->term == SB_TERM_GOTO) {
        out[0] = out[1] = out[2] = branchy_resolve(br, bl->succ[0]);
    } else if (bl->term == SB_TERM_COND) {
        for (int k = 0; k < 3; k++)
            out[k] = branchy_resolve(br, bl->succ[k]);
    }
}

/* Assign slots; returns the number of consumers newly forced out because
 * their producer's zero/pos outcomes do not continue after its copies. */
static int branchy_layout(struct branchy *br)
{
    const struct planner *pl = br->pl;
    int n = pl->ncalls;
    for (int c = 0; c < n; c++) {
        br->slot_of[c] = -1;
        br->ncopies[c] = 0;
    }
    for (int c = 0; c < n; c++) {
        if (!br->included[c])
            continue;
        for (int i = 0; i < pl->raw_row[c]->raw_argc; i++) {
            struct sb_fill_arg fill;
            struct chain_src src;
            fill_raw_arg(pl, c, 0, i, &fill, &src);
            if (src.call >= 0)
                br->ncopies[src.call]++;
        }
    }
    int s = 0;
    for (int b = 0; b < br->nblocks; b++)
        br->first_slot[b] = br->last_inc[b] = -1;
    for (int c = 0; c < n; c++) {
        if (!br->included[c])
            continue;
        int b = br->block_of[c];
        if (br->first_slot[b] < 0)
            br->first_slot[b] = s;
        br->last_inc[b] = c;
        br->slot_of[c] = s;
        s += 1 + br->ncopies[c];
    }
    br->nslots = s;

    int forced = 0;
    for (int p = 0; p < n; p++) {
        if (!br->included[p] || br->ncopies[p] == 0)
            continue;
        int after = br->slot_of[p] + 1 + br->ncopies[p];
        if (after == s)
            after = SLOT_END;
        int t[3];
        branchy_targets(br, p, t);
        enum sb_ret_conv conv = sb_call_ret_conv(pl->region->abi, pl->calls[p]);
        bool ok = true;
        for (int k = 1; k < 3; k++)
            if (class_possible(conv, k) && t[k] != after)
                ok = false;
        if (ok)
            continue;
        for (int c = p + 1; c < n; c++) {
            if (!br->included[c])
                continue;
            for (int i = 0; i < pl->raw_row[c]->raw_argc; i++) {
                struct sb_fill_arg fill;
                struct chain_src src;
                fill_raw_arg(pl, c, 0, i, &fill, &src);
                if (src.call == p && br->forced[c].why == SB_WHY_NONE) {
                    br->forced[c] = refuse(
                        SB_WHY_ARG_COMPUTED,
                        "it is chained from a call whose zero and positive "
                        "results do not both continue at the slot after its "
                        "word copies (copies are reached only by "
                        "fall-through)");
                    forced++;
                }
            }
        }
    }
    return forced;
}

static short branchy_offset(int from, int target, int nslots)
{
    if (target == SLOT_END)
        return from + 1 == nslots ? 0 : -1;
    return (short)(target - from - 1);
}

static int branchy_encode(struct branchy *br, struct sb_plan *plan)
{
    const struct planner *pl = br->pl;
    struct sb_batch_plan *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    b->slots = calloc((size_t)br->nslots, sizeof *b->slots);
    if (!b->slots) {
        free(b);
        return -1;
    }
    plan->batches = b;
    plan->nbatches = 1;
    b->nslots = br->nslots;
    b->ncalls = br->nincluded;
    b->nchains = br->nslots - br->nincluded;
    b->first_call = 0;
    b->end_call = -1;
    b->end_why = SB_WHY_NONE;
    for (int c = 0; c < pl->ncalls; c++) {
        if (!br->included[c])
            continue;
        b->last_call = c;
        int s = br->slot_of[c];
        struct sb_slot_plan *call = &b->slots[s];
        init_slot(call);
        call->kind = SB_SLOT_CALL;
        call->call = c;
        call->nr = pl->raw_row[c]->nr;
        call->argc = pl->raw_row[c]->raw_argc;
        struct chain_src src[SB_MAX_ARGS];
        for (int i = 0; i < call->argc; i++)
            fill_raw_arg(pl, c, 0, i, &call->args[i], &src[i]);
        plan->calls[c].batch = 0;
        plan->calls[c].slot = s;
        plan->calls[c].why = SB_WHY_NONE;
        plan->calls[c].detail = NULL;
        if (br->ncopies[c]) {
            call->jump_fail = -1; /* zero/pos fall into the copies */
        } else {
            int t[3];
            branchy_targets(br, c, t);
            call->jump_fail = branchy_offset(s, t[0], br->nslots);
            call->jump_zero = branchy_offset(s, t[1], br->nslots);
            call->jump_pos = branchy_offset(s, t[2], br->nslots);
            if (call->jump_fail || call->jump_zero || call->jump_pos)
                b->branchy = true;
        }
    }
    /* Copies follow their producer, in consumer order, then argument order. */
    int *next_copy = calloc((size_t)pl->ncalls, sizeof *next_copy);
    if (!next_copy)
        return -1;
    for (int c = 0; c < pl->ncalls; c++) {
        if (!br->included[c])
            continue;
        for (int i = 0; i < pl->raw_row[c]->raw_argc; i++) {
            struct sb_fill_arg fill;
            struct chain_src src;
            fill_raw_arg(pl, c, 0, i, &fill, &src);
            if (src.call < 0)
                continue;
            int from = br->slot_of[src.call];
            struct sb_slot_plan *copy =
                &b->slots[from + 1 + next_copy[src.call]++];
            init_slot(copy);
            copy->kind = SB_SLOT_COPY;
            copy->call = c;
            copy->nr = -2;
            copy->argc = 2;
            copy->copy_src_slot = from;
            copy->copy_dst_slot = br->slot_of[c];
            copy->copy_dst_arg = i;
            copy->copy_src_arg = src.arg;
            copy->copy_src_offset = src.offset;
        }
    }
    free(next_copy);
    return 0;
}

static int plan_branchy(struct planner *pl, struct sb_plan *plan)
{
    int n = pl->ncalls;
    for (int c = 0; c < n; c++) {
        plan->calls[c].batch = -1;
        plan->calls[c].slot = -1;
    }
    const char *malformed = branchy_validate(pl);
    if (malformed || pl->region->abi != SB_ABI_LINUX_X86_64) {
        for (int c = 0; c < n; c++) {
            plan->calls[c].why =
                malformed ? SB_WHY_FRONT_END : SB_WHY_WRONG_ABI;
            plan->calls[c].detail =
                malformed ? malformed
                          : "the Tock series call only stops or continues "
                            "after a slot, so a branchy region is not "
                            "batched (the front end plans each block "
                            "straight-line)";
        }
        return 0;
    }

    struct branchy br;
    memset(&br, 0, sizeof br);
    br.pl = pl;
    br.blocks = pl->region->blocks;
    br.nblocks = pl->region->nblocks;
    pl->branchy = true;
    size_t un = (size_t)n;
    br.block_of = calloc(un, sizeof *br.block_of);
    br.forced = calloc(un, sizeof *br.forced);
    br.in = calloc((size_t)br.nblocks, sizeof *br.in);
    br.included = calloc(un, sizeof *br.included);
    br.why = calloc(un, sizeof *br.why);
    br.slot_of = calloc(un, sizeof *br.slot_of);
    br.ncopies = calloc(un, sizeof *br.ncopies);
    int rc = -1;
    if (!br.block_of || !br.forced || !br.in || !br.included || !br.why ||
        !br.slot_of || !br.ncopies)
        goto out;
    for (int b = 0, c = 0; b < br.nblocks; b++)
        for (int e = br.blocks[b].first_event;
             e < br.blocks[b].first_event + br.blocks[b].nevents; e++)
            if (pl->region->events[e].kind == SB_EV_CALL)
                br.block_of[c++] = b;

    /* Each round refuses at least one more consumer, so at most n rounds. */
    for (;;) {
        branchy_walk(&br);
        if (!br.included[0] || branchy_layout(&br) == 0)
            break;
    }
    rc = 0;
    bool batch = br.included[0] && br.nincluded >= pl->opts.min_batch;
    for (int c = 0; c < n; c++) {
        if (br.included[c] && !batch)
            br.why[c] = refuse(SB_WHY_BELOW_MIN_BATCH, NULL);
        plan->calls[c].why = br.why[c].why;
        plan->calls[c].detail = br.why[c].detail;
    }
    if (batch)
        rc = branchy_encode(&br, plan);
out:
    free(br.block_of);
    free(br.forced);
    free(br.in);
    free(br.included);
    free(br.why);
    free(br.slot_of);
    free(br.ncopies);
    return rc;
}

/* ------------------------------------------------------------- conditions
 *
 * What the call site sees per raw sign class, as a closed range (see
 * core.h): a predicate decides a class when it holds for both ends of the
 * range (or for neither).  Within one class every value has the same sign,
 * so reading the values as unsigned keeps their order and the ends still
 * decide the ordered compares; == and != look at the range directly. */
static bool cmp_holds(enum sb_cmp op, long v, long k, int bits)
{
    uint64_t uv = bits == 32 ? (uint32_t)v : (uint64_t)v;
    uint64_t uk = bits == 32 ? (uint32_t)k : (uint64_t)k;
    switch (op) {
    case SB_CMP_EQ: return v == k;
    case SB_CMP_NE: return v != k;
    case SB_CMP_SLT: return v < k;
    case SB_CMP_SLE: return v <= k;
    case SB_CMP_SGT: return v > k;
    case SB_CMP_SGE: return v >= k;
    case SB_CMP_ULT: return uv < uk;
    case SB_CMP_ULE: return uv <= uk;
    case SB_CMP_UGT: return uv > uk;
    case SB_CMP_UGE: return uv >= uk;
    }
    return false;
}

int sb_cond_classes(enum sb_ret_conv conv, int bits, enum sb_cmp op,
                    long constant)
{
    if ((bits != 32 && bits != 64) || (int)op < SB_CMP_EQ || op > SB_CMP_UGE)
        return -1;
    long max = bits == 32 ? INT32_MAX : INT64_MAX;
    /* lo > hi: the class cannot occur under this convention. */
    long lo[3] = {1, 1, 1}, hi[3] = {0, 0, 0};
    switch (conv) {
    case SB_RET_ERRNO:
        lo[0] = hi[0] = -1;
        lo[1] = hi[1] = 0;
        lo[2] = 1, hi[2] = max;
        break;
    case SB_RET_MAP_FAILED:
        lo[0] = hi[0] = -1;
        lo[2] = 1, hi[2] = max;
        break;
    case SB_RET_POSITIVE_ERROR:
        lo[0] = 1, hi[0] = 4095;
        lo[1] = hi[1] = 0;
        break;
    case SB_RET_NEVER_FAILS:
        lo[1] = hi[1] = 0;
        lo[2] = 1, hi[2] = max;
        break;
    default:
        return -1;
    }
    int mask = 0;
    for (int k = 0; k < 3; k++) {
        if (lo[k] > hi[k])
            continue;
        bool all, none;
        if (op == SB_CMP_EQ || op == SB_CMP_NE) {
            /* Equality is decided at the result's width: for 32 bits the
             * constant is read as an int (4294967295 and -1 are the same
             * bit pattern, as in the IR compare both compilers see). */
            long kw = bits == 32 ? (long)(int32_t)(uint32_t)constant
                                 : constant;
            bool in = lo[k] <= kw && kw <= hi[k];
            bool single = lo[k] == hi[k];
            all = in && single;
            none = !in;
            if (op == SB_CMP_NE) {
                bool t = all;
                all = none;
                none = t;
            }
        } else {
            bool a = cmp_holds(op, lo[k], constant, bits);
            bool b = cmp_holds(op, hi[k], constant, bits);
            all = a && b;
            none = !a && !b;
        }
        if (!all && !none)
            return -1;
        if (all)
            mask |= 1 << k;
    }
    return mask;
}

/* ------------------------------------------------------------- driver */

void sb_plan_free(struct sb_plan *plan)
{
    if (!plan)
        return;
    for (int b = 0; b < plan->nbatches; b++)
        free(plan->batches[b].slots);
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
}

int sb_plan_region(const struct sb_region *region,
                   const struct sb_options *opts, struct sb_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    struct planner pl;
    memset(&pl, 0, sizeof pl);
    pl.region = region;
    if (opts)
        pl.opts = *opts;
    else
        sb_options_default(&pl.opts);
    if (pl.opts.min_batch < 1)
        pl.opts.min_batch = 1;
    if (pl.opts.max_slots < 1)
        pl.opts.max_slots = 1;

    int nevents = region->events ? region->nevents : 0;
    for (int e = 0; e < nevents; e++)
        if (region->events[e].kind == SB_EV_CALL)
            pl.ncalls++;
    if (pl.ncalls == 0)
        return 0;

    size_t n = (size_t)pl.ncalls;
    pl.calls = calloc(n, sizeof *pl.calls);
    pl.event_of = calloc(n, sizeof *pl.event_of);
    pl.raw_row = calloc(n, sizeof *pl.raw_row);
    pl.alone = calloc(n, sizeof *pl.alone);
    pl.join = calloc(n, sizeof *pl.join);
    plan->calls = calloc(n, sizeof *plan->calls);
    /* At most one batch per call; trimmed to the real count below. */
    struct sb_batch_plan *batches = calloc(n, sizeof *batches);
    if (!pl.calls || !pl.event_of || !pl.raw_row || !pl.alone || !pl.join ||
        !plan->calls || !batches) {
        free(batches);
        planner_free(&pl);
        sb_plan_free(plan);
        return -1;
    }
    plan->ncalls = pl.ncalls;

    for (int e = 0, c = 0; e < nevents; e++) {
        if (region->events[e].kind != SB_EV_CALL)
            continue;
        pl.calls[c] = &region->events[e].u.call;
        pl.event_of[c] = e;
        c++;
    }
    for (int c = 0; c < pl.ncalls; c++) {
        pl.alone[c] = check_alone(&pl, c);
        if (pl.alone[c].why == SB_WHY_NONE)
            pl.raw_row[c] = sb_call_raw_row(region->abi, pl.calls[c]);
    }

    if (region->nblocks != 0) {
        free(batches);
        int rc = plan_branchy(&pl, plan);
        planner_free(&pl);
        if (rc != 0)
            sb_plan_free(plan);
        return rc;
    }

    /* Phase 2: greedy grouping. */
    int nbatches = 0;
    struct sb_batch_plan *open = NULL;
    int open_slots = 0;
    bool open_closed = false; /* its last call must stay last (yield) */
    for (int c = 0; c < pl.ncalls; c++) {
        struct sb_call_plan *cp = &plan->calls[c];
        cp->batch = -1;
        cp->slot = -1;
        if (open && open_closed) {
            open->end_call = c;
            open->end_why = SB_WHY_SERIES_ENDED;
            open->end_detail = NULL;
            open = NULL;
        }
        if (pl.alone[c].why != SB_WHY_NONE) {
            if (open) {
                open->end_call = c;
                open->end_why = pl.alone[c].why;
                open->end_detail = pl.alone[c].detail;
                open = NULL;
            }
            cp->why = pl.alone[c].why;
            cp->detail = pl.alone[c].detail;
            continue;
        }
        if (open) {
            struct refusal r = check_join(&pl, c, open->first_call, open_slots);
            if (r.why == SB_WHY_NONE) {
                open->last_call = c;
                open_slots += 1 + chains_needed(&pl, c, open->first_call);
                open_closed = (pl.raw_row[c]->flags & SB_ROW_SERIES_LAST) != 0;
                continue;
            }
            open->end_call = c;
            open->end_why = r.why;
            open->end_detail = r.detail;
            pl.join[c] = r;
            open = NULL;
        }
        /* As the first call of a batch nothing can be chained into it. */
        struct refusal pre = check_precheck(&pl, c, c);
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
        open_closed = (pl.raw_row[c]->flags & SB_ROW_SERIES_LAST) != 0;
    }

    /* Dissolve batches below the minimum; encode the rest. */
    int kept = 0;
    for (int b = 0; b < nbatches; b++) {
        struct sb_batch_plan bp = batches[b];
        int count = bp.last_call - bp.first_call + 1;
        if (count < pl.opts.min_batch) {
            for (int c = bp.first_call; c <= bp.last_call; c++) {
                struct sb_call_plan *cp = &plan->calls[c];
                if (c == bp.first_call && pl.join[c].why != SB_WHY_NONE) {
                    cp->why = pl.join[c].why;
                    cp->detail = pl.join[c].detail;
                } else {
                    cp->why = SB_WHY_BELOW_MIN_BATCH;
                    cp->detail = NULL;
                }
            }
            continue;
        }
        batches[kept] = bp;
        if (encode_batch(&pl, &batches[kept], plan, kept) != 0) {
            plan->batches = batches;
            plan->nbatches = kept;
            planner_free(&pl);
            sb_plan_free(plan);
            return -1;
        }
        kept++;
    }
    plan->batches = batches;
    plan->nbatches = kept;
    planner_free(&pl);
    return 0;
}

/* ------------------------------------------------------------- hazards
 *
 * The rules, and why each exists:
 *  - argc 0..6 and nr >= 0 for calls: the kernel's slot format.
 *  - an offset k >= 0 from slot i lands on i + 1 + k <= n: the c-blake
 *    module writes rets[target] without a bound check, so "jump to the end"
 *    must be exactly n (hazard (b)); a negative offset stops.
 *  - word copies are reached only by fall-through (hazard (a)): the module
 *    does not reset the offset after a copy, so the slot after the copy is
 *    chosen with the offset that led *into* the copy.  That offset must be
 *    0: no jump with k != 0 may land on a copy, the slot before a copy may
 *    only fall through (0) or stop (< 0) on each outcome, and the copy's own
 *    offsets are 0 so a correct kernel does the same thing.
 *  - a copy's source is an earlier call slot that runs on every path to the
 *    copy (dominance over the forward jump graph) and stops on failure, so
 *    a consumer never receives -errno or a stale word; its destination is a
 *    later call slot whose argument is marked CHAINED.
 *  - every CHAINED argument is written by a copy on every path to its slot.
 */

static const char *slot_hazard(const struct sb_batch_plan *b, int i,
                               const unsigned char *dom)
{
    int n = b->nslots;
    const struct sb_slot_plan *s = &b->slots[i];
    if (s->argc < 0 || s->argc > SB_MAX_ARGS)
        return "argc outside 0..6";
    short offs[3] = {s->jump_fail, s->jump_zero, s->jump_pos};
    for (int o = 0; o < 3; o++) {
        if (offs[o] < 0)
            continue;
        int target = i + 1 + offs[o];
        if (target > n)
            return "a jump lands past the end (must land exactly on n or stop)";
        if (target < n && b->slots[target].kind == SB_SLOT_COPY &&
            offs[o] != 0)
            return "a jump lands on a word copy (copies are reached only by "
                   "fall-through)";
    }
    if (s->kind == SB_SLOT_CALL) {
        if (s->nr < 0)
            return "a call slot has a negative syscall number";
        for (int a = 0; a < s->argc; a++) {
            if (s->args[a].fill != SB_FILL_CHAINED)
                continue;
            bool fed = false;
            for (int c = 0; c < i; c++)
                if (b->slots[c].kind == SB_SLOT_COPY &&
                    b->slots[c].copy_dst_slot == i &&
                    b->slots[c].copy_dst_arg == a && dom[(size_t)i * n + c])
                    fed = true;
            if (!fed)
                return "a chained argument is not written by a copy on every "
                       "path to its slot";
        }
        return NULL;
    }
    if (s->kind != SB_SLOT_COPY)
        return "unknown slot kind";
    if (s->nr != -2)
        return "a word copy does not have nr -2";
    if (s->jump_fail != 0 || s->jump_zero != 0 || s->jump_pos != 0)
        return "a word copy has a nonzero jump offset (the kernel keeps the "
               "previous slot's offset)";
    if (i == 0)
        return "a word copy is the first slot (its source cannot have run)";
    const struct sb_slot_plan *prev = &b->slots[i - 1];
    if (prev->jump_fail > 0 || prev->jump_zero > 0 || prev->jump_pos > 0)
        return "the slot before a word copy can jump over it (it must fall "
               "through or stop)";
    int src = s->copy_src_slot, dst = s->copy_dst_slot;
    if (src < 0 || src >= i)
        return "a word copy's source is not an earlier slot";
    if (b->slots[src].kind != SB_SLOT_CALL)
        return "a word copy's source is not a call slot";
    if (s->copy_src_arg >= SB_MAX_ARGS + 1)
        return "a word copy from memory names no libc argument";
    if (!dom[(size_t)i * n + src])
        return "a word copy's source does not run on every path to the copy";
    if (b->slots[src].jump_fail >= 0)
        return "a word copy's source does not stop on failure (-errno would "
               "reach the consumer)";
    if (dst <= i || dst >= n)
        return "a word copy's destination is not a later slot";
    if (b->slots[dst].kind != SB_SLOT_CALL)
        return "a word copy's destination is not a call slot";
    if (s->copy_dst_arg < 0 || s->copy_dst_arg >= b->slots[dst].argc ||
        b->slots[dst].args[s->copy_dst_arg].fill != SB_FILL_CHAINED)
        return "a word copy's destination argument is not a chained argument";
    return NULL;
}

const char *sb_plan_find_hazard(const struct sb_plan *plan, int *batch,
                                int *slot)
{
    *batch = -1;
    *slot = -1;
    for (int bi = 0; bi < plan->nbatches; bi++) {
        const struct sb_batch_plan *b = &plan->batches[bi];
        *batch = bi;
        int n = b->nslots;
        if (n < 1) {
            *slot = -1;
            return "an empty batch";
        }
        /* dom[i*n + j]: slot j runs on every path that reaches slot i.
         * Jumps go forward only, so one pass in slot order is enough. */
        unsigned char *dom = calloc((size_t)n * (size_t)n, 1);
        unsigned char *reached = calloc((size_t)n, 1);
        if (!dom || !reached) {
            free(dom);
            free(reached);
            return "out of memory while checking";
        }
        reached[0] = 1;
        for (int i = 0; i < n; i++) {
            if (!reached[i])
                continue;
            const struct sb_slot_plan *s = &b->slots[i];
            short offs[3] = {s->jump_fail, s->jump_zero, s->jump_pos};
            for (int o = 0; o < 3; o++) {
                if (offs[o] < 0)
                    continue;
                int t = i + 1 + offs[o];
                if (t >= n)
                    continue;
                unsigned char *dt = &dom[(size_t)t * n];
                const unsigned char *di = &dom[(size_t)i * n];
                if (!reached[t]) {
                    reached[t] = 1;
                    memcpy(dt, di, (size_t)n);
                    dt[i] = 1;
                } else {
                    for (int j = 0; j < n; j++)
                        dt[j] = dt[j] && (di[j] || j == i);
                }
            }
        }
        /* Nothing runs before an unreachable slot, so every claim about
         * its paths holds vacuously. */
        for (int i = 0; i < n; i++)
            if (!reached[i])
                memset(&dom[(size_t)i * n], 1, (size_t)n);
        const char *why = NULL;
        for (int i = 0; i < n && !why; i++) {
            why = slot_hazard(b, i, dom);
            *slot = i;
        }
        free(dom);
        free(reached);
        if (why)
            return why;
    }
    *batch = *slot = -1;
    return NULL;
}

const char *sb_plan_check_hazards(const struct sb_plan *plan)
{
    int batch, slot;
    return sb_plan_find_hazard(plan, &batch, &slot);
}
