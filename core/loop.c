/* sysbatch core: loop batching - decides whether the iterations of a loop
 * with one system-call site can be issued as groups of one batch each, and
 * encodes the slot every iteration fills (the rules are listed in
 * sysbatch/loop.h; this file is the only place that applies them).
 *
 * Before and after, for
 *     for (i = 0; i < n; i++) close(fds[i]);
 * the loop {call close a0=induction; every class next; guard always}
 * plans as
 *     loop call close: 16 iterations per batch
 *       slot: close(a0)
 * and both front ends fill that slot for up to 16 iterations at a time.
 */
#include "plan-internal.h"
#include "sysbatch/loop.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const class_names[3] = {"fail", "zero", "pos"};

/* Under a repeated guard a refill looks at this many iterations per slot:
 * enough that a guard true every few iterations still fills the group,
 * few enough that a rarely true one costs the inspector little more than
 * the loop's own tests (ending a refill early is always correct). */
enum { GUARD_SCAN_FACTOR = 4 };

/* Rule 6: the largest buffer built per slot (PATH_MAX: a name the kernel
 * takes is no longer). */
enum { BUILT_MAX = 4096 };

/* Which raw sign classes a call site can see (sb_cond_classes' universe). */
static unsigned classes_possible(enum sb_ret_conv conv)
{
    switch (conv) {
    case SB_RET_NEVER_FAILS:
        return SB_CLASS_ZERO | SB_CLASS_POS;
    case SB_RET_MAP_FAILED:
        return SB_CLASS_NEG | SB_CLASS_POS;
    default:
        return SB_CLASS_NEG | SB_CLASS_ZERO | SB_CLASS_POS;
    }
}

/* The libc description of argument k of the call as written, or NULL. */
static const struct sb_arg_desc *libc_arg(const struct sb_call_event *ev,
                                          const struct sb_syscall *row, int k)
{
    if (sb_call_is_raw_syscall(ev))
        return NULL; /* syscall(NR, ...): the catalogue knows raw words only */
    return k >= 0 && k < row->libc_argc ? &row->libc_args[k] : NULL;
}

/* The call fills a buffer from an fd that may be the same in every
 * iteration: an invariant, or a value the inspector recomputes (an
 * induction or rule 7's checked load), since a load of memory the loop does
 * not write - a global descriptor, `while ((n = read(input_desc, ...)) > 0)`
 * - is described that way by a front end that does not hoist it, and
 * nothing here tells it from `fds[i]`. */
static bool reads_same_fd_maybe(const struct sb_loop *loop,
                                const struct sb_syscall *row)
{
    bool fd_repeats = false, fills = false;
    for (int k = 0; k < loop->call.nargs && k < row->libc_argc; k++) {
        const struct sb_arg_desc *d = &row->libc_args[k];
        enum sb_loop_value v = loop->arg_value[k];
        if (d->kind == SB_ARG_FD &&
            (v == SB_LV_INVARIANT || v == SB_LV_INDUCTION ||
             v == SB_LV_CHECKED))
            fd_repeats = true;
        if (d->kind == SB_ARG_OUT_BUF || d->kind == SB_ARG_IOVEC_OUT)
            fills = true;
    }
    return fd_repeats && fills;
}

