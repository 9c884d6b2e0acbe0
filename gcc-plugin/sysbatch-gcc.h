/* sysbatch-gcc.h: what the parts of the GCC plugin share.
 *
 *   sysbatch-plugin.cc  plugin_init: version check, arguments, runtime decls,
 *                       pass registration; the pass's execute()
 *   plan.cc             every region of a function described, planned and
 *                       reported (dump file, print-plan, -fopt-info)
 *   block-analysis.cc   one basic block -> core sb_region (phase 1)
 *   regions.cc          a branchy region of several blocks -> sb_region
 *   region-end.cc       what follows a straight-line region (lone calls)
 *   transparent-union.cc  glibc's __SOCKADDR_ARG unions seen as pointers
 *   tock-analysis.cc    the Tock memory rule and checked chains
 *   block-scanner.h     the describer the three analysis files share
 *   rewrite-linux.cc    one planned batch -> rewritten GIMPLE (phase 4),
 *                       Linux: sys_batch slots behind sysbatch_active
 *   rewrite-tock.cc     one planned batch -> one Tock series call (phase 4)
 *
 * The core (core/include/sysbatch/core.h) decides what is batched; these
 * files only translate between GIMPLE and the core's plain C structs.
 */
#ifndef SYSBATCH_GCC_H
#define SYSBATCH_GCC_H

#include "gcc-compat.h"

#include "sysbatch/cfg.h"
#include "sysbatch/config.h"
#include "sysbatch/core.h"
#include "sysbatch/report.h"

/* Parsed -fplugin-arg-sysbatch-* arguments (keys: core/config.c). */
struct sysbatch_config {
    struct sb_config core;        /* every option, as the core parsed it */
    bool enabled;                 /* false: a cross build without target= */
    enum sb_abi abi;              /* resolved by sb_config_resolve_target */
};
extern struct sysbatch_config sysbatch_cfg;
/* False during an early look under placement=both: it decides (rewrites,
 * reports, marks) the regions that batch before inlining, and leaves the
 * regions and loops that batch nothing to the look after inlining. */
extern bool sysbatch_say_refusals;

/* A call site a look decided - a batch rewrote it (its original call stays
 * for the path where its slot did not run), it is the batch call itself,
 * or an early look refused it in a region that batched - is marked in its
 * function type (which inlining and LTO streaming keep) and is no
 * candidate of any later look. */
void sysbatch_mark_rewritten(gcall *call);
bool sysbatch_rewritten_p(const gcall *call);

/* Where remarks and report=DIR name a statement: its own line, or, for a
 * call glibc's headers inline into the program (the fortified open and
 * read of _FORTIFY_SOURCE), the program line the header function was
 * inlined into - the line a user can act on. */
location_t sysbatch_remark_location(const gimple *stmt);

/* The runtime's plugin ABI (runtime/include/sysbatch.h), built once per
 * translation unit. */
struct sysbatch_runtime_decls {
    tree slot_type;      /* struct sysbatch_slot, 64 bytes */
    tree field_nr, field_jump_fail, field_jump_zero, field_jump_pos;
    tree field_argc, field_arg;
    tree run_fn;         /* long sysbatch_run(long *, slot *, long, long) */
    tree ret_errno_fn;   /* long sysbatch_ret_errno(long) */
    tree ret_mmap_fn;    /* void *sysbatch_ret_mmap(long) */
    tree ret_positive_fn;/* int sysbatch_ret_positive_error(long) */
    tree active_var;     /* extern int sysbatch_active */
    tree verify_fn;      /* void sysbatch_verify_slot(...) (verify mode) */
    tree empty_string;   /* extern const char sysbatch_empty_string[1] */
    /* Tock (runtime/include/sysbatch_tock.h); frames are uint32_t words. */
    tree tock_run_fn; /* void sysbatch_tock_run(frame *, u32 count) */
    tree tock_run_template_fn; /* void (frame *, const void *tmpl) */
    tree tock_run_commands_fn; /* (frame *, u32 count, u32 mask), no conversion */
    tree tock_run_masked_fn; /* (frame *, u32 count, u32 mask) */
    tree tock_run_template_commands_fn; /* as tock_run_template_fn, no conversion */
    /* int *__errno_location(void): loop batching's builders (rule 6) save
     * and restore errno around them; made on first use (rewrite-loop.cc). */
    tree errno_location_fn;
};
extern struct sysbatch_runtime_decls sysbatch_rt;
/* report=DIR: the record of this unit, or NULL (sysbatch-plugin.cc). */
extern struct sb_report *sysbatch_unit_report;

