/* loop-batching.h: what loop-analysis.cc (the sb_loop model of one loop)
 * and rewrite-loop.cc (the strip-mined rewrite) share - loop batching of
 * sysbatch/loop.h on GIMPLE.
 *
 * A loop site is one loop with a catalogued call site of its own (the
 * first candidate call whose innermost loop it is, in block order - the
 * LLVM pass numbers its loops the same way).  The analysis fills `model`
 * from GIMPLE facts and records what the rewrite needs to repeat the
 * decisions of later iterations: the induction variables, and the exit
 * tests the inspector repeats.
 */
#ifndef SYSBATCH_LOOP_BATCHING_H
#define SYSBATCH_LOOP_BATCHING_H

#include "sysbatch-gcc.h"
#include "sysbatch/loop.h"

struct sysbatch_loop_site {
    class loop *loop;
    gcall *call;
    int number;                  /* "function <f> loop <number>:" */
    struct sb_loop model;
    struct sb_loop_plan plan;
    /* Header PHIs that are affine induction variables the arguments or
     * the repeated exit tests use: iteration i + t has ivs[k] + t * steps[k]. */
    auto_vec<tree> ivs;
    auto_vec<tree> steps;
    /* Rule 10: header PHIs that are pointer chases (`p = p->next`) and
     * each one's link, the SSA name of the load of the next node's address
     * from the PHI's node: iteration i + t + 1 has links[k] computed at
     * i + t.  The inspector follows them one node per iteration. */
    auto_vec<tree> chases;
    auto_vec<tree> links;
    /* Rule 10: read ranges (addresses as in read_addr) that count from
     * iteration i on: a chase's link under rule 7's check, which the
     * original loads after iteration i's writes. */
    auto_vec<tree> reads_from_first;
    /* The exit tests between the header and the call, in the order every
     * iteration makes them, and which of each test's edges leaves. */
    auto_vec<gcond *> exit_tests;
    auto_vec<edge> exit_edges;
    /* The exit tests after the call that every way round the loop passes
     * (a do-while's `while (++k < n)`, a rotated loop's latch test), in
     * dominance order, and the edge of each that leaves: the inspector
     * makes them for iteration i + t - 1 before it fills slot t. */
    auto_vec<gcond *> after_tests;
    auto_vec<edge> after_edges;
    /* The conditions the call runs under (its guard), in the order every
     * iteration makes them, and each one's edge toward the call: the call
     * is reached exactly when every guard takes that edge. */
    auto_vec<gcond *> guards;
    auto_vec<edge> guard_edges;
    /* Rule 7 (sysbatch/loop.h): the run-time check's ranges - an address
     * over the loop's SSA names (computed for iteration i + t like an
     * argument) and its size in bytes.  The inspector fills a group only
     * when no read of iterations 1..K-1 overlaps a write of 0..K-1. */
    auto_vec<tree> read_addr, read_size, write_addr, write_size;
    /* Which ranges are a buffer of the call (the kernel's side): two of
     * those are never compared (the batch keeps the calls' order).  A
     * kernel "read" is a later call's buffer, against the loop's stores. */
    auto_vec<bool> read_kernel, write_kernel;
    /* Rule 7 for names: the name arguments (pointers over the loop's SSA
     * names, as an argument) whose strings the inspector checks for
     * iterations 1..K-1 (SB_LOOP_NAME_MAX bytes, none for NULL, never
     * read) against
     * every write range, the kernel's too. */
    auto_vec<tree> string_addr;
    /* Rule 6: the automatic buffer the inspector builds again for every
     * slot (the plan's built argument points into it), and the statements
     * of the loop that build it, in the order every iteration runs them. */
    tree built_decl = NULL_TREE;
    auto_vec<gimple *> builders;
};

/* Rule 6: the constant byte offset of pointer `ptr` into automatic
 * variable `decl` (through copies and constant pointer additions), or -1. */
long sysbatch_loop_offset_into(tree ptr, tree decl);

/* Describe every loop site of `fun` (dominators must be computed, SCEV
 * initialised). */
void sysbatch_find_loop_sites(function *fun, enum sb_abi abi,
                              auto_vec<struct sysbatch_loop_site *> *sites);

/* Value `v` at the call site of iteration i + t, computed into `seq` from
 * `known` (seeded with each induction variable's value at i + t); NULL_TREE
 * when the analysis did not find it repeatable. */
tree sysbatch_loop_value_at(const struct sysbatch_loop_site &site, tree v,
                            gimple_seq *seq, hash_map<tree, tree> *known,
                            location_t loc);

/* `expr` (an address or size over the loop's SSA names) for iteration
 * i + t, gimplified into `seq`; NULL_TREE when a name is not repeatable. */
tree sysbatch_loop_expr_at(const struct sysbatch_loop_site &site, tree expr,
                           gimple_seq *seq, hash_map<tree, tree> *known,
                           location_t loc);
/* Rewrite a batched site (plan.why == SB_WHY_NONE).  The loop's own code
 * is not touched; the call site becomes the group logic of sysbatch/loop.h.
 * Dominators must be freed first; the caller renames virtual operands and
 * marks the loops for fix-up.  The sysbatch_run call it adds goes to
 * `batched` as well (region planning must not see it). */
void sysbatch_rewrite_loop(struct sysbatch_loop_site *site,
                           hash_set<gimple *> *batched);

/* Plan, print, report and rewrite every loop site of `fun`; the original
 * call sites of the batched loops go to `batched` (region planning leaves
 * them alone).  True when something was rewritten. */
bool sysbatch_batch_loops(function *fun, hash_set<gimple *> *batched);

/* The call sites loop batching took, for the rest of the current function
 * (NULL outside the pass): region planning does not see them as
 * candidates (block-analysis.cc). */
extern hash_set<gimple *> *sysbatch_loop_calls;

/* The loop batches' original call sites in `bb` (block numbers count them
 * as before, so that the region plans keep their numbers). */
int sysbatch_count_loop_calls(basic_block bb);

/* The region rewrite's result conversion (rewrite-linux.cc): the call site
 * of a call with this convention sees `raw` as this value (errno set). */
tree sysbatch_convert_result(gimple_seq *seq, enum sb_ret_conv conv, tree raw,
                             tree result_type, location_t loc);

#endif /* SYSBATCH_LOOP_BATCHING_H */
