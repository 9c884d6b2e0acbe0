/* block-analysis.cc: phase 1 on GIMPLE - describe one basic block to the
 * core: its candidate calls, their operands, and the code between them
 * (regions.cc and tock-analysis.cc reuse the same block_scanner for
 * branchy regions and Tock checked chains).
 *
 * For the block
 *
 *     fd_3 = open (p_1(D), 0);
 *     _4 = (long int) fd_3;          <- register-only code: no conflicts
 *     n_6 = read (fd_3, buf_5(D), 4096);
 *     buf_5(D)->x = 1;               <- store: conflicts with later calls
 *     close (fd_3);                     that read or write *buf
 *
 * the region is
 *
 *     call 0 open   a0 AVAILABLE, a1 CONST 0
 *     code          (no conflicts)
 *     call 1 read   a0 RESULT 0, a1 AVAILABLE, a2 CONST 4096
 *     code          conflicts with nothing later (close has no buffer)
 *     call 2 close  a0 RESULT 0
 *
 * GCC's into-SSA pass already rewrote non-addressable locals into SSA names
 * at every -O level, so unlike the LLVM adapter at -O0 there are no
 * stack-slot loads to look through: a call argument is a constant, an
 * invariant address or an SSA name.
 *
 * Memory questions go to GCC's alias oracle with one ao_ref per buffer the
 * catalogue row describes (PATH: read, unknown size; IN_BUF: read; OUT_BUF:
 * written; ADDR/OPAQUE: anything).  errno is never a conflict: the kernel
 * side of a batched call does not touch it, and each call site sets it at
 * its own place after the batch (docs/design.md).
 */
#include "block-scanner.h"
#include "sysbatch/tock.h"
#include "loop-batching.h"

#include "sysbatch/libc.h"

#include "attribs.h"

static const char *const rewritten_attr = "sysbatch rewritten";

void sysbatch_mark_rewritten(gcall *call)
{
    tree fntype = gimple_call_fntype(call);
    if (!fntype || sysbatch_rewritten_p(call))
        return;
    tree attrs = tree_cons(get_identifier(rewritten_attr), NULL_TREE,
                           TYPE_ATTRIBUTES(fntype));
    gimple_call_set_fntype(call, build_type_attribute_variant(fntype, attrs));
}

bool sysbatch_rewritten_p(const gcall *call)
{
    tree fntype = gimple_call_fntype(call);
    return fntype && lookup_attribute(rewritten_attr, TYPE_ATTRIBUTES(fntype));
}

namespace sysbatch_gcc {
static bool addr_touches_memory(gcall *c, const struct sb_syscall *row,
                                unsigned shift);
}

namespace sysbatch_gcc {

/* The callee's linker name (what LLVM sees too), without the '*' GCC puts
 * in front of names given with asm("...").  NULL for a call that is no
 * catalogue candidate by its nature: no declaration, internal, or a call
 * site a batch already rewrote. */
const char *callee_symbol(gcall *call)
{
    tree fndecl = gimple_call_fndecl(call);
    if (!fndecl || gimple_call_internal_p(call) || sysbatch_rewritten_p(call))
        return NULL;
    const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
    if (name[0] == '*')
        name++;
    return name;
}

/* An integer or pointer conversion; *narrowest becomes the destination's
 * precision when it narrows.  Whether that keeps the value of a chained
 * result is the core's call (sb_conversion_keeps_result). */
bool integer_conversion(gimple *stmt, uint8_t *narrowest)
{
    gassign *assign = dyn_cast<gassign *>(stmt);
    if (!assign || !CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(assign)))
        return false;
    tree to = TREE_TYPE(gimple_assign_lhs(assign));
    tree from = TREE_TYPE(gimple_assign_rhs1(assign));
    if (!(INTEGRAL_TYPE_P(to) || POINTER_TYPE_P(to)) ||
        !(INTEGRAL_TYPE_P(from) || POINTER_TYPE_P(from)))
        return false;
    unsigned bits = TYPE_PRECISION(to);
    if (bits < TYPE_PRECISION(from) && (!*narrowest || bits < *narrowest))
        *narrowest = (uint8_t)bits;
    return true;
}

/* Is `ptr` errno's address: __errno_location()'s result, possibly
 * converted or offset? */
bool errno_pointer_p(tree ptr)
{
    while (ptr && TREE_CODE(ptr) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(ptr)) {
        gimple *def = SSA_NAME_DEF_STMT(ptr);
        if (gcall *call = dyn_cast<gcall *>(def)) {
            const char *name = callee_symbol(call);
            return name && !strcmp(name, "__errno_location");
        }
        gassign *assign = dyn_cast<gassign *>(def);
        if (!assign)
            return false;
        enum tree_code code = gimple_assign_rhs_code(assign);
        if (!CONVERT_EXPR_CODE_P(code) && code != POINTER_PLUS_EXPR &&
            code != SSA_NAME)
            return false;
        ptr = gimple_assign_rhs1(assign);
    }
    return false;
}

/* A load or store of errno only (docs/design.md, "errno between calls"):
 * free code, since the kernel side of a batched call never touches errno. */
bool errno_access_p(gimple *stmt)
{
    gassign *assign = dyn_cast<gassign *>(stmt);
    if (!assign || gimple_has_volatile_ops(assign))
        return false;
    tree refs[2] = {NULL_TREE, NULL_TREE};
    if (gimple_store_p(assign))
        refs[0] = gimple_assign_lhs(assign);
    if (gimple_assign_load_p(assign))
        refs[1] = gimple_assign_rhs1(assign);
    if (!refs[0] && !refs[1])
        return false;
    for (tree ref : refs) {
        if (!ref)
            continue;
        tree base = get_base_address(ref);
        if (!base || TREE_CODE(base) != MEM_REF ||
            !errno_pointer_p(TREE_OPERAND(base, 0)))
            return false;
    }
    return true;
}

/* Does the unit hold a body for `decl` that GCC may inline: an extern
 * inline (gnu_inline) definition such as glibc's _FORTIFY_SOURCE wrappers
 * in <bits/unistd.h> and <bits/fcntl2.h>?  Their `read` checks the buffer
 * against its known size before the real call (__read_chk aborts the
 * program on an overflow) and their `open` checks its flags: a batch in
 * their place would skip the check. */
static bool inline_body_p(tree decl)
{
    cgraph_node *node = cgraph_node::get(decl);
    return (node && node->definition) || DECL_STRUCT_FUNCTION(decl);
}

/* Is `call`'s callee the function a catalogue row describes?  On Linux a
 * function of that name defined in this unit is somebody else's (and,
 * like any unknown call, a barrier), and so is a wrapper the unit inlines
 * (inline_body_p): the look after inlining sees what it calls - the plain
 * function where the wrapper checks nothing, its checking twin
 * (__read_chk, no candidate) where it does.  On Tock it is libtock-c's own
 * raw call, defined in the unit under -flto (libtock/tock.c; the plugin
 * keeps it out of line: sysbatch_keep_tock_raw_call). */
bool sysbatch_catalog_callee_p(gcall *call, enum sb_abi abi)
{
    const char *name = callee_symbol(call);
    tree decl = gimple_call_fndecl(call);
    if (!name || !decl || !sb_catalog_lookup(abi, name))
        return false;
    if (abi == SB_ABI_TOCK && DECL_UNINLINABLE(decl))
        return true;
    return DECL_EXTERNAL(decl) && !inline_body_p(decl);
}

