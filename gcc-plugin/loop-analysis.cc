/* loop-analysis.cc: loop batching on GIMPLE, the facts half - describe
 * the loop around one call site as a core sb_loop (sysbatch/loop.h), and
 * drive planning, reports and the rewrite (rewrite-loop.cc).
 *
 * For
 *
 *     <bb 4>: # i_5 = PHI <0(2), i_12(3)>          header
 *             if (i_5 < n_9(D)) goto <bb 3>; else goto <bb 5>;
 *     <bb 3>: _3 = fd_10(D) + (long unsigned int) i_5 * 4;
 *             _4 = *_3;
 *             close (_4);
 *             i_12 = i_5 + 1;
 *
 * (what into-SSA leaves at -O0 and -O2 alike: scalars are SSA names, the
 * exit test is at the top) the model is: a0 = induction (a load at an
 * address affine in the induction variable i_5, of memory nothing in the
 * loop writes), every sign class of close's result goes on to the next
 * iteration through code that commutes with the later calls, the call is
 * made in every iteration that passes the header's test, and that test is
 * one the inspector repeats (i + t < n).
 *
 * What is recognised (anything else is described as what it is, and the
 * core refuses): a loop (inner loops only after the call) whose one
 * candidate call is in a block that dominates the latch, reached from the
 * header through a chain of blocks whose only branches are exit tests; arguments computed
 * from invariants, affine induction variables (simple_iv) and loads of
 * memory nothing in the loop writes, by code that cannot trap.  Memory
 * questions go to GCC's alias oracle; a buffer whose address changes per
 * iteration is described by the object it points into, so that the
 * answer holds for every iteration.  Loads the inspector makes for later
 * iterations are never proven dereferenceable yet (rule 4: a loop that a
 * class of the result may leave and whose arguments load per iteration is
 * refused as speculative).
 */
#include "block-scanner.h"
#include "loop-batching.h"

namespace {

using namespace sysbatch_gcc;

/* How an SSA value at the call site is known for a later iteration (the
 * order matters: a value is the worst of its operands). */
enum repeat_kind {
    REPEAT_INVARIANT = 0, /* the same in every iteration */
    REPEAT_INDUCTION,     /* recomputed from induction variables */
    REPEAT_CHECKED,       /* so, loaded from memory the loop may write,
                             under the run-time check (rule 7) */
    REPEAT_CARRIED,       /* from the call's result in an earlier iteration */
    REPEAT_NOT,           /* from code the inspector cannot repeat */
};

struct repeat_answer {
    enum repeat_kind kind;
    const char *why;
};

/* `v`, a PHI of the loop's header, is an affine induction variable:
 * v = base + k * step in the k-th iteration.  SCEV first; it gives up on
 * `while (fd > 2) close (fd--)`, whose increment works on a copy of the
 * PHI (fd.0_1 = fd_2; fd_6 = fd.0_1 + -1), so that form is read here. */
bool header_iv(class loop *loop, tree v, tree *base, tree *step)
{
    affine_iv iv;
    if (simple_iv(loop, loop, v, &iv, false)) {
        *base = iv.base;
        *step = iv.step;
        return true;
    }
    gphi *phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(v));
    if (!phi || gimple_bb(phi) != loop->header || !loop->latch)
        return false;
    tree from_latch = PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop));
    tree entry = PHI_ARG_DEF_FROM_EDGE(phi, loop_preheader_edge(loop));
    /* Several back edges merged into one latch: a PHI of one value. */
    while (TREE_CODE(from_latch) == SSA_NAME &&
           gimple_code(SSA_NAME_DEF_STMT(from_latch)) == GIMPLE_PHI &&
           SSA_NAME_DEF_STMT(from_latch) != phi) {
        gphi *merge = as_a<gphi *>(SSA_NAME_DEF_STMT(from_latch));
        tree same = gimple_phi_arg_def(merge, 0);
        for (unsigned i = 1; i < gimple_phi_num_args(merge); i++)
            if (gimple_phi_arg_def(merge, i) != same)
                return false;
        if (same == from_latch)
            return false;
        from_latch = same;
    }
    if (TREE_CODE(from_latch) != SSA_NAME)
        return false;
    gassign *inc = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(from_latch));
    if (!inc)
        return false;
    enum tree_code code = gimple_assign_rhs_code(inc);
    if (code != PLUS_EXPR && code != POINTER_PLUS_EXPR && code != MINUS_EXPR)
        return false;
    tree x = gimple_assign_rhs1(inc), c = gimple_assign_rhs2(inc);
    if (TREE_CODE(c) != INTEGER_CST)
        return false;
    while (x != v && TREE_CODE(x) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(x)) {
        gassign *copy = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(x));
        if (!copy || gimple_assign_rhs_code(copy) != SSA_NAME)
            return false;
        x = gimple_assign_rhs1(copy);
    }
    if (x != v)
        return false;
    *base = entry;
    *step = code == MINUS_EXPR ? fold_build1(NEGATE_EXPR, TREE_TYPE(c), c) : c;
    return true;
}

/* Rule 10: `v`, a PHI of the loop's header, is a pointer chase: its value
 * in the next iteration is loaded from the node it points to in this one
 * (`p = p->next`, a field at a constant offset).  The link (the loaded SSA
 * name) in *link. */
bool header_chase(class loop *loop, tree v, tree *link)
{
    gphi *phi = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(v));
    if (!phi || gimple_bb(phi) != loop->header || !loop->latch ||
        !POINTER_TYPE_P(TREE_TYPE(v)) || gimple_phi_num_args(phi) != 2)
        return false;
    tree from_latch = PHI_ARG_DEF_FROM_EDGE(phi, loop_latch_edge(loop));
    if (TREE_CODE(from_latch) != SSA_NAME ||
        SSA_NAME_IS_DEFAULT_DEF(from_latch))
        return false;
    gassign *load = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(from_latch));
    if (!load || !gimple_assign_load_p(load) || gimple_has_volatile_ops(load) ||
        !flow_bb_inside_loop_p(loop, gimple_bb(load)) ||
        gimple_bb(load)->loop_father != loop)
        return false;
    tree ref = gimple_assign_rhs1(load);
    while (TREE_CODE(ref) == COMPONENT_REF) {
        tree off = component_ref_field_offset(ref);
        if (!off || TREE_CODE(off) != INTEGER_CST ||
            TREE_CODE(DECL_FIELD_BIT_OFFSET(TREE_OPERAND(ref, 1))) !=
                INTEGER_CST)
            return false;
        ref = TREE_OPERAND(ref, 0);
    }
    if (TREE_CODE(ref) != MEM_REF || TREE_OPERAND(ref, 0) != v ||
        TREE_CODE(TREE_OPERAND(ref, 1)) != INTEGER_CST)
        return false;
    *link = from_latch;
    return true;
}

/* Rule 10: the chase `ptr` points into the node of (&p->st, directly or
 * through copies of that address), or NULL_TREE. */
tree chase_node(class loop *loop, tree ptr)
{
    for (int depth = 0; depth < 8 && ptr; depth++) {
        if (TREE_CODE(ptr) == ADDR_EXPR) {
            tree base = get_base_address(TREE_OPERAND(ptr, 0));
            tree link;
            if (base && TREE_CODE(base) == MEM_REF &&
                TREE_CODE(TREE_OPERAND(base, 0)) == SSA_NAME &&
                header_chase(loop, TREE_OPERAND(base, 0), &link))
                return TREE_OPERAND(base, 0);
            return NULL_TREE;
        }
        if (TREE_CODE(ptr) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(ptr))
            return NULL_TREE;
        gassign *def = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(ptr));
        if (!def || (gimple_assign_rhs_code(def) != ADDR_EXPR &&
                     gimple_assign_rhs_code(def) != SSA_NAME))
            return NULL_TREE;
        ptr = gimple_assign_rhs1(def);
    }
    return NULL_TREE;
}

class loop_describer {
public:
    loop_describer(struct sysbatch_loop_site &site, enum sb_abi abi,
                   hash_set<gimple *> *stop_writers = NULL)
        : s_(site), abi_(abi), loop_(site.loop), scanner_(NULL, abi, 0, NULL),
          stop_writers_(stop_writers)
    {
    }
    /* True when the paths of the result classes were described. */
    bool describe();
    /* Rule 9: the statements a result of class `cls` reaches from the call
     * before the next iteration's call (the shape of the loop, whatever
     * the verdicts). */
    void class_reach(int cls, hash_set<gimple *> *reached) const;
    struct repeat_answer classify(tree v, int depth);
    struct repeat_answer classify_libc_call(gcall *call, int depth);

private:
    bool depends_on_result(tree v, hash_set<tree> *seen, int depth) const;
    bool load_written(gassign *load, const char **why);
    bool load_checkable(gassign *load, int depth);
    bool address_repeatable(tree ref, int depth);
    bool address_invariant(tree ref, int depth);
    bool address_within(tree ref, int depth, enum repeat_kind worst);
    void add_range(auto_vec<tree> &addrs, auto_vec<tree> &sizes,
                   auto_vec<bool> &kernel, tree addr, tree size, bool is_kernel);
    bool store_checkable(gimple *stmt, unsigned k, const struct sb_arg_desc &d);
    bool string_store_checkable(gimple *stmt, unsigned k);
    bool load_checked(gimple *stmt, tree buf);
    bool load_in_bounds(gassign *load) const;
    bool pointer_root(tree p, int depth, tree *root);
    bool store_misses_pointer(gimple *w, tree ptr);
    bool buffer_ref(unsigned k, const struct sb_arg_desc &d, ao_ref *ref);
    const struct sb_arg_desc *arg_desc(unsigned k) const;
    tree buffer_extent(const struct sb_arg_desc &d) const;
    bool stmt_conflicts(gimple *stmt, const char **why);
    void describe_arguments();
    bool describe_built(unsigned k, tree arg);
    const char *builder_objection(gimple *w, tree decl,
                                  hash_set<gimple *> &builders,
                                  struct sb_loop_build_step *step);
    const char *read_objection(tree ptr, tree decl,
                               hash_set<gimple *> &builders);
    bool describe_chain();
    void classify_exit_tests();
    void describe_after_call_tests();
    bool classify_guards();
    void describe_paths();
    unsigned classes_that_exit() const;
    void walk_class(int cls, enum sb_loop_path *path, const char **why);
    template <typename StmtFn, typename EdgeFn>
    void walk_from_call(int cls, StmtFn on_stmt, EdgeFn on_edge) const;
    int result_classes(gcond *cond, bool *decided) const;
    int block_branch_classes(basic_block bb, gcond **cond,
                             bool *decided) const;

    struct sysbatch_loop_site &s_;
    enum sb_abi abi_;
    class loop *loop_;
    block_scanner scanner_;
    const struct sb_syscall *row_ = NULL; /* the row of the arguments */
    unsigned shift_ = 0;                  /* 1 for syscall(NR, ...) */
    tree result_ = NULL_TREE;
    auto_vec<gimple *> writers_; /* statements of the loop that store */
    hash_map<tree, repeat_answer> memo_;
    hash_set<gcond *> repeated_; /* exit tests the inspector repeats */
    const char *induction_load_ = NULL;
    bool in_exit_test_ = false; /* classifying an exit test's operands */
    hash_set<tree> chase_links_; /* rule 10: links being classified */
    bool chain_ok_ = false;     /* exit_tests holds the header's chain */
    hash_set<gimple *> *stop_writers_; /* rule 9: left out of writers_ */
};

bool inside(class loop *loop, basic_block bb)
{
    return bb && flow_bb_inside_loop_p(loop, bb);
}

/* `ptr` is loaded from a read-only table of string literals (`static
 * const char *const names[] = {"a", "b"}`): it points into a literal, which
 * no statement may write (that is undefined), so what the kernel reads
 * there is the same whenever it reads it. */
bool points_to_literal(tree ptr)
{
    if (TREE_CODE(ptr) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(ptr))
        return false;
    gassign *load = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(ptr));
    if (!load || !gimple_assign_load_p(load) || gimple_has_volatile_ops(load))
        return false;
    tree ref = gimple_assign_rhs1(load);
    if (TREE_CODE(ref) != ARRAY_REF)
        return false;
    tree table = TREE_OPERAND(ref, 0);
    if (!VAR_P(table) || !TREE_READONLY(table) || !TREE_STATIC(table) ||
        TREE_THIS_VOLATILE(table) || !DECL_INITIAL(table) ||
        TREE_CODE(DECL_INITIAL(table)) != CONSTRUCTOR ||
        !POINTER_TYPE_P(TREE_TYPE(ref)))
        return false;
    unsigned i;
    tree value;
    FOR_EACH_CONSTRUCTOR_VALUE(CONSTRUCTOR_ELTS(DECL_INITIAL(table)), i, value) {
        tree v = value;
        STRIP_NOPS(v);
        if (integer_zerop(v))
            continue;
        if (TREE_CODE(v) != ADDR_EXPR)
            return false;
        tree target = TREE_OPERAND(v, 0);
        if (TREE_CODE(target) == ARRAY_REF)
            target = TREE_OPERAND(target, 0);
        if (TREE_CODE(target) != STRING_CST)
            return false;
    }
    return true;
}