/* One basic block (or, when `bbs` has more than one entry, a branchy region
 * of several) described for the core.  `calls[i]` is the statement of
 * region call i; `events` backs `region.events`, `blocks` backs
 * `region.blocks` (branchy regions only). */
struct sysbatch_block {
    basic_block bb;              /* the (entry) block */
    int part;
    auto_vec<basic_block> bbs;   /* branchy: the region's blocks, in order */
    auto_vec<struct sb_block> blocks;
    auto_vec<int> block_of_call; /* branchy: index into bbs of call i */
    /* branchy: why block b's branch after a call ends the region (NULL:
     * it does not, or the block has no call or no branch), and where */
    auto_vec<const char *> term_why;
    auto_vec<gimple *> term_stmt;
    struct sb_region region = {}; /* zero: no region-end facts unless described */
    /* region.end.branch_why's text (straight-line form) */
    char end_branch_why[768] = "";
    auto_vec<struct sb_event> events;
    auto_vec<gcall *> calls;
    auto_vec<int> event_of_call; /* call i is events[event_of_call[i]] */
    auto_vec<tree> results;      /* call i's result name, or NULL_TREE */
    /* Tock: the described statements (their uids give program order along
     * a checked chain, whatever the rewrite splits later). */
    hash_set<gimple *> stmts;
};

static inline const struct sb_call_event &
sysbatch_call_event(const struct sysbatch_block &blk, int call)
{
    return blk.events[blk.event_of_call[call]].u.call;
}

/* A planned region waiting for its rewrite: every region of a function is
 * formed and planned on the unchanged CFG first, then rewritten. */
struct sysbatch_planned_region {
    struct sysbatch_block *blk;
    struct sb_plan plan;
};

/* Form, describe, plan and report every region of `fun` (plan.cc); `queue`
 * gets the plans, in block order, for the rewrite. */
void sysbatch_plan_function(function *fun,
                            auto_vec<struct sysbatch_planned_region> *queue);

/* join-split.cc: copy each join block's first candidate call (and the code
 * before it) onto the incoming edge the core picks (sb_cfg_join_split_edge)
 * and keep the copy only when a trial plan batches it; remarks for joins
 * not split only when `final`.  Returns the splits kept. */
int sysbatch_split_joins(function *fun, bool final);
/* True while join-split.cc plans a function on trial: plan.cc then prints,
 * reports and marks nothing. */
extern bool sysbatch_planning_trial;

/* Phase 1: describe candidate calls first .. first+SB_MAX_REGION_CALLS-1
 * of `bb` (a block with more is described in parts, like the LLVM pass
 * does) and the code between them.  Returns the block's number of
 * candidate calls; `out` is filled when that exceeds `first`. */
int sysbatch_analyze_block(basic_block bb, enum sb_abi abi, int first,
                           struct sysbatch_block *out);

/* Candidate (catalogue) calls in a block. */
int sysbatch_count_candidates(basic_block bb, enum sb_abi abi);

/* Every catalogue call's transparent-union argument (glibc's
 * __SOCKADDR_ARG under _GNU_SOURCE) replaced by the pointer stored in it
 * just before the call, when that is exact (transparent-union.cc). */
void sysbatch_look_through_transparent_unions(function *fun, enum sb_abi abi);

/* blk->region.end: what follows the last call of the straight-line region
 * `blk` (the facts a lone call's reason comes from); `last_part`: no
 * later part of the same block.  `function_calls`: catalogue calls in
 * the function (sysbatch_count_catalogue_calls). */
void sysbatch_describe_region_end(struct sysbatch_block *blk,
                                  int function_calls, bool last_part);
/* Calls to catalogue functions in `fun`, candidates or not (a look before
 * may have batched or decided some): `function_calls` above. */
int sysbatch_count_catalogue_calls(function *fun, enum sb_abi abi);
/* Does `fun` call a wrapper of a catalogued function that the unit will
 * inline (glibc's _FORTIFY_SOURCE wrappers)?  The early look then leaves
 * the whole function to the late one. */
bool sysbatch_calls_inlined_wrapper(function *fun, enum sb_abi abi);

/* Branchy regions: the blocks a region entered at `entry` spans, in the
 * function's block order (every successor later), without blocks for which
 * `excluded` says true.  Trailing blocks without candidate calls are left
 * out.  Returns the number of blocks holding candidate calls (the region is
 * only worth planning when that is at least 2); `bbs` gets the blocks. */
