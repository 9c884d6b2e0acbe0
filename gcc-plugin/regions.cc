/* regions.cc: branchy regions on GIMPLE - which blocks a region entered at
 * a block spans (sysbatch_form_region), and their events and terminators
 * for the core (sysbatch_analyze_region, block_scanner::run_region,
 * describe_terminator).
 *
 * A branchy region
 *
 *     fd_5 = open (p_3(D), 0);             block 0: call 0, COND on call 0
 *     if (fd_5 < 0) goto <bb 3>; else goto <bb 4>;    <0 -> 1, else 2
 *   <bb 3>: _8 = -1; goto <bb 5>;           block 1: no call, EXIT (the
 *   <bb 4>:                                  return block comes after the
 *     _7 = fstat (fd_5, st_6(D));            last call and is left out)
 *     goto <bb 5>;                         block 2: call 1, EXIT
 *
 * is described block by block in the function's block order, with calls
 * numbered across blocks; each block ends in COND (a compare of its last
 * call's value with a constant that the sign class decides), GOTO or EXIT.
 */
#include "block-scanner.h"
#include "sysbatch/cfg.h"

#include <string.h>

namespace sysbatch_gcc {

/* Statements that only steer control flow: the terminator is described
 * separately, and a return ends every path of the region anyway. */
bool control_stmt_p(gimple *stmt)
{
    switch (gimple_code(stmt)) {
    case GIMPLE_COND: case GIMPLE_SWITCH: case GIMPLE_RETURN:
    case GIMPLE_GOTO: case GIMPLE_LABEL: case GIMPLE_NOP:
    case GIMPLE_PREDICT:
        return true;
    default:
        return is_gimple_debug(stmt);
    }
}

/* A branchy region (docs/gcc.md, "Branchy regions"): the events of every
 * block - for the entry block from its first candidate call on, for the
 * others from their first statement (code before a block's first call is
 * crossed on the way to it) - and each block's terminator. */
int block_scanner::run_region()
{
    unsigned first_call_uid = collect_calls(false);
    first_call_uid_ = first_call_uid;
    int ncalls = (int)out_->calls.length();
    if (ncalls == 0 || ncalls > SB_MAX_REGION_CALLS ||
        gimple_bb(out_->calls[0]) != bb_)
        return ncalls;

    auto_vec<gap *> gaps;
    int seen = 0;
    for (unsigned b = 0; b < out_->bbs.length(); b++) {
        struct sb_block blk;
        memset(&blk, 0, sizeof blk);
        blk.first_event = (int)out_->events.length();
        gap *open_gap = NULL;
        bool leading = b > 0; /* a leading gap is recorded only if not empty */
        if (leading) {
            open_gap = new gap;
            open_gap->after_call = seen - 1;
        }
        for (gimple_stmt_iterator gsi = gsi_start_bb(out_->bbs[b]);
             !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            if (seen < ncalls && stmt == out_->calls[seen]) {
                open_gap = reach_call(as_a<gcall *>(stmt), open_gap, !leading,
                                      first_call_uid, &gaps);
                leading = false;
                seen++;
                continue;
            }
            if (open_gap && !control_stmt_p(stmt))
                open_gap->stmts.safe_push(stmt);
        }
        /* Code after the block's last call (or a call-free block's code). */
        if (open_gap && !open_gap->stmts.is_empty()) {
            struct sb_event ev;
            memset(&ev, 0, sizeof ev);
            ev.kind = SB_EV_CODE;
            gaps.safe_push(open_gap);
            out_->events.safe_push(ev);
        } else {
            delete open_gap;
        }
        blk.nevents = (int)out_->events.length() - blk.first_event;
        out_->blocks.safe_push(blk);
    }

    unsigned next_gap = 0;
    for (unsigned e = 0; e < out_->events.length(); e++) {
        if (out_->events[e].kind != SB_EV_CODE)
            continue;
        describe_gap(*gaps[next_gap], &out_->events[e].u.code);
        delete gaps[next_gap++];
    }
    out_->region.abi = abi_;
    out_->region.nevents = (int)out_->events.length();
    out_->region.events = out_->events.address();
    out_->region.nblocks = (int)out_->blocks.length();
    out_->region.blocks = out_->blocks.address();
    for (unsigned b = 0; b < out_->blocks.length(); b++) {
        const char *why = NULL;
        describe_terminator((int)b, &out_->blocks[b], &why);
        out_->term_why.safe_push(why);
        out_->term_stmt.safe_push(last_stmt(out_->bbs[b]));
    }
    return ncalls;
}

/* GCC's compare, on an operand of the given signedness, as the core's. */
bool map_compare(enum tree_code code, bool is_unsigned, enum sb_cmp *op)
{
    switch (code) {
    case EQ_EXPR: *op = SB_CMP_EQ; return true;
    case NE_EXPR: *op = SB_CMP_NE; return true;
    case LT_EXPR: *op = is_unsigned ? SB_CMP_ULT : SB_CMP_SLT; return true;
    case LE_EXPR: *op = is_unsigned ? SB_CMP_ULE : SB_CMP_SLE; return true;
    case GT_EXPR: *op = is_unsigned ? SB_CMP_UGT : SB_CMP_SGT; return true;
    case GE_EXPR: *op = is_unsigned ? SB_CMP_UGE : SB_CMP_SGE; return true;
    default: return false;
    }
}

/* `name` is `result` itself, or `result` through copies and widening
 * conversions that keep both its value and its signedness. */
bool same_value_p(tree name, tree result)
{
    while (name != result) {
        if (TREE_CODE(name) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(name))
            return false;
        gassign *assign = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(name));
        if (!assign)
            return false;
        enum tree_code code = gimple_assign_rhs_code(assign);
        tree src = gimple_assign_rhs1(assign);
        if (code != SSA_NAME && !CONVERT_EXPR_CODE_P(code))
            return false;
        tree to = TREE_TYPE(name), from = TREE_TYPE(src);
        if (code != SSA_NAME &&
            (!INTEGRAL_TYPE_P(to) || !INTEGRAL_TYPE_P(from) ||
             TYPE_UNSIGNED(to) != TYPE_UNSIGNED(from) ||
             TYPE_PRECISION(to) < TYPE_PRECISION(from)))
            return false;
        name = src;
    }
    return true;
}

