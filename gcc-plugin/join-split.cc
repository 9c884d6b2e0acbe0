/* join-split.cc: copy a join block's first call onto one incoming edge
 * (sysbatch/cfg.h, "join splits"), so that it batches with the calls of
 * the path that edge leaves - cat.c's
 *
 *     if (reading_stdin) fd = 0; else { fd = open(p, ...); if (fd < 0) ...; }
 *     if (fstat(fd, &st) < 0) ...
 *
 * The join is split after its first candidate call; the head (its phis,
 * the code before the call and the call) is duplicated onto the edge the
 * core picks (sb_cfg_join_split_edge) as GCC's tracer duplicates a block,
 * and update_ssa gives the tail the phis of the original and the copy.
 * The function is then planned again without a word (plan.cc's trial
 * mode); unless the copied call is in a batch the split is undone - the
 * copy deleted, the edge sent back, the tail's phis replaced by the
 * original values and the tail merged into the head - so code grows only
 * where a batch forms.  The LLVM pass does the same (JoinSplit.cpp).
 */
#include "sysbatch-gcc.h"
#include "block-scanner.h"
#include "loop-batching.h"

#include "sysbatch/remark.h"

#include "tree-ssa.h"

using sysbatch_gcc::callee_symbol;
using sysbatch_gcc::sysbatch_catalog_callee_p;

namespace {

/* The first candidate call of `bb`, the number of statements before it
 * (labels, debug statements and the end of a local's life not counted) and,
 * when one of them has an effect the split does not copy, what it is. */
gcall *first_candidate(basic_block bb, int *prefix, const char **effect)
{
    *prefix = 0;
    *effect = NULL;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (is_gimple_debug(stmt) || gimple_code(stmt) == GIMPLE_LABEL ||
            gimple_clobber_p(stmt))
            continue;
        gcall *call = dyn_cast<gcall *>(stmt);
        if (call && sysbatch_catalog_callee_p(call, sysbatch_cfg.abi) &&
            !(sysbatch_loop_calls && sysbatch_loop_calls->contains(call)))
            return call;
        if (stmt_ends_bb_p(stmt))
            return NULL;
        ++*prefix;
        if (*effect)
            continue;
        if (is_gimple_call(stmt))
            *effect = "call";
        else if (gimple_has_volatile_ops(stmt))
            *effect = "volatile access";
        else if (gimple_vdef(stmt) || gimple_has_side_effects(stmt))
            *effect = "store";
        else if (stmt_could_throw_p(cfun, stmt))
            *effect = "statement that may throw";
    }
    return NULL;
}

struct join_split {
    basic_block pred, head, copy, tail;
    gcall *call, *copy_call;
    /* head's phi arguments on the edge from pred, for the undo */
    auto_vec<std::pair<gphi *, std::pair<tree, location_t>>> head_args;
};

/* The value the last store to `ref` before `stmt` wrote, when the memory
 * `stmt` sees comes from that store with nothing in between that may write
 * `ref` (walked along the virtual operands, which a phi stops); else NULL.
 * GCC keeps a global's reload in a join (cat.c's `static int input_desc`:
 * `input_desc = 0` on one path, `input_desc = open (...)` on the other,
 * `fstat (input_desc, ...)` after them); in the copy, which has one
 * predecessor, the reload reads the one store of that path. */
tree stored_value_reaching(gimple *stmt, tree ref)
{
    tree vuse = gimple_vuse(stmt);
    for (int steps = 0; vuse && steps < 16; steps++) {
        gimple *def = SSA_NAME_DEF_STMT(vuse);
        if (gimple_nop_p(def) || gimple_code(def) == GIMPLE_PHI)
            return NULL_TREE;
        if (gimple_assign_single_p(def) && gimple_store_p(def) &&
            !gimple_has_volatile_ops(def) &&
            operand_equal_p(gimple_assign_lhs(def), ref, 0)) {
            tree value = gimple_assign_rhs1(def);
            return is_gimple_val(value) ? value : NULL_TREE;
        }
        if (stmt_may_clobber_ref_p(def, ref, false))
            return NULL_TREE;
        vuse = gimple_vuse(def);
    }
    return NULL_TREE;
}