/* A call to the C library function a catalogue row describes. */
bool block_scanner::is_candidate(gcall *call) const
{
    return sysbatch_catalog_callee_p(call, abi_) &&
           !(sysbatch_loop_calls && sysbatch_loop_calls->contains(call));
}

/* An integer of at most 64 bits or a pointer: what fits a slot word. */
bool word_type_p(tree type)
{
    return POINTER_TYPE_P(type) ||
           (INTEGRAL_TYPE_P(type) && TYPE_PRECISION(type) <= 64);
}

/* The block is the one described, or one of the branchy region's. */
bool block_scanner::in_region(basic_block bb) const
{
    if (out_->bbs.is_empty())
        return bb == bb_;
    return region_block(bb) >= 0;
}

int block_scanner::region_block(basic_block bb) const
{
    for (unsigned i = 0; i < out_->bbs.length(); i++)
        if (out_->bbs[i] == bb)
            return (int)i;
    return -1;
}

int block_scanner::call_index_of(const gimple *stmt) const
{
    for (unsigned i = 0; i < out_->calls.length(); i++)
        if (out_->calls[i] == stmt)
            return (int)i;
    return -1;
}

/* The row describing call's arguments as written; `shift` is 1 for
 * syscall(NR, ...), whose NR is argument 0.  NULL when unknown. */
const struct sb_syscall *block_scanner::raw_row(gcall *call,
                                                 unsigned *shift) const
{
    const struct sb_syscall *row = sb_catalog_lookup(abi_, callee_symbol(call));
    *shift = 0;
    if (row && (row->flags & SB_ROW_RAW_SYSCALL)) {
        tree nr = gimple_call_num_args(call) ? gimple_call_arg(call, 0) : NULL_TREE;
        if (!nr || !tree_fits_shwi_p(nr))
            return NULL;
        row = sb_catalog_by_nr(abi_, (long)tree_to_shwi(nr));
        *shift = 1;
    }
    return row;
}

/* `load` reads a whole word that an earlier region call wrote into a local
 * through an output buffer (fstat(fd, &st); ... st.st_size), and nothing
 * between that call and the load may have changed it: the word is then
 * SB_OPND_MEMORY, which a batch turns into a word copy from the buffer. */
bool block_scanner::memory_operand(gimple *load, struct sb_operand *op) const
{
    gassign *assign = dyn_cast<gassign *>(load);
    if (!assign || !gimple_assign_load_p(assign) ||
        gimple_has_volatile_ops(assign))
        return false;
    tree type = TREE_TYPE(gimple_assign_lhs(assign));
    if (!(INTEGRAL_TYPE_P(type) || POINTER_TYPE_P(type)) ||
        TYPE_PRECISION(type) != 64)
        return false; /* a word copy moves exactly 8 bytes */
    tree ref = gimple_assign_rhs1(assign);
    poly_int64 bitpos, bitsize, maxsize;
    bool reverse;
    tree base = get_ref_base_and_extent(ref, &bitpos, &bitsize, &maxsize,
                                        &reverse);
    HOST_WIDE_INT pos;
    if (!base || !DECL_P(base) || reverse || !known_eq(bitsize, 64) ||
        !known_eq(maxsize, 64) || !bitpos.is_constant(&pos) || pos % 8)
        return false;

    /* The last region call before the load that writes through &base (in
     * a branchy region: in a block with a path to the load's). */
    int writer = -1;
    unsigned writer_arg = 0;
    for (unsigned i = 0; i < out_->calls.length(); i++) {
        gcall *c = out_->calls[i];
        if (gimple_uid(c) > gimple_uid(load))
            break;
        if (gimple_bb(c) != gimple_bb(load) &&
            (out_->bbs.is_empty() ||
             !reaches(out_->block_of_call[i], region_block(gimple_bb(load)),
                      NULL)))
            continue; /* a writer on a path to the load */
        unsigned shift;
        const struct sb_syscall *row = raw_row(c, &shift);
        if (!row)
            continue;
        for (unsigned k = 0; k < row->libc_argc; k++) {
            if (k + shift >= gimple_call_num_args(c))
                break;
            tree a = gimple_call_arg(c, k + shift);
            bool at_base = TREE_CODE(a) == ADDR_EXPR &&
                           TREE_OPERAND(a, 0) == base;
            if (row->libc_args[k].kind == SB_ARG_OUT_BUF && at_base) {
                writer = (int)i;
                writer_arg = k + shift;
            }
        }
    }
    if (writer < 0)
        return false;
    /* Nothing between the writer and the load may touch the word: no other
     * call with memory behind its arguments, no statement that may store
     * to it - in a branchy region on every path from the writer's block to
     * the load's. */
    ao_ref word;
    ao_ref_init(&word, ref);
    gimple_stmt_iterator gsi = gsi_for_stmt(out_->calls[writer]);
    gsi_next(&gsi);
    basic_block wbb = gimple_bb(out_->calls[writer]);
    if (wbb == gimple_bb(load)) {
        if (!keeps_word(gsi, load, &word))
            return false;
    } else {
        if (!keeps_word(gsi, NULL, &word))
            return false;
        int from = region_block(wbb), to = region_block(gimple_bb(load));
        auto_vec<bool, 64> between;
        between.safe_grow_cleared(out_->bbs.length());
        reaches(from, to, between.address());
        for (int b = from + 1; b < to; b++)
            if (between[b] &&
                !keeps_word(gsi_start_bb(out_->bbs[b]), NULL, &word))
                return false;
        if (!keeps_word(gsi_start_bb(gimple_bb(load)), load, &word))
            return false;
    }
    op->kind = SB_OPND_MEMORY;
    op->call = writer;
    op->arg = (int)writer_arg;
    op->value = pos / 8;
    return true;
}

/* No statement from `gsi` up to `stop` (or the block's end) may change
 * the word. */
bool block_scanner::keeps_word(gimple_stmt_iterator gsi, gimple *stop,
                               ao_ref *word) const
{
    for (; !gsi_end_p(gsi) && gsi_stmt(gsi) != stop; gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (is_gimple_debug(stmt))
            continue;
        if (gimple_code(stmt) == GIMPLE_ASM || gimple_has_volatile_ops(stmt) ||
            stmt_may_clobber_ref_p_1(stmt, word, true))
            return false;
        if (gcall *c = dyn_cast<gcall *>(stmt)) {
            if (call_index_of(c) < 0)
                continue; /* not a candidate: the oracle answered above */
            unsigned shift;
            const struct sb_syscall *row = raw_row(c, &shift);
            if (!row)
                return false;
            bool addr_touches = addr_touches_memory(c, row, shift);
            for (unsigned k = 0; k < row->libc_argc; k++)
                if (row->libc_args[k].kind == SB_ARG_OUT_BUF ||
                    (row->libc_args[k].kind == SB_ARG_ADDR && addr_touches) ||
                    row->libc_args[k].kind == SB_ARG_OPAQUE ||
                    row->libc_args[k].kind == SB_ARG_IOVEC_OUT)
                    return false;
        }
    }
    return true;
}

/* Branchy regions: does a path of region edges lead from block `from` to
 * block `to`?  `between` (when given, cleared, one entry per block) gets
 * the blocks strictly between them on such paths. */