/* Block b's terminator (core.h, "branchy regions"), decided by the core's
 * sb_describe_terminator: COND when the block ends in `value OP constant`
 * on its last call's value, with only code that commutes with every later
 * call after that call; GOTO for a plain edge to a later region block;
 * EXIT otherwise (with the reason when that ends a region). */
void block_scanner::describe_terminator(int b, struct sb_block *blk,
                                        const char **why) const
{
    basic_block bb = out_->bbs[b];
    gimple *last = last_stmt(bb);
    gcond *cond = last ? dyn_cast<gcond *>(last) : NULL;
    int call = -1;
    for (int i = 0; i < (int)out_->calls.length(); i++)
        if (out_->block_of_call[i] == b)
            call = i;
    struct sb_term_shape shape;
    memset(&shape, 0, sizeof shape);
    shape.succ[0] = shape.succ[1] = -1;
    if (last && gimple_code(last) == GIMPLE_SWITCH) {
        shape.kind = SB_TS_SWITCH;
    } else if (!cond) {
        if (single_succ_p(bb) &&
            !(single_succ_edge(bb)->flags & (EDGE_ABNORMAL | EDGE_EH))) {
            shape.kind = SB_TS_JUMP;
            shape.succ[0] = region_block(single_succ(bb));
        }
    } else {
        shape.kind = SB_TS_BRANCH;
        edge on_true, on_false;
        extract_true_false_edges_from_block(bb, &on_true, &on_false);
        shape.succ[0] = region_block(on_true->dest);
        shape.succ[1] = region_block(on_false->dest);
        if (call >= 0)
            describe_condition(call, cond, &shape);
        /* The whole condition, for a predicated branch: both operands
         * available where the batch is issued. */
        const char *what = NULL;
        enum sb_pred_avail pred =
            describe_pred(gimple_cond_lhs(cond), &what, 0);
        if (pred == SB_PA_AVAILABLE)
            pred = describe_pred(gimple_cond_rhs(cond), &what, 0);
        shape.pred = (uint8_t)pred;
        shape.pred_what = what;
    }
    char buf[512];
    const char *text = sb_describe_terminator(&out_->region, b, call, &shape,
                                              blk, buf, sizeof buf);
    *why = text == buf ? ggc_strdup(buf) : text;
}

