/* sysbatch/libc.h: libc functions that are code, not barriers (phase 1).
 *
 * A call to a function outside the catalogue is a barrier: it may do
 * anything, system calls included, so no batch crosses it.  Some libc
 * functions are known to do much less: strlen, memcmp, isdigit (through
 * __ctype_b_loc), strtol, snprintf with a plain format.  They make no
 * system call, allocate nothing, call back into no user code and touch only
 * the memory their pointer arguments name, errno, and libc's locale tables.
 * This table says which arguments each one reads or writes and how many
 * bytes (a size argument, or "up to the terminating NUL"), and the front
 * ends check those accesses against the catalogue calls' buffers with their
 * alias analysis, exactly as for a load or a store:
 *
 *     fd = open(path, O_RDONLY);
 *     n = strlen(path);             reads path: commutes with read(fd, buf)
 *     r = read(fd, buf, 64);
 *
 * Why each kind of function is in or out (the contract is the design
 * brief's section 3: order and arguments of *our* calls' kernel effects,
 * and memory as every instruction observes it):
 *   - errno.  strtol and atoi set errno (ERANGE, EINVAL); the batch does not
 *     move code, so that store still happens between the two call sites'
 *     own errno stores, in program order.  Code reading errno already
 *     commutes with calls for that reason; only a call whose own buffer is
 *     errno (read(fd, &errno, 4)) conflicts (SB_LIBC_SETS_ERRNO).
 *   - locale.  ctype, strtol and printf read the current locale.  Only
 *     setlocale/uselocale change it, and they are not in this table (they
 *     allocate and may open locale files): barriers.  No catalogued call
 *     writes libc's locale data.
 *   - allocation.  malloc may call brk or mmap, i.e. make a system call: an
 *     allocating function between two batched calls would make its kernel
 *     call after the later one, and mmap/munmap in a batch change the
 *     address space malloc manages.  So nothing that may allocate is here:
 *     no strdup, no qsort (user callback too), no strerror (gettext may
 *     open catalogues), no strtod, and printf-family calls only with a
 *     constant format whose conversions glibc formats without allocating
 *     (sb_libc_call_effects: no %n, %m, floating point, wide strings,
 *     positional arguments, '*', or a width or precision above 99 - glibc
 *     2.36's vfprintf uses a 1000-byte stack buffer below that).
 *   - fortified variants (__memcpy_chk, __snprintf_chk) abort with a
 *     message on stderr when their check fails, which would come after a
 *     later batched call: not here.
 */
#ifndef SYSBATCH_LIBC_H
#define SYSBATCH_LIBC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a function does with the memory behind one argument (a bit set). */
enum sb_libc_access_kind {
    SB_LIBC_NO_ACCESS = 0, /* a value, or a pointer only compared/printed */
    SB_LIBC_READS = 1,
    SB_LIBC_WRITES = 2,
    SB_LIBC_READS_WRITES = 3,
};

struct sb_libc_access {
    uint8_t access;     /* enum sb_libc_access_kind */
    int8_t size_arg;    /* argument holding the byte count, or -1 */
    uint8_t fixed_size; /* bytes when size_arg < 0; 0 there: the extent is
                           not known (a string up to its NUL, a
                           destination as long as what is copied) */
};

enum sb_libc_flags {
    SB_LIBC_SETS_ERRNO = 1u << 0,
    SB_LIBC_PRINTF = 1u << 1, /* printf format at `format_arg`; the variadic
                                 arguments follow it */
};

#define SB_LIBC_MAX_FIXED 4
/* Arguments sb_libc_call_effects describes (fixed plus variadic). */
#define SB_LIBC_MAX_ARGS 16

struct sb_libc_function {
    const char *name;
    uint8_t argc; /* fixed arguments */
    struct sb_libc_access args[SB_LIBC_MAX_FIXED];
    uint8_t flags;     /* enum sb_libc_flags */
    int8_t format_arg; /* SB_LIBC_PRINTF: the format's index */
};

/* The function called `symbol` (as the object file names it), or NULL. */
const struct sb_libc_function *sb_libc_lookup(const char *symbol);
size_t sb_libc_size(void);
const struct sb_libc_function *sb_libc_row(size_t index);

/* The accesses of one call with `nargs` arguments: out[k] for k < nargs
 * (at most SB_LIBC_MAX_ARGS).  `format` is the printf format when the
 * front end sees a constant string there, else NULL.  Returns NULL when
 * the call is code with these effects, else why it stays a barrier (the
 * text may be formatted into buf). */
const char *sb_libc_call_effects(const struct sb_libc_function *fn, int nargs,
                                 const char *format, struct sb_libc_access *out,
                                 char *buf, size_t len);

/* Code that accesses (`code_access`, enum sb_libc_access_kind) memory a
 * kernel call also touches may not move across that call when either side
 * writes it. */
bool sb_access_conflicts(unsigned code_access, bool kernel_writes);

/* The barrier text of a table function's call that stays a barrier:
 * "call to snprintf (%n in the format)". */
const char *sb_libc_barrier_text(const char *callee, const char *why,
                                 char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_LIBC_H */