static struct refusal check_arguments(const struct sb_loop *loop,
                                     struct sb_loop_plan *plan)
{
    const struct sb_call_event *ev = &loop->call;
    for (int k = 0; k < ev->nargs; k++) {
        switch (loop->arg_value[k]) {
        case SB_LV_INVARIANT:
        case SB_LV_INDUCTION:
            break;
        case SB_LV_CHECKED:
            /* Rule 7: a check needs writes to compare with; without any
             * the front end should have said induction. */
            if (loop->checked_writes < 1 ||
                loop->checked_writes > SB_LOOP_MAX_CHECKED_WRITES)
                return refuse(SB_WHY_LOOP_UNREPEATABLE,
                              loop->checked_writes < 1
                                  ? "an argument is loaded from memory the "
                                    "loop may write, and no write is known "
                                    "to compare it with at run time"
                                  : "an argument is loaded from memory the "
                                    "loop may write, and the loop writes in "
                                    "more places than the run-time check "
                                    "compares");
            plan->runtime_check = true;
            break;
        case SB_LV_CARRIED:
            return refuse(SB_WHY_LOOP_CARRIED, loop->arg_why[k]);
        case SB_LV_BUILT:
            break; /* plan_built_buffer */
        case SB_LV_BUILT_OTHERWISE:
            return refuse(SB_WHY_LOOP_BUILT_ARG, loop->arg_why[k]);
        default:
            return refuse(SB_WHY_LOOP_UNREPEATABLE, loop->arg_why[k]);
        }
    }
    /* Rule 8: every libc call the inspector repeats must be one it may. */
    if (loop->repeated_calls > SB_LOOP_MAX_REPEATED_CALLS)
        return refuse(SB_WHY_LOOP_UNREPEATABLE,
                      "the arguments are computed by more libc calls than "
                      "the inspector repeats");
    for (int c = 0; c < loop->repeated_calls; c++) {
        const char *name = loop->repeated_call[c];
        const struct sb_libc_function *fn = name ? sb_libc_lookup(name) : NULL;
        const char *no = fn ? sb_loop_libc_repeatable(fn)
                            : "a call to a function outside the libc table "
                              "computes an argument";
        if (no)
            return refuse(SB_WHY_LOOP_UNREPEATABLE, no);
    }
    /* Rule 7 for the paths between calls and for exit tests on loaded
     * values: the same check. */
    if (loop->checked_paths > 0 || loop->checked_reads > 0) {
        if (loop->checked_writes < 1 ||
            loop->checked_writes > SB_LOOP_MAX_CHECKED_WRITES)
            return refuse(SB_WHY_LOOP_ALWAYS_STOPS,
                          "code between the calls may touch the buffers of "
                          "later calls, and the loop writes in more places "
                          "than the run-time check compares");
        plan->runtime_check = true;
    }
    return refuse(SB_WHY_NONE, NULL);
}

/* Rule 7 for the strings later iterations' names point to: the front end
 * checks SB_LOOP_NAME_MAX bytes from each (the most the kernel reads of a
 * name; the inspector never reads it) against every write of the group.
 * Only names, and only when every iteration checked is one the original
 * reaches (no class stops): the pointers of later iterations are loads
 * rule 4 cannot prove otherwise. */
static struct refusal plan_measured_strings(const struct sb_loop *loop,
                                            const struct sb_syscall *row,
                                            unsigned stops,
                                            struct sb_loop_plan *plan)
{
    const struct sb_call_event *ev = &loop->call;
    uint32_t strings = loop->checked_strings;
    if (!strings)
        return refuse(SB_WHY_NONE, NULL);
    for (int k = 0; k < 32; k++) {
        if (!(strings & (1u << k)))
            continue;
        const struct sb_arg_desc *d = k < ev->nargs ? libc_arg(ev, row, k) : NULL;
        if (!d || d->kind != SB_ARG_PATH || ev->args[k].kind == SB_OPND_CONST ||
            loop->arg_value[k] == SB_LV_BUILT)
            return refuse(SB_WHY_LOOP_ALWAYS_STOPS,
                          "code between the calls may write memory a later "
                          "call reads, and that memory is not a name the "
                          "run-time check can measure");
    }
    if (loop->checked_writes < 1 ||
        loop->checked_writes > SB_LOOP_MAX_CHECKED_WRITES)
        return refuse(SB_WHY_LOOP_ALWAYS_STOPS,
                      "code between the calls may write the names later "
                      "calls read, and the loop writes in more places than "
                      "the run-time check compares");
    if (stops)
        return refuse(SB_WHY_LOOP_SPECULATIVE,
                      "code between the calls may write the names later "
                      "calls read, which the run-time check would compare "
                      "before the group runs, and a result may end the group "
                      "first: the original might never pass a later name to "
                      "the kernel");
    plan->measured_strings = strings;
    plan->runtime_check = true;
    return refuse(SB_WHY_NONE, NULL);
}

const char *sb_loop_libc_repeatable(const struct sb_libc_function *fn)
{
    if (fn->flags & SB_LIBC_PRINTF)
        return "a printf-family call computes an argument (it writes its "
               "destination)";
    if (fn->flags & SB_LIBC_SETS_ERRNO)
        return "a call that may set errno computes an argument (the "
               "inspector would set it ahead of the iterations)";
    for (int k = 0; k < fn->argc && k < SB_LIBC_MAX_FIXED; k++)
        if (fn->args[k].access & SB_LIBC_WRITES)
            return "a call that writes memory computes an argument";
    return NULL;
}

