/* sysbatch core: phases 2b and 3b - a branchy region (several blocks with
 * conditional jumps on call results) planned as one batch issued at the
 * region's first call: the walk, the layout (slots in block order, each
 * producer followed by its word copies) and the forward jumps per result
 * class; and sb_cond_classes(), which tells a front end which result
 * classes take a compare's true edge.
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
#include "plan-internal.h"

#include <stdlib.h>
#include <string.h>

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
    "branchy region: a predicated branch's target is not a later block or "
    "exit",
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
        case SB_TERM_PRED:
            nsucc = 2;
            break;
        default:
            return branchy_malformed[3];
        }
        for (int k = 0; k < nsucc; k++) {
            int t = bl->succ[k];
            if (t != SB_BLOCK_EXIT && (t <= b || t >= nb))
                return branchy_malformed[nsucc == 1   ? 4
                                         : nsucc == 2 ? 8
                                                      : 5];
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
    /* The included calls that dominate j run on every path to its slot
     * (a RESULT fd is chained from one of them). */
    uint64_t ran_before = 0;
    for (int m = 0; m < j && m < 64; m++)
        if (br->included[m] && branchy_dominates(br, m, j))
            ran_before |= (uint64_t)1 << m;
    int guard;
    struct refusal pre = check_precheck(pl, j, ran_before, &guard);
    if (pre.why != SB_WHY_NONE)
        return pre;
    struct refusal mix = check_converted_mix(pl, j, 0, br->included);
    if (mix.why != SB_WHY_NONE)
        return mix;
    if (nslots + 1 + chains_needed(pl, j, 0) > pl->opts.max_slots)
        return refuse(SB_WHY_BATCH_FULL, NULL);
    /* The guard's failure stops the batch (branchy_encode), so no path
     * reaches j's slot after a negative fd failed the guard's. */
    if (guard >= 0)
        pl->stop_on_fail[guard] = true;
    return refuse(SB_WHY_NONE, NULL);
}

/* Does block b end in a COND whose failure edge (with the positive one
 * when it goes there too: `if (fchmod(...))`) enters an arm without calls
 * that crosses a barrier and then goes on to a block with calls?
 * xz's `if (fchmod(fd, mode)) message_warning(...); futimens(fd, tv);`:
 * followed, that edge makes the barrier refuse every call after the join.
 * The kernel need not follow it: the call stops the batch when it fails
 * instead, and the arm and the calls after it run at their own places on
 * that path, as they are; the success path keeps the join's calls. */
