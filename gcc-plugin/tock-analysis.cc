/* tock-analysis.cc: what only target=tock needs on GIMPLE - the memory
 * rule (sysbatch_scan_addresses, sysbatch_private_ref_p, code that
 * touches shared memory), loads of a call's result struct, and checked
 * chains (docs/gcc.md, "Checked chains": sysbatch_form_tock_chain,
 * tock_stop_test, sysbatch_analyze_tock_chain).
 *
 * Tock (target=tock, straight-line blocks only) differs in three places:
 * libtock-c's calls return structs, which must have the size of the
 * struct sysbatch_tock_take writes (the core's shape rule,
 * sb_call_shape_objection, given describe_shape's facts); code between
 * calls conflicts with every later call as soon as it touches memory other
 * than the function's private locals, since the kernel may use any buffer
 * allowed earlier and a yield runs upcalls (describe_tock_gap); and a
 * word loaded from an earlier call's result struct is that call's RESULT
 * (tock_result_operand), which the core refuses inside a series:
 *
 *     c = command (2, 0, 0, 0);        call 0
 *     _1 = c.data[0];                  code: private (c is a result struct)
 *     counter = 5;                     code: a store to a global -> conflicts
 *     command (2, 1, _1, 0);           call 1  a2 RESULT 0 (no-chaining)
 */
#include "block-scanner.h"
#include "sysbatch/tock.h"