/* Is `value`, an operand of a branch condition, available where the batch
 * is issued (core.h, SB_TERM_PRED)?  Defined before the issue point, or
 * recomputable there by arithmetic that cannot trap over such values and
 * by loads describe_pred_load allows.  The LLVM pass decides the same
 * (visitBranchCondition). */
enum sb_pred_avail block_scanner::describe_pred(tree value, const char **what,
                                                int depth) const
{
    /* Integer and pointer values only: a floating-point compare made
     * early could raise an exception flag the program never raised. */
    tree type = TREE_TYPE(value);
    if (!INTEGRAL_TYPE_P(type) && !POINTER_TYPE_P(type))
        return SB_PA_COMPUTED;
    if (available_ssa_p(value, first_call_uid_))
        return SB_PA_AVAILABLE;
    if (TREE_CODE(value) != SSA_NAME || depth > 16)
        return SB_PA_COMPUTED;
    gimple *def = SSA_NAME_DEF_STMT(value);
    int producer = call_index_of(def);
    if (producer >= 0) {
        *what = callee_symbol(out_->calls[producer]);
        return SB_PA_RESULT;
    }
    if (gphi *phi = dyn_cast<gphi *>(def)) {
        /* A value chosen by the path (x = n < 0 ? a : b): computed in the
         * region, from a call's result when one of its inputs is. */
        for (unsigned i = 0; i < gimple_phi_num_args(phi); i++)
            if (describe_pred(gimple_phi_arg_def(phi, i), what, depth + 1) ==
                SB_PA_RESULT)
                return SB_PA_RESULT;
        return SB_PA_COMPUTED;
    }
    gassign *assign = dyn_cast<gassign *>(def);
    if (!assign || gimple_has_volatile_ops(assign))
        return SB_PA_COMPUTED;
    if (gimple_assign_load_p(assign) && gimple_assign_single_p(assign))
        return describe_pred_load(assign, what);
    if (gimple_vuse(assign) ||
        (!pure_arith_code_p(gimple_assign_rhs_code(assign)) &&
         TREE_CODE_CLASS(gimple_assign_rhs_code(assign)) != tcc_comparison)) {
        /* Not recomputable; name a call result it depends on, if any. */
        for (unsigned i = 1; i < gimple_num_ops(assign); i++)
            if (gimple_op(assign, i) &&
                describe_pred(gimple_op(assign, i), what, depth + 1) ==
                    SB_PA_RESULT)
                return SB_PA_RESULT;
        return SB_PA_COMPUTED;
    }
    for (unsigned i = 1; i < gimple_num_ops(assign); i++) {
        enum sb_pred_avail p = describe_pred(gimple_op(assign, i), what,
                                             depth + 1);
        if (p != SB_PA_AVAILABLE)
            return p;
    }
    return SB_PA_AVAILABLE;
}

/* `ref` as a declared object of known size, a constant byte offset and a
 * variable offset (NULL_TREE when none), or false. */