/* `stmt` is `p = &decl...` (what -O0 writes for `f (&st[i])`) and every
 * use of p is an argument of a catalogued call. */
bool address_only_for_calls(gimple *stmt, tree addr, block_scanner &scanner)
{
    gassign *a = dyn_cast<gassign *>(stmt);
    if (!a || gimple_assign_rhs_code(a) != ADDR_EXPR ||
        gimple_assign_rhs1(a) != addr ||
        TREE_CODE(gimple_assign_lhs(a)) != SSA_NAME)
        return false;
    tree p = gimple_assign_lhs(a);
    imm_use_iterator it;
    use_operand_p use;
    FOR_EACH_IMM_USE_FAST(use, it, p) {
        gimple *user = USE_STMT(use);
        if (is_gimple_debug(user))
            continue;
        gcall *call = dyn_cast<gcall *>(user);
        if (!call || !scanner.is_candidate(call) ||
            gimple_call_lhs(call) == p || gimple_call_fn(call) == p)
            return false;
        bool as_arg = false;
        for (unsigned i = 0; i < gimple_call_num_args(call); i++)
            as_arg |= gimple_call_arg(call, i) == p;
        if (!as_arg)
            return false;
    }
    return true;
}

/* An automatic variable whose address appears only as an argument of
 * catalogued calls (lstat (p, &st)): the kernel keeps no pointer to it, so
 * no pointer the function loads can point into it. */
bool address_only_in_calls(tree decl, enum sb_abi abi)
{
    if (!VAR_P(decl) || is_global_var(decl))
        return false;
    block_scanner scanner(NULL, abi, 0, NULL);
    basic_block bb;
    FOR_EACH_BB_FN(bb, cfun)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
             gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            if (is_gimple_debug(stmt))
                continue;
            gcall *call = dyn_cast<gcall *>(stmt);
            bool candidate = call && scanner.is_candidate(call);
            for (unsigned i = 0; i < gimple_num_ops(stmt); i++) {
                tree op = gimple_op(stmt, i);
                if (!op)
                    continue;
                bool as_argument = candidate && i >= 3; /* lhs, fn, chain */
                tree found = walk_tree_without_duplicates(
                    &op,
                    [](tree *tp, int *, void *d) -> tree {
                        if (TREE_CODE(*tp) == ADDR_EXPR &&
                            get_base_address(TREE_OPERAND(*tp, 0)) == (tree)d)
                            return *tp;
                        return NULL_TREE;
                    },
                    decl);
                if (found && !(as_argument && found == op) &&
                    !address_only_for_calls(stmt, found, scanner))
                    return false;
            }
        }
    return true;
}

/* Does `a` run before `b` in every iteration that reaches `b`? */
bool runs_before(gimple *a, gimple *b)
{
    basic_block ba = gimple_bb(a), bb = gimple_bb(b);
    if (ba != bb)
        return dominated_by_p(CDI_DOMINATORS, bb, ba);
    for (gimple_stmt_iterator gsi = gsi_for_stmt(a); !gsi_end_p(gsi);
         gsi_next(&gsi))
        if (gsi_stmt(gsi) == b)
            return true;
    return false;
}

/* Code the inspector may run again: no traps, no memory. */
bool repeatable_code_p(enum tree_code code)
{
    return pure_arith_code_p(code) ||
           TREE_CODE_CLASS(code) == tcc_comparison || code == ADDR_EXPR ||
           code == POINTER_DIFF_EXPR;
}

const char *keep(const char *text)
{
    return ggc_strdup(text);
}

/* The byte count of buffer argument `d` of the call (the core's
 * sb_arg_extent): its size argument's operand or a fixed size; NULL_TREE
 * when not known. */
tree loop_describer::buffer_extent(const struct sb_arg_desc &d) const
{
    unsigned nargs = gimple_call_num_args(s_.call);
    struct sb_arg_extent e =
        sb_arg_extent(&d, nargs >= shift_ ? (int)(nargs - shift_) : 0);
    if (e.kind == SB_EXTENT_ARG)
        return gimple_call_arg(s_.call, e.arg + shift_);
    if (e.kind == SB_EXTENT_FIXED)
        return size_int(e.bytes);
    return NULL_TREE;
}

const struct sb_arg_desc *loop_describer::arg_desc(unsigned k) const
{
    if (!row_ || k < shift_ || k - shift_ >= (unsigned)row_->libc_argc)
        return NULL;
    return &row_->libc_args[k - shift_];
}

bool loop_describer::depends_on_result(tree v, hash_set<tree> *seen,
                                       int depth) const
{
    if (TREE_CODE(v) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(v) || depth > 32)
        return false;
    if (v == result_)
        return true;
    gimple *def = SSA_NAME_DEF_STMT(v);
    if (def == s_.call)
        return true;
    if (!inside(loop_, gimple_bb(def)) || seen->add(v))
        return false;
    ssa_op_iter iter;
    use_operand_p use;
    if (gphi *phi = dyn_cast<gphi *>(def)) {
        for (unsigned i = 0; i < gimple_phi_num_args(phi); i++)
            if (depends_on_result(gimple_phi_arg_def(phi, i), seen, depth + 1))
                return true;
        return false;
    }
    FOR_EACH_SSA_USE_OPERAND(use, def, iter, SSA_OP_USE)
        if (depends_on_result(USE_FROM_PTR(use), seen, depth + 1))
            return true;
    return false;
}

/* The object a pointer argument points into, the same for every
 * iteration: &decl, or an invariant pointer the address grows from (an
 * induction variable with a constant non-negative step).  False when
 * there is no such object. */
bool loop_describer::pointer_root(tree p, int depth, tree *root)
{
    if (depth > 16)
        return false;
    if (TREE_CODE(p) == ADDR_EXPR) {
        tree base = get_base_address(TREE_OPERAND(p, 0));
        if (base && DECL_P(base)) {
            *root = build_fold_addr_expr(base);
            return true;
        }
        if (base && TREE_CODE(base) == MEM_REF)
            return pointer_root(TREE_OPERAND(base, 0), depth + 1, root);
        return false;
    }
    if (TREE_CODE(p) == POINTER_PLUS_EXPR)
        return pointer_root(TREE_OPERAND(p, 0), depth + 1, root);
    if (TREE_CODE(p) != SSA_NAME)
        return false;
    if (SSA_NAME_IS_DEFAULT_DEF(p) || !inside(loop_, gimple_bb(SSA_NAME_DEF_STMT(p)))) {
        *root = p;
        return true;
    }
    gimple *def = SSA_NAME_DEF_STMT(p);
    if (gimple_code(def) == GIMPLE_PHI) {
        tree base, step;
        if (gimple_bb(def) != loop_->header ||
            !header_iv(loop_, p, &base, &step) ||
            TREE_CODE(step) != INTEGER_CST || tree_int_cst_sgn(step) < 0)
            return false;
        return pointer_root(base, depth + 1, root);
    }
    gassign *assign = dyn_cast<gassign *>(def);
    if (!assign)
        return false;
    enum tree_code code = gimple_assign_rhs_code(assign);
    if (code == POINTER_PLUS_EXPR || code == SSA_NAME || CONVERT_EXPR_CODE_P(code))
        return pointer_root(gimple_assign_rhs1(assign), depth + 1, root);
    if (code == ADDR_EXPR)
        return pointer_root(gimple_assign_rhs1(assign), depth + 1, root);
    return false;
}

/* The memory buffer argument k of the call may touch in any iteration;
 * false: not known (the caller assumes any memory). */
bool loop_describer::buffer_ref(unsigned k, const struct sb_arg_desc &d,
                                ao_ref *ref)
{
    gcall *c = s_.call;
    tree ptr = gimple_call_arg(c, k);
    if (!POINTER_TYPE_P(TREE_TYPE(ptr)))
        return false;
    struct repeat_answer r = classify(ptr, 0);
    if (r.kind == REPEAT_INVARIANT) {
        tree size = NULL_TREE;
        if (d.kind != SB_ARG_PATH) {
            tree s = buffer_extent(d);
            if (s && TREE_CODE(s) == INTEGER_CST)
                size = fold_convert(size_type_node, s);
        }
        ao_ref_init_from_ptr_and_size(ref, ptr, size);
    } else {
        tree root;
        tree node = chase_node(loop_, ptr);
        if (node) {
            /* Rule 10: a field of the node a chase points to (&p->st):
             * everything from the node's start, so that any access
             * through the chase's name meets it, whatever its offset
             * (the name stands for a different node each iteration). */
            root = node;
        } else if (!pointer_root(ptr, 0, &root)) {
            /* A pointer loaded per iteration (name[i]): its own target.
             * The oracle never compares it with another iteration's
             * target by offsets from the same name, as stmt_conflicts
             * treats any access through that name as a conflict. */
            if (TREE_CODE(ptr) != SSA_NAME)
                return false;
            gimple *def = SSA_NAME_DEF_STMT(ptr);
            if (!gimple_assign_load_p(def))
                return false;
            root = ptr;
        }
        if (TREE_CODE(root) == ADDR_EXPR && DECL_P(TREE_OPERAND(root, 0)))
            ao_ref_init(ref, TREE_OPERAND(root, 0));
        else
            ao_ref_init_from_ptr_and_size(ref, root, NULL_TREE);
    }
    /* What the kernel writes is an object of the pointed-to type (the
     * libc function's parameter type), so type-based rules apply. */
    tree pointee = TREE_TYPE(TREE_TYPE(ptr));
    if (d.kind == SB_ARG_OUT_BUF && flag_strict_aliasing &&
        !VOID_TYPE_P(pointee) && COMPLETE_TYPE_P(pointee) &&
        (!ref->base || !DECL_P(ref->base)))
        ref->ref_alias_set = ref->base_alias_set = get_alias_set(pointee);
    return true;
}

/* Is every memory operand of `stmt` (a load or a store) a dereference of
 * an SSA pointer? */
bool access_through_pointer(gimple *stmt)
{
    gassign *a = dyn_cast<gassign *>(stmt);
    if (!a || (gimple_assign_load_p(a) && gimple_store_p(a)))
        return false;
    tree ref = gimple_store_p(a) ? gimple_assign_lhs(a)
               : gimple_assign_load_p(a) ? gimple_assign_rhs1(a)
                                         : NULL_TREE;
    tree base = ref ? get_base_address(ref) : NULL_TREE;
    return base && TREE_CODE(base) == MEM_REF &&
           TREE_CODE(TREE_OPERAND(base, 0)) == SSA_NAME;
}

/* Does `stmt` access memory through the SSA name `name` itself? */
bool accesses_through(gimple *stmt, tree name)
{
    for (unsigned i = 0; i < gimple_num_ops(stmt); i++) {
        tree op = gimple_op(stmt, i);
        if (!op)
            continue;
        tree base = get_base_address(op);
        if (base && TREE_CODE(base) == MEM_REF && TREE_OPERAND(base, 0) == name)
            return true;
    }
    return false;
}

/* Does `w` store only into an automatic variable no pointer can hold
 * (address_only_in_calls: its address is never taken but for catalogued
 * calls' arguments, which the kernel does not keep), while `ptr` is not
 * that variable's address?  Then `w` cannot write what `ptr` reaches -
 * the proof -O0 needs, where the C front end marks every array indexed by
 * a variable addressable and the alias oracle then gives up
 * (`fd[i] = open (names[i], ...)` with a local fd[]). */
bool loop_describer::store_misses_pointer(gimple *w, tree ptr)
{
    if (!gimple_store_p(w) || gimple_has_volatile_ops(w) ||
        gimple_code(w) != GIMPLE_ASSIGN)
        return false;
    tree base = get_base_address(gimple_get_lhs(w));
    if (!base || !VAR_P(base) || is_global_var(base) ||
        !address_only_in_calls(base, abi_))
        return false;
    tree root;
    if (pointer_root(ptr, 0, &root))
        return !(TREE_CODE(root) == ADDR_EXPR &&
                 get_base_address(TREE_OPERAND(root, 0)) == base);
    /* A pointer loaded from memory: no stored pointer points there. */
    return TREE_CODE(ptr) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(ptr) &&
           gimple_assign_load_p(SSA_NAME_DEF_STMT(ptr));
}

/* A load the inspector repeats must read memory nothing in the loop
 * writes - no statement, and not the kernel side of the call. */
