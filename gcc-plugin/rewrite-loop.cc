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
 *             if (t > 0 && a guard is false for it)  // j counts apart
 *                 skip the iteration (no slot), up to plan.scan of them;
 *             if (the glibc precheck fails for its argument) break;
 *             (rule 6) build i + t's buffer into built[t] by the loop's
 *             own builders (errno saved at the refill, restored below);
 *             slots[t] = the plan's slot with iteration i + t's arguments;
 *             (rule 7) widen the checked ranges by iteration i + t's bytes;
 *         }
 *         if (a read range meets a write range) t = 0;  // rule 7
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
#include "sysbatch/runtime-abi.h"

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
    void branch_on_slot_ready(basic_block bound, basic_block result,
                              basic_block ready, basic_block not_ready,
                              bool as_refill);
    tree value_at(gimple_seq *seq, tree v);
    tree value_at_previous(gimple_seq *seq, tree v);
    void emit_repeated_test(basic_block at, gcond *test, edge out,
                            basic_block stay, bool previous);
    tree value_with_ivs(gimple_seq *seq, tree v, hash_map<tree, tree> &ivs,
                        const char *what);
    void ivs_at(gimple_seq *seq, tree t, hash_map<tree, tree> *values);
    void follow_links(gimple_seq *seq);

    /* The rewrite by role, in order (the same roles and names as
     * llvm-pass/RewriteLoop.cpp). */
    void make_storage();
    void reset_on_entry();
    void split_call_site();
    void emit_group_check();
    void emit_inspector();
    void emit_induction_values();
    void emit_exit_tests();
    void emit_after_call_tests();
    void emit_guards();
    void emit_precheck();
    void emit_slot_fill();
    tree emit_build(gimple_seq *seq);
    tree moved(gimple_seq *seq, tree mine, tree ptr);
    tree ref_at(gimple_seq *seq, tree ref);
    void save_errno(gimple_seq *seq);
    void emit_range_update(gimple_seq *seq);
    void widen_range(gimple_seq *seq, unsigned r, tree a, tree end,
                     tree skip);
    void emit_name_range(gimple_seq *seq, tree name, tree mask, tree stale,
                         unsigned r);
    tree emit_range_check(gimple_seq *seq, tree n);
    void emit_run();
    void emit_pick();
    void emit_consume();
    void emit_copy_back(gimple_seq seq);
    void join_original();

    basic_block after_tests() const { return ipre_ ? ipre_ : ifill_; }
    basic_block after_exit_tests() const
    {
        return iguard_.is_empty() ? after_tests() : iguard_[0];
    }
    bool guarded() const { return !s_.guards.is_empty(); }

    struct sysbatch_loop_site &s_;
    const struct sb_loop_plan &p_;
    location_t loc_;
    hash_set<gimple *> *batched_;
    tree slots_ = NULL_TREE, rets_ = NULL_TREE, priv_ = NULL_TREE;
    /* Rule 6: built[K * stride], and errno as the refill found it. */
    tree built_ = NULL_TREE;
    long built_stride_ = 0;
    tree errno_at_ = NULL_TREE, errno_saved_ = NULL_TREE;
    tree next_ = NULL_TREE, filled_ = NULL_TREE, t_ = NULL_TREE;
    /* Rule 7: per checked range (reads, then writes), the lowest and one
     * past the highest byte address the group touches. */
    auto_vec<tree> range_lo_, range_hi_;
    hash_map<tree, tree> ivs_at_t_; /* induction variables at i + t */
    hash_map<tree, tree> ivs_at_previous_; /* at i + t - 1 */
    tree zero_ = NULL_TREE, not_run_ = NULL_TREE;
    tree j_ = NULL_TREE;      /* the inspector's iteration (i + j); t_
                                 without a guard */
    tree t_now_ = NULL_TREE;  /* t, in the inspector */
    tree j_now_ = NULL_TREE;  /* j, in the inspector */
    tree n_ = NULL_TREE, raw_ = NULL_TREE; /* next and rets[next], taken */
    tree converted_ = NULL_TREE;  /* the call site's value from raw_ */
    edge consumed_ = NULL;         /* take2 -> join */
    /* head | the new blocks | orig (the call) | join */
    basic_block head_ = NULL, orig_ = NULL, join_ = NULL;
    edge from_call_ = NULL;
    basic_block chk1_ = NULL, chk2_ = NULL, refill_ = NULL, ihead_ = NULL;
    basic_block icalc_ = NULL, ipre_ = NULL, ifill_ = NULL, irun_ = NULL;
    basic_block dorun_ = NULL, after_ = NULL, chk3_ = NULL, take_ = NULL;
    basic_block copy_ = NULL, take2_ = NULL;
    auto_vec<basic_block> iafter_; /* the after-call tests, at i + t - 1 */
    auto_vec<basic_block> iexit_;
    auto_vec<basic_block> iguard_;
    basic_block ibound_ = NULL, iskip_ = NULL; /* under a guard */
    /* Rule 10: per chase, the node of iteration i + j and of i + j - 1
     * (memory, as every counter); ilinks: for j > 0, the inspector goes
     * on only while the links read so far miss the writes (rule 7). */
    auto_vec<tree> node_, prev_node_;
    basic_block ilinks_ = NULL;
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