/* Rule 9: writes left out for later slots must be reached only by classes
 * that stop the group (then no later slot of it runs after them). */
static struct refusal check_stop_writes(const struct sb_loop *loop,
                                        unsigned possible)
{
    if (loop->stop_writes < 1)
        return refuse(SB_WHY_NONE, NULL);
    for (int c = 0; c < 3; c++)
        if ((loop->stop_write_classes & (1u << c)) && (possible & (1u << c)) &&
            loop->class_path[c] == SB_LP_NEXT)
            return refuse(SB_WHY_LOOP_UNREPEATABLE,
                          loop->stop_write_why
                              ? loop->stop_write_why
                              : "code the inspector does not repeat writes "
                                "on a path that goes on to the next call");
    return refuse(SB_WHY_NONE, NULL);
}

/* A retry loop (gnulib's safe_read: `for (;;) { n = read(fd, buf, count);
 * if (n >= 0) return n; if (errno == EINTR) continue; ... }`): every
 * success leaves the loop on every path (class_exits: "may leave" is not
 * enough, a checksum loop's positive read may also go round) and nothing
 * the inspector computes per iteration tells one call from the next, so a
 * later iteration happens only after the call at hand failed, and then not
 * always (the failure may leave, or cross code the next call may not move
 * above).  Every class stops a group there (rule 2): no group would run
 * more than the slot at hand, which is the original call, and in practice
 * the loop makes one call per run (a second only when a signal interrupted
 * the first).  Nothing can be gained, so it is refused with that cause.
 * Checked before the arguments: such a loop's count or buffer is often
 * adjusted on the failure path (EINVAL), which would otherwise be reported
 * as an argument the inspector cannot repeat - true, but not why nothing is
 * to be gained. */
static struct refusal check_retry(const struct sb_loop *loop)
{
    unsigned possible =
        classes_possible(sb_call_ret_conv(loop->abi, &loop->call));
    if (!(possible & SB_CLASS_NEG) || loop->class_path[0] == SB_LP_NEXT)
        return refuse(SB_WHY_NONE, NULL);
    for (int c = 1; c < 3; c++)
        if ((possible & (1u << c)) && !(loop->class_exits & (1u << c)))
            return refuse(SB_WHY_NONE, NULL); /* may go round */
    for (int k = 0; k < loop->call.nargs; k++)
        switch (loop->arg_value[k]) {
        case SB_LV_INDUCTION:
        case SB_LV_CHECKED:
        case SB_LV_BUILT:
        case SB_LV_BUILT_OTHERWISE:
            return refuse(SB_WHY_NONE, NULL); /* iterations differ */
        default:
            break;
        }
    return refuse(SB_WHY_LOOP_RETRY,
                  "no argument differs from one iteration to the next by "
                  "an induction, so each round repeats the failed call");
}

/* Rule 3: an output buffer every iteration shares becomes private per
 * slot; what is copied back must be exactly what the kernel wrote. */