/* The function's blocks in layout order as the core's sb_cfg describes them
 * (sysbatch/cfg.h); candidates are counted from `entry` on. */
struct sysbatch_cfg_description {
    sysbatch_cfg_description(basic_block entry, enum sb_abi abi,
                             bool (*excluded)(basic_block));
    ~sysbatch_cfg_description();
    int number(basic_block bb) const; /* -1: not a block of the function */
    auto_vec<basic_block> order;
    int entry_number = 0;
    struct sb_cfg_block *blocks;
    int *preds;
    bool *covered;
    int *number_of;
    struct sb_cfg cfg;
};

int sysbatch_form_region(basic_block entry, enum sb_abi abi,
                         bool (*excluded)(basic_block),
                         auto_vec<basic_block> *bbs);

/* Describe the region `out->bbs` (formed by sysbatch_form_region) with its
 * terminators, nblocks > 0.  Returns the number of candidate calls. */
int sysbatch_analyze_region(enum sb_abi abi, struct sysbatch_block *out);

/* Tock checked chains (tock-chains): the blocks entered at `entry` while
 * each ends in an exact test of its last call's success whose success edge
 * leads to a block with candidate calls that only it enters.  `bbs` gets
 * them when at least two join; a branch that tests a call's result
 * inexactly is reported (-fopt-info-missed) where the run ends. */
void sysbatch_form_tock_chain(basic_block entry, bool (*excluded)(basic_block),
                              auto_vec<basic_block> *bbs);

/* Describe the chain `out->bbs` as ONE straight-line region (nblocks 0):
 * under the stop policy the kernel stops where the code's exact tests
 * leave.  Returns the number of candidate calls. */
int sysbatch_analyze_tock_chain(struct sysbatch_block *out);

/* target=tock, before inlining: a libtock-c syscall wrapper (one raw call
 * and its converter, sb_tock_inline_wrapper) is inlined wherever GCC can. */
void sysbatch_tock_inline_wrappers(function *fun);

/* Phase 4: rewrite batch `batch` of `plan` (Linux ABI only).  Splits blocks
 * and adds PHIs for real SSA names; the caller renames virtual operands and
 * frees dominance information afterwards. */
void sysbatch_rewrite_batch(struct sysbatch_block *blk,
                            const struct sb_plan *plan, int batch);

/* A file-scope `static const` table named after `prefix`, initialised by
 * `ctor` (slot or frame templates); `align_bits` 0 keeps the type's
 * alignment.  rewrite-linux.cc. */
tree sysbatch_build_const_table(const char *prefix, tree type, tree ctor,
                                unsigned align_bits);

/* Phase 4 for Tock: batch `batch` of a straight-line plan becomes one
 * sysbatch_tock_series call at its first call; each call site becomes one
 * sysbatch_tock_take call (its frame's result, or the call run then).
 * Same contract with the caller as above. */
void sysbatch_rewrite_tock_batch(struct sysbatch_block *blk,
                                 const struct sb_plan *plan, int batch);

/* Arithmetic that cannot trap and reads no memory (conversions, + - *,
 * bit operations, shifts, negation, pointer offsets, copies): the analysis
 * may let the rewrite compute it again at a batch's issue point. */
static inline bool pure_arith_code_p(enum tree_code code)
{
    switch (code) {
    CASE_CONVERT:
    case SSA_NAME:
    case INTEGER_CST:
    case PLUS_EXPR:
    case MINUS_EXPR:
    case MULT_EXPR:
    case NEGATE_EXPR:
    case BIT_AND_EXPR:
    case BIT_IOR_EXPR:
    case BIT_XOR_EXPR:
    case BIT_NOT_EXPR:
    case LSHIFT_EXPR:
    case RSHIFT_EXPR:
    case POINTER_PLUS_EXPR:
    case MIN_EXPR:
    case MAX_EXPR:
        return true;
    default:
        return false;
    }
}

/* Tock memory rule (SB_ROW_SHARED_MEMORY): the base of `ref` is memory
 * only this activation of the function can see - an automatic variable or
 * parameter whose address is never taken.  sysbatch_scan_addresses(fun)
 * must have run on the current function first. */
bool sysbatch_private_ref_p(tree ref);
void sysbatch_scan_addresses(function *fun);

/* Fill the runtime decls; called once, at the start of the unit. */
void sysbatch_build_runtime_decls(void);

#endif /* SYSBATCH_GCC_H */