bool loop_describer::load_written(gassign *load, const char **why)
{
    /* A character of a string literal (names[i][0] of a constant table):
     * writing one is undefined, and the kernel cannot write it either. */
    tree base = get_base_address(gimple_assign_rhs1(load));
    if (base && TREE_CODE(base) == MEM_REF &&
        points_to_literal(TREE_OPERAND(base, 0)))
        return false;
    ao_ref r;
    ao_ref_init(&r, gimple_assign_rhs1(load));
    tree load_base = get_base_address(gimple_assign_rhs1(load));
    tree through = load_base && TREE_CODE(load_base) == MEM_REF
                       ? TREE_OPERAND(load_base, 0)
                       : NULL_TREE;
    for (gimple *w : writers_)
        if (stmt_may_clobber_ref_p_1(w, &r, true) &&
            !(through && store_misses_pointer(w, through))) {
            const char *what = describe_stmt(w);
            *why = keep(ACONCAT((what, " in the loop may write the memory "
                                 "an argument is loaded from", NULL)));
            return true;
        }
    const char *sym = callee_symbol(s_.call);
    for (unsigned k = 0; k < gimple_call_num_args(s_.call); k++) {
        const struct sb_arg_desc *d = arg_desc(k);
        if (!d)
            continue;
        if (d->kind == SB_ARG_ADDR || d->kind == SB_ARG_OPAQUE ||
            d->kind == SB_ARG_IOVEC_OUT) {
            *why = keep(ACONCAT((sym, " may write the memory an argument "
                                 "is loaded from", NULL)));
            return true;
        }
        if (d->kind != SB_ARG_OUT_BUF ||
            integer_zerop(gimple_call_arg(s_.call, k)))
            continue;
        ao_ref buf;
        bool known = buffer_ref(k, *d, &buf);
        /* (ao_ref_base: the base is computed on demand) */
        tree buf_base = known ? ao_ref_base(&buf) : NULL_TREE;
        if (buf_base && DECL_P(buf_base) && load_base &&
            TREE_CODE(load_base) == MEM_REF &&
            address_only_in_calls(buf_base, abi_))
            continue; /* loaded through a pointer: never into it */
        if (!known || refs_may_alias_p_1(&r, &buf, true)) {
            *why = keep(ACONCAT((sym, " writes the memory an argument is "
                                 "loaded from", NULL)));
            return true;
        }
    }
    return false;
}

/* Does every SSA name of memory reference or value `ref` classify as
 * `worst` or better? */
bool loop_describer::address_within(tree ref, int depth, enum repeat_kind worst)
{
    struct data {
        loop_describer *self;
        int depth;
        enum repeat_kind worst;
        bool ok;
    } d = {this, depth, worst, true};
    walk_tree(
        &ref,
        [](tree *tp, int *walk_subtrees, void *p) -> tree {
            data *d = (data *)p;
            if (TREE_CODE(*tp) == SSA_NAME) {
                if (d->self->classify(*tp, d->depth + 1).kind > d->worst)
                    d->ok = false;
                *walk_subtrees = 0;
            } else if (TYPE_P(*tp)) {
                *walk_subtrees = 0;
            }
            return d->ok ? NULL_TREE : *tp;
        },
        &d, NULL);
    return d.ok;
}

/* Rule 7: are the SSA names of `ref` ones the inspector recomputes without
 * a check of their own? */
bool loop_describer::address_repeatable(tree ref, int depth)
{
    return address_within(ref, depth, REPEAT_INDUCTION);
}

/* Is every SSA name of `ref` the same in every iteration? */
bool loop_describer::address_invariant(tree ref, int depth)
{
    return address_within(ref, depth, REPEAT_INVARIANT);
}

void loop_describer::add_range(auto_vec<tree> &addrs, auto_vec<tree> &sizes,
                               auto_vec<bool> &kernel, tree addr, tree size,
                               bool is_kernel)
{
    for (unsigned i = 0; i < addrs.length(); i++)
        if (operand_equal_p(addrs[i], addr, 0) &&
            operand_equal_p(sizes[i], size, 0) && kernel[i] == is_kernel)
            return;
    addrs.safe_push(addr);
    sizes.safe_push(size);
    kernel.safe_push(is_kernel);
}

/* Rule 7 on the paths: is `stmt` a load the inspector repeats under the
 * run-time check, with `buf` (a later call's output) among the writes it
 * is checked against?  Then the check covers it. */
bool loop_describer::load_checked(gimple *stmt, tree buf)
{
    gassign *ld = dyn_cast<gassign *>(stmt);
    if (!ld || !gimple_assign_load_p(ld) || gimple_store_p(ld))
        return false;
    tree addr = build_fold_addr_expr(unshare_expr(gimple_assign_rhs1(ld)));
    bool read = false, written = false;
    for (unsigned i = 0; i < s_.read_addr.length(); i++)
        read |= !s_.read_kernel[i] && operand_equal_p(s_.read_addr[i], addr, 0);
    for (unsigned i = 0; i < s_.write_addr.length(); i++)
        written |= s_.write_kernel[i] && operand_equal_p(s_.write_addr[i], buf, 0);
    return read && written;
}

/* Rule 7 on the paths: may the run-time check cover store `stmt`, between
 * two iterations' calls, against buffer argument k of the later calls?  A
 * simple store at an address the inspector computes, against a buffer of
 * known size at such an address, joins the check. */
bool loop_describer::store_checkable(gimple *stmt, unsigned k,
                                     const struct sb_arg_desc &d)
{
    gassign *st = dyn_cast<gassign *>(stmt);
    if (shift_ || !st || !gimple_store_p(st) || gimple_assign_load_p(st) ||
        gimple_has_volatile_ops(st) ||
        (d.kind != SB_ARG_IN_BUF && d.kind != SB_ARG_OUT_BUF))
        return false;
    tree lhs = gimple_assign_lhs(st);
    tree lsize = TYPE_SIZE_UNIT(TREE_TYPE(lhs));
    tree buf = gimple_call_arg(s_.call, k);
    tree size = buffer_extent(d);
    if (!lsize || TREE_CODE(lsize) != INTEGER_CST || !size ||
        !POINTER_TYPE_P(TREE_TYPE(buf)) || !address_repeatable(lhs, 0) ||
        !address_repeatable(buf, 0) || !address_repeatable(size, 0) ||
        /* Two places that never move meet every time or never. */
        (address_invariant(lhs, 0) && address_invariant(buf, 0)))
        return false;
    add_range(s_.write_addr, s_.write_size, s_.write_kernel,
              build_fold_addr_expr(unshare_expr(lhs)), lsize, false);
    add_range(s_.read_addr, s_.read_size, s_.read_kernel, buf, size, true);
    s_.model.checked_paths++;
    return true;
}

/* Rule 7 for names: may the run-time check cover store `stmt`, which may
 * write the string name argument k of a later call points to?  The
 * inspector takes SB_LOOP_NAME_MAX bytes from each later name (never read)
 * and compares those bytes
 * with every write of the group: this store at its address per iteration,
 * and the call's output buffers (a kernel write of an earlier slot may
 * change a later name before a store of the loop would, so without them
 * the bytes measured would not be the ones the kernel reads).  The core
 * decides whether measuring is allowed (no class may stop the group). */
bool loop_describer::string_store_checkable(gimple *stmt, unsigned k)
{
    gassign *st = dyn_cast<gassign *>(stmt);
    tree name = gimple_call_arg(s_.call, k);
    if (shift_ || !row_ || !st || !gimple_store_p(st) ||
        gimple_assign_load_p(st) || gimple_has_volatile_ops(st) ||
        !POINTER_TYPE_P(TREE_TYPE(name)))
        return false;
    tree lhs = gimple_assign_lhs(st);
    tree lsize = TYPE_SIZE_UNIT(TREE_TYPE(lhs));
    if (!lsize || TREE_CODE(lsize) != INTEGER_CST ||
        !address_repeatable(lhs, 0) ||
        !address_within(name, 0, REPEAT_CHECKED) ||
        /* Two places that never move meet every time or never. */
        (address_invariant(lhs, 0) && address_invariant(name, 0)))
        return false;
    unsigned writes = s_.write_addr.length();
    auto fail = [&] {
        s_.write_addr.truncate(writes);
        s_.write_size.truncate(writes);
        s_.write_kernel.truncate(writes);
        return false;
    };
    add_range(s_.write_addr, s_.write_size, s_.write_kernel,
              build_fold_addr_expr(unshare_expr(lhs)), lsize, false);
    for (unsigned w = 0; w < gimple_call_num_args(s_.call); w++) {
        const struct sb_arg_desc *d = arg_desc(w);
        tree arg = gimple_call_arg(s_.call, w);
        if (!d)
            continue;
        if (d->kind == SB_ARG_ADDR || d->kind == SB_ARG_OPAQUE ||
            d->kind == SB_ARG_IOVEC_OUT)
            return fail();
        if (d->kind != SB_ARG_OUT_BUF || integer_zerop(arg))
            continue;
        tree size = buffer_extent(*d);
        if (!size || !POINTER_TYPE_P(TREE_TYPE(arg)) ||
            !address_repeatable(arg, 0) || !address_repeatable(size, 0))
            return fail();
        add_range(s_.write_addr, s_.write_size, s_.write_kernel, arg, size,
                  true);
    }
    bool known = false;
    for (tree a : s_.string_addr)
        known |= operand_equal_p(a, name, 0);
    if (!known)
        s_.string_addr.safe_push(name);
    s_.model.checked_strings |= 1u << k;
    s_.model.checked_paths++;
    return true;
}

/* Rule 7: every write that may reach what `load` reads is a store at an
 * address the inspector computes (not of the call's result: that is
 * carried), or an output buffer of the call with a known size.  Then
 * the load is repeatable under the run-time check: record its range and
 * the writes' ranges. */
bool loop_describer::load_checkable(gassign *load, int depth)
{
    if (shift_ || !row_)
        return false;
    tree rhs = gimple_assign_rhs1(load);
    tree rsize = TYPE_SIZE_UNIT(TREE_TYPE(rhs));
    if (!rsize || TREE_CODE(rsize) != INTEGER_CST || !address_repeatable(rhs, depth))
        return false;
    ao_ref r;
    ao_ref_init(&r, rhs);
    tree load_base = get_base_address(rhs);
    tree through = load_base && TREE_CODE(load_base) == MEM_REF
                       ? TREE_OPERAND(load_base, 0)
                       : NULL_TREE;
    auto_vec<tree> addrs, sizes;
    auto_vec<bool> kernel;
    for (gimple *w : writers_) {
        if (!stmt_may_clobber_ref_p_1(w, &r, true) ||
            (through && store_misses_pointer(w, through)))
            continue;
        gassign *st = dyn_cast<gassign *>(w);
        if (!st || !gimple_store_p(st) || gimple_has_volatile_ops(st))
            return false;
        hash_set<tree> seen;
        tree value = gimple_assign_rhs1(st);
        tree lhs = gimple_assign_lhs(st);
        tree size = TYPE_SIZE_UNIT(TREE_TYPE(lhs));
        if (!size || TREE_CODE(size) != INTEGER_CST ||
            !address_repeatable(lhs, depth))
            return false;
        /* The call's result stored at the very address a later iteration
         * loads (one place every iteration) is carried; at addresses that
         * differ per iteration only a run-time check can tell. */
        if (TREE_CODE(value) == SSA_NAME && depends_on_result(value, &seen, 0) &&
            (operand_equal_p(lhs, rhs, 0) || address_invariant(lhs, depth)))
            return false;
        /* Two places that never move (a flag the loop sets) overlap every
         * time or never: nothing to check. */
        if (address_invariant(lhs, depth) && address_invariant(rhs, depth))
            return false;
        add_range(addrs, sizes, kernel,
                  build_fold_addr_expr(unshare_expr(lhs)), size, false);
    }
    for (unsigned k = 0; k < gimple_call_num_args(s_.call); k++) {
        const struct sb_arg_desc *d = arg_desc(k);
        tree arg = gimple_call_arg(s_.call, k);
        if (!d)
            continue;
        if (d->kind == SB_ARG_ADDR || d->kind == SB_ARG_OPAQUE ||
            d->kind == SB_ARG_IOVEC_OUT)
            return false;
        if (d->kind != SB_ARG_OUT_BUF || integer_zerop(arg))
            continue;
        ao_ref buf;
        bool known = buffer_ref(k, *d, &buf);
        tree buf_base = known ? ao_ref_base(&buf) : NULL_TREE;
        if (known && (!refs_may_alias_p_1(&r, &buf, true) ||
                      (buf_base && DECL_P(buf_base) && through &&
                       address_only_in_calls(buf_base, abi_))))
            continue;
        tree size = buffer_extent(*d);
        if (!size || !POINTER_TYPE_P(TREE_TYPE(arg)) ||
            !address_repeatable(arg, depth) || !address_repeatable(size, depth))
            return false;
        add_range(addrs, sizes, kernel, arg, size, true);
    }
    if (addrs.is_empty())
        return false;
    for (unsigned i = 0; i < addrs.length(); i++)
        add_range(s_.write_addr, s_.write_size, s_.write_kernel, addrs[i],
                  sizes[i], kernel[i]);
    add_range(s_.read_addr, s_.read_size, s_.read_kernel,
              build_fold_addr_expr(unshare_expr(rhs)), rsize, false);
    return true;
}

