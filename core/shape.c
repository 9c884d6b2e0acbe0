/* shape.c: the core's objections to a call site's IR shape
 * (sysbatch/shape.h).  Each text is written here once; both front ends
 * show it as the call's front-end refusal. */
#include "sysbatch/shape.h"

#include <stdio.h>

/* A value a slot or frame word can carry. */
static bool word_value(const struct sb_value_shape *v, unsigned max_bits)
{
    return (v->kind == SB_VALUE_INTEGER || v->kind == SB_VALUE_POINTER) &&
           v->bits <= max_bits;
}

int sb_tock_result_bytes(const struct sb_syscall *row)
{
    if (!row || row->abi != SB_ABI_TOCK)
        return 0;
    switch (row->nr) {
    case 0: /* yield: nothing to convert; yield_wait_for: {rv0, rv1, rv2} */
        return row->raw_argc == 3 ? 12 : 0;
    case 6: /* exit: never returns */
        return 0;
    case 5: /* memop_return_t {status, data} */
        return 8;
    default: /* syscall_return_t {type, data[3]}, subscribe and allow */
        return 16;
    }
}

static const char *tock_objection(const struct sb_syscall *row,
                                  const struct sb_call_shape *s, char *buf,
                                  size_t len)
{
    int bytes = sb_tock_result_bytes(row);
    int size = (int)(s->result.bits / 8);
    if (s->result.kind != SB_VALUE_VOID && !bytes) {
        snprintf(buf, len, "%s returns a value, libtock-c's returns nothing",
                 row->name);
        return buf;
    }
    if (s->result.kind == SB_VALUE_VOID && bytes) {
        snprintf(buf, len, "%s returns nothing, libtock-c's returns a struct",
                 row->name);
        return buf;
    }
    if (bytes) {
        if (s->result_in_memory && size < bytes) {
            snprintf(buf, len,
                     "the sret slot of %s is smaller than libtock-c's "
                     "%d-byte result",
                     row->name, bytes);
            return buf;
        }
        /* In registers the ABI may have lowered the struct to an integer
         * (RV32's memop_return_t is an i64 in LLVM IR). */
        bool fits = s->result_in_memory
                        ? s->result.kind == SB_VALUE_AGGREGATE
                        : s->result.kind == SB_VALUE_AGGREGATE ||
                              s->result.kind == SB_VALUE_INTEGER;
        if (!fits || size != bytes) {
            snprintf(buf, len,
                     "%s returns a %d-byte value%s, libtock-c's result has "
                     "%d bytes",
                     row->name, size,
                     s->result_in_memory ? "" : " in registers", bytes);
            return buf;
        }
        if (s->result_register_struct)
            return "the struct result is a register value";
    }
    if (s->nargs != row->libc_argc) {
        snprintf(buf, len,
                 "%s is called with %d arguments, libtock-c's takes %d",
                 row->name, s->nargs, row->libc_argc);
        return buf;
    }
    for (int k = 0; k < s->nargs; k++)
        if (!word_value(&s->args[k], 32)) {
            snprintf(buf, len, "argument %d does not fit a 32-bit frame word",
                     k);
            return buf;
        }
    return NULL;
}

const char *sb_call_shape_objection(enum sb_abi abi,
                                    const struct sb_syscall *row,
                                    const struct sb_call_shape *s, char *buf,
                                    size_t len)
{
    if (s->function_returns_twice)
        return "the function calls a function that returns twice (setjmp, "
               "vfork)";
    if (s->nargs < 0 || s->nargs > SB_MAX_ARGS + 1)
        return "more arguments than any system call takes";
    /* Rows never batched keep their own reason. */
    if (row && (row->flags & SB_ROW_NEVER))
        return NULL;
    if (abi == SB_ABI_TOCK && row && row->abi == SB_ABI_TOCK) {
        const char *why = tock_objection(row, s, buf, len);
        if (why)
            return why;
    } else {
        if (s->result.kind != SB_VALUE_VOID && !word_value(&s->result, 64))
            return "the call returns a value that is not an integer or a "
                   "pointer";
        for (int k = 0; k < s->nargs; k++)
            if (!word_value(&s->args[k], 64)) {
                snprintf(buf, len,
                         "argument %d is neither an integer nor a pointer", k);
                return buf;
            }
        if (s->result_stored_to_memory)
            return "result stored straight to memory";
    }
    if (s->may_throw)
        return "call may throw";
    return NULL;
}

const char *sb_barrier_text(enum sb_barrier kind, const char *callee,
                            char *buf, size_t len)
{
    switch (kind) {
    case SB_BARRIER_INLINE_ASM:
        return "inline asm";
    case SB_BARRIER_VOLATILE_LOAD:
        return "volatile load";
    case SB_BARRIER_VOLATILE_STORE:
        return "volatile store";
    case SB_BARRIER_VOLATILE_MEMORY_INTRINSIC:
        return "volatile memory intrinsic";
    case SB_BARRIER_ATOMIC:
        return "atomic access";
    case SB_BARRIER_FENCE:
        return "fence";
    case SB_BARRIER_INTERNAL_CALL:
        return "call to an internal function";
    case SB_BARRIER_CALL:
        snprintf(buf, len, "call to %s", callee ? callee : "?");
        return buf;
    case SB_BARRIER_INDIRECT_CALL:
        return "indirect call";
    case SB_BARRIER_MAY_NOT_RETURN:
        return "instruction that may not return";
    }
    return "unknown code";
}

/* Rounds towards minus infinity (C's / truncates). */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

bool sb_offset_in_bounds_after(int64_t factor, int64_t c1, int64_t n1,
                               int64_t size1, int64_t c2, int64_t n2,
                               int64_t size2)
{
    const int64_t limit = (int64_t)1 << 40; /* keeps the sums exact */
    if (n1 <= 0 || n2 <= 0 || size1 <= 0 || size2 <= 0 || size1 > limit ||
        size2 > limit || c1 > limit || c1 < -limit || c2 > limit ||
        c2 < -limit || n1 > limit || n2 > limit)
        return false;
    if (factor <= 0 || (factor & (factor - 1)) != 0)
        factor = 1;
    if (factor > limit)
        return false;
    int64_t lo = -floor_div(c1, factor) * factor;   /* ceil(-c1 / f) * f */
    int64_t hi = floor_div(size1 - n1 - c1, factor) * factor;
    if (lo > hi)
        return false; /* the earlier access cannot have been in bounds */
    return c2 + lo >= 0 && c2 + hi <= size2 - n2;
}
