/* rewrite-loop.cc: loop batching on GIMPLE, the rewrite - one batched loop
 * call site becomes the group logic of sysbatch/loop.h (that header's
 * comment is the contract; the LLVM pass emits the same).
 *
 * Storage (function scope): slots[K], rets[K], the private buffers
 * priv[K * size] when a shared output buffer is privatised, and the
 * counters next and filled, both reset in the loop's preheader.  The call
 * site
 *
 *     r = lstat (p, &st);
 *
 * becomes
 *
 *     if (sysbatch_active != 0 && (next == filled || rets[next] == NOT_RUN)) {
 *         for (t = 0; t < K; t++) {          // the inspector
 *             ivs at i + t;                     iv + t * step
 *             if (t > 0 && an exit test says iteration i + t does not happen)
 *                 break;
 *             if (the glibc precheck fails for its argument) break;
 *             slots[t] = the plan's slot with iteration i + t's arguments;
 *         }
 *         filled = t; next = 0;
 *         if (t != 0) sysbatch_run (rets, slots, t, 0);
 *     }
 *     if (sysbatch_active != 0 && next < filled && rets[next] != NOT_RUN) {
 *         raw = rets[next];
 *         if (raw succeeded) memcpy (&st, &priv[next * size], size or raw);
 *         r = convert (raw); next++;               // errno set here
 *     } else
 *         r = lstat (p, &st);                      // the original call
 *
 * Every counter and array is memory (addressable temporaries), so the new
 * blocks need no PHIs but the result's; virtual operands are renamed by
 * the caller and the new inner cycle is found by the loop fix-up.
 */
#include "loop-batching.h"

namespace {

class loop_rewriter {
public:
    loop_rewriter(struct sysbatch_loop_site &site, hash_set<gimple *> *batched)
        : s_(site), p_(site.plan), loc_(gimple_location(site.call)),
          batched_(batched) {}
    void run();

private:
    basic_block new_block(basic_block after);
    tree counter(const char *name);
    tree load(gimple_seq *seq, tree ref);
    void store(gimple_seq *seq, tree ref, tree value);
    tree slot_field(tree index, tree field);
    tree rets_at(tree index);
    tree private_at(gimple_seq *seq, tree index);
    void append(basic_block bb, gimple_seq seq);
    void branch(basic_block bb, gimple_seq seq, enum tree_code code, tree a,
                tree b, basic_block on_true, basic_block on_false);
    void jump(basic_block from, basic_block to);
    tree value_at(gimple_seq *seq, tree v);
    void reset_in_preheader();