namespace sysbatch_gcc {

/* Tock: `load` reads a word of the struct call j returned into a private
 * local (r = command (...); ... r.data[0]), unchanged since: the call's
 * RESULT, which a series cannot hand on (no-chaining).  Or it reads a
 * private local no region call returned into and nothing changes from the
 * region's first call on (a converter's out value of a call before the
 * region: libtock_alarm_command_read (&now), then a subscribe, then
 * command (0, 6, now, dt)): AVAILABLE, the issue point loads it instead.
 * Only fixed offsets, so the rewrite can load the word again where the
 * series is issued. */
bool block_scanner::tock_result_operand(gimple *load, struct sb_operand *op) const
{
    gassign *assign = dyn_cast<gassign *>(load);
    if (!assign || !gimple_assign_load_p(assign) ||
        gimple_has_volatile_ops(assign) ||
        !word_type_p(TREE_TYPE(gimple_assign_lhs(assign))))
        return false;
    tree ref = gimple_assign_rhs1(assign);
    poly_int64 bitpos, bitsize, maxsize;
    bool reverse;
    tree base = get_ref_base_and_extent(ref, &bitpos, &bitsize, &maxsize,
                                        &reverse);
    if (!base || !DECL_P(base) || reverse || !known_size_p(maxsize) ||
        !known_eq(maxsize, bitsize) || !bitpos.is_constant() ||
        !sysbatch_private_ref_p(base))
        return false;
    /* The latest region call before the load writing that local: in the
     * load's block, or (a checked chain, whose statements are numbered
     * along the chain) in an earlier block of the chain. */
    bool chain = chain_ && in_region(gimple_bb(load));
    int producer = -1;
    for (unsigned i = 0; i < out_->calls.length(); i++) {
        gcall *c = out_->calls[i];
        if ((!chain && gimple_bb(c) != gimple_bb(load)) ||
            gimple_uid(c) > gimple_uid(load))
            continue;
        tree lhs = gimple_call_lhs(c);
        if (lhs && get_base_address(lhs) == base)
            producer = (int)i;
    }
    gcall *from = out_->calls[producer < 0 ? 0 : producer];
    /* Loaded again at the issue point: no SSA name in the reference (one
     * might be defined after it). */
    ssa_op_iter iter;
    tree use;
    if (producer < 0)
        FOR_EACH_SSA_TREE_OPERAND(use, load, iter, SSA_OP_USE)
            return false;
    if (producer < 0 &&
        ((!chain && gimple_bb(from) != gimple_bb(load)) ||
         gimple_uid(from) > gimple_uid(load)))
        return false;
    /* A private local changes only by a statement naming it as its lhs
     * (the alias oracle would also suspect every call at -O0, where the
     * gimplifier left the result addressable), or by a converter given its
     * address; the kernel never sees it (its address does not escape). */
    gimple_stmt_iterator gsi = gsi_for_stmt(from);
    int b = chain ? region_block(gimple_bb(from)) : 0;
    for (gsi_next(&gsi);; gsi_next(&gsi)) {
        while (gsi_end_p(gsi)) {
            if (!chain || ++b >= (int)out_->bbs.length())
                return false; /* not reached: not the chain's order */
            gsi = gsi_start_bb(out_->bbs[b]);
        }
        gimple *stmt = gsi_stmt(gsi);
        if (stmt == load)
            break;
        if (gimple_code(stmt) == GIMPLE_ASM)
            return false;
        /* A converter's out pointer into the local (sysbatch_scan_addresses
         * does not count that address as taken). */
        gcall *conv = dyn_cast<gcall *>(stmt);
        if (conv && sb_tock_converter_lookup(callee_symbol(conv)))
            for (unsigned a = 0; a < gimple_call_num_args(conv); a++) {
                tree arg = gimple_call_arg(conv, a);
                if (TREE_CODE(arg) == ADDR_EXPR &&
                    get_base_address(TREE_OPERAND(arg, 0)) == base)
                    return false;
            }
        tree lhs = gimple_vdef(stmt) ? gimple_get_lhs(stmt) : NULL_TREE;
        if (lhs && get_base_address(lhs) == base)
            return false;
    }
    op->kind = producer < 0 ? SB_OPND_AVAILABLE : SB_OPND_RESULT;
    op->call = producer;
    return true;
}

/* Tock memory rule: may `stmt` touch memory other than private locals
 * (the kernel may use any buffer allowed earlier at any later call, and a
 * yield runs upcalls)?  Calls are barriers already, except memcpy and
 * friends, which touch memory through pointers: they count. */
bool touches_shared_memory(gimple *stmt)
{
    if (is_gimple_debug(stmt) || gimple_clobber_p(stmt))
        return false;
    if (!gimple_vuse(stmt) && !gimple_vdef(stmt))
        return false; /* registers only */
    /* A libtock-c converter reads its struct and writes through its
     * pointer arguments only: private when they all point into private
     * locals. */
    gcall *call = dyn_cast<gcall *>(stmt);
    if (call && sb_tock_converter_lookup(callee_symbol(call))) {
        tree lhs = gimple_call_lhs(call);
        if (lhs && !is_gimple_reg(lhs) && !sysbatch_private_ref_p(lhs))
            return true;
        for (unsigned i = 0; i < gimple_call_num_args(call); i++) {
            tree arg = gimple_call_arg(call, i);
            if (TREE_CODE(arg) == ADDR_EXPR) {
                if (!sysbatch_private_ref_p(TREE_OPERAND(arg, 0)))
                    return true;
            } else if (POINTER_TYPE_P(TREE_TYPE(arg)) ||
                       (!is_gimple_reg(arg) && !sysbatch_private_ref_p(arg))) {
                return true;
            }
        }
        return false;
    }
    gassign *assign = dyn_cast<gassign *>(stmt);
    if (!assign)
        return true;
    bool any = false;
    if (gimple_store_p(assign)) {
        any = true;
        if (!sysbatch_private_ref_p(gimple_assign_lhs(assign)))
            return true;
    }
    if (gimple_assign_load_p(assign)) {
        any = true;
        if (!sysbatch_private_ref_p(gimple_assign_rhs1(assign)))
            return true;
    }
    return !any;
}

/* The code after Tock call `g.after_call`: barriers as on Linux; anything
 * touching shared memory - including that call's result when it goes
 * straight to such memory (*p = command (...)) - conflicts with every
 * later call whose row has SB_ROW_SHARED_MEMORY. */
void block_scanner::describe_tock_gap(const gap &g, struct sb_code_event *ev) const
{
    if (describe_barrier(g, ev))
        return;
    const char *what = NULL;
    tree lhs = g.after_call >= 0 ? gimple_call_lhs(out_->calls[g.after_call])
                                 : NULL_TREE;
    if (lhs && !sysbatch_private_ref_p(lhs))
        what = "a store"; /* *p = command (...): the call stores it */
    for (gimple *stmt : g.stmts)
        if (!what && touches_shared_memory(stmt))
            what = describe_stmt(stmt);
    if (!what) {
        ev->why = "code that commutes with the later calls";
        return;
    }
    int ncalls = (int)out_->calls.length();
    for (int j = g.after_call + 1; j < ncalls && j < 64; j++) {
        const struct sb_syscall *row = sysbatch_call_event(*out_, j).row;
        if (row && (row->flags & SB_ROW_SHARED_MEMORY))
            ev->conflicts |= (uint64_t)1 << j;
    }
    /* `what` may come from ACONCAT: see describe_gap.  The LLVM pass's
     * words. */
    ev->why = ggc_strdup(ACONCAT((
        what, " that may touch memory shared with the kernel or an upcall",
        NULL)));
}

/* A Tock checked chain (docs/gcc.md, "Checked chains"): one straight-line
 * region over the chain's blocks.  Statements are numbered along the
 * chain; between two calls of different blocks the code after the first
 * (the test) and the next block's code before the second are two code
 * events, as the LLVM pass describes them. */
int block_scanner::run_tock_chain()
{
    chain_ = true;
    unsigned first_call_uid = collect_calls(true);
    int ncalls = (int)out_->calls.length();
    if (ncalls == 0 || ncalls > SB_MAX_REGION_CALLS)
        return ncalls;

    auto_vec<gap *> gaps;
    auto code_between = [&](gimple_stmt_iterator gsi, gimple *stop, int after) {
        gap *g = new gap;
        g->after_call = after;
        for (; !gsi_end_p(gsi) && gsi_stmt(gsi) != stop; gsi_next(&gsi))
            if (!control_stmt_p(gsi_stmt(gsi)))
                g->stmts.safe_push(gsi_stmt(gsi));
        struct sb_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = SB_EV_CODE;
        gaps.safe_push(g);
        out_->events.safe_push(ev); /* described below */
    };
    for (int k = 0; k < ncalls; k++) {
        gcall *call = out_->calls[k];
        if (k > 0) {
            gcall *prev = out_->calls[k - 1];
            gimple_stmt_iterator after = gsi_for_stmt(prev);
            gsi_next(&after);
            if (gimple_bb(prev) == gimple_bb(call)) {
                code_between(after, call, k - 1);
            } else {
                code_between(after, NULL, k - 1);
                code_between(gsi_start_bb(gimple_bb(call)), call, k - 1);
            }
        }
        push_call_event(call, first_call_uid);
    }
    unsigned next_gap = 0;
    for (unsigned e = 0; e < out_->events.length(); e++) {
        if (out_->events[e].kind != SB_EV_CODE)
            continue;
        describe_tock_gap(*gaps[next_gap], &out_->events[e].u.code);
        delete gaps[next_gap++];
    }
    out_->region.abi = abi_;
    out_->region.nevents = (int)out_->events.length();
    out_->region.events = out_->events.address();
    out_->region.nblocks = 0; /* straight-line for the core */
    out_->region.blocks = NULL;
    return ncalls;
}

} // namespace sysbatch_gcc