/* Rule 8: a call to a libc function that only reads its arguments'
 * memory (`strlen (parts[i])`) is repeatable when its inputs are and no
 * code in the loop, nor the call, writes what it reads: exactly what
 * makes a load repeatable.  What it reads for a later iteration through
 * a pointer that changes per iteration is a load ahead (rule 4), proven
 * for the strings of a constant table only. */
struct repeat_answer loop_describer::classify_libc_call(gcall *call, int depth)
{
    const char *name = callee_symbol(call);
    struct repeat_answer ans = {REPEAT_NOT, NULL};
    ans.why = keep(ACONCAT(("a call to ", name ? name : "a function",
                            " computes it", NULL)));
    struct sb_libc_access acc[SB_LIBC_MAX_ARGS];
    const struct sb_libc_function *fn =
        gimple_call_num_args(call) <= SB_LIBC_MAX_ARGS
            ? libc_call(call, abi_, acc, NULL)
            : NULL;
    if (!fn || gimple_vdef(call))
        return ans;
    if (const char *no = sb_loop_libc_repeatable(fn)) {
        ans.why = no;
        return ans;
    }
    hash_set<gimple *> none;
    for (unsigned k = 0; k < gimple_call_num_args(call); k++) {
        tree op = gimple_call_arg(call, k);
        struct repeat_answer a = classify(op, depth + 1);
        if (a.kind > REPEAT_INDUCTION) {
            if (a.kind == REPEAT_CARRIED)
                return a;
            ans.why = keep(ACONCAT((name, " takes ", a.why ? a.why : "a value",
                                    NULL)));
            return ans;
        }
        if (!POINTER_TYPE_P(TREE_TYPE(op)) || !(acc[k].access & SB_LIBC_READS))
            continue;
        if (const char *no = read_objection(op, NULL_TREE, none)) {
            ans.why = keep(ACONCAT((name, no, NULL)));
            return ans;
        }
    }
    struct sb_loop &m = s_.model;
    if (m.repeated_calls < SB_LOOP_MAX_REPEATED_CALLS)
        m.repeated_call[m.repeated_calls] = name;
    m.repeated_calls++;
    ans.kind = REPEAT_INDUCTION;
    ans.why = NULL;
    return ans;
}

/* Rule 4 for `a[i]` of an array object with constant bounds, i an
 * induction variable counting up from a constant >= 0, and an exit test
 * the inspector makes before any argument, `i < C` or `i <= C` with C
 * within the array: every iteration the inspector looks at has i in
 * bounds. */
bool loop_describer::load_in_bounds(gassign *load) const
{
    tree ref = gimple_assign_rhs1(load);
    if (!chain_ok_ || TREE_CODE(ref) != ARRAY_REF ||
        !DECL_P(get_base_address(ref)))
        return false;
    tree index = TREE_OPERAND(ref, 1), base, step;
    tree low = array_ref_low_bound(ref), high = array_ref_up_bound(ref);
    if (TREE_CODE(index) != SSA_NAME || !low || !high ||
        TREE_CODE(low) != INTEGER_CST || TREE_CODE(high) != INTEGER_CST ||
        !integer_zerop(low) || !header_iv(loop_, index, &base, &step) ||
        TREE_CODE(base) != INTEGER_CST || TREE_CODE(step) != INTEGER_CST ||
        tree_int_cst_sgn(base) < 0 || tree_int_cst_sgn(step) <= 0)
        return false;
    for (unsigned j = 0; j < s_.exit_tests.length(); j++) {
        gcond *test = s_.exit_tests[j];
        enum tree_code code = gimple_cond_code(test);
        if (gimple_cond_lhs(test) != index ||
            TREE_CODE(gimple_cond_rhs(test)) != INTEGER_CST)
            continue;
        /* The condition under which the loop stays. */
        if (s_.exit_edges[j]->flags & EDGE_TRUE_VALUE)
            code = invert_tree_comparison(code, false);
        widest_int c = wi::to_widest(gimple_cond_rhs(test));
        widest_int last = code == LT_EXPR ? c - 1 : code == LE_EXPR ? c : -1;
        if ((code == LT_EXPR || code == LE_EXPR) &&
            wi::les_p(last, wi::to_widest(high)))
            return true;
    }
    return false;
}

struct repeat_answer loop_describer::classify(tree v, int depth)
{
    struct repeat_answer ans = {REPEAT_INVARIANT, NULL};
    if (TREE_CODE(v) != SSA_NAME) {
        if (!is_gimple_min_invariant(v)) {
            ans.kind = REPEAT_NOT;
            ans.why = "an expression the plugin does not recompute";
        }
        return ans;
    }
    if (SSA_NAME_IS_DEFAULT_DEF(v))
        return ans;
    gimple *def = SSA_NAME_DEF_STMT(v);
    if (!inside(loop_, gimple_bb(def)))
        return ans;
    if (repeat_answer *known = memo_.get(v))
        return *known;
    if (depth > 16) {
        ans.kind = REPEAT_NOT;
        ans.why = "a computation too deep to repeat";
        return ans;
    }
    /* A load's check for writes classifies the call's buffer argument
     * again from depth 0, and that buffer may be computed from this very
     * load (read(fd, rof->buffer + rof->filled, ...) in gnulib's
     * stackvma.c): while v is being answered, asking for it again gets the
     * most cautious answer instead of recursing without end. */
    /* Rule 10: a chase's link is classified with its PHI (which it takes
     * as an induction); reached first (a rotated loop's exit test on
     * p->next), it would find itself pending below. */
    if (gimple_assign_load_p(def) && !chase_links_.contains(v))
        for (gphi_iterator gsi = gsi_start_phis(loop_->header);
             !gsi_end_p(gsi); gsi_next(&gsi)) {
            tree phi = gimple_phi_result(gsi.phi()), link;
            if (!virtual_operand_p(phi) && header_chase(loop_, phi, &link) &&
                link == v && !memo_.get(phi)) {
                classify(phi, depth + 1);
                if (repeat_answer *known = memo_.get(v))
                    return *known;
            }
        }
    struct repeat_answer pending = {REPEAT_NOT,
                                    "an address computed from memory the "
                                    "call writes"};
    memo_.put(v, pending);
    ans.kind = REPEAT_INDUCTION;
    if (gphi *phi = dyn_cast<gphi *>(def)) {
        tree base, step;
        if (gimple_bb(phi) == loop_->header &&
            header_iv(loop_, v, &base, &step) &&
            classify(step, depth + 1).kind == REPEAT_INVARIANT) {
            if (!s_.ivs.contains(v)) {
                s_.ivs.safe_push(v);
                s_.steps.safe_push(step);
            }
        } else if (tree link; header_chase(loop_, v, &link)) {
            /* Rule 10: an induction when the link is a load the inspector
             * repeats (classified with v taken as one: its address is
             * computed from v). */
            struct repeat_answer assumed = {REPEAT_INDUCTION, NULL};
            memo_.put(v, assumed);
            chase_links_.add(link);
            struct repeat_answer a = classify(link, depth + 1);
            if (a.kind <= REPEAT_CHECKED) {
                if (!s_.chases.contains(v)) {
                    s_.chases.safe_push(v);
                    s_.links.safe_push(link);
                }
            } else {
                /* What was classified from v took it as an induction. */
                memo_.empty();
                ans.kind = a.kind;
                ans.why = keep(ACONCAT(("the node of the list the loop "
                                        "walks (p = p->next): ",
                                        a.why ? a.why : "not repeatable",
                                        NULL)));
            }
            chase_links_.remove(link);
        } else {
            hash_set<tree> seen;
            if (depends_on_result(v, &seen, 0)) {
                ans.kind = REPEAT_CARRIED;
                ans.why = "it depends on the call's result in an earlier "
                          "iteration";
            } else {
                ans.kind = REPEAT_NOT;
                ans.why = "a value the loop carries from one iteration to "
                          "the next that is not an induction variable";
            }
        }
    } else if (gcall *call = dyn_cast<gcall *>(def)) {
        ans = classify_libc_call(call, depth);
    } else if (gassign *assign = dyn_cast<gassign *>(def)) {
        bool load = gimple_assign_load_p(assign);
        if (gimple_has_volatile_ops(assign) || stmt_could_throw_p(cfun, assign) ||
            (!load && !repeatable_code_p(gimple_assign_rhs_code(assign)))) {
            ans.kind = REPEAT_NOT;
            ans.why = "code that may trap or has effects computes it";
        } else {
            enum repeat_kind worst = REPEAT_INVARIANT;
            ssa_op_iter iter;
            use_operand_p use;
            FOR_EACH_SSA_USE_OPERAND(use, assign, iter, SSA_OP_USE) {
                struct repeat_answer a = classify(USE_FROM_PTR(use), depth + 1);
                if (a.kind > worst) {
                    worst = a.kind;
                    if (a.kind >= REPEAT_CARRIED)
                        ans = a;
                }
            }
            if (worst < REPEAT_CARRIED) {
                ans.kind = load ? MAX(REPEAT_INDUCTION, worst) : worst;
                const char *why;
                bool written = load && load_written(assign, &why);
                /* Only a load made before the call in its iteration (one
                 * after it may read what the iteration stores from the
                 * call's result). */
                /* Rule 10: a chase's link is loaded after the call; its
                 * range counts from iteration i on, and the inspector
                 * follows it only while the ranges so far miss every write,
                 * so the node it reaches is the original's: an induction,
                 * as good as an exit test or an address needs. */
                bool link = chase_links_.contains(v);
                if (written && (runs_before(assign, s_.call) || link) &&
                    load_checkable(assign, depth)) {
                    ans.kind = link ? MAX(REPEAT_INDUCTION, worst)
                                    : REPEAT_CHECKED;
                    written = false;
                    if (link)
                        s_.reads_from_first.safe_push(build_fold_addr_expr(
                            unshare_expr(gimple_assign_rhs1(assign))));
                }
                if (written) {
                    ans.kind = REPEAT_NOT;
                    ans.why = why;
                } else if (load && worst >= REPEAT_INDUCTION &&
                           !induction_load_ &&
                           (in_exit_test_ || !load_in_bounds(assign))) {
                    induction_load_ = "a load for a later iteration is not "
                                      "known to be dereferenceable";
                }
            }
        }
    } else {
        ans.kind = REPEAT_NOT;
        ans.why = "a statement the plugin does not recompute";
    }
    memo_.put(v, ans);
    return ans;
}

void loop_describer::describe_arguments()
{
    struct sb_loop &m = s_.model;
    for (int k = 0; k < m.call.nargs; k++) {
        tree arg = gimple_call_arg(s_.call, k);
        struct repeat_answer a = classify(arg, 0);
        switch (a.kind) {
        case REPEAT_INVARIANT:
            m.arg_value[k] = SB_LV_INVARIANT;
            break;
        case REPEAT_INDUCTION:
            m.arg_value[k] = SB_LV_INDUCTION;
            break;
        case REPEAT_CHECKED:
            m.arg_value[k] = SB_LV_CHECKED;
            break;
        case REPEAT_CARRIED:
            m.arg_value[k] = SB_LV_CARRIED;
            break;
        default:
            m.arg_value[k] = SB_LV_UNREPEATABLE;
            break;
        }
        m.arg_why[k] = a.why;
        if (a.kind >= REPEAT_CARRIED)
            continue;
        /* A name or data the kernel reads must not be written by the loop
         * (snprintf(name, ...); unlink(name)): the inspector would hand
         * the kernel what it holds now. */
        const struct sb_arg_desc *d = arg_desc(k);
        if (!d || (d->kind != SB_ARG_PATH && d->kind != SB_ARG_IN_BUF) ||
            integer_zerop(arg) || points_to_literal(arg))
            continue;
        if (a.kind == REPEAT_INVARIANT && describe_built(k, arg))
            continue;
        ao_ref ref;
        bool known = buffer_ref(k, *d, &ref);
        for (gimple *w : writers_) {
            if ((known && !stmt_may_clobber_ref_p_1(w, &ref, true)) ||
                store_misses_pointer(w, arg))
                continue;
            /* Rule 7: a store the run-time check compares with the names
             * the inspector measures. */
            if (d->kind == SB_ARG_PATH && string_store_checkable(w, k))
                continue;
            const char *what = describe_stmt(w);
            char index[16];
            snprintf(index, sizeof index, "a%d", k);
            m.arg_value[k] = SB_LV_UNREPEATABLE;
            m.arg_why[k] = keep(ACONCAT((what, " in the loop may write what ",
                                         index, " points to", NULL)));
            break;
        }
    }
}

