/* rewrite-linux.cc: phase 4 on GIMPLE - one planned batch becomes versioned code
 * (docs/design.md, "The rewrite, shared by both front ends").
 *
 * before (one block)                 after
 *
 *   fd_3 = open (p_1(D), 0);          _9 = sysbatch_active;
 *   n_6 = read (fd_3, buf_5(D), 64);   if (_9 != 0) goto <fill>; else goto <c>;
 *   close (fd_3);                    <fill>:
 *                                      sysbatch_slots[0].nr = 257; ...
 *                                      _10 = sysbatch_run (&sysbatch_rets[0],
 *                                                          &sysbatch_slots[0], 5, 0);
 *                                    <c>:
 *                                      last_11 = PHI <_10(fill), -1(entry)>
 *                                      if (last_11 >= 0) goto <b0>; else goto <o0>;
 *                                    <b0>:
 *                                      _12 = sysbatch_rets[0];
 *                                      _13 = sysbatch_ret_errno (_12);
 *                                      _14 = (int) _13;
 *                                    <o0>:
 *                                      fd_15 = open (p_1(D), 0);
 *                                    <j0>:
 *                                      fd_3 = PHI <_14(b0), fd_15(o0)>
 *                                      if (last_11 >= 2) ...  (read, then close)
 *
 * Only the kernel side of the later calls moves up to the issue point; code
 * between the calls stays where it was (the planner has checked that it
 * commutes).  When sysbatch_active is 0, `last` is -1 and every call site
 * takes its original call.
 *
 * A branchy batch (several blocks, forward jumps: sb_batch_plan.branchy)
 * is issued the same way at its first call, in the region's entry block;
 * the kernel may skip slots, so each call site tests its own slot:
 *
 *     if (last_11 >= 0) goto <chk>; else goto <o1>;
 *   <chk>:
 *     _20 = sysbatch_rets[3];
 *     if (_20 != -9223372036854775808) goto <b1>; else goto <o1>;
 *   <b1>:  convert _20        <o1>:  original call
 *
 * A straight-line batch whose calls share one block (sb_rt_all_ran_test)
 * first tests last == n - 1 once and on that common path runs a copy of
 * the code from the first call to the last in which every call is just its
 * converted result (all_ran_path); the per-call tests above stay on the
 * other path, for a batch that stopped early or did not run.
 *
 * `last` stays an SSA name: its PHI sits in the block that continues the
 * entry block after the issue point, and since the region has a single
 * entry that block dominates every block of the region, so every call site
 * sees it, at -O0 as well (into-SSA has already run).
 *
 * The original SSA name of each result is kept and redefined by the PHI in
 * the join block, so no use needs rewriting.  Virtual operands of all new
 * statements are left to the renamer (the pass returns TODO_update_ssa).
 */
#include "sysbatch-gcc.h"
#include "sysbatch/runtime-abi.h"
#include "loop-batching.h"

namespace {

tree add_field(tree chain, const char *name, tree type)
{
    tree field = build_decl(BUILTINS_LOCATION, FIELD_DECL,
                            get_identifier(name), type);
    DECL_CHAIN(field) = chain;
    return field;
}

tree extern_fn(const char *name, tree type)
{
    tree decl = build_fn_decl(name, type);
    TREE_NOTHROW(decl) = 1;
    return decl;
}

tree extern_var(const char *name, tree type)
{
    tree decl = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name),
                           type);
    TREE_PUBLIC(decl) = 1;
    DECL_EXTERNAL(decl) = 1;
    DECL_ARTIFICIAL(decl) = 1;
    return decl;
}

/* The GCC type of a runtime-ABI table type (sysbatch/runtime-abi.h). */
tree runtime_type(uint8_t type, tree slot)
{
    tree long_t = long_integer_type_node;
    tree cchar = build_qualified_type(char_type_node, TYPE_QUAL_CONST);
    switch (type) {
    case SB_RT_VOID: return void_type_node;
    case SB_RT_INT: return integer_type_node;
    case SB_RT_U32: return uint32_type_node;
    case SB_RT_LONG: return long_t;
    case SB_RT_PTR: return ptr_type_node;
    case SB_RT_CONST_PTR: return const_ptr_type_node;
    case SB_RT_LONG_PTR: return build_pointer_type(long_t);
    case SB_RT_CONST_LONG_PTR:
        return build_pointer_type(build_qualified_type(long_t, TYPE_QUAL_CONST));
    case SB_RT_SLOT_PTR: return build_pointer_type(slot);
    case SB_RT_CONST_SLOT_PTR:
        return build_pointer_type(build_qualified_type(slot, TYPE_QUAL_CONST));
    case SB_RT_FRAME_PTR: return build_pointer_type(uint32_type_node);
    case SB_RT_CONST_CHAR_PTR: return build_pointer_type(cchar);
    case SB_RT_CONST_CHAR_1: return build_array_type_nelts(cchar, 1);
    default: gcc_unreachable();
    }
}

/* The runtime's function `symbol`, declared from the core's table. */
tree runtime_fn(enum sb_rt_symbol symbol, tree slot)
{
    const struct sb_rt_entry *e = sb_runtime_abi(symbol);
    tree params = void_list_node;
    for (int k = e->nparams - 1; k >= 0; k--)
        params = tree_cons(NULL_TREE, runtime_type(e->params[k], slot), params);
    return extern_fn(e->name,
                     build_function_type(runtime_type(e->ret, slot), params));
}

tree runtime_var(enum sb_rt_symbol symbol, tree slot)
{
    const struct sb_rt_entry *e = sb_runtime_abi(symbol);
    return extern_var(e->name, runtime_type(e->ret, slot));
}

} // namespace