/* `seq`, then `if (a CODE b)` at the end of `bb`; a plain jump when both
 * ways lead to one block (a loop with no exit test to repeat: the group's
 * first iteration and the later ones go on to the same place), since GCC
 * keeps one edge per pair of blocks. */
void loop_rewriter::branch(basic_block bb, gimple_seq seq, enum tree_code code,
                           tree a, tree b, basic_block on_true,
                           basic_block on_false)
{
    if (on_true == on_false) {
        append(bb, seq);
        jump(bb, on_true);
        return;
    }
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

/* Whether the slot at `next` holds a result the call site can take:
 * next < filled (tested in `bound`) and rets[next] != NOT_RUN (in
 * `result`), on to `ready` or `not_ready`.  The group check asks it as
 * "a refill is due" (next == filled, rets[next] == NOT_RUN: next never
 * passes filled), the pick as "ready"; `as_refill` keeps each one's tests
 * as they were. */
void loop_rewriter::branch_on_slot_ready(basic_block bound,
                                         basic_block result,
                                         basic_block ready,
                                         basic_block not_ready,
                                         bool as_refill)
{
    gimple_seq seq = NULL;
    tree n = load(&seq, next_), f = load(&seq, filled_);
    if (as_refill)
        branch(bound, seq, EQ_EXPR, n, f, not_ready, result);
    else
        branch(bound, seq, LT_EXPR, n, f, result, not_ready);
    seq = NULL;
    tree r = load(&seq, rets_at(n));
    if (as_refill)
        branch(result, seq, EQ_EXPR, r, not_run_, not_ready, ready);
    else
        branch(result, seq, NE_EXPR, r, not_run_, ready, not_ready);
}

/* `v` recomputed with the induction variables at `ivs`; the analysis
 * found it repeatable, so a failure here is the plugin's own bug. */
tree loop_rewriter::value_with_ivs(gimple_seq *seq, tree v,
                                   hash_map<tree, tree> &ivs, const char *what)
{
    hash_map<tree, tree> known;
    for (auto it = ivs.begin(); it != ivs.end(); ++it)
        known.put((*it).first, (*it).second);
    tree value = sysbatch_loop_value_at(s_, v, seq, &known, loc_);
    if (!value)
        internal_error("sysbatch: a loop %s the analysis found repeatable "
                       "cannot be recomputed", what);
    return value;
}

/* `v` at iteration i + t - 1 (an exit test after the call). */
tree loop_rewriter::value_at_previous(gimple_seq *seq, tree v)
{
    return value_with_ivs(seq, v, ivs_at_previous_, "exit test");
}

/* `v` at iteration i + t. */
tree loop_rewriter::value_at(gimple_seq *seq, tree v)
{
    return value_with_ivs(seq, v, ivs_at_t_, "argument");
}

/* next = filled = 0 where the loop is entered. */
void loop_rewriter::reset_on_entry()
{
    gimple_seq seq = NULL;
    store(&seq, next_, build_int_cst(long_integer_type_node, 0));
    store(&seq, filled_, build_int_cst(long_integer_type_node, 0));
    gsi_insert_seq_on_edge_immediate(loop_preheader_edge(s_.loop), seq);
}

void loop_rewriter::run()
{
    make_storage();
    reset_on_entry();
    split_call_site();
    emit_group_check();
    emit_inspector();
    emit_run();
    emit_pick();
    emit_consume();
    join_original();
}

/* slots[K], rets[K], priv[K * size], next, filled, t: function scope. */
void loop_rewriter::make_storage()
{
    tree long_t = long_integer_type_node;
    int group = p_.group;
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
    if (p_.built_arg >= 0) {
        built_stride_ = (p_.built_size + 15) & ~15L;
        built_ = create_tmp_var(build_array_type_nelts(char_type_node,
                                                       group * built_stride_),
                                "sysbatch_loop_built");
        TREE_ADDRESSABLE(built_) = 1;
        SET_DECL_ALIGN(built_, 128);
        DECL_USER_ALIGN(built_) = 1;
    }
    next_ = counter("sysbatch_loop_next");
    filled_ = counter("sysbatch_loop_filled");
    t_ = counter("sysbatch_loop_t");
    j_ = guarded() ? counter("sysbatch_loop_j") : t_;
    for (tree chase : s_.chases) {
        tree node = create_tmp_var(TREE_TYPE(chase), "sysbatch_loop_node");
        tree prev = create_tmp_var(TREE_TYPE(chase), "sysbatch_loop_prev_node");
        TREE_ADDRESSABLE(node) = 1;
        TREE_ADDRESSABLE(prev) = 1;
        node_.safe_push(node);
        prev_node_.safe_push(prev);
    }
    if (p_.runtime_check)
        for (unsigned r = 0; r < s_.read_addr.length() +
                                     s_.write_addr.length() +
                                     s_.string_addr.length();
             r++) {
            range_lo_.safe_push(counter("sysbatch_loop_range_lo"));
            range_hi_.safe_push(counter("sysbatch_loop_range_hi"));
        }
    zero_ = build_int_cst(long_t, 0);
    not_run_ = wide_int_to_tree(long_t,
                                wi::min_value(TYPE_PRECISION(long_t), SIGNED));
}

/* head | orig (the call) | join, and the new blocks between. */
void loop_rewriter::split_call_site()
{
    gcall *call = s_.call;
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    gsi_prev(&gsi);
    edge to_call = split_block(gimple_bb(call),
                               gsi_end_p(gsi) ? NULL : gsi_stmt(gsi));
    head_ = to_call->src;
    orig_ = to_call->dest;
    from_call_ = split_block(orig_, call);
    join_ = from_call_->dest;
    remove_edge(to_call);

    chk1_ = new_block(head_);
    chk2_ = new_block(chk1_);
    refill_ = new_block(chk2_);
    ihead_ = new_block(refill_);
    ibound_ = guarded() ? new_block(ihead_) : NULL;
    icalc_ = new_block(ibound_ ? ibound_ : ihead_);
    basic_block last = icalc_;
    if (!s_.reads_from_first.is_empty() && p_.runtime_check)
        last = ilinks_ = new_block(icalc_);
    for (unsigned j = 0; j < s_.after_tests.length(); j++) {
        last = new_block(last);
        iafter_.safe_push(last);
    }
    for (unsigned j = 0; j < s_.exit_tests.length(); j++) {
        last = new_block(last);
        iexit_.safe_push(last);
    }
    for (unsigned j = 0; j < s_.guards.length(); j++) {
        last = new_block(last);
        iguard_.safe_push(last);
    }
    iskip_ = guarded() ? new_block(last) : NULL;
    if (iskip_)
        last = iskip_;
    ipre_ = p_.precheck != SB_PRE_NONE ? new_block(last) : NULL;
    ifill_ = new_block(ipre_ ? ipre_ : last);
    irun_ = new_block(ifill_);
    dorun_ = new_block(irun_);
    after_ = new_block(dorun_);
    chk3_ = new_block(after_);
    take_ = new_block(chk3_);
    copy_ = p_.private_arg >= 0 ? new_block(take_) : NULL;
    take2_ = new_block(copy_ ? copy_ : take_);
}

/* head: sysbatch_active != 0; chk1: next == filled -> refill;
 * chk2: rets[next] == NOT_RUN -> refill, else take. */
void loop_rewriter::emit_group_check()
{
    gimple_seq seq = NULL;
    tree active = load(&seq, sysbatch_rt.active_var);
    branch(head_, seq, NE_EXPR, active, integer_zero_node, chk1_, orig_);
    branch_on_slot_ready(chk1_, chk2_, take_, refill_, true);
}

/* The inspector: for t in 0..K-1, iteration i + t happens (t > 0),
 * passes the precheck, and fills slot t. */
void loop_rewriter::emit_inspector()
{
    /* refill: t = 0 (j = 0); ihead: t < K (ibound: j < scan) -> icalc,
     * else irun */
    tree long_t = long_integer_type_node;
    gimple_seq seq = NULL;
    store(&seq, t_, zero_);
    if (guarded())
        store(&seq, j_, zero_);
    /* Rule 10: a chase starts at the node at hand (its previous node is
     * never used for j = 0). */
    for (unsigned k = 0; k < node_.length(); k++) {
        store(&seq, node_[k], s_.chases[k]);
        store(&seq, prev_node_[k], s_.chases[k]);
    }
    for (unsigned r = 0; r < range_lo_.length(); r++) {
        store(&seq, range_lo_[r], build_int_cst(long_integer_type_node, -1));
        store(&seq, range_hi_[r], zero_);
    }
    if (built_)
        save_errno(&seq);
    append(refill_, seq);
    jump(refill_, ihead_);
    seq = NULL;
    tree t = load(&seq, t_);
    branch(ihead_, seq, LT_EXPR, t, build_int_cst(long_t, p_.group),
           ibound_ ? ibound_ : icalc_, irun_);
    if (ibound_) {
        seq = NULL;
        tree j = load(&seq, j_);
        branch(ibound_, seq, LT_EXPR, j, build_int_cst(long_t, p_.scan),
               icalc_, irun_);
    }
    emit_induction_values();
    emit_after_call_tests();
    emit_exit_tests();
    emit_guards();
    emit_precheck();
    emit_slot_fill();
}

/* icalc: the induction variables at i + t; t == 0 skips the exit tests
 * (iteration i is the one at hand). */
void loop_rewriter::emit_induction_values()
{
    gimple_seq seq = NULL;
    t_now_ = load(&seq, t_);
    j_now_ = guarded() ? load(&seq, j_) : t_now_;
    tree t = j_now_;
    ivs_at(&seq, t, &ivs_at_t_);
    for (unsigned k = 0; k < node_.length(); k++) {
        ivs_at_t_.put(s_.chases[k], load(&seq, node_[k]));
        ivs_at_previous_.put(s_.chases[k], load(&seq, prev_node_[k]));
    }
    if (!iafter_.is_empty()) {
        /* Only for t > 0 (no guard: j is t). */
        tree long_t = long_integer_type_node;
        tree previous = gimple_build(&seq, loc_, MINUS_EXPR, long_t,
                                     gimple_convert(&seq, loc_, long_t, t),
                                     build_int_cst(long_t, 1));
        ivs_at(&seq, previous, &ivs_at_previous_);
    }
    /* (j == 0: the iteration at hand happens and its guard held) */
    basic_block first_test = !iafter_.is_empty() ? iafter_[0]
                             : iexit_.is_empty() ? after_exit_tests()
                                                 : iexit_[0];
    branch(icalc_, seq, EQ_EXPR, t, zero_, after_tests(),
           ilinks_ ? ilinks_ : first_test);
    if (ilinks_) {
        /* Rule 10 under rule 7's check: a node is followed only while the
         * links read so far miss every write of the iterations before it,
         * so each node the inspector reaches is the one the original
         * reaches (a link a write meets is the lost group's, never
         * dereferenced). */
        gimple_seq links = NULL;
        tree apart = emit_range_check(&links,
                                      build_int_cst(long_integer_type_node, 1));
        branch(ilinks_, links, NE_EXPR, apart, zero_, first_test, irun_);
    }
}

/* Rule 10: each chase's next node, loaded from iteration i + j's node once
 * j is filled or skipped (the load the original makes on the way round). */
void loop_rewriter::follow_links(gimple_seq *seq)
{
    for (unsigned k = 0; k < node_.length(); k++) {
        tree next = value_at(seq, s_.links[k]);
        store(seq, prev_node_[k], *ivs_at_t_.get(s_.chases[k]));
        store(seq, node_[k], next);
    }
}

/* Each induction variable's value at i + t into `values`. */
void loop_rewriter::ivs_at(gimple_seq *seq, tree t, hash_map<tree, tree> *values)
{
    for (unsigned k = 0; k < s_.ivs.length(); k++) {
        tree iv = s_.ivs[k], step = s_.steps[k];
        tree type = TREE_TYPE(iv), value;
        if (POINTER_TYPE_P(type)) {
            tree off = gimple_build(seq, loc_, MULT_EXPR, sizetype,
                                    gimple_convert(seq, loc_, sizetype, t),
                                    gimple_convert(seq, loc_, sizetype, step));
            value = gimple_build(seq, loc_, POINTER_PLUS_EXPR, type, iv, off);
        } else {
            /* In the unsigned type: wraps where the original would. */
            tree utype = unsigned_type_for(type);
            tree off = gimple_build(seq, loc_, MULT_EXPR, utype,
                                    gimple_convert(seq, loc_, utype, t),
                                    gimple_convert(seq, loc_, utype, step));
            value = gimple_convert(
                seq, loc_, type,
                gimple_build(seq, loc_, PLUS_EXPR, utype,
                             gimple_convert(seq, loc_, utype, iv), off));
        }
        values->put(iv, value);
    }
}

/* One repeated test in block `at`: the original `test`, its operands
 * recomputed for iteration i + t (or i + t - 1 when `previous`); the way
 * `out` leaves goes to the inspector's run, the other on to `stay`. */
void loop_rewriter::emit_repeated_test(basic_block at, gcond *test, edge out,
                                       basic_block stay, bool previous)
{
    gimple_seq seq = NULL;
    tree a = previous ? value_at_previous(&seq, gimple_cond_lhs(test))
                      : value_at(&seq, gimple_cond_lhs(test));
    tree b = previous ? value_at_previous(&seq, gimple_cond_rhs(test))
                      : value_at(&seq, gimple_cond_rhs(test));
    bool exit_on_true = out->flags & EDGE_TRUE_VALUE;
    branch(at, seq, gimple_cond_code(test), a, b,
           exit_on_true ? irun_ : stay, exit_on_true ? stay : irun_);
}

/* The tests after the call, as iteration i + t - 1 made them: one that
 * leaves means iteration i + t does not happen. */
void loop_rewriter::emit_after_call_tests()
{
    for (unsigned j = 0; j < iafter_.length(); j++) {
        basic_block stay = j + 1 < iafter_.length() ? iafter_[j + 1]
                           : !iexit_.is_empty()     ? iexit_[0]
                                                    : after_exit_tests();
        emit_repeated_test(iafter_[j], s_.after_tests[j], s_.after_edges[j],
                           stay, true);
    }
}

/* The exit tests the inspector repeats, in order. */
void loop_rewriter::emit_exit_tests()
{
    for (unsigned j = 0; j < iexit_.length(); j++) {
        basic_block stay = j + 1 < iexit_.length() ? iexit_[j + 1]
                                                   : after_exit_tests();
        emit_repeated_test(iexit_[j], s_.exit_tests[j], s_.exit_edges[j],
                           stay, false);
    }
}

/* Rule 2 under a guard: an iteration whose guard is false fills no slot;
 * iskip: j++, on to the next iteration (up to plan->scan of them). */
void loop_rewriter::emit_guards()
{
    if (!guarded())
        return;
    for (unsigned g = 0; g < iguard_.length(); g++) {
        gcond *test = s_.guards[g];
        gimple_seq seq = NULL;
        tree a = value_at(&seq, gimple_cond_lhs(test));
        tree b = value_at(&seq, gimple_cond_rhs(test));
        basic_block held = g + 1 < iguard_.length() ? iguard_[g + 1]
                                                    : after_tests();
        bool call_on_true = s_.guard_edges[g]->flags & EDGE_TRUE_VALUE;
        branch(iguard_[g], seq, gimple_cond_code(test), a, b,
               call_on_true ? held : iskip_, call_on_true ? iskip_ : held);
    }
    tree long_t = long_integer_type_node;
    gimple_seq seq = NULL;
    follow_links(&seq);
    store(&seq, j_, gimple_build(&seq, loc_, PLUS_EXPR, long_t, j_now_,
                                 build_int_cst(long_t, 1)));
    append(iskip_, seq);
    jump(iskip_, ihead_);
}

/* ipre: the group ends before an argument glibc answers itself (rule 5). */
void loop_rewriter::emit_precheck()
{
    if (!ipre_)
        return;
    tree long_t = long_integer_type_node;
    gimple_seq seq = NULL;
    tree v = value_at(&seq, gimple_call_arg(s_.call, p_.precheck_arg));
    switch (p_.precheck) {
    case SB_PRE_FD_NONNEG:
        v = gimple_convert(&seq, loc_, integer_type_node, v);
        branch(ipre_, seq, GE_EXPR, v, integer_zero_node, ifill_, irun_);
        break;
    case SB_PRE_NONNULL:
        v = gimple_convert(&seq, loc_, long_t, v);
        branch(ipre_, seq, NE_EXPR, v, zero_, ifill_, irun_);
        break;
    case SB_PRE_PAGE_ALIGNED:
        v = gimple_build(&seq, loc_, BIT_AND_EXPR, long_t,
                         gimple_convert(&seq, loc_, long_t, v),
                         build_int_cst(long_t, 4095));
        branch(ipre_, seq, EQ_EXPR, v, zero_, ifill_, irun_);
        break;
    default: /* SB_PRE_COUNT_INT_MAX */
        v = gimple_convert(&seq, loc_, long_unsigned_type_node, v);
        branch(ipre_, seq, LE_EXPR, v,
               build_int_cst(long_unsigned_type_node, INT_MAX), ifill_, irun_);
        break;
    }
}

/* Rule 6: the builders may set errno (snprintf's EOVERFLOW); the program
 * sees it as the refill found it (restored in irun). */
void loop_rewriter::save_errno(gimple_seq *seq)
{
    /* In sysbatch_rt, a garbage-collection root: the decl outlives the
     * function it is first used in. */
    tree &errno_fn = sysbatch_rt.errno_location_fn;
    if (!errno_fn) {
        errno_fn = build_fn_decl(
            "__errno_location",
            build_function_type_list(build_pointer_type(integer_type_node),
                                     NULL_TREE));
        TREE_NOTHROW(errno_fn) = 1;
    }
    gcall *at = gimple_build_call(errno_fn, 0);
    errno_at_ = make_ssa_name(build_pointer_type(integer_type_node));
    gimple_call_set_lhs(at, errno_at_);
    gimple_set_location(at, loc_);
    gimple_seq_add_stmt(seq, at);
    errno_saved_ = load(seq, build2(MEM_REF, integer_type_node, errno_at_,
                                    build_int_cst(TREE_TYPE(errno_at_), 0)));
}

/* `ptr`, a pointer into the shared buffer at a constant offset, moved
 * into `mine` (the analysis proved every such pointer is one). */
tree loop_rewriter::moved(gimple_seq *seq, tree mine, tree ptr)
{
    long off = sysbatch_loop_offset_into(ptr, s_.built_decl);
    if (off < 0)
        internal_error("sysbatch: a pointer into a built buffer is not at a "
                       "constant offset");
    tree at = gimple_build(seq, loc_, POINTER_PLUS_EXPR, TREE_TYPE(mine), mine,
                           size_int(off));
    return gimple_convert(seq, loc_, TREE_TYPE(ptr), at);
}

/* Memory reference `ref` (a builder's source) with its SSA names at
 * iteration i + t. */
tree loop_rewriter::ref_at(gimple_seq *seq, tree ref)
{
    tree copy = unshare_expr(ref);
    struct data {
        loop_rewriter *self;
        gimple_seq *seq;
    } d = {this, seq};
    walk_tree(
        &copy,
        [](tree *tp, int *walk_subtrees, void *p) -> tree {
            data *d = (data *)p;
            if (TREE_CODE(*tp) == SSA_NAME) {
                *tp = d->self->value_at(d->seq, *tp);
                *walk_subtrees = 0;
            } else if (TYPE_P(*tp)) {
                *walk_subtrees = 0;
            }
            return NULL_TREE;
        },
        &d, NULL);
    return copy;
}

/* Rule 6: iteration i + t's buffer built again into slot t's private one
 * by the loop's own builders, the private buffer in place of the shared
 * one (over a copy of it under built_copy_in); the address the call takes
 * in it. */
tree loop_rewriter::emit_build(gimple_seq *seq)
{
    tree decl = s_.built_decl;
    tree base = build_fold_addr_expr(built_);
    tree offset = gimple_build(seq, loc_, MULT_EXPR, sizetype,
                               gimple_convert(seq, loc_, sizetype, t_now_),
                               size_int(built_stride_));
    tree mine = gimple_build(seq, loc_, POINTER_PLUS_EXPR, ptr_type_node,
                             gimple_convert(seq, loc_, ptr_type_node, base),
                             offset);
    if (p_.built_copy_in) {
        gcall *cp = gimple_build_call(builtin_decl_explicit(BUILT_IN_MEMCPY), 3,
                                      mine, build_fold_addr_expr(decl),
                                      size_int(p_.built_size));
        gimple_set_location(cp, loc_);
        gimple_seq_add_stmt(seq, cp);
    }
    for (gimple *b : s_.builders) {
        gimple *again = gimple_copy(b);
        gimple_set_vuse(again, NULL_TREE);
        gimple_set_vdef(again, NULL_TREE);
        gimple_set_location(again, loc_);
        if (gcall *c = dyn_cast<gcall *>(again)) {
            gimple_call_set_lhs(c, NULL_TREE);
            for (unsigned k = 0; k < gimple_call_num_args(c); k++) {
                tree op = gimple_call_arg(c, k);
                if (k == 0)
                    op = moved(seq, mine, op);
                else if (TREE_CODE(op) == SSA_NAME)
                    op = value_at(seq, op);
                else
                    op = unshare_expr(op);
                gimple_call_set_arg(c, k, op);
            }
        } else {
            gassign *st = as_a<gassign *>(again);
            tree lhs = gimple_assign_lhs(st);
            tree at = moved(seq, mine, build_fold_addr_expr(unshare_expr(lhs)));
            tree alias = build_pointer_type_for_mode(char_type_node, ptr_mode,
                                                     true);
            gimple_assign_set_lhs(
                st, build2(MEM_REF, TREE_TYPE(lhs),
                           gimple_convert(seq, loc_, alias, at),
                           build_int_cst(alias, 0)));
            tree rhs = gimple_assign_rhs1(st);
            if (TREE_CODE(rhs) == SSA_NAME)
                rhs = value_at(seq, rhs);
            else if (gimple_assign_load_p(b))
                rhs = ref_at(seq, rhs);
            else
                rhs = unshare_expr(rhs);
            gimple_assign_set_rhs1(st, rhs);
        }
        gimple_seq_add_stmt(seq, again);
    }
    return moved(seq, mine, gimple_call_arg(s_.call, p_.built_arg));
}

/* ifill: slots[t] = the plan's slot for iteration i + t; t++ */
void loop_rewriter::emit_slot_fill()
{
    tree long_t = long_integer_type_node;
    tree t = t_now_;
    gcall *call = s_.call;
    gimple_seq seq = NULL;
    tree built = built_ ? emit_build(&seq) : NULL_TREE;
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
        else if (f.index == p_.built_arg)
            word = gimple_convert(&seq, loc_, long_t, built);
        else if (f.index < 0 || (unsigned)f.index >= gimple_call_num_args(call))
            word = zero_; /* an absent variadic argument */
        else
            word = gimple_convert(&seq, loc_, long_t,
                                  value_at(&seq, gimple_call_arg(call, f.index)));
        tree arg = build4(ARRAY_REF, long_t,
                          slot_field(t, sysbatch_rt.field_arg),
                          size_int(k), NULL_TREE, NULL_TREE);
        store(&seq, arg, word);
    }
    if (p_.runtime_check)
        emit_range_update(&seq);
    follow_links(&seq);
    store(&seq, t_, gimple_build(&seq, loc_, PLUS_EXPR, long_t, t,
                                 build_int_cst(long_t, 1)));
    if (guarded())
        store(&seq, j_, gimple_build(&seq, loc_, PLUS_EXPR, long_t, j_now_,
                                     build_int_cst(long_t, 1)));
    append(ifill_, seq);
    jump(ifill_, ihead_);
}

