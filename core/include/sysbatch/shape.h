/* sysbatch/shape.h: what a call looks like in a compiler's IR, and the
 * core's objections to it (phase 1).
 *
 * The catalogue row says what the libc function is; the IR says how this
 * call site uses it: the types of its result and arguments, where the
 * result goes, what the enclosing function does.  A front end fills one
 * sb_call_shape per catalogue call from its own IR (LLVM: the call's types
 * and sret attribute; GCC: the gimple call's types, lhs and cfun) and asks
 * sb_call_shape_objection() whether the rewrite can keep that call site's
 * contract.  The answer becomes the call's `why_not` (front-end refusal),
 * so both compilers refuse the same shapes with the same words:
 *
 *     long r = kill(pid, sig_as_struct);   "argument 1 is neither an
 *                                           integer nor a pointer"
 *     if (setjmp(env)) ...; getpid();      "the function calls a function
 *                                           that returns twice (setjmp,
 *                                           vfork)"
 */
#ifndef SYSBATCH_SHAPE_H
#define SYSBATCH_SHAPE_H

#include "sysbatch/core.h"

#ifdef __cplusplus
extern "C" {
#endif

enum sb_value_kind {
    SB_VALUE_VOID = 0,
    SB_VALUE_INTEGER,
    SB_VALUE_POINTER,
    SB_VALUE_AGGREGATE, /* a struct or array value */
    SB_VALUE_OTHER,     /* floating point, vector, ... */
};

struct sb_value_shape {
    uint8_t kind;  /* enum sb_value_kind */
    uint32_t bits; /* width; an aggregate's size in bits */
};

#define SB_SHAPE_MAX_ARGS (SB_MAX_ARGS + 2)

struct sb_call_shape {
    struct sb_value_shape result;
    bool result_in_memory;        /* returned through memory (an sret slot,
                                     GCC's aggregate_value_p) */
    bool result_register_struct;  /* a struct result the IR keeps as a
                                     register value (GCC's SSA struct) */
    bool result_stored_to_memory; /* the call's own result goes straight to
                                     memory (GCC: lhs is not an SSA name) */
    int nargs;                    /* libc arguments as written */
    struct sb_value_shape args[SB_SHAPE_MAX_ARGS]; /* the first nargs */
    bool may_throw;               /* the call can throw inside the function */
    bool function_returns_twice;  /* the enclosing function calls setjmp,
                                     vfork or another returns-twice
                                     function: a second return could land
                                     between a batch and its call sites */
};

/* The core's objection to this call site, or NULL when the rewrite can keep
 * its contract.  A formatted reason is written into buf (the return value
 * then points there); fixed reasons are static. */
const char *sb_call_shape_objection(enum sb_abi abi,
                                    const struct sb_syscall *row,
                                    const struct sb_call_shape *shape,
                                    char *buf, size_t len);

/* Code no batch may cross, whatever it touches (a barrier code event,
 * sb_code_event.barrier): the kinds both front ends recognise in their IR,
 * and the one text each has in plans and remarks. */
enum sb_barrier {
    SB_BARRIER_INLINE_ASM = 0,
    SB_BARRIER_VOLATILE_LOAD,
    SB_BARRIER_VOLATILE_STORE,
    SB_BARRIER_VOLATILE_MEMORY_INTRINSIC,
    SB_BARRIER_ATOMIC,
    SB_BARRIER_FENCE,
    SB_BARRIER_INTERNAL_CALL,  /* GCC internal function that is not const */
    SB_BARRIER_CALL,           /* a call to a function outside the catalogue */
    SB_BARRIER_INDIRECT_CALL,
    SB_BARRIER_MAY_NOT_RETURN, /* an instruction that may not continue */
};

/* The barrier's text; SB_BARRIER_CALL names `callee`, formatted into buf
 * (the return value then points there). */
const char *sb_barrier_text(enum sb_barrier kind, const char *callee,
                            char *buf, size_t len);

/* Bytes of the libtock-c return struct a Tock row's raw call returns on
 * both 32-bit ISAs (syscall_return_t and the allow/subscribe structs: 16,
 * memop_return_t: 8, yield_waitfor_return_t: 12), 0 for yield and rows
 * that return nothing. */
int sb_tock_result_bytes(const struct sb_syscall *row);

/* May the issue point load n2 bytes at offset c2 + V of an object of
 * size2 bytes, given that an access on every path to it (in bounds, or
 * the program is undefined) touched n1 bytes at c1 + V of an object of
 * size1 bytes, with V the same variable offset in both (the same indices,
 * scaled alike) and a multiple of `factor` (a power of two, 0 for none)?
 * V then lies in [-c1, size1 - n1 - c1], rounded inwards to multiples of
 * factor, and c2 + V must lie in [0, size2 - n2] for all of them:
 *
 *     static int to[4][2], from[4][2];
 *     dup2(to[n][0], 0)        c1 0, n1 4, size1 32, V = 8n: n in 0..3
 *     ... to[n][1] != 0        c2 4, n2 4, size2 32: 4..28 - safe
 *     ... from[n][1]           the same offsets in another object - safe
 *
 * Both front ends decompose their addresses (LLVM: an inbounds GEP chain
 * on a global or an alloca; GCC: get_inner_reference on a declared
 * object) and ask this. */
bool sb_offset_in_bounds_after(int64_t factor, int64_t c1, int64_t n1,
                               int64_t size1, int64_t c2, int64_t n2,
                               int64_t size2);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_SHAPE_H */