void sysbatch_build_runtime_decls(void)
{
    struct sysbatch_runtime_decls &rt = sysbatch_rt;
    if (rt.slot_type)
        return;
    /* struct sysbatch_slot.  finish_builtin_struct reverses the chain it is
     * given, so the chain is built with the last field at its head. */
    tree slot = make_node(RECORD_TYPE);
    tree fields = NULL_TREE;
    fields = rt.field_nr = add_field(fields, "nr", short_integer_type_node);
    fields = rt.field_jump_fail = add_field(fields, "jump_fail", short_integer_type_node);
    fields = rt.field_jump_zero = add_field(fields, "jump_zero", short_integer_type_node);
    fields = rt.field_jump_pos = add_field(fields, "jump_pos", short_integer_type_node);
    fields = rt.field_argc = add_field(fields, "argc", char_type_node);
    fields = add_field(fields, "pad_", build_array_type_nelts(char_type_node, 7));
    fields = rt.field_arg = add_field(
        fields, "arg", build_array_type_nelts(long_integer_type_node, 6));
    finish_builtin_struct(slot, "sysbatch_slot", fields, NULL_TREE);
    /* The sys_batch slot ABI is byte-exact (runtime/include/sysbatch.h). */
    if (LONG_TYPE_SIZE == 64 &&
        (tree_to_uhwi(TYPE_SIZE_UNIT(slot)) != 64 ||
         int_byte_position(rt.field_nr) != 0 ||
         int_byte_position(rt.field_jump_pos) != 6 ||
         int_byte_position(rt.field_argc) != 8 ||
         int_byte_position(rt.field_arg) != 16))
        internal_error("sysbatch: %<struct sysbatch_slot%> laid out wrongly");
    rt.slot_type = slot;

    rt.run_fn = runtime_fn(SB_RT_RUN, slot);
    rt.ret_errno_fn = runtime_fn(SB_RT_RET_ERRNO, slot);
    rt.ret_mmap_fn = runtime_fn(SB_RT_RET_MMAP, slot);
    rt.ret_positive_fn = runtime_fn(SB_RT_RET_POSITIVE_ERROR, slot);
    rt.verify_fn = runtime_fn(SB_RT_VERIFY_SLOT, slot);
    rt.active_var = runtime_var(SB_RT_ACTIVE, slot);
    rt.empty_string = runtime_var(SB_RT_EMPTY_STRING, slot);
    TREE_READONLY(rt.empty_string) = 1;
    /* Tock: the same table. */
    rt.tock_run_fn = runtime_fn(SB_RT_TOCK_RUN, slot);
    rt.tock_run_template_fn = runtime_fn(SB_RT_TOCK_RUN_TEMPLATE, slot);
    rt.tock_run_commands_fn = runtime_fn(SB_RT_TOCK_RUN_COMMANDS, slot);
    rt.tock_run_masked_fn = runtime_fn(SB_RT_TOCK_RUN_MASKED, slot);
    rt.tock_run_template_commands_fn =
        runtime_fn(SB_RT_TOCK_RUN_TEMPLATE_COMMANDS, slot);
}

tree sysbatch_build_const_table(const char *prefix, tree type, tree ctor,
                                unsigned align_bits)
{
    tree decl = build_decl(BUILTINS_LOCATION, VAR_DECL, create_tmp_var_name(prefix), type);
    TREE_STATIC(decl) = 1;
    TREE_READONLY(decl) = 1;
    TREE_CONSTANT(decl) = 1;
    DECL_ARTIFICIAL(decl) = 1;
    DECL_IGNORED_P(decl) = 1;
    if (align_bits) {
        SET_DECL_ALIGN(decl, align_bits);
        DECL_USER_ALIGN(decl) = 1;
    }
    DECL_INITIAL(decl) = ctor;
    varpool_node::finalize_decl(decl);
    return decl;
}

/* What the call site sees for a raw result `raw` (loop-batching.h). */
tree sysbatch_convert_result(gimple_seq *seq, enum sb_ret_conv conv, tree raw,
                             tree result_type, location_t loc)
{
    tree fn = NULL_TREE, fn_type = NULL_TREE;
    switch (conv) {
    case SB_RET_ERRNO:
        fn = sysbatch_rt.ret_errno_fn;
        fn_type = long_integer_type_node;
        break;
    case SB_RET_MAP_FAILED:
        fn = sysbatch_rt.ret_mmap_fn;
        fn_type = ptr_type_node;
        break;
    case SB_RET_POSITIVE_ERROR:
        fn = sysbatch_rt.ret_positive_fn;
        fn_type = integer_type_node;
        break;
    default: /* never fails: the raw value is the result */
        break;
    }
    tree value = raw;
    if (fn) {
        gcall *call = gimple_build_call(fn, 1, raw);
        gimple_set_location(call, loc);
        if (result_type) {
            value = make_ssa_name(fn_type);
            gimple_call_set_lhs(call, value);
        }
        gimple_seq_add_stmt(seq, call);
    }
    if (!result_type)
        return NULL_TREE;
    return gimple_convert(seq, loc, result_type, value);
}

namespace {

/* `arg` is `result` (a call before this batch) through conversions (and
 * maxes the analysis saw through) that may sit after the issue point, between the batch's first call and this one.
 * Redo them on `result`, which is defined before the issue point. */
tree rematerialize_result(gimple_seq *seq, tree arg, tree result,
                          location_t loc)
{
    auto_vec<tree, 8> types;
    tree name = arg;
    while (name != result) {
        if (TREE_CODE(name) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(name))
            return arg; /* not the chain the analysis followed */
        gassign *conv = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(name));
        /* A max the analysis saw through is the result itself
         * (sb_max_keeps_result), of its operand's type. */
        if (conv && gimple_assign_rhs_code(conv) == MAX_EXPR) {
            name = gimple_assign_rhs1(conv);
            continue;
        }
        if (!conv || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(conv)))
            return arg;
        types.safe_push(TREE_TYPE(name));
        name = gimple_assign_rhs1(conv);
    }
    tree value = result;
    for (unsigned i = types.length(); i-- > 0;)
        value = gimple_convert(seq, loc, types[i], value);
    return value;
}

/* `arg` is available at the issue point `first` (the batch's first call)
 * only because the analysis found it computable there again: arithmetic
 * and loads after `first` in its block (computable_at_issue).  Compute it
 * again into `seq`, where the issue is built; values from before `first`
 * are used as they are. */