/* Rule 7: widen each checked range by iteration i + t's bytes - the
 * writes of every filled iteration, the reads of iterations after the
 * first (the first one's loads are the call site's own, made now).  The
 * ranges are unsigned; a read at t == 0 is made empty by a mask. */
void loop_rewriter::emit_range_update(gimple_seq *seq)
{
    tree ul = long_unsigned_type_node;
    tree first = gimple_build(seq, loc_, EQ_EXPR, boolean_type_node, t_now_,
                              zero_);
    tree mask = gimple_build(seq, loc_, NEGATE_EXPR, ul,
                             gimple_convert(seq, loc_, ul, first));
    unsigned nreads = s_.read_addr.length();
    unsigned nranges = nreads + s_.write_addr.length();
    for (unsigned r = 0; r < nranges; r++) {
        bool read = r < nreads;
        tree addr = read ? s_.read_addr[r] : s_.write_addr[r - nreads];
        tree size = read ? s_.read_size[r] : s_.write_size[r - nreads];
        hash_map<tree, tree> known;
        for (auto it = ivs_at_t_.begin(); it != ivs_at_t_.end(); ++it)
            known.put((*it).first, (*it).second);
        tree a = sysbatch_loop_expr_at(s_, addr, seq, &known, loc_);
        tree n = sysbatch_loop_expr_at(s_, size, seq, &known, loc_);
        if (!a || !n)
            internal_error("sysbatch: a checked range the analysis found "
                           "repeatable cannot be recomputed");
        a = gimple_convert(seq, loc_, ul, a);
        tree end = gimple_build(seq, loc_, PLUS_EXPR, ul, a,
                                gimple_convert(seq, loc_, ul, n));
        /* Rule 10: a chase's link is read from iteration i on. */
        bool from_first = false;
        for (tree f : s_.reads_from_first)
            from_first |= read && operand_equal_p(f, addr, 0);
        widen_range(seq, r, a, end, read && !from_first ? mask : NULL_TREE);
    }
    if (s_.string_addr.is_empty())
        return;
    /* A name is dereferenced only when every load it comes from reads what
     * the original would: when the ranges so far (iterations 0..t's
     * writes, 1..t's loads) already meet, the pointer may be one a store
     * of the loop replaces before the original uses it - the group is lost
     * anyway, so nothing is measured. */
    tree apart = emit_range_check(seq, build_int_cst(long_integer_type_node, 1));
    tree stale = gimple_build(seq, loc_, EQ_EXPR, boolean_type_node, apart,
                              build_int_cst(long_integer_type_node, 0));
    for (unsigned i = 0; i < s_.string_addr.length(); i++)
        emit_name_range(seq, s_.string_addr[i], mask, stale, nranges + i);
}