bool block_scanner::reaches(int from, int to, bool *between) const
{
    if (from < 0 || to < 0 || from >= to)
        return false;
    int n = (int)out_->bbs.length();
    auto_vec<bool, 64> fwd, bwd;
    fwd.safe_grow_cleared(n);
    bwd.safe_grow_cleared(n);
    fwd[from] = true;
    for (int i = from; i < to; i++) {
        if (!fwd[i])
            continue;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, out_->bbs[i]->succs) {
            int j = region_block(e->dest);
            if (j > i)
                fwd[j] = true;
        }
    }
    if (!fwd[to])
        return false;
    if (between) {
        bwd[to] = true;
        for (int i = to; i > from; i--) {
            if (!bwd[i])
                continue;
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, out_->bbs[i]->preds) {
                int j = region_block(e->src);
                if (j >= 0 && j < i)
                    bwd[j] = true;
            }
        }
        for (int i = from + 1; i < to; i++)
            between[i] = fwd[i] && bwd[i];
    }
    return true;
}

struct sb_operand block_scanner::classify(tree arg, unsigned first_call_uid) const
{
    struct sb_operand op;
    memset(&op, 0, sizeof op);
    op.kind = SB_OPND_LOCAL;
    op.call = -1;
    if (TREE_CODE(arg) == INTEGER_CST) {
        /* A pointer made from a number ((void *) 0x55) is a constant
         * expression in LLVM IR, which the LLVM pass counts as AVAILABLE;
         * only NULL is a CONST there. */
        if (POINTER_TYPE_P(TREE_TYPE(arg)) && !integer_zerop(arg)) {
            op.kind = SB_OPND_AVAILABLE;
        } else if (tree_fits_shwi_p(arg) || tree_fits_uhwi_p(arg)) {
            op.kind = SB_OPND_CONST;
            op.value = tree_fits_shwi_p(arg) ? (long)tree_to_shwi(arg)
                                             : (long)tree_to_uhwi(arg);
        } else {
            op.kind = SB_OPND_AVAILABLE;
        }
        return op;
    }
    if (TREE_CODE(arg) != SSA_NAME) {
        /* &decl, "string", other invariants. */
        if (is_gimple_min_invariant(arg))
            op.kind = SB_OPND_AVAILABLE;
        return op;
    }
    /* Follow conversions back to a call result, noting the narrowest, and
     * signed max(x, C) of an inlined `if (x < 0) return -1; return x;`
     * when the core says it is the result itself. */
    tree name = arg;
    uint8_t narrowest = 0;
    bool saw_max = false;
    long max_floor = 0;
    for (;;) {
        if (SSA_NAME_IS_DEFAULT_DEF(name))
            break;
        gimple *def = SSA_NAME_DEF_STMT(name);
        if (!in_region(gimple_bb(def)))
            break;
        int producer = call_index_of(def);
        if (producer >= 0) {
            if (saw_max &&
                (narrowest || !sb_max_keeps_result(
                                  abi_, &sysbatch_call_event(*out_, producer),
                                  max_floor)))
                break;
            op.kind = SB_OPND_RESULT;
            op.call = producer;
            op.narrowest_bits = narrowest;
            return op;
        }
        if (abi_ == SB_ABI_TOCK ? tock_result_operand(def, &op)
                                : memory_operand(def, &op))
            return op;
        if (is_gimple_assign(def) && gimple_assign_rhs_code(def) == MAX_EXPR &&
            !TYPE_UNSIGNED(TREE_TYPE(gimple_assign_lhs(def))) &&
            TREE_CODE(gimple_assign_rhs2(def)) == INTEGER_CST &&
            tree_fits_shwi_p(gimple_assign_rhs2(def)) &&
            TREE_CODE(gimple_assign_rhs1(def)) == SSA_NAME) {
            long floor = (long)tree_to_shwi(gimple_assign_rhs2(def));
            max_floor = saw_max ? MAX(max_floor, floor) : floor;
            saw_max = true;
            name = gimple_assign_rhs1(def);
            continue;
        }
        if (!integer_conversion(def, &narrowest))
            break;
        tree src = gimple_assign_rhs1(def);
        if (TREE_CODE(src) != SSA_NAME)
            break;
        name = src;
    }
    /* Available where the region starts: defined outside the region (it
     * then dominates this use, and a branchy region has a single entry, so
     * it dominates the entry too), a parameter, a PHI of the entry block,
     * or a statement of the entry block before the region's first call.
     * Tock: conversions of such a value count too (GCC converts an
     * unsigned length to libtock-c's int right before the call; in LLVM
     * IR that is no instruction at all) - the rewrite redoes them. */
    if (abi_ == SB_ABI_TOCK && TREE_CODE(name) == SSA_NAME)
        arg = name;
    if (available_ssa_p(arg, first_call_uid))
        op.kind = SB_OPND_AVAILABLE;
    else if (abi_ == SB_ABI_LINUX_X86_64 && TREE_CODE(name) == SSA_NAME &&
             computable_at_issue(name, first_call_uid, 0))
        op.kind = SB_OPND_AVAILABLE; /* the rewrite computes it again there */
    return op;
}

/* Can the issue point compute `name` again (`sb->st_mode & 07777` after
 * fchmod's batch started)?  Available there already, or defined after the
 * region's first call by arithmetic that cannot trap over such values -
 * in the entry block or in a later block of a branchy region
 * (`pipe(a[n]) == -1 || pipe(b[n]) == -1`: b[n]'s address is computed on
 * the second call's path only) - or, in the entry block, by a load
 * load_available_at_issue allows (a load in a later block runs on that
 * path only: describe_pred_load decides whether the issue point may
 * repeat it, as for a predicated branch's condition).  An
 * address (&b[n], &p->f) counts as arithmetic when the names inside it
 * are available: taking it reads no memory.  The LLVM pass recomputes the
 * same (visitOperand, materialize: GEPs and arithmetic in any block, loads
 * in the entry block, later loads by loadSafeAtIssue); the rewrite does it
 * with rematerialize_pred(). */
bool block_scanner::computable_at_issue(tree name, unsigned first_call_uid,
                                        int depth) const
{
    if (available_ssa_p(name, first_call_uid))
        return true;
    if (TREE_CODE(name) != SSA_NAME || depth > 8)
        return false;
    gimple *def = SSA_NAME_DEF_STMT(name);
    if (gimple_bb(def) != bb_ && !in_region(gimple_bb(def)))
        return false;
    if (gimple_bb(def) == bb_ && load_available_at_issue(def, first_call_uid))
        return true;
    gassign *assign = dyn_cast<gassign *>(def);
    /* A load in a later block: what a predicated branch may read there
     * (describe_pred_load: it cannot trap at the issue point, and nothing
     * on a path to it writes what it reads). */
    if (assign && gimple_bb(def) != bb_ && gimple_assign_load_p(assign) &&
        gimple_assign_single_p(assign) && !gimple_has_volatile_ops(assign)) {
        const char *what = NULL;
        return describe_pred_load(assign, &what) == SB_PA_AVAILABLE;
    }
    if (!assign || gimple_has_volatile_ops(assign) || gimple_vuse(assign))
        return false;
    if (gimple_assign_rhs_code(assign) == ADDR_EXPR) {
        ssa_op_iter iter;
        tree use;
        FOR_EACH_SSA_TREE_OPERAND(use, assign, iter, SSA_OP_USE)
            if (!available_ssa_p(use, first_call_uid))
                return false;
        return !stmt_could_throw_p(cfun, assign);
    }
    if (!pure_arith_code_p(gimple_assign_rhs_code(assign)))
        return false;
    for (unsigned i = 1; i < gimple_num_ops(assign); i++)
        if (!computable_at_issue(gimple_op(assign, i), first_call_uid,
                                 depth + 1))
            return false;
    return true;
}

