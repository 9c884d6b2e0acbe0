/* rewrite-tock.cc: phase 4 for Tock - one planned batch of libtock-c raw
 * calls becomes one series call (class 0xfe, runtime/include/sysbatch_tock.h;
 * the rules are in docs/gcc.md, "Tock").
 *
 * before (one block)                   after
 *
 *   a = allow_readonly (1, 1, buf_2(D), 8);   sysbatch_frames[0] = 4;  (class)
 *   s = subscribe (1, 1, cb, 0B);             sysbatch_frames[1] = 1; ... [3] = (unsigned) buf_2(D);
 *   yield ();                                 ...                       (5 words per call)
 *                                             sysbatch_tock_run (&sysbatch_frames[0], 3);
 *                                             a = MEM <allow_ro_return_t> [&sysbatch_frames + 4B];
 *                                             s = MEM <subscribe_return_t> [&sysbatch_frames + 24B];
 *
 * The runtime runs the frames and converts each one that ran, in place,
 * into the struct libtock-c's call returns, so a call site is a read of
 * its own frame (at -Os SRA leaves the loads of the fields the code uses)
 * and the original call is removed: no per-site call, branch or copy of
 * the call.  Which calls run is the runtime's business, decided by one
 * mark per frame: a frame is checked (its class word carries
 * SB_TOCK_CHECKED) when the code tests that call's success exactly and
 * leaves the run when it failed - the last call of a block of a checked
 * chain (sb_tock_frame_checked).  The runtime stops after a checked call
 * that failed and nowhere else, so every call the code reaches ran, in
 * order, and none that it does not reach; a series the kernel refuses it
 * runs call by call.  Code between the calls never moves; only the kernel
 * side of the later calls moved up to the issue point (the planner checked
 * that this code touches nothing the kernel or an upcall could see).
 * There is no sysbatch_active probe: the Tock backend is chosen at build
 * time.
 *
 * With fill=template the words known at compile time (the marks included)
 * come from a static const byte template instead (sysbatch_tock.h, COMPACT
 * encoding: a byte per frame for its class and how many argument words
 * follow, a byte per word, 0xff and four bytes for larger ones); the
 * call site stores only the words that vary, as patches right after the
 * frames, and calls sysbatch_tock_run_template (&frames[0], &template):
 *
 *     sysbatch_frames.2[15] = (unsigned) buf_2(D);    patch 0 -> word 3
 *     sysbatch_tock_run_template (&sysbatch_frames.2[0], &sysbatch_tock_template.4);
 *
 * A checked chain (tock-chains) is rewritten the same way: its sites sit
 * in later blocks, behind the code's own tests; the frames are filled and
 * run in the chain's first block.
 */
#include "sysbatch-gcc.h"
#include "sysbatch/shape.h"
#include "sysbatch/tock.h"

namespace {

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
    void issue();
    void rewrite_call_site(int call, int frame);
    void pass_frame_to_calls(gimple *read, tree var, tree frame_ref) const;

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
 * template (sb_tock_template, COMPACT encoding) of the frames whose words are
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
                                   SB_TOCK_TEMPLATE_COMPACT, NULL, 0, &npatches);
    if (!size || npatches != (int)patches->length())
        internal_error("sysbatch: the core cannot lay out a Tock template of "
                       "%d frames", count);
    auto_vec<unsigned char> bytes;
    bytes.safe_grow_cleared(size);
    sb_tock_template(core_words.address(), count, SB_TOCK_TEMPLATE_COMPACT,
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
 * template plus patches) and one runtime call that runs them. */