/* May pointer `ptr` point into automatic variable `decl`?  A parameter's
 * value at entry cannot (the variable did not exist when the caller
 * computed it), nor a pointer into a string literal. */
bool may_point_into(tree ptr, tree decl, int depth = 0)
{
    if (depth > 16)
        return true;
    STRIP_NOPS(ptr);
    if (integer_zerop(ptr))
        return false;
    if (TREE_CODE(ptr) == POINTER_PLUS_EXPR)
        return may_point_into(TREE_OPERAND(ptr, 0), decl, depth + 1);
    if (TREE_CODE(ptr) == ADDR_EXPR) {
        tree base = get_base_address(TREE_OPERAND(ptr, 0));
        if (!base)
            return true;
        if (base == decl)
            return true;
        if (DECL_P(base) || TREE_CODE(base) == STRING_CST)
            return false;
        if (TREE_CODE(base) == MEM_REF)
            return may_point_into(TREE_OPERAND(base, 0), decl, depth + 1);
        return true;
    }
    if (TREE_CODE(ptr) != SSA_NAME)
        return true;
    if (SSA_NAME_IS_DEFAULT_DEF(ptr))
        return !(SSA_NAME_VAR(ptr) &&
                 TREE_CODE(SSA_NAME_VAR(ptr)) == PARM_DECL);
    if (points_to_literal(ptr))
        return false;
    if (gassign *a = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(ptr))) {
        enum tree_code code = gimple_assign_rhs_code(a);
        if (code == POINTER_PLUS_EXPR || code == SSA_NAME ||
            code == ADDR_EXPR || CONVERT_EXPR_CODE_P(code))
            return may_point_into(gimple_assign_rhs1(a), decl, depth + 1);
    }
    ao_ref target, var;
    ao_ref_init_from_ptr_and_size(&target, ptr, NULL_TREE);
    ao_ref_init(&var, decl);
    return refs_may_alias_p_1(&target, &var, true);
}

/* Rule 6: why what builder call or store `w` reads through `ptr` may
 * differ when the inspector builds ahead, or NULL. */
const char *loop_describer::read_objection(tree ptr, tree decl,
                                           hash_set<gimple *> &builders)
{
    if (decl && may_point_into(ptr, decl))
        return " reads what may be the buffer it builds";
    if (points_to_literal(ptr) ||
        (TREE_CODE(ptr) == ADDR_EXPR &&
         TREE_CODE(TREE_OPERAND(ptr, 0)) == STRING_CST))
        return NULL;
    /* Rule 4: what a builder reads for a later iteration through a
     * pointer that changes per iteration is a load ahead too. */
    if (TREE_CODE(ptr) == SSA_NAME && classify(ptr, 0).kind != REPEAT_INVARIANT &&
        !induction_load_)
        induction_load_ = decl ? "the code that builds a buffer reads, for a "
                                 "later iteration, memory not known to be "
                                 "dereferenceable"
                               : "a libc call reads, for a later iteration, "
                                 "memory not known to be dereferenceable";
    ao_ref r;
    ao_ref_init_from_ptr_and_size(&r, ptr, NULL_TREE);
    for (gimple *w : writers_) {
        if (builders.contains(w) || gimple_clobber_p(w))
            continue; /* they write only the buffer */
        if (stmt_may_clobber_ref_p_1(w, &r, true) &&
            !store_misses_pointer(w, ptr))
            return keep(ACONCAT((" reads memory ", describe_stmt(w),
                                 " in the loop writes", NULL)));
    }
    for (unsigned k = 0; k < gimple_call_num_args(s_.call); k++) {
        const struct sb_arg_desc *d = arg_desc(k);
        tree arg = gimple_call_arg(s_.call, k);
        if (!d || integer_zerop(arg))
            continue;
        if (d->kind == SB_ARG_ADDR || d->kind == SB_ARG_OPAQUE ||
            d->kind == SB_ARG_IOVEC_OUT)
            return " reads memory the call may write";
        if (d->kind != SB_ARG_OUT_BUF)
            continue;
        tree root;
        if (pointer_root(arg, 0, &root) && TREE_CODE(root) == ADDR_EXPR &&
            VAR_P(TREE_OPERAND(root, 0)) &&
            !is_global_var(TREE_OPERAND(root, 0)) &&
            !may_point_into(ptr, TREE_OPERAND(root, 0)))
            continue;
        ao_ref buf;
        if (!buffer_ref(k, *d, &buf) || refs_may_alias_p_1(&r, &buf, true))
            return " reads memory the call writes";
    }
    return NULL;
}

/* Rule 6: why `w`, a statement of the loop that writes `decl`, may not be
 * repeated by the inspector into a private copy, or NULL; `step` says
 * what it does to the buffer. */
const char *loop_describer::builder_objection(gimple *w, tree decl,
                                              hash_set<gimple *> &builders,
                                              struct sb_loop_build_step *step)
{
    const char *what = describe_stmt(w);
    if (!runs_before(w, s_.call))
        return keep(ACONCAT((what, " does not run before the call in every "
                             "iteration", NULL)));
    if (gimple_bb(w)->loop_father != loop_)
        return keep(ACONCAT((what, " runs in an inner loop", NULL)));
    if (gimple_has_volatile_ops(w))
        return keep(ACONCAT((what, " is volatile", NULL)));
    if (gassign *st = dyn_cast<gassign *>(w)) {
        tree lhs = gimple_assign_lhs(st);
        tree size = TYPE_SIZE_UNIT(TREE_TYPE(lhs));
        long off = gimple_store_p(st)
                       ? sysbatch_loop_offset_into(
                             build_fold_addr_expr(unshare_expr(lhs)), decl)
                       : -1;
        if (off < 0 || !size || !tree_fits_shwi_p(size))
            return keep(ACONCAT((what, " writes it at a place not known",
                                 NULL)));
        step->kind = SB_BUILD_FIXED;
        step->offset = off;
        step->bytes = (long)tree_to_shwi(size);
        tree rhs = gimple_assign_rhs1(st);
        if (gimple_assign_load_p(st)) {
            /* A copy of memory (memcpy of a constant count, folded). */
            if (!address_within(rhs, 0, REPEAT_INDUCTION))
                return keep(ACONCAT((what, " copies from a place the "
                                     "inspector does not recompute", NULL)));
            const char *no = read_objection(
                build_fold_addr_expr(unshare_expr(rhs)), decl, builders);
            return no ? keep(ACONCAT((what, no, NULL))) : NULL;
        }
        if (!gimple_assign_single_p(st))
            return keep(ACONCAT((what, " stores a computed value", NULL)));
        struct repeat_answer v = classify(rhs, 0);
        if (v.kind > REPEAT_INDUCTION)
            return keep(ACONCAT((what, " stores ", v.why ? v.why : "a value",
                                 NULL)));
        if (POINTER_TYPE_P(TREE_TYPE(rhs)))
            return keep(ACONCAT((what, " stores a pointer in it", NULL)));
        return NULL;
    }
    struct sb_libc_access acc[SB_LIBC_MAX_ARGS];
    gcall *call = dyn_cast<gcall *>(w);
    const struct sb_libc_function *fn =
        call ? libc_call(call, abi_, acc, NULL) : NULL;
    if (!fn || gimple_call_num_args(call) > SB_LIBC_MAX_ARGS)
        return keep(ACONCAT((what, " also writes it", NULL)));
    unsigned nargs = gimple_call_num_args(call);
    long off = nargs ? sysbatch_loop_offset_into(gimple_call_arg(call, 0), decl)
                     : -1;
    if (!(acc[0].access & SB_LIBC_WRITES) || off < 0)
        return keep(ACONCAT((what, " writes it other than as its destination "
                             "at a known place", NULL)));
    long count = -1;
    if (acc[0].size_arg >= 0 && (unsigned)acc[0].size_arg < nargs &&
        tree_fits_shwi_p(gimple_call_arg(call, acc[0].size_arg)))
        count = (long)tree_to_shwi(gimple_call_arg(call, acc[0].size_arg));
    *step = sb_loop_libc_build_step(fn, off, count);
    for (unsigned k = 1; k < nargs; k++) {
        tree op = gimple_call_arg(call, k);
        if (acc[k].access & SB_LIBC_WRITES)
            return keep(ACONCAT((what, " writes other memory too", NULL)));
        struct repeat_answer v = classify(op, 0);
        if (v.kind > REPEAT_INDUCTION)
            return keep(ACONCAT((what, " takes ", v.why ? v.why : "a value",
                                 NULL)));
        if (POINTER_TYPE_P(TREE_TYPE(op)) && (acc[k].access & SB_LIBC_READS)) {
            const char *no = read_objection(op, decl, builders);
            if (no)
                return keep(ACONCAT((what, no, NULL)));
        }
    }
    return NULL;
}

/* Rule 6: argument k, the same address every iteration, points into an
 * automatic buffer that statements of the loop write before the call
 * (snprintf (&path, ...); lstat (&path, &st)).  Describes it as built (or
 * built otherwise, with the cause) and returns true; false when nothing
 * in the loop writes such a buffer. */
bool loop_describer::describe_built(unsigned k, tree arg)
{
    struct sb_loop &m = s_.model;
    tree root;
    if (!pointer_root(arg, 0, &root) || TREE_CODE(root) != ADDR_EXPR)
        return false;
    tree decl = TREE_OPERAND(root, 0);
    if (!VAR_P(decl) || is_global_var(decl) || TREE_THIS_VOLATILE(decl))
        return false;
    ao_ref ref;
    ao_ref_init(&ref, decl);
    hash_set<gimple *> candidates;
    auto_vec<gimple *> order;
    for (gimple *w : writers_) {
        if (gimple_clobber_p(w))
            continue; /* the end of its scope in the body */
        if (gimple_store_p(w) && gimple_code(w) == GIMPLE_ASSIGN) {
            tree base = get_base_address(gimple_assign_lhs(w));
            if (base && DECL_P(base) && base != decl)
                continue;
            if (base && TREE_CODE(base) == MEM_REF &&
                !may_point_into(TREE_OPERAND(base, 0), decl))
                continue;
        }
        if (!stmt_may_clobber_ref_p_1(w, &ref, true))
            continue;
        candidates.add(w);
        /* In the order every iteration runs them (each one that is a
         * builder dominates the call, so they form a chain). */
        unsigned at = order.length();
        while (at > 0 && runs_before(w, order[at - 1]) && w != order[at - 1])
            at--;
        order.safe_insert(at, w);
    }
    if (candidates.is_empty())
        return false;
    const char *why = NULL;
    struct sb_loop_build_step steps[SB_LOOP_MAX_BUILD_STEPS];
    unsigned nsteps = 0;
    for (gimple *w : order) {
        struct sb_loop_build_step step = {SB_BUILD_OTHER, 0, 0};
        why = builder_objection(w, decl, candidates, &step);
        if (why)
            break;
        if (nsteps < SB_LOOP_MAX_BUILD_STEPS)
            steps[nsteps] = step;
        nsteps++;
    }
    if (!why && sysbatch_loop_offset_into(arg, decl) < 0)
        why = "the call's argument is not at a constant place in it";
    HOST_WIDE_INT bytes = int_size_in_bytes(TREE_TYPE(decl));
    m.arg_value[k] = why ? SB_LV_BUILT_OTHERWISE : SB_LV_BUILT;
    m.arg_why[k] = why ? keep(ACONCAT(("the buffer is built in the loop, "
                                       "but ", why, NULL)))
                       : NULL;
    m.built_size[k] = bytes > 0 && bytes <= 65536 ? (long)bytes : 0;
    if (!why && !s_.built_decl) {
        s_.built_decl = decl;
        for (gimple *w : order)
            s_.builders.safe_push(w);
        m.build_steps = (int)nsteps;
        for (unsigned i = 0; i < nsteps && i < SB_LOOP_MAX_BUILD_STEPS; i++)
            m.build_step[i] = steps[i];
    }
    return true;
}

/* Header to call: blocks whose only branches are exit tests or guards
 * (a branch with one edge that leads only to the call; the other goes
 * round the loop without it), so no inner loop runs before the call and
 * the guards alone decide whether an iteration reaches it.  False (with
 * the guard described) otherwise. */