/* Defined where the region's first call stands: a default definition, a
 * statement outside the region, a PHI of the entry block or a statement of
 * the entry block before the first call. */
bool block_scanner::available_ssa_p(tree name, unsigned first_call_uid) const
{
    if (TREE_CODE(name) != SSA_NAME)
        return is_gimple_min_invariant(name);
    if (SSA_NAME_IS_DEFAULT_DEF(name))
        return true;
    gimple *def = SSA_NAME_DEF_STMT(name);
    return !in_region(gimple_bb(def)) ||
           (gimple_bb(def) == bb_ && (gimple_code(def) == GIMPLE_PHI ||
                                      gimple_uid(def) < first_call_uid));
}

/* A load in the entry block after the region's first call that the issue
 * point can make instead (fchown(fd, sb->st_uid, sb->st_gid) after
 * fchmod(fd, sb->st_mode)): a plain load whose address is available there,
 * and nothing between the first call and it - code, or the kernel side of
 * a region call - may write what it reads.  The LLVM pass decides the same
 * (visitLoadUnchanged); docs/design.md, "Loads between calls". */
bool block_scanner::load_available_at_issue(gimple *def,
                                            unsigned first_call_uid) const
{
    gassign *load = dyn_cast<gassign *>(def);
    if (!load || !gimple_assign_load_p(load) || !gimple_assign_single_p(load) ||
        gimple_has_volatile_ops(load) || gimple_bb(load) != bb_ ||
        gimple_uid(load) < first_call_uid || stmt_could_throw_p(cfun, load))
        return false;
    tree ref = gimple_assign_rhs1(load);
    if (!word_type_p(TREE_TYPE(ref)))
        return false;
    ssa_op_iter iter;
    tree use;
    FOR_EACH_SSA_TREE_OPERAND(use, load, iter, SSA_OP_USE)
        if (!available_ssa_p(use, first_call_uid))
            return false;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb_); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (stmt == load)
            return true;
        if (gimple_uid(stmt) < first_call_uid)
            continue;
        int call = call_index_of(stmt);
        if (call >= 0) {
            if (stmt_conflicts_with(load, call))
                return false;
        } else if (gimple_vdef(stmt) && stmt_may_clobber_ref_p(stmt, ref, true)) {
            return false;
        } else if (gimple_code(stmt) == GIMPLE_ASM ||
                   (is_gimple_call(stmt) && gimple_vdef(stmt))) {
            return false;
        }
    }
    return false;
}

/* Is the int `value` in 0..INT32_MAX wherever `call` runs?  True when a
 * branch on the way to the call (up its chain of single predecessors) left
 * on a negative value: fd = name ? open (name, 0) : 0; if (fd < 0) return;
 * fstat (fd, &st).  SSA names do not change, so the compared name is the
 * argument itself. */
static bool proven_nonnegative(tree value, gcall *call)
{
    /* A PHI of one value is that value: after the loop passes, the fd a
     * retry loop leaves with (while ((fd = openat (...)) < 0) ...) reaches
     * the code after it through a loop-closed PHI, and the loop's exit
     * test is on the value itself.  (LLVM's late pipeline has no such
     * PHI left there: its provenNonNegative needs no step for it.) */
    for (int depth = 0; depth < 4 && TREE_CODE(value) == SSA_NAME; depth++) {
        gphi *phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(value));
        tree only = phi ? degenerate_phi_result(phi) : NULL_TREE;
        if (!only || only == value || TREE_CODE(only) != SSA_NAME)
            break;
        value = only;
    }
    if (TREE_CODE(value) != SSA_NAME ||
        !INTEGRAL_TYPE_P(TREE_TYPE(value)) ||
        TYPE_UNSIGNED(TREE_TYPE(value)) || /* >= 0 would say nothing */
        TYPE_PRECISION(TREE_TYPE(value)) != 32)
        return false;
    basic_block bb = gimple_bb(call);
    for (int depth = 0; depth < 8 && single_pred_p(bb); depth++) {
        edge e = single_pred_edge(bb);
        gcond *cond = safe_dyn_cast<gcond *>(last_stmt(e->src));
        if (cond && gimple_cond_lhs(cond) == value &&
            TREE_CODE(gimple_cond_rhs(cond)) == INTEGER_CST &&
            (e->flags & (EDGE_TRUE_VALUE | EDGE_FALSE_VALUE)) &&
            tree_fits_shwi_p(gimple_cond_rhs(cond))) {
            enum tree_code code = gimple_cond_code(cond);
            if (e->flags & EDGE_FALSE_VALUE)
                code = invert_tree_comparison(code, false);
            HOST_WIDE_INT k = tree_to_shwi(gimple_cond_rhs(cond));
            if ((code == GE_EXPR && k >= 0) || (code == GT_EXPR && k >= -1) ||
                (code == EQ_EXPR && k >= 0))
                return true;
        }
        bb = e->src;
    }
    return false;
}

/* Is pointer `value` not NULL wherever `call` runs?  The address of an
 * object or a string constant, a parameter declared nonnull, a
 * dereference of it or a call whose parameter is declared nonnull
 * (strlen) before the call in its block or up its chain of single
 * predecessors, or a branch there that left when it was NULL.  SSA names
 * do not change, so the name is the argument itself.  The LLVM pass
 * decides the same (provenNonNull). */