    struct sysbatch_loop_site &s_;
    const struct sb_loop_plan &p_;
    location_t loc_;
    hash_set<gimple *> *batched_;
    tree slots_ = NULL_TREE, rets_ = NULL_TREE, priv_ = NULL_TREE;
    tree next_ = NULL_TREE, filled_ = NULL_TREE, t_ = NULL_TREE;
    hash_map<tree, tree> ivs_at_t_; /* induction variables at i + t */
};

basic_block loop_rewriter::new_block(basic_block after)
{
    basic_block bb = create_empty_bb(after);
    add_bb_to_loop(bb, s_.loop);
    return bb;
}

tree loop_rewriter::counter(const char *name)
{
    tree var = create_tmp_var(long_integer_type_node, name);
    TREE_ADDRESSABLE(var) = 1;
    return var;
}

tree loop_rewriter::load(gimple_seq *seq, tree ref)
{
    tree value = make_ssa_name(TREE_TYPE(ref));
    gassign *g = gimple_build_assign(value, ref);
    gimple_set_location(g, loc_);
    gimple_seq_add_stmt(seq, g);
    return value;
}

void loop_rewriter::store(gimple_seq *seq, tree ref, tree value)
{
    gassign *g = gimple_build_assign(ref, value);
    gimple_set_location(g, loc_);
    gimple_seq_add_stmt(seq, g);
}

tree loop_rewriter::slot_field(tree index, tree field)
{
    tree slot = build4(ARRAY_REF, sysbatch_rt.slot_type, slots_, index,
                       NULL_TREE, NULL_TREE);
    return build3(COMPONENT_REF, TREE_TYPE(field), slot, field, NULL_TREE);
}

tree loop_rewriter::rets_at(tree index)
{
    return build4(ARRAY_REF, long_integer_type_node, rets_, index, NULL_TREE,
                  NULL_TREE);
}

/* &priv[index * size], as a pointer. */
tree loop_rewriter::private_at(gimple_seq *seq, tree index)
{
    tree offset = gimple_build(seq, loc_, MULT_EXPR, sizetype,
                               gimple_convert(seq, loc_, sizetype, index),
                               size_int(p_.private_size));
    tree base = build_fold_addr_expr(priv_);
    return gimple_build(seq, loc_, POINTER_PLUS_EXPR, TREE_TYPE(base), base,
                        offset);
}

void loop_rewriter::append(basic_block bb, gimple_seq seq)
{
    gimple_stmt_iterator gsi = gsi_last_bb(bb);
    gsi_insert_seq_after(&gsi, seq, GSI_NEW_STMT);
}

/* `seq`, then `if (a CODE b)` at the end of `bb`. */
void loop_rewriter::branch(basic_block bb, gimple_seq seq, enum tree_code code,
                           tree a, tree b, basic_block on_true,
                           basic_block on_false)
{
    gcond *cond = gimple_build_cond(code, a, b, NULL_TREE, NULL_TREE);
    gimple_set_location(cond, loc_);
    gimple_seq_add_stmt(&seq, cond);
    append(bb, seq);
    edge t = make_edge(bb, on_true, EDGE_TRUE_VALUE);
    edge f = make_edge(bb, on_false, EDGE_FALSE_VALUE);
    t->probability = profile_probability::even();
    f->probability = profile_probability::even();
}

void loop_rewriter::jump(basic_block from, basic_block to)
{
    edge e = make_edge(from, to, EDGE_FALLTHRU);
    e->probability = profile_probability::always();
}

/* `v` at iteration i + t; the analysis found it repeatable. */
tree loop_rewriter::value_at(gimple_seq *seq, tree v)
{
    hash_map<tree, tree> known;
    for (auto it = ivs_at_t_.begin(); it != ivs_at_t_.end(); ++it)
        known.put((*it).first, (*it).second);
    tree value = sysbatch_loop_value_at(s_, v, seq, &known, loc_);
    if (!value)
        internal_error("sysbatch: a loop argument the analysis found "
                       "repeatable cannot be recomputed");
    return value;
}

/* next = filled = 0 where the loop is entered. */
void loop_rewriter::reset_in_preheader()
{
    gimple_seq seq = NULL;
    store(&seq, next_, build_int_cst(long_integer_type_node, 0));
    store(&seq, filled_, build_int_cst(long_integer_type_node, 0));
    gsi_insert_seq_on_edge_immediate(loop_preheader_edge(s_.loop), seq);
}

void loop_rewriter::run()
{
    tree long_t = long_integer_type_node;
    int group = p_.group;
    gcall *call = s_.call;

    slots_ = create_tmp_var(build_array_type_nelts(sysbatch_rt.slot_type, group),
                            "sysbatch_loop_slots");
    rets_ = create_tmp_var(build_array_type_nelts(long_t, group),
                           "sysbatch_loop_rets");
    TREE_ADDRESSABLE(slots_) = 1;
    TREE_ADDRESSABLE(rets_) = 1;
    if (p_.private_arg >= 0) {
        priv_ = create_tmp_var(build_array_type_nelts(char_type_node,
                                                      group * p_.private_size),
                               "sysbatch_loop_private");
        TREE_ADDRESSABLE(priv_) = 1;
        SET_DECL_ALIGN(priv_, 128);
        DECL_USER_ALIGN(priv_) = 1;
    }
    next_ = counter("sysbatch_loop_next");
    filled_ = counter("sysbatch_loop_filled");
    t_ = counter("sysbatch_loop_t");
    reset_in_preheader();

    /* head | orig (the call) | join */
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    gsi_prev(&gsi);
    edge to_call = split_block(gimple_bb(call),
                               gsi_end_p(gsi) ? NULL : gsi_stmt(gsi));
    basic_block head = to_call->src, orig = to_call->dest;
    edge from_call = split_block(orig, call);
    basic_block join = from_call->dest;
    remove_edge(to_call);

    basic_block chk1 = new_block(head), chk2 = new_block(chk1);
    basic_block refill = new_block(chk2), ihead = new_block(refill);
    basic_block icalc = new_block(ihead);
    auto_vec<basic_block> iexit;
    basic_block last = icalc;
    for (unsigned j = 0; j < s_.exit_tests.length(); j++) {
        last = new_block(last);
        iexit.safe_push(last);
    }
    basic_block ipre = p_.precheck != SB_PRE_NONE ? new_block(last) : NULL;
    basic_block ifill = new_block(ipre ? ipre : last);
    basic_block irun = new_block(ifill), dorun = new_block(irun);
    basic_block after = new_block(dorun), chk3 = new_block(after);
    basic_block take = new_block(chk3);
    basic_block copy = p_.private_arg >= 0 ? new_block(take) : NULL;
    basic_block take2 = new_block(copy ? copy : take);
    tree zero = build_int_cst(long_t, 0);
    tree not_run = wide_int_to_tree(
        long_t, wi::min_value(TYPE_PRECISION(long_t), SIGNED));

    /* head: if (sysbatch_active != 0) */
    {
        gimple_seq seq = NULL;
        tree active = load(&seq, sysbatch_rt.active_var);
        branch(head, seq, NE_EXPR, active, integer_zero_node, chk1, orig);
    }
    /* chk1: next == filled -> refill; chk2: rets[next] == NOT_RUN -> refill */
    {
        gimple_seq seq = NULL;
        tree n = load(&seq, next_), f = load(&seq, filled_);
        branch(chk1, seq, EQ_EXPR, n, f, refill, chk2);
        seq = NULL;
        tree r = load(&seq, rets_at(n));
        branch(chk2, seq, EQ_EXPR, r, not_run, refill, take);
    }
    /* refill: t = 0; ihead: t < K -> icalc, else irun */
    {
        gimple_seq seq = NULL;
        store(&seq, t_, zero);
        append(refill, seq);
        jump(refill, ihead);
        seq = NULL;
        tree t = load(&seq, t_);
        branch(ihead, seq, LT_EXPR, t, build_int_cst(long_t, group), icalc,
               irun);
    }
    /* icalc: the induction variables at i + t; t == 0 skips the exit tests
     * (iteration i is the one at hand). */
    tree t = NULL_TREE;
    {
        gimple_seq seq = NULL;
        t = load(&seq, t_);
        for (unsigned k = 0; k < s_.ivs.length(); k++) {
            tree iv = s_.ivs[k], step = s_.steps[k];
            tree type = TREE_TYPE(iv), value;
            if (POINTER_TYPE_P(type)) {
                tree off = gimple_build(&seq, loc_, MULT_EXPR, sizetype,
                                        gimple_convert(&seq, loc_, sizetype, t),
                                        gimple_convert(&seq, loc_, sizetype, step));
                value = gimple_build(&seq, loc_, POINTER_PLUS_EXPR, type, iv, off);
            } else {
                /* In the unsigned type: wraps where the original would. */
                tree utype = unsigned_type_for(type);
                tree off = gimple_build(&seq, loc_, MULT_EXPR, utype,
                                        gimple_convert(&seq, loc_, utype, t),
                                        gimple_convert(&seq, loc_, utype, step));
                value = gimple_convert(
                    &seq, loc_, type,
                    gimple_build(&seq, loc_, PLUS_EXPR, utype,
                                 gimple_convert(&seq, loc_, utype, iv), off));
            }
            ivs_at_t_.put(iv, value);
        }
        basic_block first_test = iexit.is_empty() ? (ipre ? ipre : ifill)
                                                  : iexit[0];
        branch(icalc, seq, EQ_EXPR, t, zero, ipre ? ipre : ifill, first_test);
    }
    /* The exit tests the inspector repeats, in order. */
    for (unsigned j = 0; j < iexit.length(); j++) {
        gcond *test = s_.exit_tests[j];
        gimple_seq seq = NULL;
        tree a = value_at(&seq, gimple_cond_lhs(test));
        tree b = value_at(&seq, gimple_cond_rhs(test));
        basic_block stay = j + 1 < iexit.length() ? iexit[j + 1]
                                                  : (ipre ? ipre : ifill);
        bool exit_on_true = s_.exit_edges[j]->flags & EDGE_TRUE_VALUE;
        branch(iexit[j], seq, gimple_cond_code(test), a, b,
               exit_on_true ? irun : stay, exit_on_true ? stay : irun);
    }
    /* ipre: the group ends before an argument glibc answers itself. */
    if (ipre) {
        gimple_seq seq = NULL;
        tree v = value_at(&seq, gimple_call_arg(call, p_.precheck_arg));
        switch (p_.precheck) {
        case SB_PRE_FD_NONNEG:
            v = gimple_convert(&seq, loc_, integer_type_node, v);
            branch(ipre, seq, GE_EXPR, v, integer_zero_node, ifill, irun);
            break;
        case SB_PRE_NONNULL:
            v = gimple_convert(&seq, loc_, long_t, v);
            branch(ipre, seq, NE_EXPR, v, zero, ifill, irun);
            break;
        case SB_PRE_PAGE_ALIGNED:
            v = gimple_build(&seq, loc_, BIT_AND_EXPR, long_t,
                             gimple_convert(&seq, loc_, long_t, v),
                             build_int_cst(long_t, 4095));
            branch(ipre, seq, EQ_EXPR, v, zero, ifill, irun);
            break;
        default: /* SB_PRE_COUNT_INT_MAX */
            v = gimple_convert(&seq, loc_, long_unsigned_type_node, v);
            branch(ipre, seq, LE_EXPR, v,
                   build_int_cst(long_unsigned_type_node, INT_MAX), ifill, irun);
            break;
        }
    }
    /* ifill: slots[t] = the plan's slot for iteration i + t; t++ */
    {
        gimple_seq seq = NULL;
        tree short_t = short_integer_type_node;
        store(&seq, slot_field(t, sysbatch_rt.field_nr), build_int_cst(short_t, p_.nr));
        store(&seq, slot_field(t, sysbatch_rt.field_jump_fail),
              build_int_cst(short_t, p_.jump_fail));
        store(&seq, slot_field(t, sysbatch_rt.field_jump_zero),
              build_int_cst(short_t, p_.jump_zero));
        store(&seq, slot_field(t, sysbatch_rt.field_jump_pos),
              build_int_cst(short_t, p_.jump_pos));
        store(&seq, slot_field(t, sysbatch_rt.field_argc),
              build_int_cst(char_type_node, p_.argc));
        for (int k = 0; k < p_.argc; k++) {
            const struct sb_fill_arg &f = p_.args[k];
            tree word;
            if (f.fill == SB_FILL_CONST)
                word = build_int_cst(long_t, f.value);
            else if (f.fill == SB_FILL_EMPTY_STRING)
                word = gimple_convert(&seq, loc_, long_t,
                                      build_fold_addr_expr(sysbatch_rt.empty_string));
            else if (f.index == p_.private_arg)
                word = gimple_convert(&seq, loc_, long_t, private_at(&seq, t));
            else if (f.index < 0 || (unsigned)f.index >= gimple_call_num_args(call))
                word = zero; /* an absent variadic argument */
            else
                word = gimple_convert(&seq, loc_, long_t,
                                      value_at(&seq, gimple_call_arg(call, f.index)));
            tree arg = build4(ARRAY_REF, long_t,
                              slot_field(t, sysbatch_rt.field_arg),
                              size_int(k), NULL_TREE, NULL_TREE);
            store(&seq, arg, word);
        }
        store(&seq, t_, gimple_build(&seq, loc_, PLUS_EXPR, long_t, t,
                                     build_int_cst(long_t, 1)));
        append(ifill, seq);
        jump(ifill, ihead);
    }
    /* irun: filled = t; next = 0; run when there is a slot. */
    {
        gimple_seq seq = NULL;
        tree n = load(&seq, t_);
        store(&seq, filled_, n);
        store(&seq, next_, zero);
        branch(irun, seq, NE_EXPR, n, zero, dorun, after);
        seq = NULL;
        tree rets0 = build_fold_addr_expr(rets_at(size_int(0)));
        tree slots0 = build_fold_addr_expr(build4(
            ARRAY_REF, sysbatch_rt.slot_type, slots_, size_int(0), NULL_TREE,
            NULL_TREE));
        gcall *runc = gimple_build_call(sysbatch_rt.run_fn, 4, rets0, slots0, n,
                                        zero);
        gimple_set_location(runc, loc_);
        batched_->add(runc);
        sysbatch_mark_rewritten(runc);
        gimple_seq_add_stmt(&seq, runc);
        append(dorun, seq);
        jump(dorun, after);
    }
    /* after: next < filled && rets[next] != NOT_RUN -> take, else the call */
    {
        gimple_seq seq = NULL;
        tree n = load(&seq, next_), f = load(&seq, filled_);
        branch(after, seq, LT_EXPR, n, f, chk3, orig);
        seq = NULL;
        tree r = load(&seq, rets_at(n));
        branch(chk3, seq, NE_EXPR, r, not_run, take, orig);
    }
    /* take: raw = rets[next]; copy back on success; result; next++ */
    tree n = NULL_TREE, raw = NULL_TREE;
    {
        gimple_seq seq = NULL;
        n = load(&seq, next_);
        raw = load(&seq, rets_at(n));
        if (copy) {
            branch(take, seq, p_.copy_back == SB_COPY_BACK_FIXED ? GE_EXPR : GT_EXPR,
                   raw, zero, copy, take2);
            seq = NULL;
            tree shared = gimple_call_arg(call, p_.private_arg);
            tree size = p_.copy_back == SB_COPY_BACK_FIXED
                            ? size_int(p_.private_size)
                            : gimple_convert(&seq, loc_, size_type_node, raw);
            gcall *cp = gimple_build_call(builtin_decl_explicit(BUILT_IN_MEMCPY),
                                          3, shared, private_at(&seq, n), size);
            gimple_set_location(cp, loc_);
            gimple_seq_add_stmt(&seq, cp);
            append(copy, seq);
            jump(copy, take2);
        } else {
            append(take, seq);
            jump(take, take2);
        }
    }
    tree lhs = gimple_call_lhs(call);
    {
        gimple_seq seq = NULL;
        tree value = sysbatch_convert_result(
            &seq, sb_call_ret_conv(s_.model.abi, &s_.model.call), raw,
            lhs ? TREE_TYPE(lhs) : NULL_TREE, loc_);
        store(&seq, next_, gimple_build(&seq, loc_, PLUS_EXPR, long_t, n,
                                        build_int_cst(long_t, 1)));
        if (lhs && TREE_CODE(lhs) != SSA_NAME)
            store(&seq, unshare_expr(lhs), value);
        append(take2, seq);
        edge done = make_edge(take2, join, EDGE_FALLTHRU);
        done->probability = profile_probability::always();
        if (lhs && TREE_CODE(lhs) == SSA_NAME) {
            tree original = copy_ssa_name(lhs, call);
            gimple_call_set_lhs(call, original);
            gphi *phi = create_phi_node(lhs, join);
            add_phi_arg(phi, value, done, loc_);
            add_phi_arg(phi, original, from_call, loc_);
        }
    }
}

} // namespace

void sysbatch_rewrite_loop(struct sysbatch_loop_site *site,
                           hash_set<gimple *> *batched)
{
    loop_rewriter rewriter(*site, batched);
    rewriter.run();
    sysbatch_mark_rewritten(site->call);
}
