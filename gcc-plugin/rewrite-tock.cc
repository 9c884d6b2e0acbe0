/* rewrite-tock.cc: phase 4 for Tock - one planned batch of libtock-c raw
 * calls becomes one series call (class 0xfe, runtime/include/sysbatch_tock.h;
 * the rules are in docs/gcc.md, "Tock").
 *
 * before (one block)                   after
 *
 *   a = allow_readonly (1, 1, buf_2(D), 8);   sysbatch_frames[0] = 4;  (class)
 *   s = subscribe (1, 1, cb, 0B);             sysbatch_frames[1] = 1; ... [3] = (unsigned) buf_2(D);
 *   yield ();                                 ...                       (5 words per call)
 *                                             left_7 = sysbatch_tock_series (&sysbatch_frames[0], 3, 0);
 *                                             ran_8 = 3 - left_7;
 *                                             sysbatch_tock_take (&sysbatch_ret, &sysbatch_frames[0], 0, ran_8);
 *                                             a = sysbatch_ret;
 *                                             sysbatch_tock_take (&sysbatch_ret.1, &sysbatch_frames[0], 1, ran_8);
 *                                             s = sysbatch_ret.1;
 *                                             sysbatch_tock_take (0B, &sysbatch_frames[0], 2, ran_8);
 *
 * Every series runs with the stop policy (the core makes every Tock slot
 * stop on failure): the kernel runs the calls in order up to the first one
 * returning a Failure variant, so call k ran exactly when k < ran.  Each
 * call site becomes one runtime call, sysbatch_tock_take (out, &frames[0],
 * k, ran), in the original call's place, and the original call is removed:
 * the runtime converts frame k into libtock-c's struct at `out` (0B when
 * the result is unused, and for yield), and when k >= ran first runs frame
 * k itself with its own class's trap - a frame the kernel did not run
 * still holds its input words, which are the call's arguments (the planner
 * only lets through values that are the same at the issue point).  So a
 * call the series did not run is still made in its original place, after
 * the code between the calls, which never moves; only the kernel side of
 * the later calls moved up to the issue point (the planner checked that
 * this code touches nothing the kernel or an upcall could see).  No
 * branch, no second copy of the call.  There is no sysbatch_active probe:
 * the Tock backend is chosen at build time.
 *
 * With fill=template the words known at compile time come from a static
 * const byte template instead (sysbatch_tock.h, BYTES encoding: one byte
 * per word, 0xff and four bytes for larger ones); the call site stores only
 * the words that vary, as patches right after the frames, and calls
 * sysbatch_tock_series_template (&frames[0], &template) - fewer stores,
 * so smaller code (docs/gcc.md has the sizes); the call sites are the same:
 *
 *     sysbatch_frames.2[15] = (unsigned) buf_2(D);    patch 0 -> word 3
 *     left_7 = sysbatch_tock_series_template (&sysbatch_frames.2[0],
 *                                             &sysbatch_tock_template.4);
 *
 * A checked chain (tock-chains) is rewritten the same way: its sites sit
 * in later blocks, behind the code's own tests, and `ran`, defined at the
 * issue point in the chain's first block, dominates them.
 *
 * A struct result is written by the runtime into a fresh addressable
 * temporary of the lhs's type and then copied, so no user variable becomes
 * addressable and any lhs works (a field, *p, the return value); at -Os
 * SRA leaves only the loads of the fields the code reads.
 */
#include "sysbatch-gcc.h"
#include "sysbatch/shape.h"
#include "sysbatch/tock.h"