static bool proven_nonnull(tree value, gcall *call, int depth = 0)
{
    if (!POINTER_TYPE_P(TREE_TYPE(value)) || depth > 4)
        return false;
    if (TREE_CODE(value) == ADDR_EXPR)
        return tree_expr_nonzero_p(value);
    if (TREE_CODE(value) != SSA_NAME)
        return false;
    tree var = SSA_NAME_VAR(value);
    if (SSA_NAME_IS_DEFAULT_DEF(value) && var &&
        TREE_CODE(var) == PARM_DECL && nonnull_arg_p(var))
        return true;
    gimple *def = SSA_NAME_DEF_STMT(value);
    if (is_gimple_assign(def) && gimple_assign_rhs_code(def) == ADDR_EXPR &&
        tree_expr_nonzero_p(gimple_assign_rhs1(def)))
        return true;
    /* p + n with p not NULL (rsync's bname = slash + 1 after `if (!slash)
     * return`): pointer arithmetic stays inside p's object. */
    if (is_gimple_assign(def) &&
        gimple_assign_rhs_code(def) == POINTER_PLUS_EXPR &&
        flag_delete_null_pointer_checks &&
        proven_nonnull(gimple_assign_rhs1(def), call, depth + 1))
        return true;
    basic_block bb = gimple_bb(call);
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    gsi_prev(&gsi);
    for (int depth = 0; depth < 8; depth++) {
        for (; !gsi_end_p(gsi); gsi_prev(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            if (!is_gimple_debug(stmt) && infer_nonnull_range(stmt, value))
                return true;
        }
        if (!single_pred_p(bb))
            return false;
        edge e = single_pred_edge(bb);
        gcond *cond = safe_dyn_cast<gcond *>(last_stmt(e->src));
        if (cond && gimple_cond_lhs(cond) == value &&
            integer_zerop(gimple_cond_rhs(cond)) &&
            (e->flags & (EDGE_TRUE_VALUE | EDGE_FALSE_VALUE))) {
            enum tree_code code = gimple_cond_code(cond);
            if (e->flags & EDGE_FALSE_VALUE)
                code = invert_tree_comparison(code, false);
            if (code == NE_EXPR)
                return true;
        }
        bb = e->src;
        gsi = gsi_last_bb(bb);
    }
    return false;
}

/* Does `name` hold, where it is defined, the value it would have at the
 * issue point (the region's first call)?  Computed again there
 * (computable_at_issue, defined after the first call: its memory is
 * unchanged since the issue point), or defined before it in the issue
 * block by a statement that reads no memory, or by a load that nothing
 * between it and the first call may write. */
bool block_scanner::as_at_issue(tree name, unsigned first_call_uid) const
{
    gimple *def = SSA_NAME_DEF_STMT(name);
    if (!available_ssa_p(name, first_call_uid))
        return computable_at_issue(name, first_call_uid, 0);
    gassign *assign = dyn_cast<gassign *>(def);
    if (!assign || gimple_bb(def) != bb_ || gimple_has_volatile_ops(assign))
        return false;
    if (!gimple_vuse(assign))
        return true;
    if (!gimple_assign_load_p(assign) || !gimple_assign_single_p(assign))
        return false;
    tree ref = gimple_assign_rhs1(assign);
    gimple_stmt_iterator gsi = gsi_for_stmt(def);
    for (gsi_next(&gsi); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (gimple_uid(stmt) >= first_call_uid)
            return true;
        if (gimple_vdef(stmt) && stmt_may_clobber_ref_p(stmt, ref, true))
            return false;
    }
    return false;
}

/* Do `a` and `b` (call arguments) hold the same value where the batch is
 * issued?  The same name or invariant, or two loads of the same reference
 * that each read what it holds at the issue point (as_at_issue).  The LLVM
 * pass decides the same (sameAtIssue). */
bool block_scanner::same_at_issue(tree a, tree b,
                                  unsigned first_call_uid) const
{
    if (a == b || (is_gimple_min_invariant(a) && operand_equal_p(a, b, 0)))
        return true;
    if (TREE_CODE(a) != SSA_NAME || TREE_CODE(b) != SSA_NAME ||
        SSA_NAME_IS_DEFAULT_DEF(a) || SSA_NAME_IS_DEFAULT_DEF(b) ||
        !types_compatible_p(TREE_TYPE(a), TREE_TYPE(b)))
        return false;
    gassign *da = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(a));
    gassign *db = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(b));
    if (!da || !db || !gimple_assign_load_p(da) || !gimple_assign_load_p(db) ||
        !gimple_assign_single_p(da) || !gimple_assign_single_p(db) ||
        !operand_equal_p(gimple_assign_rhs1(da), gimple_assign_rhs1(db), 0))
        return false;
    return as_at_issue(a, first_call_uid) && as_at_issue(b, first_call_uid);
}

void block_scanner::describe_call(gcall *call, unsigned first_call_uid,
                                  struct sb_call_event *ev) const
{
    memset(ev, 0, sizeof *ev);
    ev->symbol = callee_symbol(call);
    ev->row = sb_catalog_lookup(abi_, ev->symbol);
    unsigned nargs = MIN(gimple_call_num_args(call), (unsigned)SB_MAX_ARGS + 1);
    ev->nargs = (int)nargs;
    for (unsigned k = 0; k < nargs; k++)
        ev->args[k] = classify(gimple_call_arg(call, k), first_call_uid);
    /* glibc's prechecks: an fd checked before the call, or a path known
     * not to be NULL, passes. */
    if (ev->row && !(ev->row->flags & SB_ROW_RAW_SYSCALL) &&
        ev->row->precheck_arg < ev->nargs) {
        int k = ev->row->precheck_arg;
        struct sb_operand *op = &ev->args[k];
        bool available = op->kind == SB_OPND_AVAILABLE;
        if (ev->row->precheck == SB_PRE_FD_NONNEG)
            op->nonneg = available &&
                         proven_nonnegative(gimple_call_arg(call, k), call);
        else if (ev->row->precheck == SB_PRE_NONNULL)
            op->nonnull = available &&
                          proven_nonnull(gimple_call_arg(call, k), call);
    }

    /* Whether this call site's shape can be rewritten is the core's
     * call (sysbatch/shape.h); GIMPLE only describes it. */
    if (!ev->why_not) {
        struct sb_call_shape shape;
        describe_shape(call, &shape);
        char why[160];
        const char *objection = sb_call_shape_objection(abi_, ev->row, &shape,
                                                        why, sizeof why);
        if (objection)
            ev->why_not = objection == why ? ggc_strdup(why) : objection;
    }
}

/* A GIMPLE type as the core sees a value. */
struct sb_value_shape value_shape(tree type)
{
    struct sb_value_shape v = {SB_VALUE_OTHER, 0};
    if (!type || VOID_TYPE_P(type)) {
        v.kind = SB_VALUE_VOID;
        return v;
    }
    if (INTEGRAL_TYPE_P(type) || POINTER_TYPE_P(type)) {
        v.kind = POINTER_TYPE_P(type) ? SB_VALUE_POINTER : SB_VALUE_INTEGER;
        v.bits = TYPE_PRECISION(type);
        return v;
    }
    if (AGGREGATE_TYPE_P(type))
        v.kind = TREE_CODE(type) == RECORD_TYPE ? SB_VALUE_AGGREGATE
                                                : SB_VALUE_OTHER;
    if (TYPE_SIZE(type) && tree_fits_uhwi_p(TYPE_SIZE(type)))
        v.bits = (uint32_t)tree_to_uhwi(TYPE_SIZE(type));
    return v;
}

void block_scanner::describe_shape(gcall *call,
                                   struct sb_call_shape *shape) const
{
    memset(shape, 0, sizeof *shape);
    tree ret = gimple_call_return_type(call);
    tree lhs = gimple_call_lhs(call);
    shape->result = value_shape(ret);
    shape->result_in_memory =
        !VOID_TYPE_P(ret) && aggregate_value_p(ret, gimple_call_fntype(call));
    shape->result_register_struct = lhs && TREE_CODE(lhs) == SSA_NAME &&
                                    shape->result.kind == SB_VALUE_AGGREGATE;
    shape->result_stored_to_memory = lhs && TREE_CODE(lhs) != SSA_NAME;
    unsigned nargs = gimple_call_num_args(call);
    shape->nargs = (int)MIN(nargs, (unsigned)SB_SHAPE_MAX_ARGS);
    for (int k = 0; k < shape->nargs; k++)
        shape->args[k] = value_shape(TREE_TYPE(gimple_call_arg(call, k)));
    if (nargs > SB_MAX_ARGS + 1)
        shape->nargs = SB_MAX_ARGS + 2; /* the core says: too many */
    shape->may_throw = stmt_can_throw_internal(cfun, call);
    /* GCC sets calls_setjmp for every returns-twice callee (vfork too). */
    shape->function_returns_twice = cfun->calls_setjmp;
}

/* A call to a function of the core's libc table (sysbatch/libc.h): its
 * row, with one access per argument in `acc`.  NULL when `stmt` is no such
 * call, or when the core says it stays a barrier (`*why`, if given, then
 * says why). */
