/* analysis.cc: phase 1 on GIMPLE - describe one basic block, or a branchy
 * region of several (sysbatch_form_region, sysbatch_analyze_region), to the
 * core.
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
 *
 * Memory questions go to GCC's alias oracle with one ao_ref per buffer the
 * catalogue row describes (PATH: read, unknown size; IN_BUF: read; OUT_BUF:
 * written; ADDR/OPAQUE: anything).  errno is never a conflict: the kernel
 * side of a batched call does not touch it, and each call site sets it at
 * its own place after the batch (docs/design.md).
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
#include "sysbatch-gcc.h"
#include "sysbatch/shape.h"

namespace {

/* The callee's linker name (what LLVM sees too), without the '*' GCC puts
 * in front of names given with asm("..."). */
const char *callee_symbol(gcall *call)
{
    tree fndecl = gimple_call_fndecl(call);
    if (!fndecl || gimple_call_internal_p(call))
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

class block_scanner {
public:
    block_scanner(basic_block bb, enum sb_abi abi, int first,
                  struct sysbatch_block *out)
        : bb_(bb), abi_(abi), first_(first), out_(out) {}
    int run();
    int run_region();
    int run_tock_chain();

private:
    struct gap {
        int after_call;          /* gap follows region call `after_call` */
        auto_vec<gimple *> stmts;
    };

    bool is_candidate(gcall *call) const;
    struct sb_operand classify(tree arg, unsigned first_call_uid) const;
    bool available_ssa_p(tree name, unsigned first_call_uid) const;
    bool load_available_at_issue(gimple *def, unsigned first_call_uid) const;
    bool computable_at_issue(tree name, unsigned first_call_uid,
                             int depth) const;
    bool memory_operand(gimple *load, struct sb_operand *op) const;
    bool keeps_word(gimple_stmt_iterator gsi, gimple *stop, ao_ref *word) const;
    bool reaches(int from, int to, bool *between) const;
    const struct sb_syscall *raw_row(gcall *call, unsigned *shift) const;
    int call_index_of(const gimple *stmt) const;
    void describe_call(gcall *call, unsigned first_call_uid,
                       struct sb_call_event *ev) const;
    void describe_shape(gcall *call, struct sb_call_shape *shape) const;
    bool tock_result_operand(gimple *load, struct sb_operand *op) const;
    bool stmt_is_barrier(gimple *stmt, const char **why) const;
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
    void describe_terminator(int b, struct sb_block *blk,
                             const char **why) const;

    basic_block bb_; /* the block, or the branchy region's entry */
    enum sb_abi abi_;
    int first_; /* the region starts at the block's candidate first_ */
    struct sysbatch_block *out_;
    bool chain_ = false; /* describing a Tock checked chain */
};

/* A call to the C library function a catalogue row describes.  A function
 * of that name defined in this unit is somebody else's (and, like any
 * unknown call, a barrier). */
bool block_scanner::is_candidate(gcall *call) const
{
    const char *name = callee_symbol(call);
    return name && sb_catalog_lookup(abi_, name) &&
           DECL_EXTERNAL(gimple_call_fndecl(call));
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
            for (unsigned k = 0; k < row->libc_argc; k++)
                if (row->libc_args[k].kind == SB_ARG_OUT_BUF ||
                    row->libc_args[k].kind == SB_ARG_ADDR ||
                    row->libc_args[k].kind == SB_ARG_OPAQUE)
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
    /* Follow conversions back to a call result, noting the narrowest. */
    tree name = arg;
    uint8_t narrowest = 0;
    for (;;) {
        if (SSA_NAME_IS_DEFAULT_DEF(name))
            break;
        gimple *def = SSA_NAME_DEF_STMT(name);
        if (!in_region(gimple_bb(def)))
            break;
        int producer = call_index_of(def);
        if (producer >= 0) {
            op.kind = SB_OPND_RESULT;
            op.call = producer;
            op.narrowest_bits = narrowest;
            return op;
        }
        if (abi_ == SB_ABI_TOCK ? tock_result_operand(def, &op)
                                : memory_operand(def, &op))
            return op;
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
 * region's first call in the entry block by arithmetic that cannot trap
 * over such values, or by a load load_available_at_issue allows.  The
 * LLVM pass recomputes the same (visitOperand, materialize); the rewrite
 * does it with rematerialize(). */
bool block_scanner::computable_at_issue(tree name, unsigned first_call_uid,
                                        int depth) const
{
    if (available_ssa_p(name, first_call_uid))
        return true;
    if (TREE_CODE(name) != SSA_NAME || depth > 8)
        return false;
    gimple *def = SSA_NAME_DEF_STMT(name);
    if (gimple_bb(def) != bb_)
        return false;
    if (load_available_at_issue(def, first_call_uid))
        return true;
    gassign *assign = dyn_cast<gassign *>(def);
    if (!assign || gimple_has_volatile_ops(assign) || gimple_vuse(assign) ||
        !pure_arith_code_p(gimple_assign_rhs_code(assign)))
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

/* Tock: `load` reads a word of the struct call j returned into a private
 * local (r = command (...); ... r.data[0]), unchanged since: the call's
 * RESULT, which a series cannot hand on (no-chaining).  Only fixed offsets,
 * so the rewrite can load the word again where the series is issued. */
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
    if (producer < 0)
        return false;
    /* A private local changes only by a statement naming it as its lhs
     * (the alias oracle would also suspect every call at -O0, where the
     * gimplifier left the result addressable). */
    gimple_stmt_iterator gsi = gsi_for_stmt(out_->calls[producer]);
    int b = chain ? region_block(gimple_bb(out_->calls[producer])) : 0;
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
        tree lhs = gimple_vdef(stmt) ? gimple_get_lhs(stmt) : NULL_TREE;
        if (lhs && get_base_address(lhs) == base)
            return false;
    }
    op->kind = SB_OPND_RESULT;
    op->call = producer;
    return true;
}

/* Statements no batch may cross whatever they touch; `why` uses the same
 * words as the LLVM adapter, since it shows up in the printed plan. */
bool block_scanner::stmt_is_barrier(gimple *stmt, const char **why) const
{
    if (gimple_code(stmt) == GIMPLE_ASM) {
        *why = "inline asm";
        return true;
    }
    if (gimple_has_volatile_ops(stmt)) {
        *why = gimple_store_p(stmt) ? "volatile store" : "volatile load";
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
        *why = "call to an internal function";
        return true;
    }
    /* memcpy/memmove/memset (LLVM's memory intrinsics) make no system
     * call; the oracle knows what they touch. */
    if (gimple_call_builtin_p(call, BUILT_IN_MEMCPY) ||
        gimple_call_builtin_p(call, BUILT_IN_MEMMOVE) ||
        gimple_call_builtin_p(call, BUILT_IN_MEMSET))
        return false;
    const char *name = callee_symbol(call);
    if (name && !strcmp(name, "__errno_location"))
        return false;
    if (name && (startswith(name, "__atomic_") || startswith(name, "__sync_")))
        *why = "atomic access";
    else if (name)
        *why = ggc_strdup(ACONCAT(("call to ", name, NULL)));
    else
        *why = "indirect call";
    return true;
}

/* May `stmt` (no barrier) not stay before the kernel side of call `call`? */
bool block_scanner::stmt_conflicts_with(gimple *stmt, int call) const
{
    if (!gimple_vuse(stmt) && !gimple_vdef(stmt))
        return false; /* registers only */
    gcall *c = out_->calls[call];
    bool errno_only = errno_access_p(stmt);
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
    for (unsigned k = 0; k < row->libc_argc; k++) {
        const struct sb_arg_desc &d = row->libc_args[k];
        if (d.kind == SB_ARG_ADDR || d.kind == SB_ARG_OPAQUE)
            return true;
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

/* A branchy region (docs/gcc.md, "Branchy regions"): the events of every
 * block - for the entry block from its first candidate call on, for the
 * others from their first statement (code before a block's first call is
 * crossed on the way to it) - and each block's terminator. */
int block_scanner::run_region()
{
    unsigned first_call_uid = collect_calls(false);
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
    for (unsigned b = 0; b < out_->blocks.length(); b++) {
        const char *why = NULL;
        describe_terminator((int)b, &out_->blocks[b], &why);
        out_->term_why.safe_push(why);
        out_->term_stmt.safe_push(last_stmt(out_->bbs[b]));
    }

    out_->region.abi = abi_;
    out_->region.nevents = (int)out_->events.length();
    out_->region.events = out_->events.address();
    out_->region.nblocks = (int)out_->blocks.length();
    out_->region.blocks = out_->blocks.address();
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

/* Block b's terminator (core.h, "branchy regions"): COND when the block
 * ends in `value OP constant` on its last call's value, with only code that
 * commutes with every later call after that call; GOTO for a plain edge to
 * a later region block; EXIT otherwise. */
void block_scanner::describe_terminator(int b, struct sb_block *blk,
                                        const char **why) const
{
    blk->term = SB_TERM_EXIT;
    blk->cond_call = -1;
    blk->succ[0] = blk->succ[1] = blk->succ[2] = SB_BLOCK_EXIT;
    basic_block bb = out_->bbs[b];
    auto target = [&](basic_block dest) {
        int t = region_block(dest);
        return t > b ? t : SB_BLOCK_EXIT; /* back to the entry: an exit */
    };
    gimple *last = last_stmt(bb);
    gcond *cond = last ? dyn_cast<gcond *>(last) : NULL;
    bool has_call = false;
    for (int i = 0; i < (int)out_->calls.length(); i++)
        has_call |= out_->block_of_call[i] == b;
    if (has_call && last && gimple_code(last) == GIMPLE_SWITCH)
        *why = "a switch";
    if (!cond) {
        if (single_succ_p(bb) &&
            !(single_succ_edge(bb)->flags & (EDGE_ABNORMAL | EDGE_EH))) {
            int t = target(single_succ(bb));
            if (t != SB_BLOCK_EXIT) {
                blk->term = SB_TERM_GOTO;
                blk->succ[0] = t;
            } else if (has_call && single_succ(bb) == out_->bbs[0]) {
                *why = "a loop: the edge goes back to the region's entry";
            }
        }
        return;
    }
    /* The block's last call, and nothing but commuting code after it. */
    int call = -1;
    for (int i = 0; i < (int)out_->calls.length(); i++)
        if (out_->block_of_call[i] == b)
            call = i;
    if (call < 0)
        return;
    int after = blk->first_event + blk->nevents - 1;
    const char *sym = sysbatch_call_event(*out_, call).symbol;
    if (out_->events[after].kind == SB_EV_CODE) {
        const struct sb_code_event &code = out_->events[after].u.code;
        if (code.barrier || code.conflicts) {
            *why = ggc_strdup(ACONCAT((
                "code between ", sym, " and the branch may not move (",
                code.why, ")", NULL)));
            return;
        }
    }
    const char *not_result = ggc_strdup(ACONCAT((
        "the branch is not the result of ", sym,
        " (the block's last call) compared with a constant", NULL)));
    tree result = gimple_call_lhs(out_->calls[call]);
    if (!result || TREE_CODE(result) != SSA_NAME) {
        *why = not_result;
        return;
    }
    tree lhs = gimple_cond_lhs(cond), rhs = gimple_cond_rhs(cond);
    enum tree_code code = gimple_cond_code(cond);
    if (TREE_CODE(lhs) == INTEGER_CST) {
        std::swap(lhs, rhs);
        code = swap_tree_comparison(code);
    }
    enum sb_cmp op;
    long constant;
    if (TREE_CODE(rhs) != INTEGER_CST || !same_value_p(lhs, result) ||
        !int_fits_type_p(rhs, TREE_TYPE(result)) ||
        !map_compare(code, TYPE_UNSIGNED(TREE_TYPE(lhs)), &op)) {
        *why = not_result;
        return;
    }
    if (tree_fits_shwi_p(rhs))
        constant = (long)tree_to_shwi(rhs);
    else
        constant = (long)tree_to_uhwi(rhs); /* int_fits_type_p: a word */
    const struct sb_call_event &ev = sysbatch_call_event(*out_, call);
    int mask = sb_cond_classes(sb_call_ret_conv(abi_, &ev),
                               sb_call_result_bits(abi_, &ev), op, constant);
    if (mask < 0) {
        *why = ggc_strdup(ACONCAT((
            "the sign of ", sym, "'s result does not decide the compare",
            NULL)));
        return;
    }
    edge on_true, on_false;
    extract_true_false_edges_from_block(bb, &on_true, &on_false);
    int t = target(on_true->dest), f = target(on_false->dest);
    if (on_true->dest == out_->bbs[0] || on_false->dest == out_->bbs[0])
        *why = "a loop: an edge goes back to the region's entry";
    for (int k = 0; k < 3; k++)
        blk->succ[k] = (mask & (1 << k)) ? t : f;
    blk->term = SB_TERM_COND;
    blk->cond_call = call;
}

} // namespace

namespace {

/* Locals whose address the current function's GIMPLE takes (&x). */
hash_set<tree> *address_taken;
function *address_taken_fn;

bool note_address(gimple *, tree base, tree, void *)
{
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

/* Candidate calls in a block, as block_scanner::is_candidate counts them. */
int sysbatch_count_candidates(basic_block bb, enum sb_abi abi)
{
    int n = 0;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        if (!call)
            continue;
        const char *name = callee_symbol(call);
        if (name && sb_catalog_lookup(abi, name) &&
            DECL_EXTERNAL(gimple_call_fndecl(call)))
            n++;
    }
    return n;
}

int sysbatch_form_region(basic_block entry, enum sb_abi abi,
                         bool (*excluded)(basic_block),
                         auto_vec<basic_block> *bbs)
{
    int calls = sysbatch_count_candidates(entry, abi);
    if (calls == 0 || calls > SB_MAX_REGION_CALLS)
        return 0;
    auto_vec<int> ncalls;
    bbs->safe_push(entry);
    ncalls.safe_push(calls);
    for (basic_block bb = entry->next_bb;
         bb != EXIT_BLOCK_PTR_FOR_FN(cfun) &&
         bbs->length() < SB_MAX_REGION_BLOCKS;
         bb = bb->next_bb) {
        if (excluded(bb) || EDGE_COUNT(bb->preds) == 0)
            continue;
        /* Single entry: every edge into the block comes from a block
         * already in the region (so from an earlier one: no back edge). */
        bool inside = true;
        edge e;
        edge_iterator ei;
        FOR_EACH_EDGE(e, ei, bb->preds)
            if ((e->flags & (EDGE_ABNORMAL | EDGE_EH)) || !bbs->contains(e->src))
                inside = false;
        if (!inside)
            continue;
        int n = sysbatch_count_candidates(bb, abi);
        if (calls + n > SB_MAX_REGION_CALLS)
            continue;
        bbs->safe_push(bb);
        ncalls.safe_push(n);
        calls += n;
    }
    /* Blocks after the last call change nothing the planner decides. */
    while (ncalls.last() == 0) {
        ncalls.pop();
        bbs->pop();
    }
    int with_calls = 0;
    for (int n : ncalls)
        with_calls += n > 0;
    return with_calls;
}

int sysbatch_analyze_region(enum sb_abi abi, struct sysbatch_block *out)
{
    out->bb = out->bbs[0];
    out->part = 0;
    block_scanner scanner(out->bb, abi, 0, out);
    return scanner.run_region();
}

int sysbatch_analyze_block(basic_block bb, enum sb_abi abi, int first,
                           struct sysbatch_block *out)
{
    block_scanner scanner(bb, abi, first, out);
    return scanner.run();
}

/* --------------------------------------------------- Tock checked chains */

namespace {

/* `value` converted to `type`, as GIMPLE converts: truncated to the type's
 * precision, then sign- or zero-extended. */
HOST_WIDE_INT convert_to(HOST_WIDE_INT value, tree type)
{
    unsigned prec = TYPE_PRECISION(type);
    if (prec >= HOST_BITS_PER_WIDE_INT)
        return value;
    unsigned HOST_WIDE_INT bits = (unsigned HOST_WIDE_INT)value &
                                  ((HOST_WIDE_INT_1U << prec) - 1);
    if (!TYPE_UNSIGNED(type) && (bits >> (prec - 1)) & 1)
        return (HOST_WIDE_INT)(bits | ~((HOST_WIDE_INT_1U << prec) - 1));
    return (HOST_WIDE_INT)bits;
}

bool compare_holds(enum tree_code code, HOST_WIDE_INT a, HOST_WIDE_INT b,
                   bool is_unsigned)
{
    unsigned HOST_WIDE_INT ua = a, ub = b;
    switch (code) {
    case EQ_EXPR: return a == b;
    case NE_EXPR: return a != b;
    case LT_EXPR: return is_unsigned ? ua < ub : a < b;
    case LE_EXPR: return is_unsigned ? ua <= ub : a <= b;
    case GT_EXPR: return is_unsigned ? ua > ub : a > b;
    case GE_EXPR: return is_unsigned ? ua >= ub : a >= b;
    default: return false;
    }
}

/* How block `bb`'s conditional branch tests the libtock-c result of its
 * last candidate call: the edge taken exactly when the call's return
 * variant is a Failure* (the series' stop condition) and the one taken
 * exactly on success.  False (with `why`) when it tests anything else:
 * `r.type != TOCK_SYSCALL_SUCCESS` leaves on a Success-u32 too while the
 * kernel goes on.  The forms are the LLVM pass's: command's r.type against
 * 128 (< 128, <= 127, >= 128, > 127; GCC folds some into a signed view of
 * the byte, `(signed char) r.type >= 0`, with -fshort-enums), the allows'
 * and subscribe's r.success as a bool or against 0 (TRD104 lets them
 * return only Success-2u32 or Failure-2u32, relied on here).  A form is
 * checked by evaluating the test on every TRD104 variant. */
bool tock_stop_test(basic_block bb, edge *on_failure, edge *on_success,
                    const char **why)
{
    *why = NULL;
    gimple *last = last_stmt(bb);
    gcond *cond = last ? dyn_cast<gcond *>(last) : NULL;
    if (!cond || EDGE_COUNT(bb->succs) != 2)
        return false;
    gcall *call = NULL;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gcall *c = dyn_cast<gcall *>(gsi_stmt(gsi));
        const char *name = c ? callee_symbol(c) : NULL;
        if (name && sb_catalog_lookup(SB_ABI_TOCK, name) &&
            DECL_EXTERNAL(gimple_call_fndecl(c)))
            call = c;
    }
    if (!call)
        return false;
    const struct sb_syscall *row =
        sb_catalog_lookup(SB_ABI_TOCK, callee_symbol(call));
    if (!row || (row->flags & SB_ROW_NEVER))
        return false;
    bool is_command = row->nr == 2;
    bool has_flag = row->nr == 1 || row->nr == 3 || row->nr == 4 || row->nr == 7;
    *why = "the branch does not test the call's success exactly (command: "
           "r.type < 128 or >= 128; allow, subscribe: r.success)";
    tree result = gimple_call_lhs(call);
    if ((!is_command && !has_flag) || !result)
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
    HOST_WIDE_INT c = tree_to_shwi(constant);
    if (is_command ? (c != 127 && c != 128 && c != 0 && c != -1) : c != 0)
        return false;
    /* Back from the compared value to the load of the field: conversions
     * and negations only, all in this block. */
    auto_vec<gassign *, 8> steps;
    gassign *load = NULL;
    for (tree v = value; !load && steps.length() < 8;) {
        if (TREE_CODE(v) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(v))
            return false;
        gassign *g = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(v));
        if (!g || gimple_bb(g) != bb)
            return false;
        if (gimple_assign_load_p(g)) {
            load = g;
            break;
        }
        enum tree_code step = gimple_assign_rhs_code(g);
        if (!CONVERT_EXPR_CODE_P(step) && step != BIT_NOT_EXPR &&
            step != TRUTH_NOT_EXPR)
            return false;
        steps.safe_push(g);
        v = gimple_assign_rhs1(g);
    }
    if (!load || gimple_has_volatile_ops(load))
        return false;
    /* Word 0 of the call's own result, read after the call with nothing
     * written in between. */
    tree ref = gimple_assign_rhs1(load);
    poly_int64 bitpos, bitsize, maxsize;
    bool reverse;
    tree field_base = get_ref_base_and_extent(ref, &bitpos, &bitsize, &maxsize,
                                              &reverse);
    HOST_WIDE_INT size;
    tree field_type = TREE_TYPE(ref);
    if (field_base != base || reverse || !known_eq(bitpos, 0) ||
        !bitsize.is_constant(&size) || !INTEGRAL_TYPE_P(field_type))
        return false;
    if (is_command ? (size != 32 && size != 8)
                   : (size != 8 || TREE_CODE(field_type) != BOOLEAN_TYPE))
        return false;
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    for (gsi_next(&gsi); !gsi_end_p(gsi) && gsi_stmt(gsi) != load;
         gsi_next(&gsi))
        if (gimple_vdef(gsi_stmt(gsi)))
            return false;
    if (gsi_end_p(gsi))
        return false;
    /* The test on every variant the kernel can return. */
    static const HOST_WIDE_INT command_variants[] = {0, 1, 2, 3, 128, 129,
                                                     130, 131, 132, 133};
    static const HOST_WIDE_INT flag_values[] = {0, 1};
    const HOST_WIDE_INT *domain = is_command ? command_variants : flag_values;
    unsigned ndomain = is_command ? ARRAY_SIZE(command_variants) : 2;
    bool true_is_failure = true, true_is_success = true;
    for (unsigned i = 0; i < ndomain; i++) {
        HOST_WIDE_INT w = convert_to(domain[i], field_type);
        for (unsigned s = steps.length(); s-- > 0;) {
            gassign *g = steps[s];
            tree to = TREE_TYPE(gimple_assign_lhs(g));
            enum tree_code step = gimple_assign_rhs_code(g);
            if (step == TRUTH_NOT_EXPR ||
                (step == BIT_NOT_EXPR && TREE_CODE(to) == BOOLEAN_TYPE))
                w = !w;
            else if (step == BIT_NOT_EXPR)
                w = convert_to(~w, to);
            else
                w = convert_to(w, to);
        }
        bool holds = compare_holds(code, w, c, TYPE_UNSIGNED(TREE_TYPE(value)));
        bool failure = is_command ? domain[i] < 128 : domain[i] == 0;
        true_is_failure &= holds == failure;
        true_is_success &= holds != failure;
    }
    if (!true_is_failure && !true_is_success)
        return false;
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
    int calls = sysbatch_count_candidates(entry, SB_ABI_TOCK);
    bbs->safe_push(entry);
    while (bbs->length() < SB_MAX_REGION_BLOCKS) {
        edge on_failure, on_success;
        const char *why;
        basic_block last = bbs->last();
        if (!tock_stop_test(last, &on_failure, &on_success, &why)) {
            /* A test the stop policy cannot do: the run ends at this
             * branch (its call may still end a series). */
            if (why && dump_enabled_p())
                dump_printf_loc(MSG_MISSED_OPTIMIZATION, last_stmt(last),
                                "sysbatch: branch ends the run: %s\n", why);
            break;
        }
        basic_block next = on_success->dest;
        int n = next == EXIT_BLOCK_PTR_FOR_FN(cfun)
                    ? 0 : sysbatch_count_candidates(next, SB_ABI_TOCK);
        if (bbs->contains(next) || excluded(next) || !single_pred_p(next) ||
            (on_success->flags & (EDGE_ABNORMAL | EDGE_EH)) || !n ||
            calls + n > SB_MAX_REGION_CALLS)
            break;
        bbs->safe_push(next);
        calls += n;
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