static struct refusal plan_private_buffer(const struct sb_loop *loop,
                                          const struct sb_syscall *row,
                                          struct sb_loop_plan *plan)
{
    const struct sb_call_event *ev = &loop->call;
    for (int k = 0; k < ev->nargs; k++) {
        const struct sb_arg_desc *d = libc_arg(ev, row, k);
        if (!d || loop->arg_value[k] != SB_LV_INVARIANT ||
            ev->args[k].kind == SB_OPND_CONST)
            continue;
        if (d->kind == SB_ARG_OPAQUE)
            return refuse(SB_WHY_LOOP_SHARED_BUFFER,
                          "the kernel may read or write the pointed-to "
                          "memory in ways the catalogue does not describe");
        /* The buffers are named inside the iovec, at run time: a private
         * copy per slot would need the iovec and every buffer it names
         * duplicated, and the body reads them after each call. */
        if (d->kind == SB_ARG_IOVEC_OUT)
            return refuse(SB_WHY_LOOP_SHARED_BUFFER,
                          "every iteration's call writes the buffers of one "
                          "iovec, which are known only at run time, so no "
                          "slot can have private ones");
        if (d->kind != SB_ARG_OUT_BUF)
            continue;
        if (row->flags & SB_ROW_RUNTIME_CONVERTED)
            return refuse(SB_WHY_LOOP_SHARED_BUFFER,
                          "the runtime converts this call's output into the "
                          "buffer and writes only some of its bytes, so a "
                          "private copy could not be copied back exactly");
        if (plan->private_arg >= 0)
            return refuse(SB_WHY_LOOP_SHARED_BUFFER,
                          "more than one shared output buffer");
        if (d->size_arg < 0 && d->fixed_size > 0) {
            plan->copy_back = SB_COPY_BACK_FIXED;
            plan->private_size = d->fixed_size;
        } else if (d->size_arg >= 0 && (row->flags & SB_ROW_RESULT_LE_SIZE) &&
                   d->size_arg < ev->nargs &&
                   ev->args[d->size_arg].kind == SB_OPND_CONST &&
                   ev->args[d->size_arg].value > 0 &&
                   ev->args[d->size_arg].value <= 65536) {
            plan->copy_back = SB_COPY_BACK_RESULT;
            plan->private_size = ev->args[d->size_arg].value;
        } else {
            return refuse(SB_WHY_LOOP_SHARED_BUFFER,
                          d->size_arg >= 0
                              ? "the byte count is not a constant up to "
                                "64 KiB, or the call may write more than it "
                                "returns"
                              : "the size the kernel writes is known only at "
                                "run time");
        }
        plan->private_arg = k;
    }
    return refuse(SB_WHY_NONE, NULL);
}

/* Rule 6: do the steps leave in a private buffer exactly what the call
 * would read in the shared one?  Either one string from the start (the
 * kernel reads a name up to its NUL, which the first step writes and the
 * appends move), or writes of fixed extents over a copy of the shared
 * buffer: the bytes they do not write are written by nothing in the loop,
 * so the shared buffer holds the iteration's value of each of them. */
static struct refusal check_build_steps(const struct sb_loop *loop,
                                        const struct sb_arg_desc *d,
                                        long size, struct sb_loop_plan *plan)
{
    int n = loop->build_steps;
    if (n < 1)
        return refuse(SB_WHY_LOOP_BUILT_ARG,
                      "the code that builds the buffer is not described");
    if (n > SB_LOOP_MAX_BUILD_STEPS)
        return refuse(SB_WHY_LOOP_BUILT_ARG,
                      "the buffer is built in more steps than the inspector "
                      "repeats");
    const struct sb_loop_build_step *s = loop->build_step;
    if (s[0].kind == SB_BUILD_STRING || s[0].kind == SB_BUILD_APPEND) {
        if (s[0].kind == SB_BUILD_APPEND)
            return refuse(SB_WHY_LOOP_BUILT_ARG,
                          "the first step appends to what an earlier "
                          "iteration left in the buffer");
        if (d->kind != SB_ARG_PATH)
            return refuse(SB_WHY_LOOP_BUILT_ARG,
                          "the call reads a byte count of a buffer the loop "
                          "writes a string into (the bytes after the string "
                          "are an earlier iteration's)");
        for (int i = 0; i < n; i++)
            if ((s[i].kind != SB_BUILD_STRING && s[i].kind != SB_BUILD_APPEND) ||
                s[i].offset != 0)
                return refuse(SB_WHY_LOOP_BUILT_ARG,
                              "a step writes the buffer other than as the "
                              "string at its start the first step wrote");
        return refuse(SB_WHY_NONE, NULL);
    }
    for (int i = 0; i < n; i++) {
        if (s[i].kind != SB_BUILD_FIXED)
            return refuse(SB_WHY_LOOP_BUILT_ARG,
                          "a step writes a string into a buffer built by "
                          "fixed-size writes, or in a way the core does not "
                          "model");
        if (s[i].bytes <= 0 || s[i].offset < 0 ||
            s[i].offset + s[i].bytes > size)
            return refuse(SB_WHY_LOOP_BUILT_ARG,
                          s[i].bytes <= 0
                              ? "a step writes a number of bytes known only "
                                "at run time"
                              : "a step writes outside the buffer");
    }
    plan->built_copy_in = true;
    return refuse(SB_WHY_NONE, NULL);
}