using namespace sysbatch_gcc;

namespace {

/* Locals whose address the current function's GIMPLE takes (&x). */
hash_set<tree> *address_taken;
function *address_taken_fn;

bool note_address(gimple *stmt, tree base, tree, void *)
{
    /* An address passed to a libtock-c converter does not escape: the
     * converter only writes through it (sysbatch/tock.h). */
    gcall *call = dyn_cast<gcall *>(stmt);
    if (call && sb_tock_converter_lookup(callee_symbol(call)))
        return false;
    if (base && DECL_P(base))
        address_taken->add(base);
    return false;
}

} // namespace

void sysbatch_scan_addresses(function *fun)
{
    if (!address_taken)
        address_taken = new hash_set<tree>;
    address_taken->empty();
    address_taken_fn = fun;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gphi_iterator pi = gsi_start_phis(bb); !gsi_end_p(pi);
             gsi_next(&pi))
            walk_stmt_load_store_addr_ops(pi.phi(), NULL, NULL, NULL,
                                          note_address);
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
             gsi_next(&gsi))
            if (!is_gimple_debug(gsi_stmt(gsi))) /* -g changes nothing */
                walk_stmt_load_store_addr_ops(gsi_stmt(gsi), NULL, NULL, NULL,
                                              note_address);
    }
}