/* Loads before the copied call that read what the edge's path stored
 * become that value, so the call sees it as the path computed it (open's
 * result, chained) instead of memory read after the batch's first call. */
void forward_stores_into_copy(basic_block copy, gcall *copy_call)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(copy); !gsi_end_p(gsi);) {
        gimple *stmt = gsi_stmt(gsi);
        if (stmt == copy_call)
            break;
        tree lhs = gimple_assign_load_p(stmt) && !gimple_has_volatile_ops(stmt)
                       ? gimple_assign_lhs(stmt)
                       : NULL_TREE;
        tree value = lhs && TREE_CODE(lhs) == SSA_NAME
                         ? stored_value_reaching(
                               stmt, gimple_assign_rhs1(stmt))
                         : NULL_TREE;
        if (!value ||
            !useless_type_conversion_p(TREE_TYPE(lhs), TREE_TYPE(value))) {
            gsi_next(&gsi);
            continue;
        }
        replace_uses_by(lhs, value);
        gsi_remove(&gsi, true);
        release_defs(stmt);
    }
}

/* Copy head's statements up to `call` onto the edge from `pred`. */
void do_split(struct join_split &s, basic_block head, basic_block pred,
              gcall *call)
{
    s.pred = pred;
    s.head = head;
    s.call = call;
    s.tail = split_block(head, call)->dest;
    edge e = find_edge(pred, head);
    for (gphi_iterator gsi = gsi_start_phis(head); !gsi_end_p(gsi);
         gsi_next(&gsi))
        s.head_args.safe_push(std::make_pair(
            gsi.phi(),
            std::make_pair(PHI_ARG_DEF_FROM_EDGE(gsi.phi(), e),
                           gimple_phi_arg_location_from_edge(gsi.phi(), e))));
    initialize_original_copy_tables();
    s.copy = duplicate_block(head, e, head, NULL);
    flush_pending_stmts(e);
    add_phi_args_after_copy(&s.copy, 1, NULL);
    free_original_copy_tables();
    s.copy_call = NULL;
    for (gimple_stmt_iterator gsi = gsi_last_bb(s.copy); !gsi_end_p(gsi);
         gsi_prev(&gsi))
        if (gcall *c = dyn_cast<gcall *>(gsi_stmt(gsi))) {
            s.copy_call = c;
            break;
        }
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    update_ssa(TODO_update_ssa);
    /* The copy has one predecessor: its phis are the values from `pred`,
     * which the calls in it must see as such (open's result, not a phi). */
    for (gphi_iterator gsi = gsi_start_phis(s.copy); !gsi_end_p(gsi);) {
        gphi *phi = gsi.phi();
        replace_uses_by(gimple_phi_result(phi), gimple_phi_arg_def(phi, 0));
        remove_phi_node(&gsi, true);
    }
    if (s.copy_call)
        forward_stores_into_copy(s.copy, s.copy_call);
}

/* Put the function back as it was before do_split() (up to SSA names). */
void undo_split(struct join_split &s)
{
    edge e = single_pred_edge(s.copy);
    e = redirect_edge_and_branch(e, s.head);
    /* The copy's phis are gone (do_split): the head's arguments for the
     * edge come from what do_split saved. */
    redirect_edge_var_map_clear(e);
    for (auto &arg : s.head_args)
        add_phi_arg(arg.first, arg.second.first, e, arg.second.second);
    delete_basic_block(s.copy);
    /* The tail's phis now have the head's values only. */
    for (gphi_iterator gsi = gsi_start_phis(s.tail); !gsi_end_p(gsi);) {
        gphi *phi = gsi.phi();
        tree result = gimple_phi_result(phi);
        tree arg = gimple_phi_arg_def(phi, 0);
        replace_uses_by(result, arg);
        remove_phi_node(&gsi, true);
    }
    if (can_merge_blocks_p(s.head, s.tail))
        merge_blocks(s.head, s.tail);
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
}