bool loop_describer::describe_chain()
{
    struct sb_loop &m = s_.model;
    basic_block call_bb = gimple_bb(s_.call);
    /* An inner loop before the call breaks the chain below (its header
     * branches inside the loop); after the call its code is on the
     * classes' paths like any other. */
    bool guarded = !dominated_by_p(CDI_DOMINATORS, loop_->latch, call_bb);
    basic_block bb = loop_->header;
    for (int steps = 0; bb != call_bb; steps++) {
        gimple *last = last_stmt(bb);
        gcond *cond = last ? dyn_cast<gcond *>(last) : NULL;
        if (steps > 64 || (!cond && !single_succ_p(bb))) {
            m.guard = SB_LG_UNKNOWN;
            m.guard_why = "the code before the call branches in a way the "
                          "inspector does not repeat";
            return false;
        }
        if (!cond) {
            bb = single_succ(bb);
            continue;
        }
        edge on_true, on_false;
        extract_true_false_edges_from_block(bb, &on_true, &on_false);
        bool true_leaves = !inside(loop_, on_true->dest);
        bool false_leaves = !inside(loop_, on_false->dest);
        if (!true_leaves && !false_leaves) {
            edge to_call = NULL;
            edge both[2] = {on_true, on_false};
            for (edge e : both)
                if (single_pred_p(e->dest) &&
                    dominated_by_p(CDI_DOMINATORS, call_bb, e->dest))
                    to_call = e;
            if (!to_call) {
                m.guard = SB_LG_UNKNOWN;
                m.guard_why = "the code before the call branches in a way "
                              "the inspector does not repeat";
                return false;
            }
            s_.guards.safe_push(cond);
            s_.guard_edges.safe_push(to_call);
            bb = to_call->dest;
            continue;
        }
        if (!s_.guards.is_empty()) {
            /* The inspector makes the exit tests before the guards: a test
             * the original makes only when a guard holds may load what is
             * valid only then. */
            m.guard = SB_LG_UNKNOWN;
            m.guard_why = "the loop's exit test is under the call's "
                          "condition";
            return false;
        }
        if (true_leaves == false_leaves) {
            m.guard = SB_LG_UNKNOWN;
            m.guard_why = "the call is under a condition the inspector does "
                          "not repeat";
            return false;
        }
        s_.exit_tests.safe_push(cond);
        s_.exit_edges.safe_push(true_leaves ? on_true : on_false);
        bb = true_leaves ? on_false->dest : on_true->dest;
    }
    if (guarded && s_.guards.is_empty()) {
        m.guard = SB_LG_UNKNOWN;
        m.guard_why = "the call is not made in every iteration (a condition "
                      "the inspector does not repeat)";
        return false;
    }
    m.guard = guarded ? SB_LG_REPEATED : SB_LG_ALWAYS;
    return true;
}

/* A guard the inspector can evaluate for iteration i + t: on invariants,
 * induction values and memory no code in the loop writes.  False (the
 * guard described as unknown) otherwise. */
bool loop_describer::classify_guards()
{
    struct sb_loop &m = s_.model;
    in_exit_test_ = true;
    for (gcond *cond : s_.guards) {
        memo_.empty();
        struct repeat_answer l = classify(gimple_cond_lhs(cond), 0);
        struct repeat_answer r = classify(gimple_cond_rhs(cond), 0);
        struct repeat_answer worst = l.kind >= r.kind ? l : r;
        if (worst.kind >= REPEAT_CARRIED) {
            in_exit_test_ = false;
            m.guard = SB_LG_UNKNOWN;
            m.guard_why = keep(ACONCAT(("the call runs under a condition on ",
                                        worst.why ? worst.why : "code the "
                                        "inspector does not repeat", NULL)));
            return false;
        }
    }
    in_exit_test_ = false;
    return true;
}

/* The exit tests after the call that the inspector repeats for iteration
 * i + t - 1: a test on every way from the call round to the next
 * iteration (its block comes after the call's and before the latch in
 * dominance), one edge leaving the loop, on invariants and induction values
 * only.  A do-while's test, and after GCC's header copying the test of every
 * loop, is there.  A loop under a guard keeps them unrepeated (the call
 * does not dominate the latch), and so is every test on memory the rule 7
 * check would have to cover: its load comes after iteration t - 1's call. */
void loop_describer::describe_after_call_tests()
{
    basic_block call_bb = gimple_bb(s_.call);
    if (!s_.guards.is_empty() || !loop_->latch)
        return;
    auto_vec<basic_block> found;
    for (edge e : get_loop_exit_edges(loop_)) {
        basic_block src = e->src;
        gcond *cond = safe_dyn_cast<gcond *>(last_stmt(src));
        if (!cond || found.contains(src) ||
            !dominated_by_p(CDI_DOMINATORS, src, call_bb) ||
            !dominated_by_p(CDI_DOMINATORS, loop_->latch, src) ||
            EDGE_COUNT(src->succs) != 2)
            continue;
        edge on_true, on_false;
        extract_true_false_edges_from_block(src, &on_true, &on_false);
        if (inside(loop_, on_true->dest) == inside(loop_, on_false->dest))
            continue;
        memo_.empty();
        unsigned reads = s_.read_addr.length(), writes = s_.write_addr.length();
        in_exit_test_ = true;
        struct repeat_answer l = classify(gimple_cond_lhs(cond), 0);
        struct repeat_answer r = classify(gimple_cond_rhs(cond), 0);
        in_exit_test_ = false;
        if (l.kind > REPEAT_INDUCTION || r.kind > REPEAT_INDUCTION) {
            /* No rule 7 ranges for a test that stays unrepeated. */
            s_.read_addr.truncate(reads);
            s_.read_size.truncate(reads);
            s_.read_kernel.truncate(reads);
            s_.write_addr.truncate(writes);
            s_.write_size.truncate(writes);
            s_.write_kernel.truncate(writes);
            continue;
        }
        found.safe_push(src);
    }
    /* Dominance order: the inspector makes them as the iteration does. */
    for (unsigned a = 0; a < found.length(); a++)
        for (unsigned b = a + 1; b < found.length(); b++)
            if (dominated_by_p(CDI_DOMINATORS, found[a], found[b]))
                std::swap(found[a], found[b]);
    for (basic_block src : found) {
        gcond *cond = as_a<gcond *>(last_stmt(src));
        edge on_true, on_false;
        extract_true_false_edges_from_block(src, &on_true, &on_false);
        repeated_.add(cond);
        s_.after_tests.safe_push(cond);
        s_.after_edges.safe_push(inside(loop_, on_true->dest) ? on_false
                                                              : on_true);
    }
}

/* An exit test the inspector can make for iteration i + t. */
void loop_describer::classify_exit_tests()
{
    struct sb_loop &m = s_.model;
    const char *unrepeated = NULL;
    in_exit_test_ = true;
    for (gcond *cond : s_.exit_tests) {
        /* Fresh answers: a load an argument shares with a test is made
         * before the test in that test's place. */
        memo_.empty();
        struct repeat_answer l = classify(gimple_cond_lhs(cond), 0);
        struct repeat_answer r = classify(gimple_cond_rhs(cond), 0);
        if (l.kind < REPEAT_CARRIED && r.kind < REPEAT_CARRIED)
            repeated_.add(cond);
        else if (!unrepeated)
            unrepeated = "the loop's exit test before the call is not one "
                         "the inspector repeats";
    }
    in_exit_test_ = false;
    if (unrepeated)
        for (int c = 0; c < 3; c++) {
            m.class_path[c] = SB_LP_LEAVES;
            m.class_why[c] = unrepeated;
        }
}

/* May `stmt`, code between two iterations' calls, not stay before the
 * kernel side of a later iteration's call? */
bool loop_describer::stmt_conflicts(gimple *stmt, const char **why)
{
    if (scanner_.stmt_is_barrier(stmt, why))
        return true;
    if (!gimple_vuse(stmt) && !gimple_vdef(stmt))
        return false;
    if (errno_access_p(stmt))
        return false;
    gcall *c = s_.call;
    const char *sym = callee_symbol(c);
    for (unsigned k = 0; k < gimple_call_num_args(c); k++) {
        const struct sb_arg_desc *d = arg_desc(k);
        if (!d)
            continue;
        tree ptr = gimple_call_arg(c, k);
        bool conflict = false;
        /* Rule 6: the kernel reads the inspector's private copy, built
         * before the loop's own code builds the shared one. */
        if (k >= shift_ && s_.model.arg_value[k] == SB_LV_BUILT)
            continue;
        if (d->kind == SB_ARG_ADDR || d->kind == SB_ARG_OPAQUE ||
            d->kind == SB_ARG_IOVEC_OUT) {
            conflict = true;
        } else if (d->kind == SB_ARG_IOVEC_IN) {
            /* The buffers a later iteration's iovec names are known only
             * at run time: code that may write memory conflicts. */
            conflict = gimple_vdef(stmt) != NULL_TREE;
        } else if (d->kind == SB_ARG_PATH || d->kind == SB_ARG_IN_BUF ||
                   d->kind == SB_ARG_OUT_BUF) {
            if (integer_zerop(ptr) ||
                (d->kind != SB_ARG_OUT_BUF && points_to_literal(ptr)))
                continue;
            /* A shared output buffer is private per slot (rule 3): the
             * kernel writes the copy, the call site copies it back. */
            if (d->kind == SB_ARG_OUT_BUF && TREE_CODE(ptr) != INTEGER_CST &&
                classify(ptr, 0).kind == REPEAT_INVARIANT)
                continue;
            if (store_misses_pointer(stmt, ptr))
                continue;
            ao_ref ref;
            bool known = buffer_ref(k, *d, &ref);
            /* An access through a pointer never reaches an automatic
             * variable whose address only catalogued calls see (as for the
             * inspector's loads, load_written). */
            tree ref_base = known ? ao_ref_base(&ref) : NULL_TREE;
            if (ref_base && DECL_P(ref_base) &&
                access_through_pointer(stmt) &&
                address_only_in_calls(ref_base, abi_))
                continue;
            if (!known ||
                (TREE_CODE(ptr) == SSA_NAME && accesses_through(stmt, ptr)))
                conflict = true;
            else if (stmt_may_clobber_ref_p_1(stmt, &ref, true))
                conflict = true;
            else if (d->kind == SB_ARG_OUT_BUF &&
                     ref_maybe_used_by_stmt_p(stmt, &ref, true))
                conflict = true;
            if (conflict && known &&
                (store_checkable(stmt, k, *d) || load_checked(stmt, ptr) ||
                 (d->kind == SB_ARG_PATH && string_store_checkable(stmt, k))))
                conflict = false;
        }
        if (conflict) {
            const char *what = describe_stmt(stmt);
            *why = keep(ACONCAT((what, " that may alias a buffer of ", sym,
                                 NULL)));
            return true;
        }
    }
    return false;
}

/* The classes for which the branch `cond` on the call's result is true;
 * *decided false when the sign class does not decide it. */
int loop_describer::result_classes(gcond *cond, bool *decided) const
{
    *decided = false;
    if (!result_)
        return 0;
    tree lhs = gimple_cond_lhs(cond), rhs = gimple_cond_rhs(cond);
    enum tree_code code = gimple_cond_code(cond);
    if (TREE_CODE(lhs) == INTEGER_CST) {
        std::swap(lhs, rhs);
        code = swap_tree_comparison(code);
    }
    enum sb_cmp op;
    if (TREE_CODE(rhs) != INTEGER_CST || !same_value_p(lhs, result_) ||
        !int_fits_type_p(rhs, TREE_TYPE(result_)) ||
        !map_compare(code, TYPE_UNSIGNED(TREE_TYPE(lhs)), &op))
        return 0;
    long constant = tree_fits_shwi_p(rhs) ? (long)tree_to_shwi(rhs)
                                          : (long)tree_to_uhwi(rhs);
    const struct sb_call_event &ev = s_.model.call;
    int mask = sb_cond_classes(sb_call_ret_conv(abi_, &ev),
                               sb_call_result_bits(abi_, &ev), op, constant);
    if (mask < 0)
        return 0;
    *decided = true;
    return mask;
}

/* The branch that closes bb (*cond, NULL when bb does not end in one)
 * and the result classes for which it is true, as result_classes. */
int loop_describer::block_branch_classes(basic_block bb, gcond **cond,
                                         bool *decided) const
{
    gimple *last = last_stmt(bb);
    *cond = last ? dyn_cast<gcond *>(last) : NULL;
    *decided = false;
    return *cond ? result_classes(*cond, decided) : 0;
}

/* Can a result of class cls (0: < 0, 1: == 0, 2: > 0) leave the block
 * along e?  Only a branch on the result (decided, its true edge taken by
 * the classes in mask) says no. */
static bool class_takes_edge(bool decided, int mask, int cls, edge e)
{
    return !decided || (((mask >> cls) & 1) != 0) ==
                           ((e->flags & EDGE_TRUE_VALUE) != 0);
}

/* The statements a result of class `cls` reaches from the call on to the
 * next iteration's call (the rest of the call's block first, then its
 * successors, each block once): on_stmt(stmt) for each, false ending the
 * walk; on_edge(e, cond, decided) for each edge the class takes out of a
 * block (cond: the block's test, decided: whether the class decides it),
 * which answers WALK_FOLLOW, WALK_SKIP or WALK_STOP. */
enum walk_step { WALK_FOLLOW, WALK_SKIP, WALK_STOP };