/* TREE_ADDRESSABLE alone would not do: at -O0 the gimplifier leaves the
 * lhs of every call returning a struct in memory ([return slot
 * optimization]) addressable, since the callee writes it through a hidden
 * pointer, and only later optimisation passes clear that.  The contract
 * counts the Tock calls' result temporaries as private, so a local is
 * private when no statement takes its address; everything else
 * TREE_ADDRESSABLE can mean for a local (nested functions' nonlocal
 * references, hard registers) stays not private. */
bool sysbatch_private_ref_p(tree ref)
{
    tree base = get_base_address(ref);
    if (!base || !(VAR_P(base) || TREE_CODE(base) == PARM_DECL) ||
        !auto_var_in_fn_p(base, current_function_decl) ||
        TREE_THIS_VOLATILE(base) || DECL_NONLOCAL(base) ||
        (VAR_P(base) && DECL_HARD_REGISTER(base)) ||
        DECL_HAS_VALUE_EXPR_P(base))
        return false;
    if (!TREE_ADDRESSABLE(base))
        return true;
    gcc_assert(address_taken_fn == cfun);
    return !address_taken->contains(base);
}

/* --------------------------------------------------- Tock checked chains */

namespace {

/* The block's last candidate call, or NULL. */
gcall *last_tock_call(basic_block bb)
{
    gcall *call = NULL;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gcall *c = dyn_cast<gcall *>(gsi_stmt(gsi));
        if (c && sysbatch_catalog_callee_p(c, SB_ABI_TOCK))
            call = c;
    }
    return call;
}

/* Back from the compared value to the load of the field: conversions
 * and negations only, all in this block.  `steps` gets them, the last
 * applied first; NULL when the value comes from anything else. */
gassign *field_load_of(tree value, basic_block bb,
                       auto_vec<gassign *, 8> *steps, gcall **converter)
{
    gassign *load = NULL;
    *converter = NULL;
    for (tree v = value; !load && steps->length() < 8;) {
        if (TREE_CODE(v) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(v))
            return NULL;
        /* rc = tock_*_return_to_returncode (r): the test is on rc. */
        gcall *c = dyn_cast<gcall *>(SSA_NAME_DEF_STMT(v));
        if (c && gimple_bb(c) == bb &&
            sb_tock_converter_lookup(callee_symbol(c))) {
            *converter = c;
            return NULL;
        }
        gassign *g = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v));
        if (!g || gimple_bb(g) != bb)
            return NULL;
        if (gimple_assign_load_p(g)) {
            load = g;
            break;
        }
        enum tree_code step = gimple_assign_rhs_code(g);
        if (!CONVERT_EXPR_CODE_P(step) && step != BIT_NOT_EXPR &&
            step != TRUTH_NOT_EXPR)
            return NULL;
        steps->safe_push(g);
        v = gimple_assign_rhs1(g);
    }
    if (!load || gimple_has_volatile_ops(load))
        return NULL;
    return load;
}