static bool decompose_ref(tree ref, tree *object, HOST_WIDE_INT *offset,
                          tree *variable, HOST_WIDE_INT *object_size)
{
    poly_int64 bitsize, bitpos;
    tree var_off = NULL_TREE;
    machine_mode mode;
    int unsignedp, reversep, volatilep = 0;
    tree base = get_inner_reference(ref, &bitsize, &bitpos, &var_off, &mode,
                                    &unsignedp, &reversep, &volatilep);
    HOST_WIDE_INT bits;
    if (!base || volatilep || reversep || !VAR_P(base) ||
        !bitpos.is_constant(&bits) || bits % BITS_PER_UNIT != 0)
        return false;
    tree size = DECL_SIZE_UNIT(base);
    if (!size || !tree_fits_shwi_p(size))
        return false;
    /* A definition another unit might replace with one of another size
     * (a weak or common symbol) does not tell the size. */
    if (TREE_PUBLIC(base) && (DECL_WEAK(base) || DECL_COMMON(base)))
        return false;
    HOST_WIDE_INT bytes = bits / BITS_PER_UNIT;
    /* get_inner_reference keeps a constant index's bytes in the variable
     * offset (to[n][1]: n * 8 + 4): move them into the constant part. */
    while (var_off && TREE_CODE(var_off) == PLUS_EXPR &&
           TREE_CODE(TREE_OPERAND(var_off, 1)) == INTEGER_CST &&
           tree_fits_shwi_p(TREE_OPERAND(var_off, 1))) {
        bytes += tree_to_shwi(TREE_OPERAND(var_off, 1));
        var_off = TREE_OPERAND(var_off, 0);
    }
    if (var_off && TREE_CODE(var_off) == INTEGER_CST) {
        if (!tree_fits_shwi_p(var_off))
            return false;
        bytes += tree_to_shwi(var_off);
        var_off = NULL_TREE;
    }
    *object = base;
    *offset = bytes;
    *variable = var_off;
    *object_size = tree_to_shwi(size);
    return true;
}

/* Can the issue point (before the region's first call) make `load`, which
 * may run on some paths only, without faulting?  When its reference cannot
 * trap anywhere (tree_could_trap_p: a declared object at a constant
 * offset, as LLVM's isDereferenceablePointer), or when an access on every
 * path to the issue point - in the entry block before it, or in the blocks
 * before that reached through single predecessors - with no call (a
 * free), asm or clobber in between proves it: the very reference, at
 * least as wide (`fchdir(sp->fd)`, then `close(sp->fd)` on both of its
 * paths), or a reference into a declared object of known size at the same
 * variable offset V, so that the earlier access in bounds (c1 + V in
 * [0, size1 - n1]) puts this one's c2 + V in [0, size2 - n2] (rtapelib's
 * `to[n][0]` before the batch makes `to[n][1]` and `from[n][1]` safe).
 * The LLVM pass decides the same (loadSafeAtIssue). */
