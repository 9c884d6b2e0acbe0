/* sysbatch core: branchy-region formation over a plain CFG description
 * (sysbatch/cfg.h), the rule both front ends used to carry a copy of.
 *
 * Before and after, for blocks {0: 1 call; 1: no call, preds 0; 2: 2 calls,
 * preds 0, 1; 3: no call, preds 2}, entered at 0: the region is {0, 1, 2}
 * (block 3 is a trailing call-free block and is dropped).
 */
#include "sysbatch/cfg.h"

#include <stdio.h>
#include <string.h>

static bool in_region(const bool *in, int b)
{
    return b >= 0 && in[b];
}

int sb_cfg_form_region(const struct sb_cfg *cfg, int entry, int *out)
{
    if (entry < 0 || entry >= cfg->nblocks)
        return 0;
    const struct sb_cfg_block *eb = &cfg->blocks[entry];
    int calls = eb->candidates;
    if (calls <= 0 || calls > SB_MAX_REGION_CALLS)
        return 0;

    bool in[cfg->nblocks];
    memset(in, 0, sizeof in);
    int n = 0, ncalls[SB_MAX_REGION_BLOCKS];
    out[n] = entry;
    ncalls[n++] = calls;
    in[entry] = true;
    for (int b = entry + 1; b < cfg->nblocks && n < SB_MAX_REGION_BLOCKS; b++) {
        const struct sb_cfg_block *blk = &cfg->blocks[b];
        if ((cfg->covered && cfg->covered[b]) || blk->unreachable ||
            blk->npreds == 0 || blk->abnormal_entry)
            continue;
        bool inside = true;
        for (int p = 0; p < blk->npreds && inside; p++)
            inside = blk->preds[p] < b && in_region(in, blk->preds[p]);
        if (!inside || calls + blk->candidates > SB_MAX_REGION_CALLS)
            continue;
        out[n] = b;
        ncalls[n++] = blk->candidates;
        in[b] = true;
        calls += blk->candidates;
    }
    while (n > 0 && ncalls[n - 1] == 0)
        n--;
    int with_calls = 0;
    for (int k = 0; k < n; k++)
        with_calls += ncalls[k] > 0;
    return with_calls >= 2 ? n : 0;
}

bool sb_cfg_chain_joins(const struct sb_cfg *cfg, const int *chain, int n,
                        int calls, int next)
{
    if (n < 1 || n >= SB_MAX_REGION_BLOCKS || next < 0 || next >= cfg->nblocks)
        return false;
    for (int k = 0; k < n; k++)
        if (chain[k] == next)
            return false;
    const struct sb_cfg_block *blk = &cfg->blocks[next];
    return !(cfg->covered && cfg->covered[next]) && blk->npreds == 1 &&
           blk->preds[0] == chain[n - 1] && blk->candidates > 0 &&
           calls + blk->candidates <= SB_MAX_REGION_CALLS;
}

/* Does block p hold a candidate, or is it reached from one through blocks
 * entered from one earlier block each (the region p's edge leaves)? */
static bool region_has_candidate(const struct sb_cfg *cfg, int p)
{
    for (int steps = 0; p >= 0 && steps < SB_MAX_REGION_BLOCKS; steps++) {
        const struct sb_cfg_block *b = &cfg->blocks[p];
        if (b->candidates > 0)
            return true;
        if (b->npreds != 1 || b->preds[0] >= p || b->abnormal_entry)
            return false;
        p = b->preds[0];
    }
    return false;
}

static int edges_from(const struct sb_cfg_block *b, int p)
{
    int n = 0;
    for (int k = 0; k < b->npreds; k++)
        n += b->preds[k] == p;
    return n;
}