const struct sb_libc_function *
libc_call(gimple *stmt, enum sb_abi abi, struct sb_libc_access *acc,
          const char **why)
{
    gcall *call = dyn_cast<gcall *>(stmt);
    /* glibc's functions: Tock apps link newlib, which the table does not
     * describe. */
    if (!call || abi != SB_ABI_LINUX_X86_64 || gimple_call_internal_p(call) ||
        gimple_has_volatile_ops(stmt))
        return NULL;
    const struct sb_libc_function *fn = sb_libc_lookup(callee_symbol(call));
    if (!fn)
        return NULL;
    unsigned nargs = gimple_call_num_args(call);
    const char *format = NULL;
    if ((fn->flags & SB_LIBC_PRINTF) && (unsigned)fn->format_arg < nargs)
        format = c_getstr(gimple_call_arg(call, fn->format_arg));
    char buf[160];
    const char *no = sb_libc_call_effects(fn, (int)nargs, format, acc, buf,
                                          sizeof buf);
    if (no) {
        if (why)
            *why = no == buf ? ggc_strdup(buf) : no;
        return NULL;
    }
    return fn;
}

/* Statements no batch may cross whatever they touch; the kinds and their
 * texts are the core's (sb_barrier_text), as in the LLVM adapter.  A call
 * to a libc-table function is code with known accesses instead. */
bool block_scanner::stmt_is_barrier(gimple *stmt, const char **why) const
{
    struct sb_libc_access acc[SB_LIBC_MAX_ARGS];
    const char *libc_why = NULL;
    if (libc_call(stmt, abi_, acc, &libc_why))
        return false;
    if (libc_why) {
        char buf[256];
        *why = ggc_strdup(sb_libc_barrier_text(
            callee_symbol(as_a<gcall *>(stmt)), libc_why, buf, sizeof buf));
        return true;
    }
    enum sb_barrier kind;
    const char *name = NULL;
    if (!barrier_kind(stmt, &kind, &name))
        return false;
    char buf[256];
    const char *text = sb_barrier_text(kind, name, buf, sizeof buf);
    *why = text == buf ? ggc_strdup(buf) : text;
    return true;
}

bool block_scanner::barrier_kind(gimple *stmt, enum sb_barrier *kind,
                                 const char **callee) const
{
    if (gimple_code(stmt) == GIMPLE_ASM) {
        *kind = SB_BARRIER_INLINE_ASM;
        return true;
    }
    /* The end of a local's life (`st ={v} {CLOBBER}` where a block's
     * `struct stat st` goes out of scope, or after an inlined wrapper's
     * result struct) is no volatile access, though GCC marks it {v}: it
     * stays where it is, a store to the local for the conflict check on
     * Linux (stmt_conflicts_with) and the Tock memory rule
     * (touches_shared_memory).  A local whose life starts after it may
     * share its stack slot only if the two are never live at once, and the
     * rewrite takes the address of every slot buffer where the batch is
     * issued, so cfgexpand sees them live together there. */
    if (gimple_clobber_p(stmt))
        return false;
    /* libtock-c's converters are code of known effect (the Tock memory
     * rule sees their arguments: touches_shared_memory).  GCC may mark a
     * call passing an address as having volatile operands; only a
     * volatile argument itself makes it a barrier. */
    if (abi_ == SB_ABI_TOCK && is_gimple_call(stmt) &&
        sb_tock_converter_lookup(callee_symbol(as_a<gcall *>(stmt)))) {
        gcall *conv = as_a<gcall *>(stmt);
        bool is_volatile = false;
        for (unsigned i = 0; i < gimple_call_num_args(conv); i++) {
            tree arg = gimple_call_arg(conv, i);
            tree obj = TREE_CODE(arg) == ADDR_EXPR ? TREE_OPERAND(arg, 0) : arg;
            is_volatile |= TREE_THIS_VOLATILE(obj) || TYPE_VOLATILE(TREE_TYPE(obj));
        }
        if (!is_volatile)
            return false;
    }
    if (gimple_has_volatile_ops(stmt)) {
        *kind = gimple_store_p(stmt) ? SB_BARRIER_VOLATILE_STORE
                                     : SB_BARRIER_VOLATILE_LOAD;
        return true;
    }
    gcall *call = dyn_cast<gcall *>(stmt);
    if (!call)
        return false;
    if (gimple_call_internal_p(call)) {
        /* Only const ones are free: the sanitizer checks are internal
         * calls that may report and abort, i.e. not return. */
        int flags = gimple_call_flags(call);
        if ((flags & ECF_CONST) && !(flags & ECF_LOOPING_CONST_OR_PURE) &&
            !gimple_vuse(call) && !gimple_vdef(call))
            return false;
        *kind = SB_BARRIER_INTERNAL_CALL;
        return true;
    }
    /* memcpy/memmove/memset (LLVM's memory intrinsics) make no system
     * call; the oracle knows what they touch. */
    if (gimple_call_builtin_p(call, BUILT_IN_MEMCPY) ||
        gimple_call_builtin_p(call, BUILT_IN_MEMMOVE) ||
        gimple_call_builtin_p(call, BUILT_IN_MEMSET))
        return false;
    /* A const builtin touches no memory and makes no call: the
     * __builtin_object_size of glibc's fortified wrappers, still there
     * where the early look runs right after they are inlined. */
    if (gimple_call_builtin_p(call, BUILT_IN_NORMAL)) {
        int flags = gimple_call_flags(call);
        if ((flags & ECF_CONST) && !(flags & ECF_LOOPING_CONST_OR_PURE) &&
            !gimple_vuse(call) && !gimple_vdef(call))
            return false;
    }
    const char *name = callee_symbol(call);
    if (name && !strcmp(name, "__errno_location"))
        return false;
    if (name && (startswith(name, "__atomic_") || startswith(name, "__sync_")))
        *kind = SB_BARRIER_ATOMIC;
    else if (name)
        *kind = SB_BARRIER_CALL;
    else
        *kind = SB_BARRIER_INDIRECT_CALL;
    *callee = name;
    return true;
}

/* A parameter's incoming value never points into the function's own
 * automatic variables: they did not exist when the caller computed it.
 * (LLVM's BasicAA says the same; GCC's oracle needs points-to sets for it,
 * which do not exist yet where the plugin runs, right after "ssa".) */
static bool parameter_misses_local(tree param, tree addr)
{
    if (TREE_CODE(param) != SSA_NAME || !SSA_NAME_IS_DEFAULT_DEF(param) ||
        !SSA_NAME_VAR(param) || TREE_CODE(SSA_NAME_VAR(param)) != PARM_DECL)
        return false;
    if (TREE_CODE(addr) != ADDR_EXPR)
        return false;
    tree base = get_base_address(TREE_OPERAND(addr, 0));
    return base && VAR_P(base) && auto_var_in_fn_p(base, current_function_decl);
}

/* Does the libc-table call `stmt` (row `fn`, accesses `acc`) touch the
 * kernel buffer `kernel` in a way that does not commute with the call
 * (sb_access_conflicts)?  errno is stored in program order by the call
 * sites and by the function alike: only a kernel buffer that is errno
 * conflicts with a function that sets it. */