void sysbatch_build_tock_decls(void)
{
    struct sysbatch_runtime_decls &rt = sysbatch_rt;
    tree u32 = uint32_type_node;
    tree frame_ptr = build_pointer_type(u32);
    rt.tock_series_fn = build_fn_decl(
        "sysbatch_tock_series",
        build_function_type_list(u32, frame_ptr, u32, u32, NULL_TREE));
    rt.tock_series_template_fn = build_fn_decl(
        "sysbatch_tock_series_template",
        build_function_type_list(u32, frame_ptr, const_ptr_type_node, NULL_TREE));
    rt.tock_take_fn = build_fn_decl(
        "sysbatch_tock_take",
        build_function_type_list(void_type_node, ptr_type_node, frame_ptr, u32,
                                 u32, NULL_TREE));
    for (tree fn : {rt.tock_series_fn, rt.tock_series_template_fn,
                    rt.tock_take_fn})
        TREE_NOTHROW(fn) = 1;
}

namespace {

const int policy_stop = SB_TOCK_POLICY_STOP;

class tock_rewriter {
public:
    tock_rewriter(struct sysbatch_block *blk, const struct sb_plan *plan,
                  int batch)
        : blk_(blk), bp_(plan->batches[batch]) {}
    void run();

private:
    tree frame_word(int frame, int word) const;
    bool defined_after_issue(tree name) const;
    tree materialize(gimple_seq *seq, tree value, location_t loc) const;
    tree word_value(gimple_seq *seq, const struct sb_slot_plan &sp, int k,
                    location_t loc) const;
    tree issue();
    void rewrite_call_site(int call, int frame, tree ran);

    struct sysbatch_block *blk_;
    const struct sb_batch_plan &bp_;
    tree frames_ = NULL_TREE;
    gimple *first_ = NULL;
};

tree tock_rewriter::frame_word(int frame, int word) const
{
    return build4(ARRAY_REF, uint32_type_node, frames_,
                  size_int(5 * frame + word), NULL_TREE, NULL_TREE);
}

/* Is SSA name `name` defined after the issue point (so not yet where the
 * frames are filled)?  The analysis numbered the region's statements in
 * program order - along a checked chain across its blocks - and rewriting
 * earlier batches splits blocks but keeps every statement's number. */
bool tock_rewriter::defined_after_issue(tree name) const
{
    if (TREE_CODE(name) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(name))
        return false;
    gimple *def = SSA_NAME_DEF_STMT(name);
    return blk_->stmts.contains(def) && gimple_uid(def) > gimple_uid(first_);
}

/* `value` as it is where the frames are filled.  The analysis let through
 * (as CONST / AVAILABLE / RESULT of a call before the batch) only values
 * that are available there, or conversions of such values, or a word an
 * earlier call's struct result holds (r.data[0]) that nothing changes
 * before its load: those are computed again at the issue point. */
tree tock_rewriter::materialize(gimple_seq *seq, tree value,
                                location_t loc) const
{
    if (!defined_after_issue(value))
        return value;
    gassign *def = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(value));
    if (def && CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(def)))
        return gimple_convert(seq, loc, TREE_TYPE(value),
                              materialize(seq, gimple_assign_rhs1(def), loc));
    if (def && gimple_assign_load_p(def)) {
        tree again = make_ssa_name(TREE_TYPE(value));
        gassign *load = gimple_build_assign(
            again, unshare_expr(gimple_assign_rhs1(def)));
        gimple_set_location(load, loc);
        gimple_seq_add_stmt(seq, load);
        return again;
    }
    internal_error("sysbatch: an argument of a Tock call is computed after the "
                   "series is issued");
}

/* Raw argument k of a call slot, as a frame word. */
tree tock_rewriter::word_value(gimple_seq *seq, const struct sb_slot_plan &sp,
                               int k, location_t loc) const
{
    tree u32 = uint32_type_node;
    const struct sb_fill_arg &f = sp.args[k];
    if (f.fill == SB_FILL_CONST)
        return build_int_cst(u32, f.value);
    if (f.fill != SB_FILL_LIBC_ARG)
        internal_error("sysbatch: a Tock frame word the series cannot fill");
    gcall *call = blk_->calls[sp.call];
    if (f.index < 0 || (unsigned)f.index >= gimple_call_num_args(call))
        return build_int_cst(u32, 0);
    /* Conversions between 32-bit types leave the frame word as it is
     * ((int) len): take their source instead of redoing them. */
    tree arg = gimple_call_arg(call, f.index);
    while (TREE_CODE(arg) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(arg)) {
        gassign *conv = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(arg));
        if (!conv || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(conv)))
            break;
        tree src = gimple_assign_rhs1(conv);
        tree from = TREE_TYPE(src), to = TREE_TYPE(arg);
        if (!(INTEGRAL_TYPE_P(from) || POINTER_TYPE_P(from)) ||
            !(INTEGRAL_TYPE_P(to) || POINTER_TYPE_P(to)) ||
            TYPE_PRECISION(from) != 32 || TYPE_PRECISION(to) != 32)
            break;
        arg = src;
    }
    return gimple_convert(seq, loc, u32, materialize(seq, arg, loc));
}