/* Rule 7: widen range r by the bytes the kernel may read of name `name`
 * in iteration i + t: SB_LOOP_NAME_MAX (it reads up to the NUL and never
 * more than that), none for NULL (the kernel reads nothing there), when
 * `stale`, nor at t == 0 (`mask`).  The name is not read here: the
 * original never reads it in user space, and a pointer the kernel answers
 * with EFAULT must not fault in the inspector, so the check takes the most
 * the kernel could read instead of measuring. */
void loop_rewriter::emit_name_range(gimple_seq *seq, tree name, tree mask,
                                    tree stale, unsigned r)
{
    tree ul = long_unsigned_type_node;
    hash_map<tree, tree> known;
    for (auto it = ivs_at_t_.begin(); it != ivs_at_t_.end(); ++it)
        known.put((*it).first, (*it).second);
    tree at = sysbatch_loop_expr_at(s_, name, seq, &known, loc_);
    if (!at)
        internal_error("sysbatch: a name the analysis found repeatable "
                       "cannot be recomputed");
    at = gimple_convert(seq, loc_, const_ptr_type_node, at);
    tree unread = gimple_build(
        seq, loc_, BIT_IOR_EXPR, boolean_type_node,
        gimple_build(seq, loc_, EQ_EXPR, boolean_type_node, at,
                     build_int_cst(const_ptr_type_node, 0)),
        stale);
    tree none = gimple_build(seq, loc_, BIT_IOR_EXPR, ul, mask,
                             gimple_build(seq, loc_, NEGATE_EXPR, ul,
                                          gimple_convert(seq, loc_, ul,
                                                         unread)));
    tree a = gimple_convert(seq, loc_, ul, at);
    tree end = gimple_build(seq, loc_, PLUS_EXPR, ul, a,
                            build_int_cst(ul, SB_LOOP_NAME_MAX));
    widen_range(seq, r, a, end, none);
}