bool block_scanner::load_cannot_trap_at_issue(gassign *load) const
{
    tree ref = gimple_assign_rhs1(load);
    if (!tree_could_trap_p(ref))
        return true;
    if (out_->calls.is_empty())
        return false;
    tree size = TYPE_SIZE_UNIT(TREE_TYPE(ref));
    if (!size || !tree_fits_uhwi_p(size))
        return false;
    HOST_WIDE_INT n2 = (HOST_WIDE_INT)tree_to_uhwi(size);
    tree object2, var2;
    HOST_WIDE_INT c2, size2;
    bool decomposed2 = decompose_ref(ref, &object2, &c2, &var2, &size2) &&
                       var2 != NULL_TREE &&
                       get_object_alignment(ref) >=
                           TYPE_ALIGN(TREE_TYPE(ref));
    gimple_stmt_iterator gsi = gsi_for_stmt(out_->calls[0]);
    basic_block bb = gimple_bb(out_->calls[0]);
    gsi_prev(&gsi);
    for (int blocks = 0; blocks < 8; blocks++) {
        for (; !gsi_end_p(gsi); gsi_prev(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            if (is_gimple_debug(stmt) || gimple_code(stmt) == GIMPLE_LABEL ||
                gimple_code(stmt) == GIMPLE_NOP)
                continue;
            if ((is_gimple_call(stmt) && gimple_vdef(stmt)) ||
                gimple_code(stmt) == GIMPLE_ASM || gimple_clobber_p(stmt))
                return false;
            gassign *assign = dyn_cast<gassign *>(stmt);
            if (!assign || gimple_has_volatile_ops(assign) ||
                !gimple_assign_single_p(assign))
                continue;
            tree other = gimple_store_p(assign) ? gimple_assign_lhs(assign)
                         : gimple_assign_load_p(assign)
                             ? gimple_assign_rhs1(assign)
                             : NULL_TREE;
            if (!other)
                continue;
            tree other_size = TYPE_SIZE_UNIT(TREE_TYPE(other));
            if (!other_size || !tree_fits_uhwi_p(other_size))
                continue;
            HOST_WIDE_INT n1 = (HOST_WIDE_INT)tree_to_uhwi(other_size);
            if (operand_equal_p(other, ref, 0) && n1 >= n2)
                return true;
            tree object1, var1;
            HOST_WIDE_INT c1, size1;
            if (decomposed2 &&
                decompose_ref(other, &object1, &c1, &var1, &size1) && var1 &&
                operand_equal_p(var1, var2, 0) &&
                sb_offset_in_bounds_after(
                    (int64_t)1 << MIN(tree_ctz(var2), 40u), c1, n1, size1,
                    c2, n2, size2))
                return true;
        }
        if (!single_pred_p(bb))
            return false;
        edge e = single_pred_edge(bb);
        if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
            return false;
        bb = e->src;
        if (bb == ENTRY_BLOCK_PTR_FOR_FN(cfun))
            return false;
        gsi = gsi_last_bb(bb);
    }
    return false;
}

/* A load in the region that the issue point may make instead: it cannot
 * trap there (load_cannot_trap_at_issue), its address is available there, and
 * nothing between the issue point and the load on a region path - code,
 * or the kernel side of a region call - may write what it reads. */
enum sb_pred_avail block_scanner::describe_pred_load(gassign *load,
                                                     const char **what) const
{
    tree ref = gimple_assign_rhs1(load);
    ssa_op_iter iter;
    tree use;
    FOR_EACH_SSA_TREE_OPERAND(use, load, iter, SSA_OP_USE)
        if (!available_ssa_p(use, first_call_uid_))
            return SB_PA_UNSAFE_LOAD;
    if (!load_cannot_trap_at_issue(load) || stmt_could_throw_p(cfun, load))
        return SB_PA_UNSAFE_LOAD;
    int lb = region_block(gimple_bb(load));
    if (lb < 0)
        return SB_PA_COMPUTED;
    auto writes = [&](gimple *stmt) {
        if (gimple_uid(stmt) < first_call_uid_)
            return false; /* before the issue point */
        int call = call_index_of(stmt);
        if (call >= 0)
            return stmt_conflicts_with(load, call);
        return gimple_vdef(stmt) && (stmt_may_clobber_ref_p(stmt, ref, true) ||
                                     gimple_code(stmt) == GIMPLE_ASM ||
                                     is_gimple_call(stmt));
    };
    /* The load's block back from the load, then the blocks on a path to
     * it in order (the writer named is the one the LLVM pass finds). */
    gimple_stmt_iterator gsi = gsi_for_stmt(load);
    for (gsi_prev(&gsi); !gsi_end_p(gsi); gsi_prev(&gsi))
        if (writes(gsi_stmt(gsi))) {
            *what = describe_stmt(gsi_stmt(gsi));
            return SB_PA_WRITTEN;
        }
    auto_vec<bool, 64> between;
    between.safe_grow_cleared(out_->bbs.length());
    if (lb > 0)
        reaches(0, lb, between.address());
    for (int b = 0; b < lb; b++) {
        if (b != 0 && !between[b])
            continue;
        for (gsi = gsi_start_bb(out_->bbs[b]); !gsi_end_p(gsi); gsi_next(&gsi))
            if (writes(gsi_stmt(gsi))) {
                *what = describe_stmt(gsi_stmt(gsi));
                return SB_PA_WRITTEN;
            }
    }
    return SB_PA_AVAILABLE;
}

/* The condition of `cond` after call `call` as the core's terminator shape
 * describes it: an integer compare with a constant, and whether the
 * compared value is the call's result (through copies and widening
 * conversions that keep its value and signedness). */
void block_scanner::describe_condition(int call, gcond *cond,
                                       struct sb_term_shape *shape) const
{
    tree result = gimple_call_lhs(out_->calls[call]);
    tree lhs = gimple_cond_lhs(cond), rhs = gimple_cond_rhs(cond);
    enum tree_code code = gimple_cond_code(cond);
    if (TREE_CODE(lhs) == INTEGER_CST) {
        std::swap(lhs, rhs);
        code = swap_tree_comparison(code);
    }
    enum sb_cmp op;
    if (TREE_CODE(rhs) != INTEGER_CST ||
        !map_compare(code, TYPE_UNSIGNED(TREE_TYPE(lhs)), &op))
        return;
    shape->is_compare = true;
    shape->op = op;
    if (tree_fits_shwi_p(rhs))
        shape->constant = (long)tree_to_shwi(rhs);
    else if (tree_fits_uhwi_p(rhs))
        shape->constant = (long)tree_to_uhwi(rhs);
    else
        return;
    if (!result || TREE_CODE(result) != SSA_NAME || !same_value_p(lhs, result))
        return;
    tree type = TREE_TYPE(result);
    shape->value = TYPE_PRECISION(TREE_TYPE(lhs)) > TYPE_PRECISION(type)
                       ? SB_CV_EXTENDED
                       : SB_CV_RESULT;
    shape->unsigned_result = TYPE_UNSIGNED(type);
    shape->constant_fits = int_fits_type_p(rhs, type);
}

} // namespace sysbatch_gcc