/* static const unsigned char sysbatch_tock_template.N[] = the core's
 * template (sb_tock_template, BYTES encoding) of the frames whose words are
 * `words`: the core's frame words (sb_tock_frame_words), with a variable
 * word GCC has folded to a constant made constant. */
tree build_tock_template(const auto_vec<tree> &words, int count,
                         auto_vec<int> *patches)
{
    auto_vec<struct sb_tock_word> core_words;
    for (unsigned w = 0; w < words.length(); w++) {
        struct sb_tock_word cw;
        memset(&cw, 0, sizeof cw);
        cw.libc_arg = -1;
        cw.constant = TREE_CODE(words[w]) == INTEGER_CST;
        if (cw.constant)
            cw.value = (uint32_t)(tree_to_uhwi(words[w]) & 0xffffffffu);
        else
            patches->safe_push((int)w);
        core_words.safe_push(cw);
    }
    int npatches;
    size_t size = sb_tock_template(core_words.address(), count,
                                   SB_TOCK_TEMPLATE_BYTES, NULL, 0, &npatches);
    if (!size || npatches != (int)patches->length())
        internal_error("sysbatch: the core cannot lay out a Tock template of "
                       "%d frames", count);
    auto_vec<unsigned char> bytes;
    bytes.safe_grow_cleared(size);
    sb_tock_template(core_words.address(), count, SB_TOCK_TEMPLATE_BYTES,
                     bytes.address(), size, &npatches);
    tree uchar = unsigned_char_type_node;
    tree type = build_array_type_nelts(build_qualified_type(uchar, TYPE_QUAL_CONST),
                                       bytes.length());
    vec<constructor_elt, va_gc> *elts = NULL;
    for (unsigned i = 0; i < bytes.length(); i++)
        CONSTRUCTOR_APPEND_ELT(elts, size_int(i), build_int_cst(uchar, bytes[i]));
    tree ctor = build_constructor(type, elts);
    TREE_CONSTANT(ctor) = 1;
    TREE_STATIC(ctor) = 1;
    /* The layout asks for 4-byte alignment. */
    tree decl = sysbatch_build_const_table("sysbatch_tock_template", type, ctor, 32);
    return decl;
}

/* At the batch's first call: fill the frames (every word stored, or a
 * template plus patches), one series call, and ran = n - left (the number
 * of calls that ran). */
