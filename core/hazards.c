/* sysbatch core: the hazard check (sb_plan_find_hazard,
 * sb_plan_check_hazards) - the batch rules every plan must keep before a
 * front end rewrites it.
 *
 * The rules, and why each exists:
 *  - argc 0..6 and nr >= 0 for calls: the kernel's slot format (the one
 *    negative number allowed is the runtime-converted sigaction, which the
 *    runtime replaces before the kernel sees the batch).
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
#include "sysbatch/core.h"

#include <stdlib.h>
#include <string.h>

int sb_slot_nvariants(const struct sb_slot_plan *s)
{
    if (!s->predicated)
        return 1;
    int n = s->npreds < 1 ? 1 : s->npreds;
    return 1 << (n > SB_MAX_SLOT_PREDS ? SB_MAX_SLOT_PREDS : n);
}

void sb_slot_variant_jumps(const struct sb_slot_plan *s, int v, short out[3])
{
    if (v <= 0 || !s->predicated) {
        out[0] = s->jump_fail;
        out[1] = s->jump_zero;
        out[2] = s->jump_pos;
    } else if (s->npreds <= 1) {
        out[0] = s->alt_fail;
        out[1] = s->alt_zero;
        out[2] = s->alt_pos;
    } else {
        memcpy(out, s->pred_jumps[v & ((1 << SB_MAX_SLOT_PREDS) - 1)],
               3 * sizeof *out);
    }
}

#define MAX_OFFS (3 << SB_MAX_SLOT_PREDS)

/* Every jump offset a slot may take: each of its sets of jumps (the front
 * end picks one set when filling). */
static int slot_offsets(const struct sb_slot_plan *s, short offs[MAX_OFFS])
{
    int nv = sb_slot_nvariants(s);
    for (int v = 0; v < nv; v++)
        sb_slot_variant_jumps(s, v, &offs[3 * v]);
    return 3 * nv;
}

/* Does any set of the slot's jumps continue after a failure? */
static bool continues_on_failure(const struct sb_slot_plan *s)
{
    for (int v = 0; v < sb_slot_nvariants(s); v++) {
        short j[3];
        sb_slot_variant_jumps(s, v, j);
        if (j[0] >= 0)
            return true;
    }
    return false;
}

static const char *slot_hazard(const struct sb_batch_plan *b, int i,
                               const unsigned char *dom)
{
    int n = b->nslots;
    const struct sb_slot_plan *s = &b->slots[i];
    if (s->argc < 0 || s->argc > SB_MAX_ARGS)
        return "argc outside 0..6";
    short offs[MAX_OFFS];
    int noffs = slot_offsets(s, offs);
    for (int o = 0; o < noffs; o++) {
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
        if (s->nr < 0 && s->nr != SB_NR_RT_SIGACTION)
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
    if (s->jump_fail != 0 || s->jump_zero != 0 || s->jump_pos != 0 ||
        s->predicated)
        return "a word copy has a nonzero jump offset (the kernel keeps the "
               "previous slot's offset)";
    if (i == 0)
        return "a word copy is the first slot (its source cannot have run)";
    const struct sb_slot_plan *prev = &b->slots[i - 1];
    short prev_offs[MAX_OFFS];
    int nprev = slot_offsets(prev, prev_offs);
    bool jumps_over = false;
    for (int o = 0; o < nprev; o++)
        jumps_over |= prev_offs[o] > 0;
    if (jumps_over)
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
    if (continues_on_failure(&b->slots[src]))
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
            short offs[MAX_OFFS];
            int noffs = slot_offsets(s, offs);
            for (int o = 0; o < noffs; o++) {
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