tree rematerialize(gimple_seq *seq, tree arg, gcall *first, location_t loc,
                   hash_map<tree, tree> *done)
{
    if (TREE_CODE(arg) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(arg))
        return arg;
    if (tree *known = done->get(arg))
        return *known;
    gimple *def = SSA_NAME_DEF_STMT(arg);
    gassign *assign = dyn_cast<gassign *>(def);
    if (!assign || gimple_bb(def) != gimple_bb(first))
        return arg;
    /* After `first` in its block? */
    gimple_stmt_iterator gsi = gsi_for_stmt(first);
    for (; !gsi_end_p(gsi) && gsi_stmt(gsi) != def; gsi_next(&gsi))
        ;
    if (gsi_end_p(gsi))
        return arg;
    gassign *again = as_a<gassign *>(gimple_copy(assign));
    tree value = make_ssa_name(TREE_TYPE(arg), again);
    gimple_assign_set_lhs(again, value);
    if (gimple_assign_load_p(assign)) {
        gimple_assign_set_rhs1(again, unshare_expr(gimple_assign_rhs1(assign)));
        gimple_set_vuse(again, gimple_vuse(first));
    } else {
        /* An address (&b[n]) is a tree of its own: the copy gets its own
         * (GCC checks that no two statements share one). */
        for (unsigned i = 1; i < gimple_num_ops(again); i++) {
            tree op = gimple_op(assign, i);
            gimple_set_op(again, i,
                          TREE_CODE(op) == SSA_NAME
                              ? rematerialize(seq, op, first, loc, done)
                              : unshare_expr(op));
        }
    }
    gimple_set_location(again, loc);
    gimple_seq_add_stmt(seq, again);
    done->put(arg, value);
    return value;
}

/* `value`, an operand of a predicated branch's condition, computed again
 * into `seq` at the issue point `first`: describe_pred allowed arithmetic
 * and loads in later blocks of `blk`'s region (they run on that path only;
 * the loads cannot trap and read what they would read there), and whatever
 * rematerialize() handles in the entry block. */
tree rematerialize_pred(gimple_seq *seq, tree value, gcall *first,
                        const struct sysbatch_block *blk, location_t loc,
                        hash_map<tree, tree> *done)
{
    if (TREE_CODE(value) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(value))
        return value;
    if (tree *known = done->get(value))
        return *known;
    gimple *def = SSA_NAME_DEF_STMT(value);
    bool later = false;
    for (unsigned b = 1; b < blk->bbs.length(); b++)
        later |= gimple_bb(def) == blk->bbs[b];
    gassign *assign = dyn_cast<gassign *>(def);
    if (!later || !assign)
        return rematerialize(seq, value, first, loc, done);
    gassign *again = as_a<gassign *>(gimple_copy(assign));
    tree copy = make_ssa_name(TREE_TYPE(value), again);
    gimple_assign_set_lhs(again, copy);
    if (gimple_assign_load_p(assign)) {
        gimple_assign_set_rhs1(again, unshare_expr(gimple_assign_rhs1(assign)));
        gimple_set_vuse(again, gimple_vuse(first));
    } else {
        for (unsigned i = 1; i < gimple_num_ops(again); i++) {
            tree op = gimple_op(assign, i);
            gimple_set_op(again, i,
                          TREE_CODE(op) == SSA_NAME
                              ? rematerialize_pred(seq, op, first, blk, loc,
                                                   done)
                              : unshare_expr(op));
        }
    }
    gimple_set_location(again, loc);
    gimple_seq_add_stmt(seq, again);
    done->put(value, copy);
    return copy;
}

class batch_rewriter {
public:
    batch_rewriter(struct sysbatch_block *blk, const struct sb_plan *plan,
                   int batch)
        : blk_(blk), plan_(plan), batch_(batch), bp_(plan->batches[batch]) {}
    void run();

private:
    tree slot_ref(int slot) const;
    tree field_ref(int slot, tree field) const;
    tree arg_ref(int slot, int arg) const;
    tree rets_ref(int slot) const;
    void store(gimple_seq *seq, tree ref, tree value, location_t loc) const;
    tree slot_arg_value(gimple_seq *seq, const struct sb_slot_plan &sp, int k,
                        location_t loc) const;
    void fill_slots(gimple_seq *seq, location_t loc) const;
    void fill_copy_addresses(gimple_seq *seq, int s, location_t loc) const;
    bool template_word(const struct sb_slot_plan &sp, int k, tree *value) const;
    tree build_template() const;
    void fill_from_template(gimple_seq *seq, location_t loc) const;
    void fill_predicated_jumps(gimple_seq *seq, location_t loc) const;
    tree issue(gcall *first);
    int copyable_stretch() const;
    void all_ran_path(tree last);
    void rewrite_call_site(int call, int slot, tree last);
    void verify_call_site(gimple_seq *seq, int call, int slot,
                          location_t loc) const;
    tree convert_result(gimple_seq *seq, const struct sb_call_event &ev,
                        tree raw, tree result_type, location_t loc) const;

    struct sysbatch_block *blk_;
    const struct sb_plan *plan_;
    int batch_;
    const struct sb_batch_plan &bp_;
    tree rets_ = NULL_TREE, slots_ = NULL_TREE;
};

tree batch_rewriter::slot_ref(int slot) const
{
    return build4(ARRAY_REF, sysbatch_rt.slot_type, slots_, size_int(slot),
                  NULL_TREE, NULL_TREE);
}

tree batch_rewriter::field_ref(int slot, tree field) const
{
    return build3(COMPONENT_REF, TREE_TYPE(field), slot_ref(slot), field,
                  NULL_TREE);
}

tree batch_rewriter::arg_ref(int slot, int arg) const
{
    return build4(ARRAY_REF, long_integer_type_node,
                  field_ref(slot, sysbatch_rt.field_arg), size_int(arg),
                  NULL_TREE, NULL_TREE);
}

tree batch_rewriter::rets_ref(int slot) const
{
    return build4(ARRAY_REF, long_integer_type_node, rets_, size_int(slot),
                  NULL_TREE, NULL_TREE);
}

void batch_rewriter::store(gimple_seq *seq, tree ref, tree value,
                           location_t loc) const
{
    gassign *g = gimple_build_assign(ref, value);
    gimple_set_location(g, loc);
    gimple_seq_add_stmt(seq, g);
}