using namespace sysbatch_gcc;

sysbatch_cfg_description::sysbatch_cfg_description(
    basic_block entry, enum sb_abi abi, bool (*excluded)(basic_block))
{
    int nindex = last_basic_block_for_fn(cfun);
    number_of = XNEWVEC(int, nindex);
    for (int i = 0; i < nindex; i++)
        number_of[i] = -1;
    int npreds_total = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, cfun) {
        if (bb == entry)
            entry_number = (int)order.length();
        number_of[bb->index] = (int)order.length();
        npreds_total += EDGE_COUNT(bb->preds);
        order.safe_push(bb);
    }
    int n = (int)order.length();
    blocks = XCNEWVEC(struct sb_cfg_block, n);
    preds = XNEWVEC(int, npreds_total + 1);
    covered = XCNEWVEC(bool, n);
    for (int k = 0, next = 0; k < n; k++) {
        basic_block b = order[k];
        struct sb_cfg_block &blk = blocks[k];
        covered[k] = excluded(b);
        /* Only blocks from the entry on can join: counting the others is
         * waste. */
        blk.candidates = k >= entry_number ? sysbatch_count_candidates(b, abi) : 0;
        blk.preds = preds + next;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, b->preds) {
            if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
                blk.abnormal_entry = true;
            /* The function's entry block is outside every region: -1. */
            preds[next++] = number(e->src);
            blk.npreds++;
        }
        blk.unreachable = k != 0 && EDGE_COUNT(b->preds) == 0;
    }
    cfg.nblocks = n;
    cfg.blocks = blocks;
    cfg.covered = covered;
}

sysbatch_cfg_description::~sysbatch_cfg_description()
{
    XDELETEVEC(number_of);
    XDELETEVEC(covered);
    XDELETEVEC(preds);
    XDELETEVEC(blocks);
}

int sysbatch_cfg_description::number(basic_block bb) const
{
    if (bb->index < 0 || bb->index >= last_basic_block_for_fn(cfun))
        return -1;
    return number_of[bb->index];
}

int sysbatch_form_region(basic_block entry, enum sb_abi abi,
                         bool (*excluded)(basic_block),
                         auto_vec<basic_block> *bbs)
{
    if (sysbatch_count_candidates(entry, abi) == 0)
        return 0;
    sysbatch_cfg_description d(entry, abi, excluded);
    int out[SB_MAX_REGION_BLOCKS];
    int nr = sb_cfg_form_region(&d.cfg, d.entry_number, out);
    int with_calls = 0;
    for (int i = 0; i < nr; i++) {
        bbs->safe_push(d.order[out[i]]);
        with_calls += d.blocks[out[i]].candidates > 0;
    }
    return with_calls;
}

int sysbatch_analyze_region(enum sb_abi abi, struct sysbatch_block *out)
{
    out->bb = out->bbs[0];
    out->part = 0;
    block_scanner scanner(out->bb, abi, 0, out);
    return scanner.run_region();
}
