/* block-scanner.h: the GIMPLE describer the analysis files share.
 *
 *   block-analysis.cc  calls, operands, code gaps and barriers of one
 *                      basic block (block_scanner::run)
 *   regions.cc         branchy regions: formation, terminators
 *                      (block_scanner::run_region)
 *   tock-analysis.cc   the Tock memory rule, result-struct loads, checked
 *                      chains (block_scanner::run_tock_chain)
 *
 * One block_scanner describes one region into a sysbatch_block; its helpers
 * live in namespace sysbatch_gcc so that the three files can share them
 * without exporting plain names from a plugin loaded into cc1.
 */
#ifndef SYSBATCH_BLOCK_SCANNER_H
#define SYSBATCH_BLOCK_SCANNER_H

#include "sysbatch-gcc.h"
#include "sysbatch/cfg.h"
#include "sysbatch/libc.h"
#include "sysbatch/shape.h"

namespace sysbatch_gcc {

/* The callee's linker name, or NULL (block-analysis.cc). */
const char *callee_symbol(gcall *call);
/* Is `call`'s callee the catalogue's function of that name? */
bool sysbatch_catalog_callee_p(gcall *call, enum sb_abi abi);

/* An integer of at most 64 bits or a pointer (block-analysis.cc). */
bool word_type_p(tree type);

/* "a store", "a load", "a call to memcpy" (block-analysis.cc). */
const char *describe_stmt(gimple *stmt);

/* Statements that only steer control flow (regions.cc). */
bool control_stmt_p(gimple *stmt);

/* A call to a function of the core's libc table (sysbatch/libc.h): its
 * row, with one access per argument in `acc`; NULL when `stmt` is no such
 * call or stays a barrier (`*why`, if given, says why) (block-analysis.cc). */
const struct sb_libc_function *libc_call(gimple *stmt, enum sb_abi abi,
                                         struct sb_libc_access *acc,
                                         const char **why);

/* A load or store of errno only (block-analysis.cc). */
bool errno_access_p(gimple *stmt);

/* GCC's compare as the core's; `name` is `result` through copies and
 * value-keeping widenings (regions.cc). */
bool map_compare(enum tree_code code, bool is_unsigned, enum sb_cmp *op);
bool same_value_p(tree name, tree result);

class block_scanner {
public:
    block_scanner(basic_block bb, enum sb_abi abi, int first,
                  struct sysbatch_block *out)
        : bb_(bb), abi_(abi), first_(first), out_(out) {}
    int run();
    int run_region();
    int run_tock_chain();
    /* Also used by the loop analysis (loop-analysis.cc), which describes
     * one call site without a region. */
    bool is_candidate(gcall *call) const;
    void describe_shape(gcall *call, struct sb_call_shape *shape) const;
    bool stmt_is_barrier(gimple *stmt, const char **why) const;

private:
    struct gap {
        int after_call;          /* gap follows region call `after_call` */
        auto_vec<gimple *> stmts;
    };

    struct sb_operand classify(tree arg, unsigned first_call_uid) const;
    bool available_ssa_p(tree name, unsigned first_call_uid) const;
    bool load_available_at_issue(gimple *def, unsigned first_call_uid) const;
    bool computable_at_issue(tree name, unsigned first_call_uid,
                             int depth) const;
    bool as_at_issue(tree name, unsigned first_call_uid) const;
    bool same_at_issue(tree a, tree b, unsigned first_call_uid) const;
    bool memory_operand(gimple *load, struct sb_operand *op) const;
    bool keeps_word(gimple_stmt_iterator gsi, gimple *stop, ao_ref *word) const;
    bool reaches(int from, int to, bool *between) const;
    const struct sb_syscall *raw_row(gcall *call, unsigned *shift) const;
    int call_index_of(const gimple *stmt) const;
    void describe_call(gcall *call, unsigned first_call_uid,
                       struct sb_call_event *ev) const;
    bool tock_result_operand(gimple *load, struct sb_operand *op) const;
    bool barrier_kind(gimple *stmt, enum sb_barrier *kind,
                      const char **callee) const;
    bool stmt_conflicts_with(gimple *stmt, int call) const;
    bool describe_barrier(const gap &g, struct sb_code_event *ev) const;
    unsigned collect_calls(bool record_stmts);
    void describe_gap(const gap &g, struct sb_code_event *ev) const;
    void describe_tock_gap(const gap &g, struct sb_code_event *ev) const;
    gap *reach_call(gcall *call, gap *open_gap, bool record_gap,
                    unsigned first_call_uid, auto_vec<gap *> *gaps);
    void push_call_event(gcall *call, unsigned first_call_uid);
    bool in_region(basic_block bb) const;
    int region_block(basic_block bb) const;
    void describe_condition(int call, gcond *cond,
                            struct sb_term_shape *shape) const;
    void describe_terminator(int b, struct sb_block *blk,
                             const char **why) const;
    enum sb_pred_avail describe_pred(tree value, const char **what,
                                     int depth) const;
    enum sb_pred_avail describe_pred_load(gassign *load,
                                          const char **what) const;
    bool load_cannot_trap_at_issue(gassign *load) const;

    basic_block bb_; /* the block, or the branchy region's entry */
    enum sb_abi abi_;
    int first_; /* the region starts at the block's candidate first_ */
    struct sysbatch_block *out_;
    bool chain_ = false; /* describing a Tock checked chain */
    unsigned first_call_uid_ = ~0u; /* branchy region: the issue point */
};

} // namespace sysbatch_gcc

#endif /* SYSBATCH_BLOCK_SCANNER_H */