const char *callee_name(gcall *call);

/* The calls the function batches, planned on trial; -1 when `copy_call`
 * (NULL: none) is not among them.  Then `why` says what kept it out: the
 * refusal of `source_call` (the call the copy was to batch with) when it
 * is refused too, as the region ended before the copy, else the copy's. */
int batched_calls(function *fun, gcall *copy_call, gcall *source_call = NULL,
                  char *why = NULL, size_t why_size = 0)
{
    auto_vec<struct sysbatch_planned_region> queue;
    sysbatch_planning_trial = true;
    sysbatch_plan_function(fun, &queue);
    sysbatch_planning_trial = false;
    int batched = 0;
    bool copy_batched = false;
    char copy_why[400] = "", source_why[400] = "";
    for (struct sysbatch_planned_region &pr : queue) {
        for (int c = 0; c < pr.plan.ncalls; c++) {
            const struct sb_call_plan &cp = pr.plan.calls[c];
            gcall *site = pr.blk->calls[c];
            if (cp.batch >= 0) {
                batched++;
                copy_batched |= site == copy_call;
            } else if (site && (site == copy_call || site == source_call)) {
                char *out = site == copy_call ? copy_why : source_why;
                sb_remark_refusal(out, sizeof copy_why, cp.why, cp.detail);
            }
        }
        sb_plan_free(&pr.plan);
        delete pr.blk;
    }
    if (why && why_size) {
        why[0] = '\0';
        if (source_why[0])
            snprintf(why, why_size, "%s: %s", callee_name(source_call),
                     source_why);
        else if (copy_why[0])
            snprintf(why, why_size, "%s: %s", callee_name(copy_call),
                     copy_why);
    }
    return copy_call && !copy_batched ? -1 : batched;
}

const char *callee_name(gcall *call)
{
    tree fn = gimple_call_fndecl(call);
    return fn ? IDENTIFIER_POINTER(DECL_NAME(fn)) : "call";
}

/* The last candidate call on the way into `pred` (through blocks of one
 * predecessor): the call the copy is to batch with. */
gcall *edge_source_call(basic_block pred)
{
    for (int steps = 0; pred && steps < SB_MAX_REGION_BLOCKS; steps++) {
        for (gimple_stmt_iterator gsi = gsi_last_bb(pred); !gsi_end_p(gsi);
             gsi_prev(&gsi))
            if (gcall *c = dyn_cast<gcall *>(gsi_stmt(gsi)))
                if (sysbatch_catalog_callee_p(c, sysbatch_cfg.abi))
                    return c;
        pred = single_pred_p(pred) ? single_pred(pred) : NULL;
    }
    return NULL;
}

/* Its name, for a remark. */
const char *edge_source(basic_block pred)
{
    gcall *c = edge_source_call(pred);
    return c ? callee_name(c) : NULL;
}

/* A label of the block whose address is taken (a computed goto's target)
 * or that a nonlocal goto reaches. */
bool address_taken_p(basic_block bb)
{
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        glabel *label = dyn_cast<glabel *>(gsi_stmt(gsi));
        if (!label)
            break;
        tree decl = gimple_label_label(label);
        if (FORCED_LABEL(decl) || DECL_NONLOCAL(decl))
            return true;
    }
    return false;
}

/* A back edge enters `bb` (its source is dominated by it). */
bool loop_header_p(basic_block bb)
{
    calculate_dominance_info(CDI_DOMINATORS);
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, bb->preds)
        if (dominated_by_p(CDI_DOMINATORS, e->src, bb))
            return true;
    return false;
}

bool never_excluded(basic_block)
{
    return false;
}

} // namespace

bool sysbatch_planning_trial;