/* Does `load` read word 0 of the call's own result (`base`), after the
 * call with nothing written in between?  Its width and how it reads go to
 * *test; whether that field is the stop word is the core's rule. */
bool loads_result_word0(gassign *load, gcall *call, tree base,
                        struct sb_tock_test *test)
{
    tree ref = gimple_assign_rhs1(load);
    poly_int64 bitpos, bitsize, maxsize;
    bool reverse;
    tree field_base = get_ref_base_and_extent(ref, &bitpos, &bitsize, &maxsize,
                                              &reverse);
    HOST_WIDE_INT size;
    tree field_type = TREE_TYPE(ref);
    if (field_base != base || reverse || !known_eq(bitpos, 0) ||
        !bitsize.is_constant(&size) || !INTEGRAL_TYPE_P(field_type) ||
        size < 1 || size > 64)
        return false;
    test->field_bits = (uint8_t)size;
    test->field_signed = !TYPE_UNSIGNED(field_type);
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    for (gsi_next(&gsi); !gsi_end_p(gsi) && gsi_stmt(gsi) != load;
         gsi_next(&gsi))
        if (gimple_vdef(gsi_stmt(gsi)))
            return false;
    return !gsi_end_p(gsi);
}

/* Is converter call `conv`'s struct argument the whole result local
 * `base` of `call`, unchanged since?  The int it returns is the field of
 * the test, read as its type reads. */
bool converts_result_of(gcall *conv, gcall *call, tree base,
                        struct sb_tock_test *test)
{
    tree type = TREE_TYPE(gimple_call_lhs(conv));
    if (gimple_call_num_args(conv) < 1 || !base ||
        gimple_call_arg(conv, 0) != base || gimple_bb(conv) != gimple_bb(call) ||
        !INTEGRAL_TYPE_P(type) || TYPE_PRECISION(type) > 64)
        return false;
    test->field_bits = (uint8_t)TYPE_PRECISION(type);
    test->field_signed = !TYPE_UNSIGNED(type);
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    for (gsi_next(&gsi); !gsi_end_p(gsi) && gsi_stmt(gsi) != conv;
         gsi_next(&gsi))
        if (gimple_vdef(gsi_stmt(gsi)))
            return false;
    return !gsi_end_p(gsi);
}

/* The steps from the field to the compared value (`steps` holds them last
 * applied first) in the core's terms; false when there are too many. */
bool describe_steps(const auto_vec<gassign *, 8> &steps,
                    struct sb_tock_test *test)
{
    test->nsteps = 0;
    for (unsigned s = steps.length(); s-- > 0;) {
        if (test->nsteps >= SB_TOCK_MAX_STEPS)
            return false;
        gassign *g = steps[s];
        tree to = TREE_TYPE(gimple_assign_lhs(g));
        enum tree_code step = gimple_assign_rhs_code(g);
        struct sb_tock_step *out = &test->steps[test->nsteps++];
        if (step == TRUTH_NOT_EXPR ||
            (step == BIT_NOT_EXPR && TREE_CODE(to) == BOOLEAN_TYPE)) {
            out->kind = SB_TOCK_STEP_NOT_BOOL;
        } else if (step == BIT_NOT_EXPR) {
            out->kind = SB_TOCK_STEP_NOT_BITS;
        } else {
            if (TYPE_PRECISION(to) < 1 || TYPE_PRECISION(to) > 64)
                return false;
            out->kind = SB_TOCK_STEP_CONVERT;
            out->bits = (uint8_t)TYPE_PRECISION(to);
            out->is_signed = !TYPE_UNSIGNED(to);
        }
    }
    return true;
}

/* GIMPLE's comparison `code` on operands of type `type`, in the core's
 * terms; false for anything else. */