static bool libc_conflicts(gcall *stmt, const struct sb_libc_function &fn,
                           const struct sb_libc_access *acc, tree kernel_ptr,
                           ao_ref *kernel, bool kernel_writes)
{
    if ((fn.flags & SB_LIBC_SETS_ERRNO) && errno_pointer_p(kernel_ptr))
        return true;
    unsigned nargs = gimple_call_num_args(stmt);
    for (unsigned op = 0; op < nargs; op++) {
        const struct sb_libc_access &d = acc[op];
        if (d.access == SB_LIBC_NO_ACCESS)
            continue;
        tree ptr = gimple_call_arg(stmt, op);
        if (integer_zerop(ptr))
            continue; /* snprintf(NULL, 0, ...), strtol(s, NULL, 10) */
        if (!POINTER_TYPE_P(TREE_TYPE(ptr)))
            return true;
        if (parameter_misses_local(ptr, kernel_ptr) ||
            parameter_misses_local(kernel_ptr, ptr))
            continue;
        tree size = NULL_TREE;
        if (d.size_arg >= 0 && (unsigned)d.size_arg < nargs) {
            tree s = gimple_call_arg(stmt, d.size_arg);
            if (TREE_CODE(s) == INTEGER_CST)
                size = fold_convert(size_type_node, s);
        } else if (d.size_arg < 0 && d.fixed_size) {
            size = size_int(d.fixed_size);
        }
        ao_ref mine;
        ao_ref_init_from_ptr_and_size(&mine, ptr, size);
        if (refs_may_alias_p_1(&mine, kernel, false) &&
            sb_access_conflicts(d.access, kernel_writes))
            return true;
    }
    return false;
}

/* Does catalogue call `c` (row `row`, libc arguments from `shift`) change
 * memory that exists before it through an address argument?  The core
 * decides (sb_call_addr_touches_memory) from the arguments that are
 * constants here: mmap(NULL, ..., MAP_PRIVATE, ...) does not. */
static bool addr_touches_memory(gcall *c, const struct sb_syscall *row,
                                unsigned shift)
{
    bool is_const[SB_MAX_ARGS] = {false};
    long value[SB_MAX_ARGS] = {0};
    unsigned nargs = gimple_call_num_args(c);
    int n = MIN((int)row->libc_argc, SB_MAX_ARGS);
    for (int k = 0; k < n && k + shift < nargs; k++) {
        tree a = gimple_call_arg(c, k + shift);
        if (TREE_CODE(a) == INTEGER_CST && tree_fits_shwi_p(a)) {
            is_const[k] = true;
            value[k] = (long)tree_to_shwi(a);
        }
    }
    return sb_call_addr_touches_memory(row, n, is_const, value);
}

/* May `stmt` (no barrier) not stay before the kernel side of call `call`? */
bool block_scanner::stmt_conflicts_with(gimple *stmt, int call) const
{
    if (!gimple_vuse(stmt) && !gimple_vdef(stmt))
        return false; /* registers only */
    gcall *c = out_->calls[call];
    bool errno_only = errno_access_p(stmt);
    struct sb_libc_access acc[SB_LIBC_MAX_ARGS];
    const struct sb_libc_function *libc = libc_call(stmt, abi_, acc, NULL);
    const struct sb_syscall *row = sb_catalog_lookup(abi_, callee_symbol(c));
    if (!row)
        return true;
    /* syscall(NR, ...): the row describing NR's arguments. */
    unsigned shift = 0;
    if (row->flags & SB_ROW_RAW_SYSCALL) {
        tree nr = gimple_call_num_args(c) ? gimple_call_arg(c, 0) : NULL_TREE;
        if (!nr || !tree_fits_shwi_p(nr))
            return true;
        row = sb_catalog_by_nr(abi_, (long)tree_to_shwi(nr));
        if (!row)
            return true;
        shift = 1;
    }
    unsigned nargs = gimple_call_num_args(c);
    bool addr_touches = addr_touches_memory(c, row, shift);
    for (unsigned k = 0; k < row->libc_argc; k++) {
        const struct sb_arg_desc &d = row->libc_args[k];
        if (d.kind == SB_ARG_ADDR && !addr_touches)
            continue;
        /* readv's buffers are known only at run time and written: every
         * access to memory (errno aside) is ordered with it. */
        if (d.kind == SB_ARG_ADDR || d.kind == SB_ARG_OPAQUE ||
            d.kind == SB_ARG_IOVEC_OUT)
            return true;
        /* writev's buffers are known only at run time: whatever may write
         * memory (errno aside) stays on its side of the call. */
        if (d.kind == SB_ARG_IOVEC_IN) {
            if (gimple_vdef(stmt) && !errno_only)
                return true;
            continue;
        }
        if (d.kind != SB_ARG_PATH && d.kind != SB_ARG_IN_BUF &&
            d.kind != SB_ARG_OUT_BUF)
            continue;
        if (k + shift >= nargs)
            continue;
        tree ptr = gimple_call_arg(c, k + shift);
        if (integer_zerop(ptr))
            continue; /* NULL: the kernel touches nothing */
        if (!POINTER_TYPE_P(TREE_TYPE(ptr)))
            return true;
        if (errno_only) {
            if (errno_pointer_p(ptr))
                return true; /* read(fd, &errno, 4): the call touches it */
            continue;
        }
        tree size = NULL_TREE;
        if (d.kind != SB_ARG_PATH) {
            if (d.size_arg >= 0 && (unsigned)d.size_arg + shift < nargs) {
                tree s = gimple_call_arg(c, d.size_arg + shift);
                if (TREE_CODE(s) == INTEGER_CST)
                    size = fold_convert(size_type_node, s);
            } else if (d.size_arg < 0 && d.fixed_size) {
                size = size_int(d.fixed_size);
            }
        }
        ao_ref ref;
        ao_ref_init_from_ptr_and_size(&ref, ptr, size);
        bool kernel_writes = d.kind == SB_ARG_OUT_BUF;
        if (libc) {
            if (libc_conflicts(as_a<gcall *>(stmt), *libc, acc, ptr, &ref,
                               kernel_writes))
                return true;
            continue;
        }
        if (stmt_may_clobber_ref_p_1(stmt, &ref, true))
            return true;
        if (kernel_writes && ref_maybe_used_by_stmt_p(stmt, &ref, true))
            return true;
    }
    return false;
}

/* "a store", "a load", "a call to memcpy": the words the LLVM adapter uses
 * for the statement that made a conflict. */
const char *describe_stmt(gimple *stmt)
{
    if (gimple_store_p(stmt))
        return "a store";
    if (gimple_assign_load_p(stmt))
        return "a load";
    if (gcall *call = dyn_cast<gcall *>(stmt))
        if (const char *name = callee_symbol(call))
            return ggc_strdup(ACONCAT(("a call to ", name, NULL)));
    return "a statement";
}

/* Number the statements of the region's blocks in order (uids) and
 * collect its candidate calls with their blocks; `record_stmts` also keeps
 * every statement in out_->stmts (branchy regions).  Returns the uid of the
 * first call (~0u: none). */
unsigned block_scanner::collect_calls(bool record_stmts)
{
    unsigned uid = 0, first_call_uid = ~0u;
    for (unsigned b = 0; b < out_->bbs.length(); b++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(out_->bbs[b]);
             !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            gimple_set_uid(stmt, ++uid);
            if (record_stmts)
                out_->stmts.add(stmt);
            gcall *call = dyn_cast<gcall *>(stmt);
            if (!call || !is_candidate(call))
                continue;
            if (first_call_uid == ~0u)
                first_call_uid = uid;
            out_->calls.safe_push(call);
            out_->block_of_call.safe_push((int)b);
        }
    return first_call_uid;
}

/* Start `ev` for gap `g`; true when a statement of it is a barrier (then
 * `ev` conflicts with every later call and says why). */
