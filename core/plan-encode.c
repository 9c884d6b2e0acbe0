/* sysbatch core: phase 3 for a straight-line batch - its calls become
 * sys_batch slots, each chained argument preceded by the word copy that
 * fills it; also the raw-argument filling the branchy encoder shares.
 */
#include "plan-internal.h"

#include <stdlib.h>
#include <string.h>

/* glibc's __OPEN_NEEDS_MODE: the mode argument is read only for these. */
#define OPEN_O_CREAT 0100
#define OPEN_O_TMPFILE_BIT 020000000

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

void fill_raw_arg(const struct planner *pl, int c, int first, int i,
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
int chains_needed(const struct planner *pl, int c, int first)
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

void init_slot(struct sb_slot_plan *s)
{
    memset(s, 0, sizeof *s);
    s->call = -1;
    s->copy_src_slot = s->copy_dst_slot = s->copy_dst_arg = -1;
    s->copy_src_arg = -1;
}

/* Phase 3: slots for the calls first..last. */
int encode_batch(const struct planner *pl, struct sb_batch_plan *b,
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
        /* It proves a later call's fd (check_precheck): a negative fd
         * fails it, and the later slot must not run then. */
        if (pl->stop_on_fail[c])
            call.jump_fail = -1;
        b->slots[s] = call;
        plan->calls[c].batch = batch_index;
        plan->calls[c].slot = s;
        s++;
    }
    return 0;
}