struct sb_loop_build_step sb_loop_libc_build_step(
    const struct sb_libc_function *fn, long offset, long count)
{
    struct sb_loop_build_step st = {SB_BUILD_OTHER, offset, 0};
    if (!fn || fn->argc < 1)
        return st;
    const struct sb_libc_access *dst = &fn->args[0];
    bool string_extent = dst->size_arg < 0 && dst->fixed_size == 0;
    if (fn->flags & SB_LIBC_PRINTF) {
        /* sprintf; snprintf NUL-terminates only with room for one byte. */
        if (dst->size_arg < 0 || count > 0)
            st.kind = SB_BUILD_STRING;
    } else if (dst->access == SB_LIBC_WRITES && string_extent) {
        st.kind = SB_BUILD_STRING;
    } else if (dst->access == SB_LIBC_READS_WRITES && string_extent) {
        st.kind = SB_BUILD_APPEND;
    } else if (dst->access == SB_LIBC_WRITES && dst->size_arg >= 0) {
        st.kind = SB_BUILD_FIXED; /* memcpy, memset, strncpy: count bytes */
        st.bytes = count;
    } else if (dst->access == SB_LIBC_WRITES && dst->fixed_size > 0) {
        st.kind = SB_BUILD_FIXED;
        st.bytes = dst->fixed_size;
    }
    return st;
}

/* Rule 6: a buffer the loop fills each iteration and the call only reads
 * is built again by the inspector, into a private buffer per slot. */
static struct refusal plan_built_buffer(const struct sb_loop *loop,
                                        const struct sb_syscall *row,
                                        struct sb_loop_plan *plan)
{
    const struct sb_call_event *ev = &loop->call;
    for (int k = 0; k < ev->nargs; k++) {
        if (loop->arg_value[k] != SB_LV_BUILT)
            continue;
        const struct sb_arg_desc *d = libc_arg(ev, row, k);
        if (!d || (d->kind != SB_ARG_PATH && d->kind != SB_ARG_IN_BUF))
            return refuse(SB_WHY_LOOP_BUILT_ARG,
                          "the call does not only read that buffer");
        if (plan->built_arg >= 0)
            return refuse(SB_WHY_LOOP_BUILT_ARG,
                          "more than one argument is built in the loop");
        long size = loop->built_size[k];
        if (size <= 0 || size > BUILT_MAX)
            return refuse(SB_WHY_LOOP_BUILT_ARG,
                          size <= 0 ? "the buffer's size is not known"
                                    : "the buffer is larger than 4096 bytes");
        struct refusal steps = check_build_steps(loop, d, size, plan);
        if (steps.why != SB_WHY_NONE)
            return steps;
        plan->built_arg = k;
        plan->built_size = size;
    }
    return refuse(SB_WHY_NONE, NULL);
}

/* Rule 5: glibc's own answers.  A constant is decided now; a value that
 * changes per iteration is tested by the inspector when the test is one it
 * can make on the argument alone. */
static struct refusal plan_precheck(struct planner *pl,
                                    const struct sb_loop *loop,
                                    struct sb_loop_plan *plan)
{
    const struct sb_call_event *ev = &loop->call;
    const struct sb_syscall *row = ev->row;
    if (sb_call_is_raw_syscall(ev) || !row || row->precheck == SB_PRE_NONE)
        return refuse(SB_WHY_NONE, NULL);
    int k = row->precheck_arg;
    if (k >= ev->nargs || ev->args[k].kind == SB_OPND_CONST)
        return check_precheck(pl, 0, 0, NULL);
    switch (row->precheck) {
    case SB_PRE_FD_NONNEG:
    case SB_PRE_NONNULL:
    case SB_PRE_PAGE_ALIGNED:
    case SB_PRE_COUNT_INT_MAX:
        plan->precheck = row->precheck;
        plan->precheck_arg = k;
        return refuse(SB_WHY_NONE, NULL);
    default:
        return check_precheck(pl, 0, 0, NULL);
    }
}

/* Why a loop with several call sites is not strip-mined.  Issuing
 * iteration i+1's calls with iteration i's moves them above the rest of
 * iteration i's code; a barrier in the loop rules that out on the paths
 * that run it (real programs' per-file loops: error reports, allocation,
 * hash lookups between the calls).  Without one, what is missing is the
 * planner for several calls per iteration, and the text says so rather
 * than a cause the loop does not have. */