bool describe_compare(enum tree_code code, tree type, uint8_t *cmp)
{
    bool u = TYPE_UNSIGNED(type);
    switch (code) {
    case EQ_EXPR: *cmp = SB_CMP_EQ; return true;
    case NE_EXPR: *cmp = SB_CMP_NE; return true;
    case LT_EXPR: *cmp = u ? SB_CMP_ULT : SB_CMP_SLT; return true;
    case LE_EXPR: *cmp = u ? SB_CMP_ULE : SB_CMP_SLE; return true;
    case GT_EXPR: *cmp = u ? SB_CMP_UGT : SB_CMP_SGT; return true;
    case GE_EXPR: *cmp = u ? SB_CMP_UGE : SB_CMP_SGE; return true;
    default: return false;
    }
}

/* How block `bb`'s conditional branch tests the libtock-c result of its
 * last candidate call: the edge taken exactly when the call's return
 * variant is a Failure* (the series' stop condition) and the one taken
 * exactly on success.  False (with `why`) when it tests anything else:
 * `r.type != TOCK_SYSCALL_SUCCESS` leaves on a Success-u32 too while the
 * kernel goes on.  This walks from the compare back to the load of word 0
 * (conversions and negations only); which tests are exact is the core's
 * rule (sb_tock_stop_test, the LLVM pass asks the same). */
bool tock_stop_test(basic_block bb, edge *on_failure, edge *on_success,
                    const char **why)
{
    *why = NULL;
    gimple *last = last_stmt(bb);
    gcond *cond = last ? dyn_cast<gcond *>(last) : NULL;
    if (!cond || EDGE_COUNT(bb->succs) != 2)
        return false;
    gcall *call = last_tock_call(bb);
    if (!call)
        return false;
    const struct sb_syscall *row =
        sb_catalog_lookup(SB_ABI_TOCK, callee_symbol(call));
    if (sb_tock_stop_test(row, NULL) == SB_TOCK_TEST_NONE)
        return false;
    *why = sb_tock_stop_test_why();
    tree result = gimple_call_lhs(call);
    if (!result)
        return false;
    tree base = get_base_address(result);

    tree value = gimple_cond_lhs(cond), constant = gimple_cond_rhs(cond);
    enum tree_code code = gimple_cond_code(cond);
    if (TREE_CODE(value) == INTEGER_CST) {
        std::swap(value, constant);
        code = swap_tree_comparison(code);
    }
    if (TREE_CODE(constant) != INTEGER_CST || !tree_fits_shwi_p(constant))
        return false;
    struct sb_tock_test test;
    memset(&test, 0, sizeof test);
    test.constant = tree_to_shwi(constant);
    auto_vec<gassign *, 8> steps;
    gcall *conv = NULL;
    gassign *load = field_load_of(value, bb, &steps, &conv);
    if (conv ? !converts_result_of(conv, call, base, &test)
             : !load || !loads_result_word0(load, call, base, &test))
        return false;
    if (!describe_steps(steps, &test) ||
        !describe_compare(code, TREE_TYPE(value), &test.cmp))
        return false;
    enum sb_tock_stop_class cls;
    if (conv) {
        char buf[320];
        const char *conv_why = NULL;
        cls = sb_tock_converter_test(
            sb_tock_converter_lookup(callee_symbol(conv)), row, &test,
            &conv_why, buf, sizeof buf);
        if (conv_why)
            *why = conv_why == buf ? ggc_strdup(buf) : conv_why;
    } else {
        cls = sb_tock_stop_test(row, &test);
    }
    if (cls != SB_TOCK_TEST_TRUE_IS_FAILURE &&
        cls != SB_TOCK_TEST_TRUE_IS_SUCCESS)
        return false;
    bool true_is_failure = cls == SB_TOCK_TEST_TRUE_IS_FAILURE;
    edge on_true, on_false;
    extract_true_false_edges_from_block(bb, &on_true, &on_false);
    *on_failure = true_is_failure ? on_true : on_false;
    *on_success = true_is_failure ? on_false : on_true;
    *why = NULL;
    return (*on_success)->dest != (*on_failure)->dest;
}

} // namespace