/* Rule 7: range r takes in [a, end) (unsigned), or nothing where `skip`
 * is all ones (an access the iteration does not make; NULL: always
 * taken in). */
void loop_rewriter::widen_range(gimple_seq *seq, unsigned r, tree a, tree end,
                                tree skip)
{
    tree ul = long_unsigned_type_node;
    if (skip) {
        a = gimple_build(seq, loc_, BIT_IOR_EXPR, ul, a, skip);
        end = gimple_build(seq, loc_, BIT_AND_EXPR, ul, end,
                           gimple_build(seq, loc_, BIT_NOT_EXPR, ul, skip));
    }
    tree lo = gimple_convert(seq, loc_, ul, load(seq, range_lo_[r]));
    tree hi = gimple_convert(seq, loc_, ul, load(seq, range_hi_[r]));
    store(seq, range_lo_[r],
          gimple_convert(seq, loc_, long_integer_type_node,
                         gimple_build(seq, loc_, MIN_EXPR, ul, lo, a)));
    store(seq, range_hi_[r],
          gimple_convert(seq, loc_, long_integer_type_node,
                         gimple_build(seq, loc_, MAX_EXPR, ul, hi, end)));
}

/* Rule 7: `n` when no read range meets a write range, else 0. */
tree loop_rewriter::emit_range_check(gimple_seq *seq, tree n)
{
    tree ul = long_unsigned_type_node;
    tree apart = boolean_true_node;
    unsigned nreads = s_.read_addr.length();
    unsigned nwrites = s_.write_addr.length();
    for (unsigned r = 0; r < range_lo_.length(); r++) {
        bool name = r >= nreads + nwrites; /* the names' ranges come last */
        if (r >= nreads && !name)
            continue;
        for (unsigned w = nreads; w < nreads + nwrites; w++) {
            /* A name meets every write, the kernel's too. */
            if (!name && s_.read_kernel[r] && s_.write_kernel[w - nreads])
                continue;
            tree rlo = gimple_convert(seq, loc_, ul, load(seq, range_lo_[r]));
            tree rhi = gimple_convert(seq, loc_, ul, load(seq, range_hi_[r]));
            tree wlo = gimple_convert(seq, loc_, ul, load(seq, range_lo_[w]));
            tree whi = gimple_convert(seq, loc_, ul, load(seq, range_hi_[w]));
            tree miss = gimple_build(
                seq, loc_, BIT_IOR_EXPR, boolean_type_node,
                gimple_build(seq, loc_, LE_EXPR, boolean_type_node, rhi, wlo),
                gimple_build(seq, loc_, LE_EXPR, boolean_type_node, whi, rlo));
            apart = gimple_build(seq, loc_, BIT_AND_EXPR, boolean_type_node,
                                 apart, miss);
        }
    }
    return gimple_build(seq, loc_, MULT_EXPR, long_integer_type_node, n,
                        gimple_convert(seq, loc_, long_integer_type_node,
                                       apart));
}