static const char *several_calls_detail(const struct sb_loop *loop,
                                        struct sb_loop_plan *plan)
{
    char *text = plan->detail_text;
    const size_t size = sizeof plan->detail_text;
    if (loop->several_barrier) {
        snprintf(text, size,
                 "%d other call site%s, and code in the loop that may "
                 "touch anything (%s), which later iterations' calls may "
                 "not move above",
                 loop->other_call_sites,
                 loop->other_call_sites == 1 ? "" : "s",
                 loop->several_barrier);
        return text;
    }
    snprintf(text, size,
             "%d other call site%s and no code that may touch anything; "
             "several calls per iteration are not planned as a loop yet",
             loop->other_call_sites, loop->other_call_sites == 1 ? "" : "s");
    return text;
}

/* Rule 10: a list the inspector walks ahead.  Node t's link is a load the
 * original makes only once iteration t goes round; with a class that stops
 * the group the original may leave (or cross code that frees or relinks
 * the list) first, and the nodes after it need not even be valid memory,
 * so no proof of the other loads makes that walk safe. */
static struct refusal check_chase(const struct sb_loop *loop, unsigned stops,
                                  struct sb_loop_plan *plan)
{
    if (loop->chases < 1)
        return refuse(SB_WHY_NONE, NULL);
    if (stops)
        return refuse(SB_WHY_LOOP_SPECULATIVE,
                      "the loop walks a list (p = p->next) and a result may "
                      "end the group: the inspector would follow the links "
                      "of nodes the original might never go past");
    if (loop->chase_early)
        return refuse(SB_WHY_LOOP_SPECULATIVE, loop->chase_early);
    plan->chase = true;
    return refuse(SB_WHY_NONE, NULL);
}

static void plan_refused(struct sb_loop_plan *plan, struct refusal r)
{
    plan->why = r.why;
    plan->detail = r.detail;
}