static bool fail_arm_crosses_barrier(const struct branchy *br, int b)
{
    const struct sb_block *bl = &br->blocks[b];
    if (bl->term != SB_TERM_COND)
        return false;
    int t = bl->succ[0];
    if (t == SB_BLOCK_EXIT || t == bl->succ[1])
        return false;
    const struct sb_event *events = br->pl->region->events;
    bool barrier = false;
    for (int steps = 0; steps < 8 && t != SB_BLOCK_EXIT; steps++) {
        const struct sb_block *arm = &br->blocks[t];
        for (int e = arm->first_event; e < arm->first_event + arm->nevents;
             e++) {
            if (events[e].kind == SB_EV_CALL)
                return barrier; /* the join (or calls in the arm) */
            barrier |= events[e].u.code.barrier;
        }
        if (arm->term != SB_TERM_GOTO)
            return false;
        t = arm->succ[0];
    }
    return false; /* the arm leaves the region: nothing after it to save */
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
    memset(pl->stop_on_fail, 0, (size_t)pl->ncalls * sizeof *pl->stop_on_fail);
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
                br->why[j] = check_precheck(pl, 0, 0, NULL);
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
        int nsucc = bl->term == SB_TERM_GOTO   ? 1
                    : bl->term == SB_TERM_PRED ? 2
                    : bl->term == SB_TERM_COND ? 3
                                               : 0;
        /* The block is not cut, so its COND call is included. */
        bool stop_on_fail = fail_arm_crosses_barrier(br, b);
        if (stop_on_fail)
            pl->stop_on_fail[bl->cond_call] = true;
        for (int k = 0; k < nsucc; k++) {
            int t = bl->succ[k];
            if (t == SB_BLOCK_EXIT || (stop_on_fail && t == bl->succ[0]))
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

/* Where a path continues, as decided by the conditions of up to
 * SB_MAX_SLOT_PREDS predicated blocks (core.h, SB_TERM_PRED) met on the
 * way: slot[v] when, for each i, pred[i]'s condition holds exactly when
 * bit i of v is clear (as sb_slot_plan.pred_jumps).  A slot is SLOT_END
 * when the path leaves the batch there. */
#define NVARIANTS (1 << SB_MAX_SLOT_PREDS)
struct target {
    int npreds;
    int pred[SB_MAX_SLOT_PREDS];
    int slot[NVARIANTS];
};

static struct target target_to(int slot)
{
    struct target t;
    memset(&t, 0, sizeof t);
    for (int v = 0; v < NVARIANTS; v++)
        t.slot[v] = slot;
    return t;
}

/* t's slot under assignment v of the predicates preds[0..np). */
static int target_slot(const struct target *t, const int *preds, int np,
                       int v)
{
    int local = 0;
    for (int i = 0; i < t->npreds; i++)
        for (int q = 0; q < np; q++)
            if (preds[q] == t->pred[i] && ((v >> q) & 1))
                local |= 1 << i;
    return t->slot[local];
}

/* Add t's predicates to the set preds[0..*np); false when the set would
 * hold more than SB_MAX_SLOT_PREDS. */
static bool preds_union(int *preds, int *np, const struct target *t)
{
    for (int i = 0; i < t->npreds; i++) {
        bool have = false;
        for (int q = 0; q < *np; q++)
            have |= preds[q] == t->pred[i];
        if (have)
            continue;
        if (*np == SB_MAX_SLOT_PREDS)
            return false;
        preds[(*np)++] = t->pred[i];
    }
    return true;
}

/* Drop the predicates whose value does not change where t leads. */
static void target_simplify(struct target *t)
{
    for (int i = t->npreds - 1; i >= 0; i--) {
        bool matters = false;
        for (int v = 0; v < (1 << t->npreds); v++)
            matters |= t->slot[v] != t->slot[v ^ (1 << i)];
        if (matters)
            continue;
        struct target s = *t;
        s.npreds = t->npreds - 1;
        for (int k = i; k < s.npreds; k++)
            s.pred[k] = t->pred[k + 1];
        for (int v = 0; v < (1 << s.npreds); v++) {
            int low = v & ((1 << i) - 1), high = v >> i;
            s.slot[v] = t->slot[low | (high << (i + 1))];
        }
        for (int v = 1 << s.npreds; v < NVARIANTS; v++)
            s.slot[v] = s.slot[0];
        *t = s;
    }
}

static struct target branchy_resolve(const struct branchy *br, int t,
                                     int *budget);

/* Both arms of predicated block p: its condition decides between where
 * each arm continues.  More predicates than a slot can hold on the way
 * end the path (the batch stops there). */
static struct target branchy_pred_arms(const struct branchy *br, int p,
                                       int *budget)
{
    struct target arm[2] = {branchy_resolve(br, br->blocks[p].succ[0], budget),
                            branchy_resolve(br, br->blocks[p].succ[1], budget)};
    struct target t = target_to(SLOT_END);
    int preds[SB_MAX_SLOT_PREDS] = {p}, np = 1;
    for (int a = 0; a < 2; a++) {
        bool own = false; /* p again on an arm cannot happen (a DAG) */
        for (int i = 0; i < arm[a].npreds; i++)
            own |= arm[a].pred[i] == p;
        if (own || !preds_union(preds, &np, &arm[a]))
            return target_to(SLOT_END);
    }
    t.npreds = np;
    memcpy(t.pred, preds, sizeof preds);
    for (int v = 0; v < (1 << np); v++)
        t.slot[v] = target_slot(&arm[v & 1], preds, np, v);
    for (int v = 1 << np; v < NVARIANTS; v++)
        t.slot[v] = t.slot[0];
    target_simplify(&t);
    return t;
}

/* Where a path entering block t continues: through call-free blocks'
 * gotos and through call-free predicated blocks on the way.  `budget`
 * bounds the work on regions with many joins (out of it: the path ends). */
static struct target branchy_resolve(const struct branchy *br, int t,
                                     int *budget)
{
    while (t != SB_BLOCK_EXIT && br->live[t]) {
        if (--*budget < 0)
            return target_to(SLOT_END);
        if (br->first_slot[t] >= 0)
            return target_to(br->first_slot[t]);
        if (br->cut[t])
            return target_to(SLOT_END);
        if (br->blocks[t].term == SB_TERM_PRED)
            return branchy_pred_arms(br, t, budget);
        if (br->blocks[t].term != SB_TERM_GOTO)
            return target_to(SLOT_END);
        t = br->blocks[t].succ[0];
    }
    return target_to(SLOT_END);
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

/* Where each outcome (fail, zero, pos) of included call c leads, ignoring
 * any chain, and the predicates that decide it (preds[0..*np)): the
 * outcomes' predicates together must fit one slot; an outcome that would
 * need more stops the batch. */
static void branchy_targets(const struct branchy *br, int c,
                            struct target out[3], int *preds, int *np)
{
    int b = br->block_of[c];
    const struct sb_block *bl = &br->blocks[b];
    int budget = 4 * SB_MAX_REGION_BLOCKS;
    *np = 0;
    out[0] = out[1] = out[2] = target_to(SLOT_END);
    if (c != br->last_inc[b]) {
        /* The next included call of the block, after c's copies. */
        out[0] = out[1] = out[2] =
            target_to(br->slot_of[c] + 1 + br->ncopies[c]);
        return;
    }
    if (br->cut[b])
        return;
    if (bl->term == SB_TERM_GOTO) {
        out[0] = out[1] = out[2] = branchy_resolve(br, bl->succ[0], &budget);
    } else if (bl->term == SB_TERM_PRED) {
        out[0] = out[1] = out[2] = branchy_pred_arms(br, b, &budget);
    } else if (bl->term == SB_TERM_COND) {
        for (int k = 0; k < 3; k++)
            out[k] = branchy_resolve(br, bl->succ[k], &budget);
    }
    /* It stops the batch when it fails (it proves a later fd, or its
     * failure arm crosses a barrier the walk did not follow). */
    if (br->pl->stop_on_fail[c]) {
        out[0] = target_to(SLOT_END);
        if (bl->term == SB_TERM_COND && bl->succ[2] == bl->succ[0] &&
            fail_arm_crosses_barrier(br, b))
            out[2] = target_to(SLOT_END);
    }
    for (int k = 0; k < 3; k++) {
        int save[SB_MAX_SLOT_PREDS], nsave = *np;
        memcpy(save, preds, sizeof save);
        if (!preds_union(preds, np, &out[k])) {
            memcpy(preds, save, sizeof save);
            *np = nsave;
            out[k] = target_to(SLOT_END);
        }
    }
}

/* Where the outcomes lead under assignment v of preds[0..np). */
static void targets_for(const struct target t[3], const int *preds, int np,
                        int v, int out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = target_slot(&t[k], preds, np, v);
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
        struct target tt[3];
        int preds[SB_MAX_SLOT_PREDS], np;
        branchy_targets(br, p, tt, preds, &np);
        /* A predicated producer stops where the chosen arm does not start
         * after its copies (branchy_encode), so its consumers stay. */
        if (np > 0)
            continue;
        int t[3];
        targets_for(tt, preds, 0, 0, t);
        enum sb_ret_conv conv = sb_call_ret_conv(pl->region->abi, pl->calls[p]);
        /* An outcome that leaves the batch (n = read(...); if (n <= 0)
         * break;) stops there instead of falling into the copies. */
        bool ok = true;
        for (int k = 1; k < 3; k++)
            if (class_possible(conv, k) && t[k] != after && t[k] != SLOT_END)
                ok = false;
        if (ok)
            continue;
        /* The producer's failure arm sits between its copies and where its
         * successes lead (if (fstat(fd, &st) < 0) { close(fd); return -1; }
         * p = mmap(NULL, st.st_size, ...)).  The success path is the one
         * that runs: the failure arm's calls leave the batch instead (it
         * stops when the producer fails) and the consumers stay. */
        int succ = SLOT_END;
        bool one_target = true;
        for (int k = 1; k < 3; k++)
            if (class_possible(conv, k) && t[k] != SLOT_END) {
                one_target &= succ == SLOT_END || succ == t[k];
                succ = t[k];
            }
        if (one_target && succ != SLOT_END && after != SLOT_END &&
            t[0] == after && succ > after) {
            int cut = 0;
            for (int c = 0; c < n; c++)
                if (br->included[c] && br->slot_of[c] >= after &&
                    br->slot_of[c] < succ &&
                    br->forced[c].why == SB_WHY_NONE) {
                    br->forced[c] = refuse(
                        SB_WHY_NOT_REACHED,
                        "the batch stops when the call before this arm "
                        "fails: that call's word copies must follow it "
                        "directly, and its successes continue past this "
                        "arm (copies are reached only by fall-through)");
                    cut++;
                }
            if (cut) {
                forced += cut;
                continue;
            }
        }
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
        struct target tt[3];
        int preds[SB_MAX_SLOT_PREDS], np;
        branchy_targets(br, c, tt, preds, &np);
        short jumps[NVARIANTS][3];
        for (int v = 0; v < (1 << np); v++) {
            int t[3];
            targets_for(tt, preds, np, v, t);
            short *j = jumps[v];
            if (br->ncopies[c]) {
                /* zero/pos fall into the copies, or stop where they leave
                 * the batch or (predicated) where the chosen arm does not
                 * start after the copies; branchy_layout allowed nothing
                 * else unpredicated. */
                int after = s + 1 + br->ncopies[c];
                enum sb_ret_conv conv =
                    sb_call_ret_conv(pl->region->abi, pl->calls[c]);
                int at = after == br->nslots ? SLOT_END : after;
                j[0] = -1;
                for (int k = 1; k < 3; k++)
                    j[k] = class_possible(conv, k) && t[k] != at &&
                                   after != br->nslots
                               ? -1
                               : 0;
            } else {
                for (int k = 0; k < 3; k++)
                    j[k] = branchy_offset(s, t[k], br->nslots);
                /* It proves a later call's fd (branchy_check): whatever
                 * its failure would lead to, the batch stops there. */
                if (pl->stop_on_fail[c] && s + 1 < br->nslots)
                    j[0] = -1;
            }
            for (int k = 0; k < 3; k++)
                if (j[k] > 0 || (j[k] < 0 && !br->ncopies[c]))
                    b->branchy = true;
        }
        /* Only the predicates the jumps depend on stay. */
        for (int i = np - 1; i >= 0; i--) {
            bool matters = false;
            for (int v = 0; v < (1 << np); v++)
                matters |= memcmp(jumps[v], jumps[v ^ (1 << i)],
                                  sizeof jumps[v]) != 0;
            if (matters)
                continue;
            short kept[NVARIANTS][3];
            for (int v = 0; v < (1 << (np - 1)); v++) {
                int low = v & ((1 << i) - 1), high = v >> i;
                memcpy(kept[v], jumps[low | (high << (i + 1))],
                       sizeof kept[v]);
            }
            memcpy(jumps, kept, sizeof kept);
            for (int k = i; k + 1 < np; k++)
                preds[k] = preds[k + 1];
            np--;
        }
        call->jump_fail = jumps[0][0];
        call->jump_zero = jumps[0][1];
        call->jump_pos = jumps[0][2];
        if (np > 0) {
            call->predicated = true;
            call->pred_block = preds[0];
            call->npreds = np;
            memcpy(call->pred_blocks, preds, (size_t)np * sizeof *preds);
            memcpy(call->pred_jumps, jumps,
                   (size_t)(1 << np) * sizeof jumps[0]);
            call->alt_fail = jumps[1][0];
            call->alt_zero = jumps[1][1];
            call->alt_pos = jumps[1][2];
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

int plan_branchy(struct planner *pl, struct sb_plan *plan)
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