/* irun: filled = t; next = 0; run when there is a slot. */
void loop_rewriter::emit_run()
{
    gimple_seq seq = NULL;
    tree n = load(&seq, t_);
    if (p_.runtime_check)
        n = emit_range_check(&seq, n);
    if (errno_at_)
        store(&seq, build2(MEM_REF, integer_type_node, errno_at_,
                           build_int_cst(TREE_TYPE(errno_at_), 0)),
              errno_saved_);
    store(&seq, filled_, n);
    store(&seq, next_, zero_);
    branch(irun_, seq, NE_EXPR, n, zero_, dorun_, after_);
    seq = NULL;
    tree rets0 = build_fold_addr_expr(rets_at(size_int(0)));
    tree slots0 = build_fold_addr_expr(build4(
        ARRAY_REF, sysbatch_rt.slot_type, slots_, size_int(0), NULL_TREE,
        NULL_TREE));
    tree flags = build_int_cst(
        long_integer_type_node,
        sb_rt_run_flags_slot(0, p_.nr, p_.jump_fail, p_.jump_zero, p_.jump_pos));
    gcall *runc = gimple_build_call(sysbatch_rt.run_fn, 4, rets0, slots0, n,
                                    flags);
    gimple_set_location(runc, loc_);
    batched_->add(runc);
    sysbatch_mark_rewritten(runc);
    gimple_seq_add_stmt(&seq, runc);
    append(dorun_, seq);
    jump(dorun_, after_);
}