int sb_plan_loop(const struct sb_loop *loop, const struct sb_options *opts,
                 struct sb_loop_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->private_arg = -1;
    plan->precheck_arg = -1;
    plan->built_arg = -1;

    struct sb_options o;
    if (opts)
        o = *opts;
    else
        sb_options_default(&o);

    if (loop->abi == SB_ABI_TOCK) {
        plan_refused(plan, refuse(SB_WHY_WRONG_ABI,
                                  "a Tock series has no loops: the loop "
                                  "body is planned as straight-line code"));
        return 0;
    }
    if (loop->other_call_sites > 0) {
        plan_refused(plan, refuse(SB_WHY_LOOP_SEVERAL_CALLS,
                                  several_calls_detail(loop, plan)));
        return 0;
    }

    /* The call must be batchable on its own (catalogue, ABI, never-batch,
     * may-block, syscall() number...): the straight-line checks, once. */
    struct sb_event event;
    memset(&event, 0, sizeof event);
    event.kind = SB_EV_CALL;
    event.u.call = loop->call;
    struct sb_region region = {loop->abi, 1, &event, 0, NULL, {0}};
    struct planner pl;
    struct sb_plan scratch;
    if (planner_open(&pl, &region, &o, &scratch) != 0) {
        planner_close(&pl);
        sb_plan_free(&scratch);
        return -1;
    }

    struct refusal r = pl.alone[0];
    if (r.why == SB_WHY_NONE)
        r = check_retry(loop);
    if (r.why == SB_WHY_NONE)
        r = check_arguments(loop, plan);
    if (r.why == SB_WHY_NONE && loop->guard != SB_LG_ALWAYS &&
        loop->guard != SB_LG_REPEATED)
        r = refuse(SB_WHY_LOOP_GUARD, loop->guard_why);
    /* Rule 7's ranges grow only with the iterations that fill a slot; an
     * iteration a repeated guard skips still runs its own code, whose
     * writes the check would not see. */
    if (r.why == SB_WHY_NONE && loop->guard == SB_LG_REPEATED &&
        plan->runtime_check)
        r = refuse(SB_WHY_LOOP_GUARD,
                   "the call runs under a repeated condition and its "
                   "arguments need the run-time check of rule 7, which "
                   "does not see the iterations the condition skips");
    if (r.why == SB_WHY_NONE)
        r = plan_precheck(&pl, loop, plan);

    /* Rule 2: a class stops the batch unless it leads straight on. */
    const struct sb_syscall *raw = pl.raw_row[0];
    unsigned possible =
        classes_possible(sb_call_ret_conv(loop->abi, &loop->call));
    unsigned stops = 0;
    const char *stop_why = NULL;
    for (int c = 0; c < 3; c++) {
        if (!(possible & (1u << c)) || loop->class_path[c] == SB_LP_NEXT)
            continue;
        stops |= 1u << c;
        if (!stop_why)
            stop_why = loop->class_why[c];
    }
    if (r.why == SB_WHY_NONE && stops == possible)
        r = refuse(SB_WHY_LOOP_ALWAYS_STOPS, stop_why);
    if (r.why == SB_WHY_NONE)
        r = check_stop_writes(loop, possible);
    /* A read at a descriptor's position whose result can end the loop (a
     * read until end of file), the descriptor perhaps the same every
     * iteration: each call starts where the one before stopped and the
     * loop goes on only on what it returned. */
    if (r.why == SB_WHY_NONE && stops && raw && !sb_call_is_raw_syscall(&loop->call) &&
        (raw->flags & SB_ROW_FD_POSITION) && reads_same_fd_maybe(loop, raw))
        r = refuse(SB_WHY_LOOP_CARRIED,
                   "each call reads from where the previous one stopped on "
                   "the same descriptor, and the loop goes on only on what "
                   "it returned (a read until end of file)");
    /* Rule 4. */
    /* Rule 10 before rule 4: no proof of the loads makes a walk ahead
     * safe, and its text says why the loop is refused. */
    if (r.why == SB_WHY_NONE)
        r = check_chase(loop, stops, plan);
    if (r.why == SB_WHY_NONE && stops && loop->unproven_loads)
        r = refuse(SB_WHY_LOOP_SPECULATIVE, loop->loads_why);
    if (r.why == SB_WHY_NONE)
        r = plan_measured_strings(loop, raw, stops, plan);
    /* As for the arguments' check: the ranges grow only with the
     * iterations that fill a slot. */
    if (r.why == SB_WHY_NONE && loop->guard == SB_LG_REPEATED &&
        plan->measured_strings)
        r = refuse(SB_WHY_LOOP_GUARD,
                   "the call runs under a repeated condition and the names "
                   "of later calls need the run-time check of rule 7, which "
                   "does not see the iterations the condition skips");
    if (r.why == SB_WHY_NONE)
        r = plan_private_buffer(loop, raw, plan);
    if (r.why == SB_WHY_NONE)
        r = plan_built_buffer(loop, raw, plan);
    /* Not proven together: the inspector's builders and rule 7's ranges. */
    if (r.why == SB_WHY_NONE && plan->built_arg >= 0 && plan->runtime_check)
        r = refuse(SB_WHY_LOOP_BUILT_ARG,
                   "a buffer the loop builds each iteration together with "
                   "arguments that need the run-time check of rule 7");

    int group = o.loop_slots < o.max_slots ? o.loop_slots : o.max_slots;
    if (r.why == SB_WHY_NONE && (group < 2 || group < o.min_batch))
        r = refuse(SB_WHY_BELOW_MIN_BATCH,
                   "loop-slots (or max-slots) is below min-batch");

    if (r.why != SB_WHY_NONE) {
        memset(plan, 0, sizeof *plan);
        plan->private_arg = -1;
        plan->precheck_arg = -1;
        plan->built_arg = -1;
        plan_refused(plan, r);
    } else {
        plan->why = SB_WHY_NONE;
        plan->group = group;
        plan->nr = raw->nr;
        plan->argc = raw->raw_argc;
        for (int i = 0; i < raw->raw_argc; i++) {
            struct chain_src src;
            fill_raw_arg(&pl, 0, 0, i, &plan->args[i], &src);
        }
        plan->scan = loop->guard == SB_LG_REPEATED ? group * GUARD_SCAN_FACTOR
                                                   : group;
        plan->jump_fail = (stops & SB_CLASS_NEG) ? -1 : 0;
        plan->jump_zero = (stops & SB_CLASS_ZERO) ? -1 : 0;
        plan->jump_pos = (stops & SB_CLASS_POS) ? -1 : 0;
        /* plan->runtime_check: set by check_arguments */
    }
    planner_close(&pl);
    sb_plan_free(&scratch);
    return 0;
}