int sb_cfg_join_split_edge(const struct sb_cfg *cfg, int j,
                           const struct sb_join_info *info, int from,
                           const char **why)
{
    *why = NULL;
    if (j < 0 || j >= cfg->nblocks)
        return -1;
    const struct sb_cfg_block *b = &cfg->blocks[j];
    if (b->candidates <= 0 || b->npreds < 2 || b->unreachable ||
        (cfg->covered && cfg->covered[j]) || info->never_batched)
        return -1;
    /* Only a join some edge of which leaves a region with a call is a
     * split site (and worth a remark). */
    bool site = false;
    for (int k = 0; k < b->npreds && !site; k++)
        site = b->preds[k] >= 0 && b->preds[k] < j &&
               region_has_candidate(cfg, b->preds[k]);
    if (!site)
        return -1;
    if (b->abnormal_entry) {
        *why = "join not split: an abnormal or EH edge enters it";
        return -1;
    }
    if (info->returns_twice) {
        *why = "join not split: the function calls setjmp (or another "
               "function that returns twice), whose abnormal edges the "
               "copy would not get";
        return -1;
    }
    if (info->address_taken) {
        *why = "join not split: its label's address is taken (a computed "
               "goto may enter it)";
        return -1;
    }
    for (int k = 0; k < b->npreds; k++)
        if (b->preds[k] >= j || info->loop_header) {
            *why = "join not split: a loop's back edge enters it (the copy "
                   "would be a second loop entry)";
            return -1;
        }
    if (info->prefix_effect) {
        *why = "join not split: code before its first call has an effect "
               "the split does not copy";
        return -1;
    }
    if (info->prefix > SB_JOIN_MAX_PREFIX) {
        *why = "join not split: more code before its first call than the "
               "split copies (" SB_JOIN_MAX_PREFIX_TEXT " instructions)";
        return -1;
    }
    /* Edges in the order of their source blocks, not of the predecessor
     * list (whose order is each compiler's own), so that both front ends
     * try the same edge first; only edges from block `from` on. */
    int order[b->npreds];
    for (int k = 0; k < b->npreds; k++) {
        int at = k;
        while (at > 0 && b->preds[order[at - 1]] > b->preds[k]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = k;
    }
    for (int i = 0; i < b->npreds; i++) {
        int k = order[i];
        int p = b->preds[k];
        if (p >= from && region_has_candidate(cfg, p) && edges_from(b, p) == 1)
            return k;
    }
    *why = from > 0 ? "join not split: the copied call forms no batch on "
                      "any edge from a region with a call"
                    : "join not split: every edge from a region with a call "
                      "is one of several edges from its block (a switch)";
    return -1;
}

/* A target the region may continue to: a later region block. */
static int later_block(int b, int target)
{
    return target > b ? target : SB_BLOCK_EXIT;
}

/* Why a branch condition is not available where the batch is issued. */
static const char *pred_unavailable(const struct sb_term_shape *shape,
                                    char *buf, size_t bufsize)
{
    const char *what = shape->pred_what;
    switch (shape->pred) {
    case SB_PA_RESULT:
        snprintf(buf, bufsize,
                 "the branch depends on the result of %s, and only a sign "
                 "test of the block's last call maps onto the batch",
                 what ? what : "a call of the region");
        return buf;
    case SB_PA_WRITTEN:
        snprintf(buf, bufsize,
                 "the branch's condition is not available where the batch "
                 "is issued: it reads memory the region may write before "
                 "the branch (%s)",
                 what ? what : "code or a call's buffer");
        return buf;
    case SB_PA_UNSAFE_LOAD:
        return "the branch's condition is not available where the batch is "
               "issued: it loads through a pointer that may not be valid "
               "there";
    case SB_PA_COMPUTED:
        return "the branch's condition is not available where the batch is "
               "issued: it is computed in the region";
    default:
        return NULL;
    }
}

/* A two-way branch whose condition is available where the batch is
 * issued: PRED (GOTO or EXIT when both arms lead to the same place). */
static const char *pred_terminator(int b, const struct sb_term_shape *shape,
                                   struct sb_block *out, bool has_call)
{
    int t = later_block(b, shape->succ[0]);
    int f = later_block(b, shape->succ[1]);
    if (t != f) {
        out->term = SB_TERM_PRED;
        out->succ[0] = t;
        out->succ[1] = f;
    } else if (t != SB_BLOCK_EXIT) {
        out->term = SB_TERM_GOTO;
        out->succ[0] = t;
    }
    return has_call && (shape->succ[0] == 0 || shape->succ[1] == 0)
               ? "a loop: an edge goes back to the region's entry"
               : NULL;
}

/* `not_cond` (why the branch is no sign test; NULL for a block without
 * calls) joined with why its condition is not available, into buf. */
static const char *branch_ends(const struct sb_term_shape *shape,
                               const char *not_cond, char *buf,
                               size_t bufsize)
{
    char why[320];
    const char *unavailable = pred_unavailable(shape, why, sizeof why);
    if (!unavailable)
        return not_cond ? (snprintf(buf, bufsize, "%s", not_cond), buf)
                        : NULL;
    if (unavailable != why)
        snprintf(why, sizeof why, "%s", unavailable);
    if (not_cond) {
        char first[256];
        snprintf(first, sizeof first, "%s", not_cond);
        snprintf(buf, bufsize, "%s; %s", first, why);
    } else {
        snprintf(buf, bufsize, "%s", why);
    }
    return buf;
}

const char *sb_describe_terminator(const struct sb_region *region, int b,
                                   int last_call,
                                   const struct sb_term_shape *shape,
                                   struct sb_block *out, char *buf,
                                   size_t bufsize)
{
    out->term = SB_TERM_EXIT;
    out->cond_call = -1;
    out->succ[0] = out->succ[1] = out->succ[2] = SB_BLOCK_EXIT;
    bool has_call = last_call >= 0;

    switch (shape->kind) {
    case SB_TS_SWITCH:
        return has_call ? "a switch" : NULL;
    case SB_TS_JUMP: {
        int to = later_block(b, shape->succ[0]);
        if (to != SB_BLOCK_EXIT) {
            out->term = SB_TERM_GOTO;
            out->succ[0] = to;
            return NULL;
        }
        return has_call && shape->succ[0] == 0
                   ? "a loop: the edge goes back to the region's entry"
                   : NULL;
    }
    case SB_TS_BRANCH:
        break;
    default:
        return NULL;
    }
    if (!has_call)
        return shape->pred == SB_PA_AVAILABLE
                   ? pred_terminator(b, shape, out, false)
                   : branch_ends(shape, NULL, buf, bufsize);
    const struct sb_call_event *ev = sb_region_call(region, last_call);
    if (!ev)
        return NULL;
    const char *sym = ev->symbol ? ev->symbol : "?";

    /* An extension of the result keeps signed compares' meaning; an
     * unsigned compare of a sign-extended value does not. */
    bool unsigned_op = shape->op >= SB_CMP_ULT;
    bool sign_test = shape->is_compare && shape->value != SB_CV_OTHER &&
                     shape->constant_fits &&
                     !(shape->value == SB_CV_EXTENDED && unsigned_op &&
                       !shape->unsigned_result);
    /* A branch on something else the batch can still follow when its
     * condition is known where the batch is filled; code between the call
     * and that branch is crossed like any code of the region. */
    if (!sign_test && shape->pred == SB_PA_AVAILABLE)
        return pred_terminator(b, shape, out, true);
    /* Only code that commutes with every later call may stand between the
     * call and the branch (it then runs after the kernel made them). */
    const struct sb_block *blk = &region->blocks[b];
    int after = blk->first_event + blk->nevents - 1;
    if (blk->nevents > 0 && after < region->nevents &&
        region->events[after].kind == SB_EV_CODE) {
        const struct sb_code_event *code = &region->events[after].u.code;
        if (code->barrier || code->conflicts) {
            snprintf(buf, bufsize,
                     "code between %s and the branch may not move (%s)", sym,
                     code->why ? code->why : "?");
            return buf;
        }
    }
    if (!sign_test) {
        char not_cond[256];
        snprintf(not_cond, sizeof not_cond,
                 "the branch is not the result of %s (the block's last "
                 "call) compared with a constant", sym);
        return branch_ends(shape, not_cond, buf, bufsize);
    }
    int mask = sb_cond_classes(sb_call_ret_conv(region->abi, ev),
                               sb_call_result_bits(region->abi, ev),
                               (enum sb_cmp)shape->op, shape->constant);
    if (mask < 0) {
        snprintf(buf, bufsize,
                 "the sign of %s's result does not decide the compare", sym);
        return buf;
    }
    int t = later_block(b, shape->succ[0]);
    int f = later_block(b, shape->succ[1]);
    for (int k = 0; k < 3; k++)
        out->succ[k] = (mask & (1 << k)) ? t : f;
    out->term = SB_TERM_COND;
    out->cond_call = last_call;
    return shape->succ[0] == 0 || shape->succ[1] == 0
               ? "a loop: an edge goes back to the region's entry"
               : NULL;
}
