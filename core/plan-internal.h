/* core/plan-internal.h: what the planner's files share (not installed; the
 * front ends see only sysbatch/core.h).
 *
 *   plan.c          entry (sb_plan_region), options, reasons, the checks a
 *                   call must pass alone
 *   plan-group.c    phase 2: greedy straight-line grouping, join checks
 *   plan-alone.c    what kept a lone call's neighbour out
 *   plan-encode.c   phase 3: a straight-line batch -> sys_batch slots
 *   plan-branchy.c  phases 2b/3b: the walk, layout and jumps of a branchy
 *                   region; the sign classes of a compare (sb_cond_classes)
 *   hazards.c       the batch rules every plan is checked against
 *   loop.c          loop batching (sysbatch/loop.h): one call site's
 *                   iterations as one batch
 *
 * Everything declared here is hidden: the core is linked into both compiler
 * plugins, and these names are not part of its interface.
 */
#ifndef SYSBATCH_PLAN_INTERNAL_H
#define SYSBATCH_PLAN_INTERNAL_H

#include "sysbatch/core.h"

#define SB_HIDDEN __attribute__((visibility("hidden")))

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
    bool *stop_on_fail;                 /* a straight-line batch's call
                                           proves a later call's fd
                                           (check_precheck's guard): its
                                           slot stops the batch when it
                                           fails */
};

static inline struct refusal refuse(enum sb_why why, const char *detail)
{
    struct refusal r = {why, detail};
    return r;
}

/* plan.c: the shared set-up - each call's row and the reason it cannot be
 * batched even alone (pl->alone).  planner_open returns -1 when memory ran
 * out; planner_close frees the planner (not the plan) either way. */
SB_HIDDEN int planner_open(struct planner *pl, const struct sb_region *region,
                           const struct sb_options *opts, struct sb_plan *plan);
SB_HIDDEN void planner_close(struct planner *pl);

/* An operand of call c as seen from a batch whose first call is `first`. */
enum operand_use { USE_DIRECT, USE_CHAIN, USE_LOCAL };

/* plan-group.c */
SB_HIDDEN extern const char why_narrowed[];
SB_HIDDEN bool narrowing_changes(const struct planner *pl,
                                 const struct sb_operand *op);
SB_HIDDEN enum operand_use operand_use(const struct planner *pl,
                                       const struct sb_operand *op, int first);
SB_HIDDEN struct refusal check_precheck(const struct planner *pl, int c,
                                        uint64_t ran_before, int *guard);
/* May call c share a batch with the calls of [first, c) for which
 * `in_batch` is true (NULL: all of them)?  A runtime-converted call
 * (SB_ROW_RUNTIME_CONVERTED) reads its input when the batch is issued and
 * writes its output after the batch: every other call of its batch must
 * take no pointer, so no call of the batch can write what it reads or read
 * what it writes. */
SB_HIDDEN struct refusal check_converted_mix(const struct planner *pl, int c,
                                             int first, const bool *in_batch);
/* Phase 2 for a straight-line region: group, dissolve batches below
 * min_batch, encode the rest into plan->batches.  -1: out of memory (the
 * caller frees the plan). */
SB_HIDDEN int plan_straight_line(struct planner *pl, struct sb_plan *plan);

/* plan-alone.c: call `cp`, alone in batch `bp` (dissolved), says what
 * kept its neighbour out in its detail (plan-owned text).  -1: out of
 * memory. */
SB_HIDDEN int explain_lone_call(const struct planner *pl,
                                const struct sb_batch_plan *bp,
                                struct sb_call_plan *cp);

/* plan-encode.c */
/* Where a chained raw argument comes from: the result of call `call`, or
 * (arg >= 0) the word at offset `offset` of its libc argument `arg`. */
struct chain_src {
    int call;
    int arg;
    long offset;
};

SB_HIDDEN void fill_raw_arg(const struct planner *pl, int c, int first, int i,
                            struct sb_fill_arg *out, struct chain_src *src);
SB_HIDDEN int chains_needed(const struct planner *pl, int c, int first);
SB_HIDDEN void init_slot(struct sb_slot_plan *s);
SB_HIDDEN int encode_batch(const struct planner *pl, struct sb_batch_plan *b,
                           struct sb_plan *plan, int batch_index);

/* plan-branchy.c: a region with nblocks > 0.  -1: out of memory. */
SB_HIDDEN int plan_branchy(struct planner *pl, struct sb_plan *plan);

#endif /* SYSBATCH_PLAN_INTERNAL_H */
