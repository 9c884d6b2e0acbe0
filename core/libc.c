/* libc.c: the table of libc functions that are code with known effects,
 * not barriers (sysbatch/libc.h says which functions qualify and why), and
 * the printf-format check that decides what a snprintf call touches. */
#include "sysbatch/libc.h"

#include <stdio.h>
#include <string.h>

#define R SB_LIBC_READS
#define W SB_LIBC_WRITES
#define RW SB_LIBC_READS_WRITES
/* Memory through an argument: sized by argument `n`, a string (extent not
 * known), a fixed number of bytes; a plain value. */
#define SIZED(a, n) {(a), (n), 0}
#define STRING(a) {(a), -1, 0}
#define FIXED(a, bytes) {(a), -1, (bytes)}
#define VALUE {SB_LIBC_NO_ACCESS, -1, 0}

static const struct sb_libc_function table[] = {
    /* memory */
    {"memcmp", 3, {SIZED(R, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"bcmp", 3, {SIZED(R, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"memchr", 3, {SIZED(R, 2), VALUE, VALUE}, 0, -1},
    {"memrchr", 3, {SIZED(R, 2), VALUE, VALUE}, 0, -1},
    {"rawmemchr", 2, {STRING(R), VALUE}, 0, -1},
    {"memcpy", 3, {SIZED(W, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"memmove", 3, {SIZED(W, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"mempcpy", 3, {SIZED(W, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"memset", 3, {SIZED(W, 2), VALUE, VALUE}, 0, -1},
    {"bzero", 2, {SIZED(W, 1), VALUE}, 0, -1},
    {"explicit_bzero", 2, {SIZED(W, 1), VALUE}, 0, -1},
    /* strings (strnlen, strncmp: the count bounds what is read) */
    {"strlen", 1, {STRING(R)}, 0, -1},
    {"strnlen", 2, {SIZED(R, 1), VALUE}, 0, -1},
    {"strcmp", 2, {STRING(R), STRING(R)}, 0, -1},
    {"strncmp", 3, {SIZED(R, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"strcasecmp", 2, {STRING(R), STRING(R)}, 0, -1},
    {"strncasecmp", 3, {SIZED(R, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"strchr", 2, {STRING(R), VALUE}, 0, -1},
    {"strrchr", 2, {STRING(R), VALUE}, 0, -1},
    {"strchrnul", 2, {STRING(R), VALUE}, 0, -1},
    {"index", 2, {STRING(R), VALUE}, 0, -1},
    {"rindex", 2, {STRING(R), VALUE}, 0, -1},
    {"strstr", 2, {STRING(R), STRING(R)}, 0, -1},
    {"strspn", 2, {STRING(R), STRING(R)}, 0, -1},
    {"strcspn", 2, {STRING(R), STRING(R)}, 0, -1},
    {"strpbrk", 2, {STRING(R), STRING(R)}, 0, -1},
    {"strcpy", 2, {STRING(W), STRING(R)}, 0, -1},
    {"stpcpy", 2, {STRING(W), STRING(R)}, 0, -1},
    {"strncpy", 3, {SIZED(W, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"stpncpy", 3, {SIZED(W, 2), SIZED(R, 2), VALUE}, 0, -1},
    {"strcat", 2, {STRING(RW), STRING(R)}, 0, -1},
    {"strncat", 3, {STRING(RW), SIZED(R, 2), VALUE}, 0, -1},
    /* conversions: the end pointer is one pointer-sized word */
    {"strtol", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"strtoul", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"strtoll", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"strtoull", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"strtoimax", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"strtoumax", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"__isoc23_strtol", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"__isoc23_strtoul", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"__isoc23_strtoll", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"__isoc23_strtoull", 3, {STRING(R), FIXED(W, 8), VALUE}, SB_LIBC_SETS_ERRNO, -1},
    {"atoi", 1, {STRING(R)}, SB_LIBC_SETS_ERRNO, -1},
    {"atol", 1, {STRING(R)}, SB_LIBC_SETS_ERRNO, -1},
    {"atoll", 1, {STRING(R)}, SB_LIBC_SETS_ERRNO, -1},
    /* ctype: glibc's macros index the tables these return */
    {"__ctype_b_loc", 0, {VALUE}, 0, -1},
    {"__ctype_tolower_loc", 0, {VALUE}, 0, -1},
    {"__ctype_toupper_loc", 0, {VALUE}, 0, -1},
    {"isalnum", 1, {VALUE}, 0, -1},
    {"isalpha", 1, {VALUE}, 0, -1},
    {"isascii", 1, {VALUE}, 0, -1},
    {"isblank", 1, {VALUE}, 0, -1},
    {"iscntrl", 1, {VALUE}, 0, -1},
    {"isdigit", 1, {VALUE}, 0, -1},
    {"isgraph", 1, {VALUE}, 0, -1},
    {"islower", 1, {VALUE}, 0, -1},
    {"isprint", 1, {VALUE}, 0, -1},
    {"ispunct", 1, {VALUE}, 0, -1},
    {"isspace", 1, {VALUE}, 0, -1},
    {"isupper", 1, {VALUE}, 0, -1},
    {"isxdigit", 1, {VALUE}, 0, -1},
    {"tolower", 1, {VALUE}, 0, -1},
    {"toupper", 1, {VALUE}, 0, -1},
    {"abs", 1, {VALUE}, 0, -1},
    {"labs", 1, {VALUE}, 0, -1},
    {"llabs", 1, {VALUE}, 0, -1},
    {"imaxabs", 1, {VALUE}, 0, -1},
    /* formatting into a buffer (the format is checked per call) */
    {"sprintf", 2, {STRING(W), STRING(R)}, SB_LIBC_PRINTF, 1},
    {"snprintf", 3, {SIZED(W, 1), VALUE, STRING(R)}, SB_LIBC_PRINTF, 2},
};

size_t sb_libc_size(void) { return sizeof table / sizeof table[0]; }

const struct sb_libc_function *sb_libc_row(size_t index)
{
    return index < sb_libc_size() ? &table[index] : NULL;
}

const struct sb_libc_function *sb_libc_lookup(const char *symbol)
{
    if (!symbol)
        return NULL;
    for (size_t i = 0; i < sb_libc_size(); i++)
        if (strcmp(table[i].name, symbol) == 0)
            return &table[i];
    return NULL;
}

/* A width or precision glibc formats in its stack buffer: at most two
 * digits.  Advances *p past the digits; false (with the reason) past 99. */
static const char *format_number(const char **p)
{
    int digits = 0;
    while (**p >= '0' && **p <= '9') {
        (*p)++;
        digits++;
    }
    if (**p == '$')
        return "a positional argument in the format";
    return digits > 2 ? "a width or precision above 99 in the format" : NULL;
}

/* Walks a printf format; each conversion that takes an argument appends
 * its access to out[*count] (a %s reads a string, every other conversion
 * takes a value).  NULL, or why the call stays a barrier. */
static const char *format_accesses(const char *f, struct sb_libc_access *out,
                                   int max, int *count, char *buf, size_t len)
{
    static const struct sb_libc_access reads_string = STRING(R);
    static const struct sb_libc_access value = VALUE;
    for (const char *p = f; *p; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        while (*p && strchr("-+ #0", *p))
            p++;
        if (*p == '*')
            return "a '*' width in the format";
        const char *why = format_number(&p);
        if (why)
            return why;
        if (*p == '.') {
            p++;
            if (*p == '*')
                return "a '*' precision in the format";
            if ((why = format_number(&p)))
                return why;
        }
        int longs = 0, other_length = 0;
        while (*p && strchr("hlzjt", *p)) {
            longs += *p == 'l';
            other_length += *p != 'l';
            p++;
        }
        if (!*p)
            return "a format that ends inside a conversion";
        struct sb_libc_access a;
        if (strchr("diuxXo", *p)) {
            a = value;
        } else if (*p == 'c' || *p == 's' || *p == 'p') {
            if (longs || other_length)
                return "a wide character or string in the format";
            a = *p == 's' ? reads_string : value;
        } else {
            snprintf(buf, len, "%%%c in the format", *p);
            return buf;
        }
        if (*count >= max)
            return "more format arguments than sysbatch describes";
        out[(*count)++] = a;
    }
    return NULL;
}

const char *sb_libc_call_effects(const struct sb_libc_function *fn, int nargs,
                                 const char *format, struct sb_libc_access *out,
                                 char *buf, size_t len)
{
    if (!fn)
        return "not a libc function sysbatch knows";
    if (nargs < fn->argc) {
        snprintf(buf, len, "called with %d arguments, %s takes %d", nargs,
                 fn->name, fn->argc);
        return buf;
    }
    if (nargs > SB_LIBC_MAX_ARGS)
        return "more arguments than sysbatch describes";
    for (int k = 0; k < fn->argc; k++)
        out[k] = fn->args[k];
    if (!(fn->flags & SB_LIBC_PRINTF)) {
        if (nargs > fn->argc) {
            snprintf(buf, len, "called with %d arguments, %s takes %d", nargs,
                     fn->name, fn->argc);
            return buf;
        }
        return NULL;
    }
    if (!format)
        return "the format is not a constant string";
    int count = fn->argc;
    const char *why =
        format_accesses(format, out, SB_LIBC_MAX_ARGS, &count, buf, len);
    if (why)
        return why;
    /* Arguments the format does not consume are never read; fewer than it
     * consumes is undefined behaviour the rewrite must not reason about. */
    if (count > nargs)
        return "the format takes more arguments than the call passes";
    for (int k = count; k < nargs; k++)
        out[k] = (struct sb_libc_access)VALUE;
    return NULL;
}

bool sb_access_conflicts(unsigned code_access, bool kernel_writes)
{
    if (code_access & SB_LIBC_WRITES)
        return true;
    return (code_access & SB_LIBC_READS) && kernel_writes;
}

const char *sb_libc_barrier_text(const char *callee, const char *why,
                                 char *buf, size_t len)
{
    snprintf(buf, len, "call to %s (%s)", callee ? callee : "?",
             why ? why : "?");
    return buf;
}