/* The word for raw argument k of call slot `sp`, as a gimple value. */
tree batch_rewriter::slot_arg_value(gimple_seq *seq,
                                    const struct sb_slot_plan &sp, int k,
                                    location_t loc) const
{
    const struct sb_fill_arg &f = sp.args[k];
    tree long_t = long_integer_type_node;
    switch (f.fill) {
    case SB_FILL_CONST:
        return build_int_cst(long_t, f.value);
    case SB_FILL_EMPTY_STRING:
        return gimple_convert(seq, loc, long_t,
                              build_fold_addr_expr(sysbatch_rt.empty_string));
    case SB_FILL_LIBC_ARG: {
        gcall *call = blk_->calls[sp.call];
        if (f.index < 0 || (unsigned)f.index >= gimple_call_num_args(call))
            return build_int_cst(long_t, 0); /* absent variadic argument */
        tree arg = gimple_call_arg(call, f.index);
        const struct sb_operand &op = sysbatch_call_event(*blk_, sp.call).args[f.index];
        if (op.kind == SB_OPND_RESULT)
            arg = rematerialize_result(seq, arg, blk_->results[op.call], loc);
        else if (op.kind == SB_OPND_AVAILABLE) {
            /* computable_at_issue may have found it in a later block of a
             * branchy region (arithmetic only), which rematerialize_pred
             * repeats too. */
            hash_map<tree, tree> done;
            arg = rematerialize_pred(seq, arg, blk_->calls[bp_.first_call],
                                     blk_, loc, &done);
        }
        return gimple_convert(seq, loc, long_t, arg);
    }
    default: /* SB_FILL_CHAINED: the copy slot before it writes the word */
        return NULL_TREE;
    }
}

/* A word copy's two addresses: the argument word it patches, and either
 * the producer's rets word or (a value the producer wrote to memory) the
 * word at the producer's buffer argument plus an offset. */
void batch_rewriter::fill_copy_addresses(gimple_seq *seq, int s,
                                         location_t loc) const
{
    const struct sb_slot_plan &sp = bp_.slots[s];
    tree long_t = long_integer_type_node;
    tree dst = build_fold_addr_expr(arg_ref(sp.copy_dst_slot, sp.copy_dst_arg));
    tree src;
    if (sp.copy_src_arg >= 0) {
        gcall *writer = blk_->calls[bp_.slots[sp.copy_src_slot].call];
        tree buf = gimple_call_arg(writer, sp.copy_src_arg);
        src = gimple_build(seq, loc, PLUS_EXPR, long_t,
                           gimple_convert(seq, loc, long_t, buf),
                           build_int_cst(long_t, sp.copy_src_offset));
    } else {
        src = gimple_convert(seq, loc, long_t,
                             build_fold_addr_expr(rets_ref(sp.copy_src_slot)));
    }
    store(seq, arg_ref(s, 0), gimple_convert(seq, loc, long_t, dst), loc);
    store(seq, arg_ref(s, 1), src, loc);
}

void batch_rewriter::fill_slots(gimple_seq *seq, location_t loc) const
{
    for (int s = 0; s < bp_.nslots; s++) {
        const struct sb_slot_plan &sp = bp_.slots[s];
        store(seq, field_ref(s, sysbatch_rt.field_nr),
              build_int_cst(short_integer_type_node, sp.nr), loc);
        store(seq, field_ref(s, sysbatch_rt.field_jump_fail),
              build_int_cst(short_integer_type_node, sp.jump_fail), loc);
        store(seq, field_ref(s, sysbatch_rt.field_jump_zero),
              build_int_cst(short_integer_type_node, sp.jump_zero), loc);
        store(seq, field_ref(s, sysbatch_rt.field_jump_pos),
              build_int_cst(short_integer_type_node, sp.jump_pos), loc);
        if (sp.kind == SB_SLOT_COPY) {
            store(seq, field_ref(s, sysbatch_rt.field_argc),
                  build_int_cst(char_type_node, 2), loc);
            fill_copy_addresses(seq, s, loc);
            continue;
        }
        store(seq, field_ref(s, sysbatch_rt.field_argc),
              build_int_cst(char_type_node, sp.argc), loc);
        for (int k = 0; k < sp.argc; k++) {
            tree v = slot_arg_value(seq, sp, k, loc);
            if (v)
                store(seq, arg_ref(s, k), v, loc);
        }
    }
}

/* The constant value of raw argument k of a slot, if it has one the
 * linker can fill in (constants, the runtime's empty string). */
bool batch_rewriter::template_word(const struct sb_slot_plan &sp, int k,
                                   tree *value) const
{
    tree long_t = long_integer_type_node;
    if (sp.kind == SB_SLOT_COPY)
        return false; /* addresses inside this frame's arrays */
    const struct sb_fill_arg &f = sp.args[k];
    switch (f.fill) {
    case SB_FILL_CONST:
        *value = build_int_cst(long_t, f.value);
        return true;
    case SB_FILL_EMPTY_STRING:
        *value = fold_convert(long_t,
                              build_fold_addr_expr(sysbatch_rt.empty_string));
        return true;
    case SB_FILL_CHAINED:
        *value = build_int_cst(long_t, 0);
        return true;
    default: {
        gcall *call = blk_->calls[sp.call];
        if (f.index < 0 || (unsigned)f.index >= gimple_call_num_args(call)) {
            *value = build_int_cst(long_t, 0);
            return true;
        }
        tree arg = gimple_call_arg(call, f.index);
        if (TREE_CODE(arg) == INTEGER_CST) {
            *value = fold_convert(long_t, arg);
            return true;
        }
        return false;
    }
    }
}

/* static const struct sysbatch_slot sysbatch_template.N[n] = {...}: every
 * word known at link time; the rest is patched after the copy. */