void sysbatch_form_tock_chain(basic_block entry, bool (*excluded)(basic_block),
                              auto_vec<basic_block> *bbs)
{
    sysbatch_cfg_description d(entry, SB_ABI_TOCK, excluded);
    auto_vec<int> numbers;
    numbers.safe_push(d.entry_number);
    int calls = d.blocks[d.entry_number].candidates;
    bbs->safe_push(entry);
    while (bbs->length() < SB_MAX_REGION_BLOCKS) {
        edge on_failure, on_success;
        const char *why;
        basic_block last = bbs->last();
        if (!tock_stop_test(last, &on_failure, &on_success, &why)) {
            /* A test the stop policy cannot do: the run ends at this
             * branch (its call may still end a series). */
            if (why && sysbatch_say_refusals && dump_enabled_p())
                dump_printf_loc(MSG_MISSED_OPTIMIZATION, last_stmt(last),
                                "sysbatch: branch ends the run: %s\n", why);
            break;
        }
        basic_block next = on_success->dest;
        int k = next == EXIT_BLOCK_PTR_FOR_FN(cfun) ||
                        (on_success->flags & (EDGE_ABNORMAL | EDGE_EH))
                    ? -1
                    : d.number(next);
        /* The core's rule for who joins (sysbatch/cfg.h). */
        if (!sb_cfg_chain_joins(&d.cfg, numbers.address(),
                                (int)numbers.length(), calls, k))
            break;
        bbs->safe_push(next);
        numbers.safe_push(k);
        calls += d.blocks[k].candidates;
    }
    if (bbs->length() < 2)
        bbs->truncate(0);
}

int sysbatch_analyze_tock_chain(struct sysbatch_block *out)
{
    out->bb = out->bbs[0];
    out->part = 0;
    block_scanner scanner(out->bb, SB_ABI_TOCK, 0, out);
    return scanner.run_tock_chain();
}


/* libtock-c's syscall wrappers (one raw call and its converter): inlined
 * wherever GCC can (sb_tock_inline_wrapper), so that the late look sees
 * the raw calls of a driver or an app side by side.  GCC's own heuristics
 * refuse a wrapper that grows a cold caller - every call from `main`,
 * which runs once - and clang's take it; DECL_DISREGARD_INLINE_LIMITS is
 * what always_inline sets, and it travels into -flto's link stage with the
 * declaration.  Unlike the attribute, it raises no error where the call
 * cannot be inlined (an interposable wrapper under -fPIC). */
void sysbatch_tock_inline_wrappers(function *fun)
{
    struct sb_tock_body body = {};
    body.loops = mark_dfs_back_edges(fun);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
             gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            if (is_gimple_debug(stmt) || gimple_code(stmt) == GIMPLE_LABEL ||
                gimple_code(stmt) == GIMPLE_NOP ||
                gimple_code(stmt) == GIMPLE_PREDICT)
                continue;
            gcall *call = dyn_cast<gcall *>(stmt);
            if (!call) {
                body.statements++;
                continue;
            }
            const char *name = callee_symbol(call);
            const struct sb_syscall *row =
                name ? sb_catalog_lookup(SB_ABI_TOCK, name) : NULL;
            if (row && (row->flags & SB_ROW_NEVER))
                body.never_calls++;
            else if (row)
                body.raw_calls++;
            else if (name && sb_tock_converter_lookup(name))
                body.converter_calls++;
            else
                body.other_calls++;
        }
    }
    if (sb_tock_inline_wrapper(&body))
        DECL_DISREGARD_INLINE_LIMITS(fun->decl) = 1;
}