/* after: next < filled && rets[next] != NOT_RUN -> take, else the call */
void loop_rewriter::emit_pick()
{
    branch_on_slot_ready(after_, chk3_, take_, orig_, false);
}

/* take: raw = rets[next]; copy back on success; take2: the converted
 * result (errno set here, in order), next++. */
void loop_rewriter::emit_consume()
{
    tree long_t = long_integer_type_node;
    gimple_seq seq = NULL;
    n_ = load(&seq, next_);
    raw_ = load(&seq, rets_at(n_));
    if (copy_) {
        emit_copy_back(seq);
    } else {
        append(take_, seq);
        jump(take_, take2_);
    }
    tree lhs = gimple_call_lhs(s_.call);
    seq = NULL;
    converted_ = sysbatch_convert_result(
        &seq, sb_call_ret_conv(s_.model.abi, &s_.model.call), raw_,
        lhs ? TREE_TYPE(lhs) : NULL_TREE, loc_);
    store(&seq, next_, gimple_build(&seq, loc_, PLUS_EXPR, long_t, n_,
                                    build_int_cst(long_t, 1)));
    if (lhs && TREE_CODE(lhs) != SSA_NAME)
        store(&seq, unshare_expr(lhs), converted_);
    append(take2_, seq);
    consumed_ = make_edge(take2_, join_, EDGE_FALLTHRU);
    consumed_->probability = profile_probability::always();
}