tree batch_rewriter::build_template() const
{
    tree short_t = short_integer_type_node;
    vec<constructor_elt, va_gc> *slots = NULL;
    for (int s = 0; s < bp_.nslots; s++) {
        const struct sb_slot_plan &sp = bp_.slots[s];
        int argc = sp.kind == SB_SLOT_COPY ? 2 : sp.argc;
        vec<constructor_elt, va_gc> *args = NULL;
        for (int k = 0; k < 6; k++) {
            tree v;
            if (k >= argc || !template_word(sp, k, &v))
                v = build_int_cst(long_integer_type_node, 0);
            CONSTRUCTOR_APPEND_ELT(args, size_int(k), v);
        }
        vec<constructor_elt, va_gc> *fields = NULL;
        CONSTRUCTOR_APPEND_ELT(fields, sysbatch_rt.field_nr, build_int_cst(short_t, sp.nr));
        CONSTRUCTOR_APPEND_ELT(fields, sysbatch_rt.field_jump_fail,
                               build_int_cst(short_t, sp.jump_fail));
        CONSTRUCTOR_APPEND_ELT(fields, sysbatch_rt.field_jump_zero,
                               build_int_cst(short_t, sp.jump_zero));
        CONSTRUCTOR_APPEND_ELT(fields, sysbatch_rt.field_jump_pos,
                               build_int_cst(short_t, sp.jump_pos));
        CONSTRUCTOR_APPEND_ELT(fields, sysbatch_rt.field_argc,
                               build_int_cst(char_type_node, argc));
        tree arg_ctor = build_constructor(TREE_TYPE(sysbatch_rt.field_arg), args);
        TREE_CONSTANT(arg_ctor) = 1;
        TREE_STATIC(arg_ctor) = 1;
        CONSTRUCTOR_APPEND_ELT(fields, sysbatch_rt.field_arg, arg_ctor);
        tree slot_ctor = build_constructor(sysbatch_rt.slot_type, fields);
        TREE_CONSTANT(slot_ctor) = 1;
        TREE_STATIC(slot_ctor) = 1;
        CONSTRUCTOR_APPEND_ELT(slots, size_int(s), slot_ctor);
    }
    tree type = TREE_TYPE(slots_);
    tree ctor = build_constructor(type, slots);
    TREE_CONSTANT(ctor) = 1;
    TREE_STATIC(ctor) = 1;
    return sysbatch_build_const_table("sysbatch_template", type, ctor, 0);
}

/* slots = template; then one store per word not known at link time. */
void batch_rewriter::fill_from_template(gimple_seq *seq, location_t loc) const
{
    store(seq, slots_, build_template(), loc);
    for (int s = 0; s < bp_.nslots; s++) {
        const struct sb_slot_plan &sp = bp_.slots[s];
        if (sp.kind == SB_SLOT_COPY) {
            fill_copy_addresses(seq, s, loc);
            continue;
        }
        for (int k = 0; k < sp.argc; k++) {
            tree ignored;
            if (template_word(sp, k, &ignored))
                continue;
            if (tree v = slot_arg_value(seq, sp, k, loc))
                store(seq, arg_ref(s, k), v, loc);
        }
    }
}

/* Predicated slots (core.h, SB_TERM_PRED): each jump field is chosen,
 * where the batch is filled, by the conditions of the slot's predicate
 * blocks' branches (one COND_EXPR per predicate that changes the field). */
void batch_rewriter::fill_predicated_jumps(gimple_seq *seq,
                                           location_t loc) const
{
    gcall *first = blk_->calls[bp_.first_call];
    hash_map<tree, tree> done;
    tree short_t = short_integer_type_node;
    for (int s = 0; s < bp_.nslots; s++) {
        const struct sb_slot_plan &sp = bp_.slots[s];
        if (!sp.predicated)
            continue;
        int npreds = sp.npreds < 1 ? 1 : sp.npreds;
        tree holds[SB_MAX_SLOT_PREDS];
        for (int p = 0; p < npreds; p++) {
            int block = npreds == 1 ? sp.pred_block : sp.pred_blocks[p];
            /* The branch as analysed: the entry block's last statement is
             * now the issue's own test. */
            gcond *cond = as_a<gcond *>(blk_->term_stmt[block]);
            tree lhs = rematerialize_pred(seq, gimple_cond_lhs(cond), first,
                                          blk_, loc, &done);
            tree rhs = rematerialize_pred(seq, gimple_cond_rhs(cond), first,
                                          blk_, loc, &done);
            holds[p] = gimple_build(seq, loc, gimple_cond_code(cond),
                                    boolean_type_node, lhs, rhs);
        }
        tree fields[3] = {sysbatch_rt.field_jump_fail,
                          sysbatch_rt.field_jump_zero,
                          sysbatch_rt.field_jump_pos};
        for (int k = 0; k < 3; k++) {
            /* The field's value for every assignment, folded from the
             * last predicate to the first. */
            tree value[1 << SB_MAX_SLOT_PREDS];
            bool varies = false;
            for (int v = 0; v < (1 << npreds); v++) {
                short j[3];
                sb_slot_variant_jumps(&sp, v, j);
                short j0[3];
                sb_slot_variant_jumps(&sp, 0, j0);
                varies |= j[k] != j0[k];
                value[v] = build_int_cst(short_t, j[k]);
            }
            if (!varies)
                continue;
            for (int p = npreds - 1; p >= 0; p--)
                for (int v = 0; v < (1 << p); v++) {
                    tree if_holds = value[v], if_not = value[v | 1 << p];
                    value[v] = tree_int_cst_equal(if_holds, if_not) == 1 ||
                                       if_holds == if_not
                                   ? if_holds
                                   : gimple_build(seq, loc, COND_EXPR, short_t,
                                                  holds[p], if_holds, if_not);
                }
            store(seq, field_ref(s, fields[k]), value[0], loc);
        }
    }
}

/* Split the block before `first` and put the versioned issue in front of
 * it.  Returns `last`: the index of the last slot run, or -1. */