tree tock_rewriter::issue()
{
    first_ = blk_->calls[bp_.first_call];
    location_t loc = gimple_location(first_);
    tree u32 = uint32_type_node;
    int n = bp_.nslots;

    gimple_seq seq = NULL;
    auto_vec<tree> words;
    for (int s = 0; s < n; s++) {
        const struct sb_slot_plan &sp = bp_.slots[s];
        struct sb_tock_word fw[SB_TOCK_WORDS_PER_FRAME];
        const char *why;
        if (sb_tock_frame_words(&bp_, s, fw, &why) != 0)
            internal_error("sysbatch: %s", why);
        for (int k = 0; k < SB_TOCK_WORDS_PER_FRAME; k++)
            words.safe_push(fw[k].constant
                                ? build_int_cst(u32, fw[k].value)
                                : word_value(&seq, sp, k - 1, loc));
    }
    bool use_template = sysbatch_cfg.core.fill == SB_FILL_MODE_TEMPLATE &&
                        n <= SB_TOCK_TEMPLATE_MAX_FRAMES;
    auto_vec<int> patches;
    tree tmpl = use_template ? build_tock_template(words, n, &patches)
                             : NULL_TREE;
    int nwords = 5 * n + (int)patches.length();
    frames_ = create_tmp_var(build_array_type_nelts(u32, nwords),
                             "sysbatch_frames");
    TREE_ADDRESSABLE(frames_) = 1;

    auto store = [&](int index, tree value) {
        gassign *g = gimple_build_assign(
            build4(ARRAY_REF, u32, frames_, size_int(index), NULL_TREE,
                   NULL_TREE),
            value);
        gimple_set_location(g, loc);
        gimple_seq_add_stmt(&seq, g);
    };
    gcall *series;
    if (use_template) {
        for (unsigned i = 0; i < patches.length(); i++)
            store(5 * n + (int)i, words[patches[i]]);
        series = gimple_build_call(sysbatch_rt.tock_series_template_fn, 2,
                                   build_fold_addr_expr(frame_word(0, 0)),
                                   build_fold_addr_expr(tmpl));
    } else {
        for (unsigned w = 0; w < words.length(); w++)
            store((int)w, words[w]);
        series = gimple_build_call(sysbatch_rt.tock_series_fn, 3,
                                   build_fold_addr_expr(frame_word(0, 0)),
                                   build_int_cst(u32, n),
                                   build_int_cst(u32, policy_stop));
    }
    tree left = make_ssa_name(u32);
    gimple_call_set_lhs(series, left);
    gimple_set_location(series, loc);
    gimple_seq_add_stmt(&seq, series);
    tree ran = gimple_build(&seq, loc, MINUS_EXPR, u32, build_int_cst(u32, n),
                            left);
    gimple_stmt_iterator gsi = gsi_for_stmt(first_);
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
    return ran;
}

/* Call site k: one runtime call that writes the call's libtock-c result
 * from frame k (running that frame first when the series stopped before
 * it) replaces the original call. */
void tock_rewriter::rewrite_call_site(int call, int frame, tree ran)
{
    gcall *c = blk_->calls[call];
    location_t loc = gimple_location(c);
    tree lhs = gimple_call_lhs(c);
    const struct sb_call_event &ev = sysbatch_call_event(*blk_, call);
    if (lhs && !sb_tock_result_bytes(ev.row))
        internal_error("sysbatch: a Tock call with a result where libtock-c "
                       "returns nothing");

    gimple_seq seq = NULL;
    tree tmp = NULL_TREE;
    tree out = null_pointer_node;
    if (lhs) {
        tmp = create_tmp_var(TREE_TYPE(lhs), "sysbatch_ret");
        TREE_ADDRESSABLE(tmp) = 1;
        out = build_fold_addr_expr(tmp);
    }
    gcall *take = gimple_build_call(sysbatch_rt.tock_take_fn, 4, out,
                                    build_fold_addr_expr(frame_word(0, 0)),
                                    build_int_cst(uint32_type_node, frame), ran);
    gimple_set_location(take, loc);
    gimple_seq_add_stmt(&seq, take);
    if (lhs) {
        gassign *copy = gimple_build_assign(unshare_expr(lhs), tmp);
        gimple_set_location(copy, loc);
        gimple_seq_add_stmt(&seq, copy);
    }
    gimple_stmt_iterator gsi = gsi_for_stmt(c);
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
    unlink_stmt_vdef(c);
    gsi_remove(&gsi, true);
    release_defs(c);
}

void tock_rewriter::run()
{
    tree ran = issue();
    for (int s = 0; s < bp_.nslots; s++)
        rewrite_call_site(bp_.slots[s].call, s, ran);
}

} // namespace

void sysbatch_rewrite_tock_batch(struct sysbatch_block *blk,
                                 const struct sb_plan *plan, int batch)
{
    tock_rewriter rewriter(blk, plan, batch);
    rewriter.run();
}