bool block_scanner::describe_barrier(const gap &g, struct sb_code_event *ev) const
{
    memset(ev, 0, sizeof *ev);
    for (gimple *stmt : g.stmts) {
        const char *why = NULL;
        if (stmt_is_barrier(stmt, &why)) {
            ev->barrier = true;
            ev->why = why;
            ev->conflicts = ~(uint64_t)0;
            return true;
        }
    }
    return false;
}

void block_scanner::describe_gap(const gap &g, struct sb_code_event *ev) const
{
    if (describe_barrier(g, ev))
        return;
    int ncalls = (int)out_->calls.length();
    for (gimple *stmt : g.stmts) {
        for (int j = g.after_call + 1; j < ncalls && j < 64; j++) {
            if (ev->conflicts & ((uint64_t)1 << j))
                continue;
            if (!stmt_conflicts_with(stmt, j))
                continue;
            ev->conflicts |= (uint64_t)1 << j;
            if (!ev->why) {
                /* ACONCAT evaluates its arguments twice and keeps its buffer
                 * in one global: no argument may itself use ACONCAT (as
                 * describe_stmt does), so both parts are computed first. */
                const char *what = describe_stmt(stmt);
                const char *callee = callee_symbol(out_->calls[j]);
                ev->why = ggc_strdup(ACONCAT((
                    what, " that may alias a buffer of ",
                    callee ? callee : "the call", NULL)));
            }
        }
    }
    if (!ev->conflicts)
        ev->why = "code that commutes with the later calls";
}

/* Program order reached region call `call` (the next one): close the open
 * gap as a CODE event (placeholder, described later; with `record_gap`
 * false only if it holds statements), push the call's event, and return
 * the gap that follows the call. */
block_scanner::gap *block_scanner::reach_call(gcall *call, gap *open_gap,
                                              bool record_gap,
                                              unsigned first_call_uid,
                                              auto_vec<gap *> *gaps)
{
    struct sb_event ev;
    memset(&ev, 0, sizeof ev);
    if (open_gap && (record_gap || !open_gap->stmts.is_empty())) {
        ev.kind = SB_EV_CODE;
        gaps->safe_push(open_gap);
        out_->events.safe_push(ev);
    } else {
        delete open_gap;
    }
    gap *next = new gap;
    next->after_call = (int)out_->event_of_call.length();
    push_call_event(call, first_call_uid);
    return next;
}

/* The event of the next region call, and its bookkeeping. */
void block_scanner::push_call_event(gcall *call, unsigned first_call_uid)
{
    struct sb_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = SB_EV_CALL;
    describe_call(call, first_call_uid, &ev.u.call);
    /* The fd a call takes first: an earlier call of the batch on the same
     * fd may prove it for glibc's negative-fd precheck (the core decides).
     * Value number: the first earlier call's index + 1 that took it. */
    struct sb_call_event *ce = &ev.u.call;
    int index = (int)out_->event_of_call.length();
    if (ce->row && !(ce->row->flags & SB_ROW_RAW_SYSCALL) &&
        ce->row->libc_argc > 0 && ce->row->libc_args[0].kind == SB_ARG_FD &&
        ce->nargs > 0 && ce->args[0].kind == SB_OPND_AVAILABLE) {
        tree fd = gimple_call_arg(call, 0);
        ce->args[0].same = (uint16_t)(index + 1);
        for (int k = 0; k < index; k++) {
            const struct sb_call_event &earlier =
                sysbatch_call_event(*out_, k);
            if (earlier.args[0].same &&
                same_at_issue(gimple_call_arg(out_->calls[k], 0), fd,
                              first_call_uid)) {
                ce->args[0].same = earlier.args[0].same;
                break;
            }
        }
    }
    out_->event_of_call.safe_push((int)out_->events.length());
    out_->results.safe_push(gimple_call_lhs(call));
    out_->events.safe_push(ev);
}

int block_scanner::run()
{
    /* Number the statements so "defined before the first call" is a
     * comparison, and find this part's candidate calls. */
    unsigned uid = 0, first_call_uid = ~0u;
    int candidates = 0;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb_); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        gimple_set_uid(stmt, ++uid);
        if (abi_ == SB_ABI_TOCK)
            out_->stmts.add(stmt);
        gcall *call = dyn_cast<gcall *>(stmt);
        if (!call || !is_candidate(call))
            continue;
        int k = candidates++;
        if (k < first_ || k >= first_ + SB_MAX_REGION_CALLS)
            continue;
        if (first_call_uid == ~0u)
            first_call_uid = uid;
        out_->calls.safe_push(call);
    }
    if (out_->calls.is_empty())
        return candidates;

    /* Events in program order: each call, and one code record per
     * non-empty gap between two calls. */
    auto_vec<gap *> gaps;
    gap *open_gap = NULL;
    int seen = 0;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb_); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (seen < (int)out_->calls.length() && stmt == out_->calls[seen]) {
            /* One record per gap between two calls, even an empty one. */
            open_gap = reach_call(as_a<gcall *>(stmt), open_gap, true,
                                  first_call_uid, &gaps);
            seen++;
            continue;
        }
        if (seen >= (int)out_->calls.length())
            break;
        if (open_gap && !is_gimple_debug(stmt) &&
            gimple_code(stmt) != GIMPLE_LABEL && gimple_code(stmt) != GIMPLE_NOP)
            open_gap->stmts.safe_push(stmt);
    }
    delete open_gap;

    unsigned next_gap = 0;
    for (unsigned e = 0; e < out_->events.length(); e++) {
        if (out_->events[e].kind != SB_EV_CODE)
            continue;
        if (abi_ == SB_ABI_TOCK)
            describe_tock_gap(*gaps[next_gap], &out_->events[e].u.code);
        else
            describe_gap(*gaps[next_gap], &out_->events[e].u.code);
        delete gaps[next_gap++];
    }

    out_->bb = bb_;
    out_->region.abi = abi_;
    out_->region.nevents = (int)out_->events.length();
    out_->region.events = out_->events.address();
    out_->region.nblocks = 0; /* one block: the straight-line form */
    out_->region.blocks = NULL;
    return candidates;
}

} // namespace sysbatch_gcc

/* Does `fun` call a wrapper of a catalogued function that the unit will
 * inline (glibc's _FORTIFY_SOURCE `open`, `openat`, `read`...)?  Before
 * inlining such a call is a barrier, and after it the plain call is a
 * candidate: an early look that batched the calls around it would leave
 * it alone for the late look (tar's openat, fstat, close became openat
 * alone and a batch of fstat, close). */
bool sysbatch_calls_inlined_wrapper(function *fun, enum sb_abi abi)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        tree decl = call ? gimple_call_fndecl(call) : NULL_TREE;
        const char *name = call ? sysbatch_gcc::callee_symbol(call) : NULL;
        if (decl && name && sb_catalog_lookup(abi, name) &&
            DECL_EXTERNAL(decl) && sysbatch_gcc::inline_body_p(decl))
            return true;
    }
    return false;
}

using namespace sysbatch_gcc;

/* Candidate calls in a block, as block_scanner::is_candidate counts them. */
int sysbatch_count_candidates(basic_block bb, enum sb_abi abi)
{
    int n = 0;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        if (!call)
            continue;
        if (sysbatch_catalog_callee_p(call, abi) &&
            !(sysbatch_loop_calls && sysbatch_loop_calls->contains(call)))
            n++;
    }
    return n;
}


int sysbatch_analyze_block(basic_block bb, enum sb_abi abi, int first,
                           struct sysbatch_block *out)
{
    block_scanner scanner(bb, abi, first, out);
    return scanner.run();
}