tree batch_rewriter::issue(gcall *first)
{
    location_t loc = gimple_location(first);
    tree long_t = long_integer_type_node;
    rets_ = create_tmp_var(build_array_type_nelts(long_t, bp_.nslots),
                           "sysbatch_rets");
    slots_ = create_tmp_var(build_array_type_nelts(sysbatch_rt.slot_type,
                                                   bp_.nslots),
                            "sysbatch_slots");
    TREE_ADDRESSABLE(rets_) = 1;
    TREE_ADDRESSABLE(slots_) = 1;

    gimple_stmt_iterator gsi = gsi_for_stmt(first);
    gsi_prev(&gsi);
    edge skip = split_block(gimple_bb(first), gsi_end_p(gsi) ? NULL : gsi_stmt(gsi));
    basic_block head = skip->src, cont = skip->dest;

    /* head: active = sysbatch_active; if (active != 0) */
    tree active = make_ssa_name(integer_type_node);
    gassign *load = gimple_build_assign(active, sysbatch_rt.active_var);
    gimple_set_location(load, loc);
    gcond *test = gimple_build_cond(NE_EXPR, active, integer_zero_node,
                                    NULL_TREE, NULL_TREE);
    gimple_set_location(test, loc);
    gimple_stmt_iterator hi = gsi_last_bb(head);
    gsi_insert_after(&hi, load, GSI_NEW_STMT);
    gsi_insert_after(&hi, test, GSI_NEW_STMT);
    /* head -> fill -> cont on "active", head -> cont otherwise (GCC allows
     * one edge per pair of blocks, so the fill block comes first). */
    basic_block fill = split_edge(skip);
    edge taken = single_pred_edge(fill);
    taken->flags = (taken->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
    taken->probability = profile_probability::even();
    skip = make_edge(head, cont, EDGE_FALSE_VALUE);
    skip->probability = profile_probability::even();

    /* fill: slots, then last_run = sysbatch_run (rets, slots, n, 0) */
    gimple_seq seq = NULL;
    if (sysbatch_cfg.core.fill == SB_FILL_MODE_TEMPLATE)
        fill_from_template(&seq, loc);
    else
        fill_slots(&seq, loc);
    fill_predicated_jumps(&seq, loc);
    tree last_run = make_ssa_name(long_t);
    tree rets0 = build_fold_addr_expr(rets_ref(0));
    tree slots0 = build_fold_addr_expr(slot_ref(0));
    gcall *run = gimple_build_call(sysbatch_rt.run_fn, 4, rets0, slots0,
                                   build_int_cst(long_t, bp_.nslots),
                                   build_int_cst(long_t, sb_rt_run_flags(&bp_)));
    gimple_call_set_lhs(run, last_run);
    gimple_set_location(run, loc);
    sysbatch_mark_rewritten(run); /* ours: no user's sys_batch call */
    gimple_seq_add_stmt(&seq, run);
    gimple_stmt_iterator fi = gsi_start_bb(fill);
    gsi_insert_seq_before(&fi, seq, GSI_SAME_STMT);

    /* cont: last = PHI <last_run (fill), -1 (head)> */
    tree last = make_ssa_name(long_t);
    gphi *phi = create_phi_node(last, cont);
    add_phi_arg(phi, last_run, single_succ_edge(fill), loc);
    add_phi_arg(phi, build_int_cst(long_t, -1), skip, loc);
    return last;
}

tree batch_rewriter::convert_result(gimple_seq *seq,
                                    const struct sb_call_event &ev, tree raw,
                                    tree result_type, location_t loc) const
{
    return sysbatch_convert_result(seq, sb_call_ret_conv(blk_->region.abi, &ev),
                                   raw, result_type, loc);
}

/* walk_tree callback: an SSA name of the map `data` becomes its image. */
tree rename_ssa_use(tree *tp, int *walk_subtrees, void *data)
{
    if (TREE_CODE(*tp) == SSA_NAME) {
        if (tree *image = static_cast<hash_map<tree, tree> *>(data)->get(*tp))
            *tp = *image;
        *walk_subtrees = 0;
    } else if (TYPE_P(*tp) || DECL_P(*tp)) {
        *walk_subtrees = 0;
    }
    return NULL_TREE;
}

/* The stretch from the batch's first call to its last that all_ran_path
 * copies: one block, only calls of this batch or unbatched ones, nothing
 * that must not be duplicated (asm, internal or returns-twice calls,
 * anything that can throw or jump abnormally, names of abnormal PHIs).  Returns its number of
 * statements (debug statements not counted), or -1. */
int batch_rewriter::copyable_stretch() const
{
    gcall *first = blk_->calls[bp_.first_call];
    gcall *last_call = blk_->calls[bp_.last_call];
    if (gimple_bb(first) != gimple_bb(last_call))
        return -1;
    for (int c = bp_.first_call; c <= bp_.last_call; c++)
        if (plan_->calls[c].batch != batch_ && plan_->calls[c].batch != -1)
            return -1; /* another batch's call: its rewrite sees one copy */
    int count = 0;
    for (gimple_stmt_iterator gsi = gsi_for_stmt(first);; gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (gimple_code(g) == GIMPLE_ASM || gimple_code(g) == GIMPLE_LABEL ||
            stmt_could_throw_p(cfun, g) || stmt_can_make_abnormal_goto(g))
            return -1;
        if (gcall *c = dyn_cast<gcall *>(g))
            if (gimple_call_internal_p(c) ||
                (gimple_call_flags(c) & ECF_RETURNS_TWICE))
                return -1;
        /* a name live across an abnormal edge (setjmp) must keep one
         * definition */
        tree lhs = gimple_get_lhs(g);
        if (lhs && TREE_CODE(lhs) == SSA_NAME &&
            SSA_NAME_OCCURS_IN_ABNORMAL_PHI(lhs))
            return -1;
        if (!is_gimple_debug(g))
            count++;
        if (g == last_call)
            return count;
    }
}

/* The common path of a straight-line batch (sb_rt_all_ran_test):
 *
 *   <c>:      last_11 = PHI <_10(fill), -1(entry)>
 *             if (last_11 == n - 1) goto <all>; else goto <calls>;
 *   <all>:    a copy of the stretch from the first call to the last in
 *             which each batched call is convert (rets[slot]), no test
 *   <calls>:  the stretch itself, whose call sites rewrite_call_site gives
 *             their per-slot tests (a batch that stopped early, was refused
 *             or did not run)
 *   <after>:  x_1 = PHI <x_7(calls), x_8(all)> for each name of the
 *             stretch used beyond it
 *
 * As in rewrite_call_site, a name used beyond the stretch keeps its name,
 * now defined by that PHI (so no use beyond, nor blk_->results, changes);
 * the stretch's own definition and uses get a copy of it.  The copy's
 * virtual operands are left to the renamer, like every new statement. */
void batch_rewriter::all_ran_path(tree last)
{
    gcall *first = blk_->calls[bp_.first_call];
    gcall *last_call = blk_->calls[bp_.last_call];
    location_t loc = gimple_location(first);
    tree long_t = long_integer_type_node;
    basic_block cont = gimple_bb(first);
    edge to_calls = split_block(cont, (gimple *)NULL);
    basic_block calls_bb = to_calls->dest;
    edge to_after = split_block(calls_bb, last_call);
    basic_block after = to_after->dest;

    gcond *test = gimple_build_cond(EQ_EXPR, last,
                                    build_int_cst(long_t, bp_.nslots - 1),
                                    NULL_TREE, NULL_TREE);
    gimple_set_location(test, loc);
    gimple_stmt_iterator ci = gsi_last_bb(cont);
    gsi_insert_after(&ci, test, GSI_NEW_STMT);
    to_calls->flags = (to_calls->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
    to_calls->probability = profile_probability::unlikely();
    edge all_ran = make_edge(cont, after, EDGE_TRUE_VALUE);
    all_ran->probability = profile_probability::likely();
    basic_block all = split_edge(all_ran);

    /* slot of each batched call of the stretch */
    hash_map<gimple *, int> slot_of;
    for (int c = bp_.first_call; c <= bp_.last_call; c++)
        if (plan_->calls[c].batch == batch_)
            slot_of.put(blk_->calls[c], plan_->calls[c].slot);

    hash_map<tree, tree> fast; /* stretch name -> its name in the copy */
    gimple_seq seq = NULL;
    for (gimple_stmt_iterator gsi = gsi_start_bb(calls_bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        if (is_gimple_debug(g))
            continue;
        tree lhs = gimple_get_lhs(g);
        if (int *slot = slot_of.get(g)) {
            gcall *c = as_a<gcall *>(g);
            location_t cloc = gimple_location(c);
            int call = -1;
            for (int k = bp_.first_call; k <= bp_.last_call; k++)
                if (blk_->calls[k] == c)
                    call = k;
            tree raw = make_ssa_name(long_t);
            gassign *load = gimple_build_assign(raw, rets_ref(*slot));
            gimple_set_location(load, cloc);
            gimple_seq_add_stmt(&seq, load);
            tree value = convert_result(&seq, sysbatch_call_event(*blk_, call),
                                        raw, lhs ? TREE_TYPE(lhs) : NULL_TREE,
                                        cloc);
            if (lhs) {
                tree image = copy_ssa_name(lhs);
                gassign *set = gimple_build_assign(image, value);
                gimple_set_location(set, cloc);
                gimple_seq_add_stmt(&seq, set);
                fast.put(lhs, image);
            }
            continue;
        }
        gimple *copy = gimple_copy(g);
        for (unsigned i = 0; i < gimple_num_ops(copy); i++) {
            tree *op = gimple_op_ptr(copy, i);
            if (*op && !(lhs && *op == lhs && TREE_CODE(lhs) == SSA_NAME))
                walk_tree(op, rename_ssa_use, &fast, NULL);
        }
        if (lhs && TREE_CODE(lhs) == SSA_NAME) {
            tree image = copy_ssa_name(lhs, copy);
            gimple_set_lhs(copy, image);
            fast.put(lhs, image);
        }
        if (gimple_vdef(copy))
            gimple_set_vdef(copy, gimple_vop(cfun));
        if (gimple_vuse(copy))
            gimple_set_vuse(copy, gimple_vop(cfun));
        gimple_seq_add_stmt(&seq, copy);
    }
    gimple_stmt_iterator ai = gsi_start_bb(all);
    gsi_insert_seq_before(&ai, seq, GSI_SAME_STMT);
    for (ai = gsi_start_bb(all); !gsi_end_p(ai); gsi_next(&ai))
        update_stmt(gsi_stmt(ai));

    /* Names used beyond the stretch: redefined by a PHI in <after>. */
    for (gimple_stmt_iterator gsi = gsi_start_bb(calls_bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gimple *g = gsi_stmt(gsi);
        tree lhs = gimple_get_lhs(g);
        tree *image = lhs && TREE_CODE(lhs) == SSA_NAME ? fast.get(lhs) : NULL;
        if (!image)
            continue;
        bool beyond = false;
        imm_use_iterator ui;
        use_operand_p use;
        FOR_EACH_IMM_USE_FAST(use, ui, lhs)
            beyond |= gimple_bb(USE_STMT(use)) != calls_bb;
        if (!beyond)
            continue;
        tree own = copy_ssa_name(lhs, g);
        gimple *user;
        FOR_EACH_IMM_USE_STMT(user, ui, lhs) {
            if (gimple_bb(user) != calls_bb)
                continue;
            FOR_EACH_IMM_USE_ON_STMT(use, ui)
                SET_USE(use, own);
            update_stmt(user);
        }
        gimple_set_lhs(g, own);
        update_stmt(g);
        gphi *phi = create_phi_node(lhs, after);
        add_phi_arg(phi, own, to_after, loc);
        add_phi_arg(phi, *image, single_succ_edge(all), loc);
    }
}

/* call_site: r = (slot <= last) ? convert (rets[slot]) : original call;
 * in a branchy batch
 *            r = (last >= 0 && rets[slot] != SYSBATCH_NOT_RUN)
 *                ? convert (rets[slot]) : original call */
void batch_rewriter::rewrite_call_site(int call, int slot, tree last)
{
    gcall *c = blk_->calls[call];
    location_t loc = gimple_location(c);
    gimple_stmt_iterator gsi = gsi_for_stmt(c);
    gsi_prev(&gsi);
    edge to_call = split_block(gimple_bb(c), gsi_end_p(gsi) ? NULL : gsi_stmt(gsi));
    basic_block head = to_call->src, call_bb = to_call->dest;
    edge from_call = split_block(call_bb, c);
    basic_block join = from_call->dest;

    bool branchy = bp_.branchy;
    gcond *test = gimple_build_cond(GE_EXPR, last,
                                    build_int_cst(long_integer_type_node,
                                                  branchy ? 0 : slot),
                                    NULL_TREE, NULL_TREE);
    gimple_set_location(test, loc);
    gimple_stmt_iterator hi = gsi_last_bb(head);
    gsi_insert_after(&hi, test, GSI_NEW_STMT);
    to_call->flags = (to_call->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
    to_call->probability = profile_probability::even();
    edge ran = make_edge(head, join, EDGE_TRUE_VALUE);
    ran->probability = profile_probability::even();
    basic_block batched = split_edge(ran);

    tree lhs = gimple_call_lhs(c);
    gimple_seq seq = NULL;
    tree raw = make_ssa_name(long_integer_type_node);
    gassign *load = gimple_build_assign(raw, rets_ref(slot));
    gimple_set_location(load, loc);
    if (branchy) {
        /* check: raw = rets[slot]; if (raw != NOT_RUN) -> batched, else
         * -> the original call. */
        basic_block check = batched;
        edge to_batched = single_succ_edge(check);
        batched = split_edge(to_batched);
        to_batched = single_pred_edge(batched);
        to_batched->flags = (to_batched->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
        to_batched->probability = profile_probability::likely();
        edge skipped = make_edge(check, call_bb, EDGE_FALSE_VALUE);
        skipped->probability = profile_probability::unlikely();
        gcond *ran_test = gimple_build_cond(
            NE_EXPR, raw,
            wide_int_to_tree(long_integer_type_node,
                             wi::min_value(TYPE_PRECISION(long_integer_type_node),
                                           SIGNED)),
            NULL_TREE, NULL_TREE);
        gimple_set_location(ran_test, loc);
        gimple_stmt_iterator ci = gsi_last_bb(check);
        gsi_insert_after(&ci, load, GSI_NEW_STMT);
        gsi_insert_after(&ci, ran_test, GSI_NEW_STMT);
    } else {
        gimple_seq_add_stmt(&seq, load);
    }
    if (sysbatch_cfg.core.verify)
        verify_call_site(&seq, call, slot, loc);
    tree value = convert_result(&seq, sysbatch_call_event(*blk_, call), raw,
                                lhs ? TREE_TYPE(lhs) : NULL_TREE, loc);
    gimple_stmt_iterator bi = gsi_start_bb(batched);
    gsi_insert_seq_before(&bi, seq, GSI_SAME_STMT);

    if (lhs) {
        tree original = copy_ssa_name(lhs, c);
        gimple_call_set_lhs(c, original);
        gphi *phi = create_phi_node(lhs, join);
        add_phi_arg(phi, value, single_succ_edge(batched), loc);
        add_phi_arg(phi, original, from_call, loc);
    }
    sysbatch_mark_rewritten(c);
}

/* verify: hand the runtime the raw arguments the original call would have
 * made, computed from this call site's own arguments, to compare with what
 * slot `slot` ran with (sysbatch_verify_slot).  Words of a runtime-provided
 * "" are not compared. */
void batch_rewriter::verify_call_site(gimple_seq *seq, int call, int slot,
                                      location_t loc) const
{
    const struct sb_slot_plan &sp = bp_.slots[slot];
    gcall *c = blk_->calls[call];
    tree long_t = long_integer_type_node;
    tree expect = create_tmp_var(build_array_type_nelts(long_t, 6), "sb_expect");
    TREE_ADDRESSABLE(expect) = 1;
    long mask = 0;
    for (int k = 0; k < SB_MAX_ARGS; k++) {
        tree value = build_int_cst(long_t, 0);
        const struct sb_fill_arg &f = sp.args[k];
        if (k < sp.argc && f.fill == SB_FILL_CONST) {
            value = build_int_cst(long_t, f.value);
            mask |= 1L << k;
        } else if (k < sp.argc &&
                   (f.fill == SB_FILL_LIBC_ARG || f.fill == SB_FILL_CHAINED) &&
                   f.index >= 0 && (unsigned)f.index < gimple_call_num_args(c)) {
            value = gimple_convert(seq, loc, long_t, gimple_call_arg(c, f.index));
            mask |= 1L << k;
        }
        store(seq, build4(ARRAY_REF, long_t, expect, size_int(k), NULL_TREE,
                          NULL_TREE), value, loc);
    }
    expanded_location xloc = expand_location(loc);
    char where[512];
    snprintf(where, sizeof where, "%s:%d: %s", xloc.file ? xloc.file : "?",
             xloc.line, sysbatch_call_event(*blk_, call).symbol);
    gcall *check = gimple_build_call(
        sysbatch_rt.verify_fn, 8, build_fold_addr_expr(rets_ref(0)),
        build_fold_addr_expr(slot_ref(0)), build_int_cst(long_t, bp_.nslots),
        build_int_cst(long_t, slot), build_int_cst(long_t, sp.nr),
        build_fold_addr_expr(build4(ARRAY_REF, long_t, expect, size_int(0),
                                    NULL_TREE, NULL_TREE)),
        build_int_cst(long_t, mask),
        build_string_literal(strlen(where) + 1, where));
    gimple_set_location(check, loc);
    gimple_seq_add_stmt(seq, check);
}

void batch_rewriter::run()
{
    int copied = copyable_stretch();
    tree last = issue(blk_->calls[bp_.first_call]);
    if (sb_rt_all_ran_test(&bp_, copied, sysbatch_cfg.core.verify))
        all_ran_path(last);
    for (int s = 0; s < bp_.nslots; s++) {
        const struct sb_slot_plan &sp = bp_.slots[s];
        if (sp.kind == SB_SLOT_CALL)
            rewrite_call_site(sp.call, s, last);
    }
}

} // namespace

void sysbatch_rewrite_batch(struct sysbatch_block *blk,
                            const struct sb_plan *plan, int batch)
{
    batch_rewriter rewriter(blk, plan, batch);
    rewriter.run();
}