void tock_rewriter::issue()
{
    first_ = blk_->calls[bp_.first_call];
    location_t loc = gimple_location(first_);
    tree u32 = uint32_type_node;
    int n = bp_.nslots;

    /* The blocks the calls are in now, before anything is rewritten: a
     * frame is checked when the next one's call is in another block. */
    auto_vec<int> block_of_slot;
    for (int s = 0; s < n; s++)
        block_of_slot.safe_push(gimple_bb(blk_->calls[bp_.slots[s].call])->index);

    bool use_template = sysbatch_cfg.core.fill == SB_FILL_MODE_TEMPLATE &&
                        n <= SB_TOCK_TEMPLATE_MAX_FRAMES;
    /* Commands and yields need no conversion: the entries without it,
     * which do not link the converter.  Stored frames pass the marks as a
     * mask: no mark scan in the runtime. */
    bool commands_only = sb_tock_series_commands_only(&bp_);
    bool mask_marks = !use_template && n <= SB_TOCK_MASK_FRAMES;
    uint32_t checked_mask = 0;
    gimple_seq seq = NULL;
    auto_vec<tree> words;
    for (int s = 0; s < n; s++) {
        const struct sb_slot_plan &sp = bp_.slots[s];
        struct sb_tock_word fw[SB_TOCK_WORDS_PER_FRAME];
        const char *why;
        if (sb_tock_frame_words(&bp_, s, fw, &why) != 0)
            internal_error("sysbatch: %s", why);
        if (sb_tock_frame_checked(&bp_, s, block_of_slot.address())) {
            if (mask_marks)
                checked_mask |= 1u << s;
            else
                fw[0].value |= SB_TOCK_CHECKED;
        }
        for (int k = 0; k < SB_TOCK_WORDS_PER_FRAME; k++)
            words.safe_push(fw[k].constant
                                ? build_int_cst(u32, fw[k].value)
                                : word_value(&seq, sp, k - 1, loc));
    }
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
    gcall *run;
    if (use_template) {
        for (unsigned i = 0; i < patches.length(); i++)
            store(5 * n + (int)i, words[patches[i]]);
        run = gimple_build_call(commands_only
                                    ? sysbatch_rt.tock_run_template_commands_fn
                                    : sysbatch_rt.tock_run_template_fn, 2,
                                build_fold_addr_expr(frame_word(0, 0)),
                                build_fold_addr_expr(tmpl));
    } else {
        for (unsigned w = 0; w < words.length(); w++)
            store((int)w, words[w]);
        if (mask_marks)
            run = gimple_build_call(commands_only
                                        ? sysbatch_rt.tock_run_commands_fn
                                        : sysbatch_rt.tock_run_masked_fn, 3,
                                    build_fold_addr_expr(frame_word(0, 0)),
                                    build_int_cst(u32, n),
                                    build_int_cst(u32, checked_mask));
        else
            run = gimple_build_call(sysbatch_rt.tock_run_fn, 2,
                                    build_fold_addr_expr(frame_word(0, 0)),
                                    build_int_cst(u32, n));
    }
    gimple_set_location(run, loc);
    gimple_seq_add_stmt(&seq, run);
    gimple_stmt_iterator gsi = gsi_for_stmt(first_);
    gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
}

/* libtock-c passes a raw call's struct by value to its converter right
 * after the call.  Passed from the copy the site read into `var`, both
 * compilers' back ends store the words into var's stack slot and load them
 * again; passed from the frame itself they are loaded once.  Later in the
 * read's block, up to the first statement that may write `var` (or any
 * asm), a call argument that is `var` itself becomes `frame_ref`: the same
 * words, since nothing writes the frames after the one runtime call that
 * precedes the read (only the runtime has their address), and `var`, a
 * private local whose address is never taken, changes only where a
 * statement names it.  The read stays for every other use; DSE drops it
 * when none is left. */
static bool writes_var(gimple *g, tree var)
{
    if (gimple_code(g) == GIMPLE_ASM)
        return true;
    tree lhs = gimple_get_lhs(g);
    return lhs && get_base_address(lhs) == var;
}

/* Does any statement or PHI of the function take the address of `var`?
 * (TREE_ADDRESSABLE stays set after the call that returned into `var` in
 * memory is gone, until the next update of address-taken flags.) */
static tree find_addr_of(tree *tp, int *walk_subtrees, void *data)
{
    struct walk_stmt_info *wi = (struct walk_stmt_info *)data;
    if (TREE_CODE(*tp) == ADDR_EXPR &&
        get_base_address(TREE_OPERAND(*tp, 0)) == (tree)wi->info)
        return *tp;
    if (IS_TYPE_OR_DECL_P(*tp))
        *walk_subtrees = 0;
    return NULL_TREE;
}