int sysbatch_split_joins(function *fun, bool final)
{
    if (sysbatch_cfg.abi != SB_ABI_LINUX_X86_64)
        return 0; /* Tock's series call only stops or continues */
    const bool returns_twice = fun->calls_setjmp;
    int kept = 0, trials = 0;
    int baseline = -1; /* calls the function batches without (more) splits */
    const int max_trials = 16; /* each trial plans the function again */
    auto_vec<basic_block> joins;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
        joins.safe_push(bb);
    for (basic_block j : joins) {
        int prefix;
        const char *effect;
        gcall *call = first_candidate(j, &prefix, &effect);
        /* A call that ends its block (it may throw) has no tail to keep. */
        if (!call || stmt_ends_bb_p(call) || !can_duplicate_block_p(j))
            continue;
        struct sb_join_info info = {};
        info.prefix = prefix;
        info.prefix_effect = effect;
        info.address_taken = address_taken_p(j);
        info.returns_twice = returns_twice;
        info.loop_header = loop_header_p(j);
        const char *callee = callee_symbol(call);
        const struct sb_syscall *row =
            callee ? sb_catalog_lookup(sysbatch_cfg.abi, callee) : NULL;
        info.never_batched = row && (row->flags & SB_ROW_NEVER);
        char why[1024] = "";
        for (int from = 0;;) {
            sysbatch_cfg_description d(j, sysbatch_cfg.abi, never_excluded);
            /* Candidates of every block, not only those from j on. */
            for (int k = 0; k < d.cfg.nblocks; k++)
                d.blocks[k].candidates =
                    sysbatch_count_candidates(d.order[k], sysbatch_cfg.abi);
            int jn = d.number(j);
            const char *core_why = NULL;
            int k = sb_cfg_join_split_edge(&d.cfg, jn, &info, from, &core_why);
            if (k < 0) {
                if (core_why && !why[0])
                    snprintf(why, sizeof why, "%s", core_why);
                break;
            }
            basic_block pred = d.order[d.blocks[jn].preds[k]];
            from = d.blocks[jn].preds[k] + 1;
            if (trials == max_trials) {
                snprintf(why, sizeof why,
                         "join not split: the function's other joins used "
                         "up the trials (%d)", max_trials);
                break;
            }
            trials++;
            if (baseline < 0)
                baseline = batched_calls(fun, NULL);
            struct join_split s;
            do_split(s, j, pred, call);
            /* Kept only for a batched copy that gains a call besides itself
             * (a join already inside a region would batch the copy and the
             * original both, for no call more). */
            char trial_why[512] = "";
            int after = s.copy_call
                            ? batched_calls(fun, s.copy_call,
                                            edge_source_call(pred), trial_why,
                                            sizeof trial_why)
                            : -1;
            if (after > baseline + 1) {
                baseline = after;
                kept++;
                if (dump_enabled_p()) {
                    const char *source = edge_source(pred);
                    dump_printf_loc(
                        MSG_OPTIMIZED_LOCATIONS,
                        dump_user_location_t::from_location_t(
                            sysbatch_remark_location(call)),
                        "sysbatch: join split: %s copied onto the edge from "
                        "%s%s, with the %d %s before it; it batches there\n",
                        callee_name(call), source ? source : "another block",
                        source ? "'s block" : "", prefix,
                        prefix == 1 ? "instruction" : "instructions");
                }
                why[0] = '\0';
                break;
            }
            const char *source = edge_source(pred);
            snprintf(why, sizeof why,
                     "join not split: its copy on the edge from %s%s %s%s%s",
                     source ? source : "another block",
                     source ? "'s block" : "",
                     after < 0 ? "forms no batch"
                               : "batches no call the function does not "
                                 "batch without it",
                     after < 0 && trial_why[0] ? " (" : "",
                     after < 0 && trial_why[0] ? trial_why : "");
            if (after < 0 && trial_why[0])
                snprintf(why + strlen(why), sizeof why - strlen(why), ")");
            undo_split(s);
        }
        if (why[0] && final && dump_enabled_p())
            dump_printf_loc(MSG_MISSED_OPTIMIZATION,
                            dump_user_location_t::from_location_t(
                                sysbatch_remark_location(call)),
                            "sysbatch: %s: %s\n", callee_name(call), why);
    }
    return kept;
}
