/* transparent-union.cc: a catalogue call's transparent-union argument seen
 * as the pointer it carries.
 *
 * With _GNU_SOURCE, glibc's <sys/socket.h> declares the sockaddr
 * parameters of bind, connect, accept, accept4, getsockname, getpeername
 * (and the rest of __SOCKADDR_ARG's users) as GNU C transparent unions.
 * GIMPLE then passes a union temporary the front end filled just before:
 *
 *     D.3720.__sockaddr__ = &addr;           ->   (the store stays; dead)
 *     _1 = bind (s_8, D.3720, 16);                _1 = bind (s_8, &addr, 16);
 *
 * A transparent union is passed exactly as its first member, and every
 * member of these unions is a pointer, so the call with the stored pointer
 * is the same call; clang already emits it that way.  Only a candidate
 * call's argument is changed, only when it is a local temporary whose
 * address is never taken, of a transparent union type whose members are
 * all pointers, and whose last store before the call in the same block
 * writes one of those members with a pointer value.
 */
#include "sysbatch-gcc.h"

namespace {

bool pointer_union_p(tree type)
{
    if (TREE_CODE(type) != UNION_TYPE || !TYPE_TRANSPARENT_AGGR(type))
        return false;
    bool any = false;
    for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
        if (TREE_CODE(f) != FIELD_DECL)
            continue;
        if (!POINTER_TYPE_P(TREE_TYPE(f)))
            return false;
        any = true;
    }
    return any;
}

/* Does `stmt` write `var` (or a part of it)? */
bool writes_var_p(gimple *stmt, tree var)
{
    tree lhs = gimple_get_lhs(stmt);
    if (!lhs)
        return false;
    return get_base_address(lhs) == var;
}

/* The pointer the last store to `var` before `call` (in its block) put in
 * it, or NULL_TREE. */
tree stored_pointer(gcall *call, tree var)
{
    gimple_stmt_iterator gsi = gsi_for_stmt(call);
    for (gsi_prev(&gsi); !gsi_end_p(gsi); gsi_prev(&gsi)) {
        gimple *stmt = gsi_stmt(gsi);
        if (is_gimple_debug(stmt))
            continue;
        if (!writes_var_p(stmt, var))
            continue;
        if (!gimple_assign_single_p(stmt))
            return NULL_TREE;
        tree lhs = gimple_assign_lhs(stmt);
        tree rhs = gimple_assign_rhs1(stmt);
        if (TREE_CODE(lhs) != COMPONENT_REF ||
            TREE_OPERAND(lhs, 0) != var ||
            !POINTER_TYPE_P(TREE_TYPE(rhs)) || !is_gimple_val(rhs))
            return NULL_TREE;
        return rhs;
    }
    return NULL_TREE;
}

} // namespace

void sysbatch_look_through_transparent_unions(function *fun,
                                              enum sb_abi abi)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
             gsi_next(&gsi)) {
            gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
            if (!call || sysbatch_rewritten_p(call))
                continue;
            tree fndecl = gimple_call_fndecl(call);
            if (!fndecl || gimple_call_internal_p(call))
                continue;
            const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
            if (name[0] == '*')
                name++;
            if (!sb_catalog_lookup(abi, name))
                continue;
            for (unsigned k = 0; k < gimple_call_num_args(call); k++) {
                tree arg = gimple_call_arg(call, k);
                if (!VAR_P(arg) || TREE_ADDRESSABLE(arg) ||
                    is_global_var(arg) || !pointer_union_p(TREE_TYPE(arg)))
                    continue;
                tree ptr = stored_pointer(call, arg);
                if (ptr) {
                    gimple_call_set_arg(call, k, ptr);
                    update_stmt(call);
                }
            }
        }
    }
}