template <typename StmtFn, typename EdgeFn>
void loop_describer::walk_from_call(int cls, StmtFn on_stmt,
                                    EdgeFn on_edge) const
{
    basic_block call_bb = gimple_bb(s_.call);
    auto_vec<basic_block> work;
    hash_set<basic_block> seen;
    bool first = true;
    basic_block bb = call_bb;
    for (;;) {
        gimple_stmt_iterator gsi = first ? gsi_for_stmt(s_.call)
                                         : gsi_start_bb(bb);
        if (first)
            gsi_next(&gsi);
        bool stop_at_call = !first && bb == call_bb;
        for (; !gsi_end_p(gsi); gsi_next(&gsi)) {
            if (stop_at_call && gsi_stmt(gsi) == s_.call)
                break;
            if (!on_stmt(gsi_stmt(gsi)))
                return;
        }
        if (!stop_at_call) {
            gcond *cond;
            bool decided;
            int mask = block_branch_classes(bb, &cond, &decided);
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, bb->succs) {
                if (!class_takes_edge(decided, mask, cls, e))
                    continue;
                enum walk_step step = on_edge(e, cond, decided);
                if (step == WALK_STOP)
                    return;
                if (step == WALK_FOLLOW && !seen.add(e->dest))
                    work.safe_push(e->dest);
            }
        }
        first = false;
        if (work.is_empty())
            return;
        bb = work.pop();
    }
}

/* Rule 2 for one sign class: from the call with a result of class `cls`
 * on to the next iteration's call. */
void loop_describer::walk_class(int cls, enum sb_loop_path *path,
                                const char **why)
{
    *path = SB_LP_NEXT;
    *why = NULL;
    walk_from_call(
        cls,
        [&](gimple *stmt) {
            if (is_gimple_debug(stmt) || gimple_code(stmt) == GIMPLE_LABEL ||
                gimple_code(stmt) == GIMPLE_NOP ||
                gimple_code(stmt) == GIMPLE_COND)
                return true;
            if (gimple_code(stmt) == GIMPLE_RETURN) {
                *path = SB_LP_LEAVES;
                *why = "a return";
                return false;
            }
            const char *w;
            if (stmt_conflicts(stmt, &w)) {
                *path = SB_LP_CONFLICT;
                *why = w;
                return false;
            }
            return true;
        },
        [&](edge e, gcond *cond, bool decided) {
            if (e->flags & (EDGE_EH | EDGE_ABNORMAL)) {
                *path = SB_LP_LEAVES;
                *why = "an exception or abnormal edge";
                return WALK_STOP;
            }
            if (inside(loop_, e->dest))
                return WALK_FOLLOW;
            if (cond && repeated_.contains(cond))
                return WALK_SKIP; /* an exit test the inspector repeats */
            *path = SB_LP_LEAVES;
            *why = decided ? "a branch on the result leaves the loop"
                           : "a branch the inspector does not repeat "
                             "leaves the loop";
            return WALK_STOP;
        });
}

/* Bit c: no path from the call with a result of class c comes round to
 * the loop's header; every one leaves the loop (a return, a break, a
 * call that does not return).  A branch the class does not decide is
 * followed both ways, an exceptional edge counts as coming round. */
unsigned loop_describer::classes_that_exit() const
{
    unsigned bits = 0;
    basic_block call_bb = gimple_bb(s_.call);
    for (int cls = 0; cls < 3; cls++) {
        auto_vec<basic_block> work;
        hash_set<basic_block> seen;
        bool round = false;
        basic_block bb = call_bb;
        for (;;) {
            gcond *cond;
            bool decided;
            int mask = block_branch_classes(bb, &cond, &decided);
            edge e;
            edge_iterator ei;
            FOR_EACH_EDGE(e, ei, bb->succs) {
                if (!class_takes_edge(decided, mask, cls, e))
                    continue;
                if (e->flags & (EDGE_EH | EDGE_ABNORMAL) ||
                    e->dest == loop_->header) {
                    round = true;
                    break;
                }
                if (inside(loop_, e->dest) && !seen.add(e->dest))
                    work.safe_push(e->dest);
            }
            if (round || work.is_empty())
                break;
            bb = work.pop();
        }
        if (!round)
            bits |= 1u << cls;
    }
    return bits;
}

void loop_describer::describe_paths()
{
    struct sb_loop &m = s_.model;
    for (int c = 0; c < 3; c++) {
        if (m.class_path[c] != SB_LP_NEXT)
            continue; /* already decided by the exit tests */
        enum sb_loop_path path;
        const char *why;
        walk_class(c, &path, &why);
        m.class_path[c] = path;
        m.class_why[c] = why;
    }
}

void loop_describer::class_reach(int cls, hash_set<gimple *> *reached) const
{
    walk_from_call(
        cls,
        [&](gimple *stmt) {
            reached->add(stmt);
            return true;
        },
        [&](edge e, gcond *, bool) {
            return inside(loop_, e->dest) ? WALK_FOLLOW : WALK_SKIP;
        });
}

bool loop_describer::describe()
{
    struct sb_loop &m = s_.model;
    memset(&m, 0, sizeof m);
    m.abi = abi_;
    gcall *call = s_.call;
    struct sb_call_event &ev = m.call;
    ev.symbol = callee_symbol(call);
    ev.row = sb_catalog_lookup(abi_, ev.symbol);
    unsigned nargs = MIN(gimple_call_num_args(call), (unsigned)SB_MAX_ARGS + 1);
    ev.nargs = (int)nargs;
    for (unsigned k = 0; k < nargs; k++) {
        tree arg = gimple_call_arg(call, k);
        struct sb_operand &op = ev.args[k];
        op.call = -1;
        op.kind = SB_OPND_AVAILABLE;
        if (TREE_CODE(arg) == INTEGER_CST &&
            !(POINTER_TYPE_P(TREE_TYPE(arg)) && !integer_zerop(arg)) &&
            (tree_fits_shwi_p(arg) || tree_fits_uhwi_p(arg))) {
            op.kind = SB_OPND_CONST;
            op.value = tree_fits_shwi_p(arg) ? (long)tree_to_shwi(arg)
                                             : (long)tree_to_uhwi(arg);
        }
    }
    struct sb_call_shape shape;
    scanner_.describe_shape(call, &shape);
    char why[160];
    const char *objection =
        sb_call_shape_objection(abi_, ev.row, &shape, why, sizeof why);
    if (objection)
        ev.why_not = objection == why ? keep(why) : objection;
    else if (!loop_->latch || !loop_preheader_edge(loop_))
        ev.why_not = "the loop has no preheader or more than one latch";
    if (ev.row && (ev.row->flags & SB_ROW_RAW_SYSCALL)) {
        tree nr = nargs ? gimple_call_arg(call, 0) : NULL_TREE;
        row_ = nr && tree_fits_shwi_p(nr)
                   ? sb_catalog_by_nr(abi_, (long)tree_to_shwi(nr))
                   : NULL;
        shift_ = 1;
    } else {
        row_ = ev.row;
    }
    if (ev.why_not)
        return false;
    result_ = gimple_call_lhs(call);
    if (result_ && TREE_CODE(result_) != SSA_NAME)
        result_ = NULL_TREE;

    basic_block *body = get_loop_body(loop_);
    for (unsigned b = 0; b < loop_->num_nodes; b++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(body[b]); !gsi_end_p(gsi);
             gsi_next(&gsi))
            if (gsi_stmt(gsi) != call && gimple_vdef(gsi_stmt(gsi)) &&
                !(stop_writers_ && stop_writers_->contains(gsi_stmt(gsi))))
                writers_.safe_push(gsi_stmt(gsi));
    free(body);

    /* The chain first: the in-bounds proof for the arguments' loads uses
     * its exit tests. */
    chain_ok_ = describe_chain();
    describe_arguments();
    m.checked_writes = (int)s_.write_addr.length();
    m.checked_reads = (int)s_.read_addr.length();
    if (!chain_ok_)
        return false;
    classify_exit_tests();
    if (!classify_guards())
        return false;
    describe_after_call_tests();
    describe_paths();
    m.class_exits = (uint8_t)classes_that_exit();
    m.checked_writes = (int)s_.write_addr.length();
    m.checked_reads = (int)s_.read_addr.length();
    /* Rule 4: only a class that may leave the loop makes a later
     * iteration's loads speculative - past a conflict the original goes on
     * to the next iteration's exit test and loads. */
    bool may_leave = false;
    for (int c = 0; c < 3; c++)
        may_leave |= m.class_path[c] == SB_LP_LEAVES;
    if (induction_load_ && may_leave) {
        m.unproven_loads = true;
        m.loads_why = induction_load_;
    }
    /* Rule 10: the inspector loads a node's link once the iteration's slot
     * is filled; every test after the call must come after that load. */
    m.chases = (int)s_.chases.length();
    for (tree link : s_.links)
        for (gcond *test : s_.after_tests)
            if (!m.chase_early && !runs_before(SSA_NAME_DEF_STMT(link), test))
                m.chase_early = "a test after the call may leave the loop "
                                "before the next node's address (p->next) "
                                "is loaded";
    return true;
}

/* Rule 9: a loop refused as described, with writes in it that some sign
 * class of the result never reaches (a diagnostic after a failed call),
 * described again without them; kept only when in the new description
 * every class that reaches one of them stops the group (the core checks
 * that again) and it batches.  A write a class that goes on reaches is put back and the
 * loop described once more, a few times at most.  Returns the site to
 * use (the first one, or the new one, the other freed). */
struct sysbatch_loop_site *
describe_without_stop_writes(struct sysbatch_loop_site *first,
                             const loop_describer &shape, enum sb_abi abi)
{
    struct sb_loop_plan plan;
    if (sb_plan_loop(&first->model, NULL, &plan) != 0 ||
        plan.why == SB_WHY_NONE)
        return first;
    hash_set<gimple *> reach[3];
    for (int c = 0; c < 3; c++)
        shape.class_reach(c, &reach[c]);
    auto reaching = [&](gimple *stmt) {
        unsigned classes = 0;
        for (int c = 0; c < 3; c++)
            if (reach[c].contains(stmt))
                classes |= 1u << c;
        return classes;
    };
    auto_vec<gimple *> left;
    basic_block *body = get_loop_body(first->loop);
    for (unsigned b = 0; b < first->loop->num_nodes; b++)
        for (gimple_stmt_iterator gsi = gsi_start_bb(body[b]); !gsi_end_p(gsi);
             gsi_next(&gsi))
            if (gsi_stmt(gsi) != first->call && gimple_vdef(gsi_stmt(gsi)) &&
                reaching(gsi_stmt(gsi)) != 7)
                left.safe_push(gsi_stmt(gsi));
    free(body);
    for (int round = 0; round < 3 && !left.is_empty(); round++) {
        struct sysbatch_loop_site *site = new sysbatch_loop_site;
        site->loop = first->loop;
        site->call = first->call;
        site->number = first->number;
        hash_set<gimple *> ignored;
        for (gimple *w : left)
            ignored.add(w);
        loop_describer again(*site, abi, &ignored);
        bool paths = again.describe();
        site->model.other_call_sites = first->model.other_call_sites;
        site->model.several_barrier = first->model.several_barrier;
        if (!paths) {
            delete site;
            return first;
        }
        auto_vec<gimple *> kept;
        unsigned classes = 0;
        for (gimple *w : left) {
            bool goes_on = false;
            for (int c = 0; c < 3; c++)
                goes_on |= reach[c].contains(w) &&
                           site->model.class_path[c] == SB_LP_NEXT;
            if (!goes_on) {
                kept.safe_push(w);
                classes |= reaching(w);
            }
        }
        if (kept.length() == left.length()) {
            site->model.stop_writes = (int)left.length();
            site->model.stop_write_classes = (uint8_t)classes;
            /* (describe_stmt concatenates too: not inside ACONCAT) */
            const char *what = describe_stmt(left[0]);
            site->model.stop_write_why = keep(ACONCAT((
                what, " writes on the path of a class that goes on", NULL)));
            /* Only a loop this batches: a refusal keeps the first
             * description's reason (what the loop's code does). */
            struct sb_loop_plan again_plan;
            if (sb_plan_loop(&site->model, NULL, &again_plan) != 0 ||
                again_plan.why != SB_WHY_NONE) {
                delete site;
                return first;
            }
            delete first;
            return site;
        }
        delete site;
        left.truncate(0);
        for (gimple *w : kept)
            left.safe_push(w);
    }
    return first;
}

} // namespace