static const char *precheck_text(int precheck)
{
    switch (precheck) {
    case SB_PRE_FD_NONNEG:
        return ">= 0";
    case SB_PRE_NONNULL:
        return "!= NULL";
    case SB_PRE_PAGE_ALIGNED:
        return "page-aligned";
    case SB_PRE_COUNT_INT_MAX:
        return "<= INT_MAX";
    default:
        return "?";
    }
}

void sb_loop_plan_print(FILE *out, const struct sb_loop *loop,
                        const struct sb_loop_plan *plan)
{
    const char *sym = loop->call.symbol ? loop->call.symbol : "?";
    if (plan->why != SB_WHY_NONE) {
        fprintf(out, "loop call %s: refused: %s: %s", sym,
                sb_why_name(plan->why), sb_why_text(plan->why));
        if (plan->detail)
            fprintf(out, ": %s", plan->detail);
        fputc('\n', out);
        return;
    }
    fprintf(out, "loop call %s: %d iterations per batch\n", sym, plan->group);

    const struct sb_syscall *raw = sb_call_raw_row(loop->abi, &loop->call);
    fprintf(out, "  slot: %s(", raw ? raw->raw_name : "?");
    for (int i = 0; i < plan->argc; i++) {
        const struct sb_fill_arg *a = &plan->args[i];
        if (i)
            fputs(", ", out);
        if (a->fill == SB_FILL_CONST)
            fprintf(out, "%ld", a->value);
        else if (a->fill == SB_FILL_EMPTY_STRING)
            fputs("\"\"", out);
        else if (a->index == plan->private_arg)
            fputs("private", out);
        else if (a->index == plan->built_arg)
            fputs("built", out);
        else
            fprintf(out, "a%d", a->index);
    }
    fputc(')', out);
    const short jumps[3] = {plan->jump_fail, plan->jump_zero, plan->jump_pos};
    for (int c = 0; c < 3; c++)
        if (jumps[c] < 0)
            fprintf(out, " %s=stop", class_names[c]);
    fputc('\n', out);
    if (plan->private_arg >= 0)
        fprintf(out, "  private a%d: %ld bytes per slot, copied back %s\n",
                plan->private_arg, plan->private_size,
                plan->copy_back == SB_COPY_BACK_FIXED
                    ? "on success"
                    : "on success, as many bytes as the result");
    if (plan->precheck != SB_PRE_NONE)
        fprintf(out, "  group ends before an iteration whose a%d is not %s\n",
                plan->precheck_arg, precheck_text(plan->precheck));
    if (plan->built_arg >= 0)
        fprintf(out, "  built a%d: %ld bytes per slot, by the loop's own "
                     "code%s\n", plan->built_arg, plan->built_size,
                plan->built_copy_in ? ", over a copy of the buffer" : "");
    if (loop->guard == SB_LG_REPEATED)
        fprintf(out, "  guard repeated: up to %d iterations looked at per "
                     "batch\n", plan->scan);
    if (plan->runtime_check)
        fputs("  run-time check: the group's writes miss what it reads "
              "ahead\n", out);
    for (int k = 0; k < 32; k++)
        if (plan->measured_strings & (1u << k))
            fprintf(out, "  measured a%d: later iterations' names count as "
                         "4096 bytes in the check\n", k);
    for (int c = 0; c < loop->repeated_calls && c < SB_LOOP_MAX_REPEATED_CALLS;
         c++) {
        bool again = false;
        for (int e = 0; e < c; e++)
            again |= loop->repeated_call[e] && loop->repeated_call[c] &&
                     strcmp(loop->repeated_call[e], loop->repeated_call[c]) == 0;
        if (!again)
            fprintf(out, "  inspector calls %s for each later iteration\n",
                    loop->repeated_call[c] ? loop->repeated_call[c] : "?");
    }
    if (loop->stop_writes > 0) {
        fputs("  writes only after", out);
        for (int c = 0; c < 3; c++)
            if (loop->stop_write_classes & (1u << c))
                fprintf(out, " %s", class_names[c]);
        fputs(" (which stop the group) not read ahead\n", out);
    }
    if (plan->chase)
        fputs("  chase: later iterations' nodes followed from the one at "
              "hand\n", out);
}