static bool address_taken(tree var)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, cfun) {
        for (gphi_iterator pi = gsi_start_phis(bb); !gsi_end_p(pi); gsi_next(&pi)) {
            gphi *phi = pi.phi();
            for (unsigned i = 0; i < gimple_phi_num_args(phi); i++) {
                tree arg = gimple_phi_arg_def(phi, i);
                if (TREE_CODE(arg) == ADDR_EXPR &&
                    get_base_address(TREE_OPERAND(arg, 0)) == var)
                    return true;
            }
        }
        for (gimple_stmt_iterator gi = gsi_start_bb(bb); !gsi_end_p(gi); gsi_next(&gi)) {
            struct walk_stmt_info wi;
            memset(&wi, 0, sizeof wi);
            wi.info = var;
            if (walk_gimple_op(gsi_stmt(gi), find_addr_of, &wi))
                return true;
        }
    }
    return false;
}

void tock_rewriter::pass_frame_to_calls(gimple *read, tree var, tree frame_ref) const
{
    if (!VAR_P(var) || is_global_var(var) || !AGGREGATE_TYPE_P(TREE_TYPE(var)) ||
        address_taken(var))
        return;
    gimple_stmt_iterator it = gsi_for_stmt(read);
    for (gsi_next(&it); !gsi_end_p(it); gsi_next(&it)) {
        gimple *g = gsi_stmt(it);
        if (writes_var(g, var))
            return;
        if (!is_gimple_call(g))
            continue;
        bool changed = false;
        for (unsigned i = 0; i < gimple_call_num_args(g); i++)
            if (gimple_call_arg(g, i) == var) {
                gimple_call_set_arg(g, i, unshare_expr(frame_ref));
                changed = true;
            }
        if (changed)
            update_stmt(g);
    }
}

/* Call site k: the original call is replaced by a read of frame k's return
 * words, which the runtime has turned into the call's libtock-c struct. */
void tock_rewriter::rewrite_call_site(int call, int frame)
{
    gcall *c = blk_->calls[call];
    location_t loc = gimple_location(c);
    tree lhs = gimple_call_lhs(c);
    const struct sb_call_event &ev = sysbatch_call_event(*blk_, call);
    if (lhs && !sb_tock_result_bytes(ev.row))
        internal_error("sysbatch: a Tock call with a result where libtock-c "
                       "returns nothing");
    if (lhs && int_size_in_bytes(TREE_TYPE(lhs)) >
                   4 * (SB_TOCK_WORDS_PER_FRAME - 1))
        internal_error("sysbatch: a Tock result larger than the return words "
                       "of a frame");

    gimple_stmt_iterator gsi = gsi_for_stmt(c);
    if (lhs) {
        /* Read through a ref-all pointer: the runtime wrote the words as
         * uint32_t. */
        tree ref_all = build_pointer_type_for_mode(TREE_TYPE(lhs), ptr_mode,
                                                   true);
        tree word1 = build_int_cst(ref_all, 4 * (5 * frame + 1));
        tree result = build2(MEM_REF, TREE_TYPE(lhs),
                             build_fold_addr_expr(frames_), word1);
        gassign *read = gimple_build_assign(unshare_expr(lhs), result);
        gimple_set_location(read, loc);
        gsi_insert_before(&gsi, read, GSI_SAME_STMT);
        unlink_stmt_vdef(c);
        gsi_remove(&gsi, true);
        release_defs(c);
        pass_frame_to_calls(read, lhs, result);
        return;
    }
    unlink_stmt_vdef(c);
    gsi_remove(&gsi, true);
    release_defs(c);
}

void tock_rewriter::run()
{
    issue();
    for (int s = 0; s < bp_.nslots; s++)
        rewrite_call_site(bp_.slots[s].call, s);
}

} // namespace

void sysbatch_rewrite_tock_batch(struct sysbatch_block *blk,
                                 const struct sb_plan *plan, int batch)
{
    tock_rewriter rewriter(blk, plan, batch);
    rewriter.run();
}