void sysbatch_find_loop_sites(function *fun, enum sb_abi abi,
                              auto_vec<struct sysbatch_loop_site *> *sites)
{
    hash_set<class loop *> done;
    basic_block bb;
    block_scanner scanner(NULL, abi, 0, NULL);
    FOR_EACH_BB_FN(bb, fun) {
        class loop *loop = bb->loop_father;
        if (!loop || loop == fun->x_current_loops->tree_root)
            continue;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
             gsi_next(&gsi)) {
            gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
            if (!call || !scanner.is_candidate(call) || done.contains(loop))
                continue;
            done.add(loop);
            struct sysbatch_loop_site *site = new sysbatch_loop_site;
            site->loop = loop;
            site->call = call;
            site->number = (int)sites->length();
            int others = -1;
            basic_block *body = get_loop_body(loop);
            for (unsigned b = 0; b < loop->num_nodes; b++)
                others += sysbatch_count_candidates(body[b], abi);
            /* Several call sites: the first code the calls of later
             * iterations could not move above, for the refusal's text. */
            const char *barrier = NULL;
            for (unsigned b = 0; others > 0 && !barrier && b < loop->num_nodes; b++)
                for (gimple_stmt_iterator si = gsi_start_bb(body[b]);
                     !barrier && !gsi_end_p(si); gsi_next(&si)) {
                    gcall *other = dyn_cast<gcall *>(gsi_stmt(si));
                    const char *why = NULL;
                    /* The end of a local's life (`x ={v} {CLOBBER}`) is
                     * no access, whatever its volatile flag says. */
                    if (is_gimple_debug(gsi_stmt(si)) ||
                        gimple_clobber_p(gsi_stmt(si)))
                        continue;
                    if (!(other && scanner.is_candidate(other)) &&
                        scanner.stmt_is_barrier(gsi_stmt(si), &why))
                        barrier = why;
                }
            free(body);
            loop_describer describer(*site, abi);
            bool paths = describer.describe();
            site->model.other_call_sites = others;
            site->model.several_barrier = barrier;
            if (paths)
                site = describe_without_stop_writes(site, describer, abi);
            sites->safe_push(site);
        }
    }
}

long sysbatch_loop_offset_into(tree ptr, tree decl)
{
    long at = 0;
    for (int depth = 0; depth < 16; depth++) {
        STRIP_NOPS(ptr);
        if (TREE_CODE(ptr) == POINTER_PLUS_EXPR) {
            tree c = TREE_OPERAND(ptr, 1);
            if (!tree_fits_shwi_p(c))
                return -1;
            at += (long)tree_to_shwi(c);
            ptr = TREE_OPERAND(ptr, 0);
            continue;
        }
        if (TREE_CODE(ptr) == ADDR_EXPR) {
            poly_int64 off;
            tree base = get_addr_base_and_unit_offset(TREE_OPERAND(ptr, 0), &off);
            if (!base || !off.is_constant())
                return -1;
            at += off.to_constant();
            if (base == decl)
                return at >= 0 ? at : -1;
            if (TREE_CODE(base) != MEM_REF)
                return -1;
            poly_offset_int moff = mem_ref_offset(base);
            if (!moff.is_constant())
                return -1;
            at += (long)moff.to_constant().to_shwi();
            ptr = TREE_OPERAND(base, 0);
            continue;
        }
        if (TREE_CODE(ptr) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(ptr))
            return -1;
        gassign *a = dyn_cast<gassign *>(SSA_NAME_DEF_STMT(ptr));
        if (!a)
            return -1;
        enum tree_code code = gimple_assign_rhs_code(a);
        if (code == POINTER_PLUS_EXPR) {
            tree c = gimple_assign_rhs2(a);
            if (!tree_fits_shwi_p(c))
                return -1;
            at += (long)tree_to_shwi(c);
        } else if (code != SSA_NAME && code != ADDR_EXPR &&
                   !CONVERT_EXPR_CODE_P(code)) {
            return -1;
        }
        ptr = gimple_assign_rhs1(a);
    }
    return -1;
}

/* Every SSA name inside *tp (a memory reference, an address, an
 * expression) replaced in place by its value at the slot being filled;
 * false when one has no such value. */
static bool names_at(const struct sysbatch_loop_site &site, tree *tp,
                     gimple_seq *seq, hash_map<tree, tree> *known,
                     location_t loc)
{
    struct rewrite_data {
        const struct sysbatch_loop_site *site;
        gimple_seq *seq;
        hash_map<tree, tree> *known;
        location_t loc;
        bool failed;
    } data = {&site, seq, known, loc, false};
    walk_tree(
        tp,
        [](tree *op, int *walk_subtrees, void *p) -> tree {
            rewrite_data *d = (rewrite_data *)p;
            if (TREE_CODE(*op) == SSA_NAME) {
                tree value = sysbatch_loop_value_at(*d->site, *op, d->seq,
                                                    d->known, d->loc);
                if (!value) {
                    d->failed = true;
                    return *op; /* stops the walk */
                }
                *op = value;
                *walk_subtrees = 0;
            } else if (TYPE_P(*op)) {
                *walk_subtrees = 0;
            }
            return NULL_TREE;
        },
        &data, NULL);
    return !data.failed;
}

/* Compute `v` for iteration i + t from the values in `known`. */
tree sysbatch_loop_value_at(const struct sysbatch_loop_site &site, tree v,
                            gimple_seq *seq, hash_map<tree, tree> *known,
                            location_t loc)
{
    if (TREE_CODE(v) != SSA_NAME)
        return unshare_expr(v);
    if (tree *k = known->get(v))
        return *k;
    gimple *def = SSA_NAME_DEF_STMT(v);
    if (SSA_NAME_IS_DEFAULT_DEF(v) || !inside(site.loop, gimple_bb(def)))
        return v;
    if (gcall *call = dyn_cast<gcall *>(def)) {
        /* Rule 8: a libc call that only reads (strlen), made again. */
        gcall *again = as_a<gcall *>(gimple_copy(call));
        gimple_set_vuse(again, NULL_TREE);
        gimple_set_vdef(again, NULL_TREE);
        for (unsigned k = 0; k < gimple_call_num_args(again); k++) {
            tree op = gimple_call_arg(again, k);
            tree value = TREE_CODE(op) == SSA_NAME
                             ? sysbatch_loop_value_at(site, op, seq, known, loc)
                             : unshare_expr(op);
            if (!value)
                return NULL_TREE;
            gimple_call_set_arg(again, k, value);
        }
        tree value = make_ssa_name(TREE_TYPE(v), again);
        gimple_call_set_lhs(again, value);
        gimple_set_location(again, loc);
        gimple_seq_add_stmt(seq, again);
        known->put(v, value);
        return value;
    }
    gassign *assign = dyn_cast<gassign *>(def);
    if (!assign)
        return NULL_TREE; /* a PHI that is not an induction variable */
    gassign *again = as_a<gassign *>(gimple_copy(assign));
    gimple_set_vuse(again, NULL_TREE);
    gimple_set_vdef(again, NULL_TREE);
    /* Operands first (each is defined before its use). */
    for (unsigned i = 1; i < gimple_num_ops(again); i++) {
        tree op = gimple_op(again, i);
        if (!op)
            continue;
        if (TREE_CODE(op) == SSA_NAME) {
            tree value = sysbatch_loop_value_at(site, op, seq, known, loc);
            if (!value)
                return NULL_TREE;
            gimple_set_op(again, i, value);
            continue;
        }
        /* A memory reference or address with SSA indices inside. */
        if (!names_at(site, gimple_op_ptr(again, i), seq, known, loc))
            return NULL_TREE;
    }
    tree value = make_ssa_name(TREE_TYPE(v), again);
    gimple_assign_set_lhs(again, value);
    gimple_set_location(again, loc);
    gimple_seq_add_stmt(seq, again);
    known->put(v, value);
    return value;
}

tree sysbatch_loop_expr_at(const struct sysbatch_loop_site &site, tree expr,
                           gimple_seq *seq, hash_map<tree, tree> *known,
                           location_t loc)
{
    tree copy = unshare_expr(expr);
    if (!names_at(site, &copy, seq, known, loc))
        return NULL_TREE;
    gimple_seq stmts = NULL;
    tree value = force_gimple_operand(fold_convert(sizetype, copy), &stmts,
                                      true, NULL_TREE);
    gimple_seq_add_seq(seq, stmts);
    return value;
}

namespace {

void print_loop_plan(FILE *out, const struct sysbatch_loop_site &site)
{
    fprintf(out, "function %s loop %d:\n",
            IDENTIFIER_POINTER(DECL_NAME(current_function_decl)), site.number);
    sb_loop_plan_print(out, &site.model, &site.plan);
}

/* -fopt-info, in the LLVM pass's words (llvm-pass/LoopPass.cpp), and the
 * record for report=DIR (a refused loop site is left to region planning,
 * which records it). */
void report_loop_plan(const struct sysbatch_loop_site &site)
{
    const struct sb_loop_plan &p = site.plan;
    if (p.why != SB_WHY_NONE && !sysbatch_say_refusals)
        return;
    const char *sym = site.model.call.symbol;
    if (sysbatch_unit_report && p.why == SB_WHY_NONE) {
        location_t loc = sysbatch_remark_location(site.call);
        const char *file = LOCATION_FILE(loc) ? LOCATION_FILE(loc)
                                              : main_input_filename;
        unsigned line = LOCATION_FILE(loc) ? (unsigned)LOCATION_LINE(loc) : 0;
        sb_report_loop(sysbatch_unit_report, file, line,
                       IDENTIFIER_POINTER(DECL_NAME(current_function_decl)),
                       sym, p.group);
    }
    if (!dump_enabled_p())
        return;
    if (p.why == SB_WHY_NONE) {
        dump_printf_loc(MSG_OPTIMIZED_LOCATIONS,
                        dump_user_location_t::from_location_t(
                            sysbatch_remark_location(site.call)),
                        "sysbatch: batched loop call %s: %d iterations per "
                        "batch\n",
                        sym, p.group);
        return;
    }
    dump_printf_loc(MSG_MISSED_OPTIMIZATION,
                    dump_user_location_t::from_location_t(
                        sysbatch_remark_location(site.call)),
                    "sysbatch: %s not batched in its loop: %s (%s%s%s)\n", sym,
                    sb_why_name(p.why), sb_why_text(p.why),
                    p.detail ? ": " : "", p.detail ? p.detail : "");
}

/* Any loop with a candidate call of its own? (Nothing else needs the
 * loop optimizer's normal form, which adds preheaders.) */
bool has_loop_call(function *fun)
{
    block_scanner scanner(NULL, sysbatch_cfg.abi, 0, NULL);
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        if (!bb->loop_father || bb->loop_father == fun->x_current_loops->tree_root)
            continue;
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
             gsi_next(&gsi))
            if (gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi)))
                if (scanner.is_candidate(call))
                    return true;
    }
    return false;
}

} // namespace

int sysbatch_count_loop_calls(basic_block bb)
{
    int n = 0;
    if (!sysbatch_loop_calls)
        return 0;
    for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
         gsi_next(&gsi)) {
        gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
        const char *name = call ? callee_symbol(call) : NULL;
        /* Not the inspectors' sysbatch_run, which the set holds too. */
        if (name && !startswith(name, "sysbatch_") &&
            sysbatch_loop_calls->contains(call))
            n++;
    }
    return n;
}

bool sysbatch_batch_loops(function *fun, hash_set<gimple *> *batched)
{
    if (!sysbatch_cfg.core.plan.loops || sysbatch_cfg.abi != SB_ABI_LINUX_X86_64 ||
        !fun->x_current_loops || !has_loop_call(fun))
        return false;
    loop_optimizer_init(LOOPS_NORMAL);
    scev_initialize();
    calculate_dominance_info(CDI_DOMINATORS);
    auto_vec<struct sysbatch_loop_site *> sites;
    sysbatch_find_loop_sites(fun, sysbatch_cfg.abi, &sites);
    auto_vec<struct sysbatch_loop_site *> planned;
    for (struct sysbatch_loop_site *site : sites) {
        if (sb_plan_loop(&site->model, &sysbatch_cfg.core.plan, &site->plan) != 0) {
            warning(0, "sysbatch: out of memory planning a loop of %qs; left "
                       "unbatched",
                    IDENTIFIER_POINTER(DECL_NAME(current_function_decl)));
            continue;
        }
        bool say = sysbatch_say_refusals || site->plan.why == SB_WHY_NONE;
        if (dump_file && say)
            print_loop_plan(dump_file, *site);
        if (sysbatch_cfg.core.print_plan && say)
            print_loop_plan(stderr, *site);
        report_loop_plan(*site);
        if (site->plan.why == SB_WHY_NONE)
            planned.safe_push(site);
    }
    free_dominance_info(CDI_DOMINATORS);
    for (struct sysbatch_loop_site *site : planned) {
        batched->add(site->call);
        sysbatch_rewrite_loop(site, batched);
    }
    scev_finalize();
    if (!planned.is_empty())
        loops_state_set(LOOPS_NEED_FIXUP);
    loop_optimizer_finalize();
    for (struct sysbatch_loop_site *site : sites)
        delete site;
    return !planned.is_empty();
}