/* Rule 3: what the kernel wrote, copied back in order. */
void loop_rewriter::emit_copy_back(gimple_seq seq)
{
    branch(take_, seq, p_.copy_back == SB_COPY_BACK_FIXED ? GE_EXPR : GT_EXPR,
           raw_, zero_, copy_, take2_);
    seq = NULL;
    tree shared = gimple_call_arg(s_.call, p_.private_arg);
    tree size = p_.copy_back == SB_COPY_BACK_FIXED
                    ? size_int(p_.private_size)
                    : gimple_convert(&seq, loc_, size_type_node, raw_);
    gcall *cp = gimple_build_call(builtin_decl_explicit(BUILT_IN_MEMCPY), 3,
                                  shared, private_at(&seq, n_), size);
    gimple_set_location(cp, loc_);
    gimple_seq_add_stmt(&seq, cp);
    append(copy_, seq);
    jump(copy_, take2_);
}

/* The fallback: the original call stays in orig; its users see
 * phi(converted, original). */
void loop_rewriter::join_original()
{
    gcall *call = s_.call;
    tree lhs = gimple_call_lhs(call);
    if (lhs && TREE_CODE(lhs) == SSA_NAME) {
        tree original = copy_ssa_name(lhs, call);
        gimple_call_set_lhs(call, original);
        gphi *phi = create_phi_node(lhs, join_);
        add_phi_arg(phi, converted_, consumed_, loc_);
        add_phi_arg(phi, original, from_call_, loc_);
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
