/* verify.c: the runtime half of the plugins' `verify` mode.
 *
 * A call site the plugins batched normally takes its result from rets[]
 * and never looks at its own arguments again.  Under verify it also
 * computes them, exactly as the original call would have received them,
 * and hands them here together with its slot:
 *
 *     fd = open(p, O_RDONLY)            slot 0: openat(-100, p, 0, 0)
 *     n = read(fd, buf, (int)len)       slot 2: read(<copy of rets[0]>, buf, len)
 *       -> sysbatch_verify_slot(rets, slots, 3, 2, 0,
 *                               {fd, buf, (long)(int)len}, 0x7, "f.c:12: read")
 *
 * The arguments the slot ran with are its own words with every word copy
 * that targets it applied (a copy before a slot that ran has run too: it
 * follows a producer that succeeded), which is what both the emulator and
 * the kernel module execute.  Any difference is a miscompile: say where,
 * which argument, both values, and abort.
 */
#include "sysbatch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The word slot `slot`'s argument k ran with. */
static long ran_with(const struct sysbatch_slot *slots,
                     long n, long slot, int k)
{
    long value = slots[slot].arg[k];
    const long *target = &slots[slot].arg[k];
    for (long c = 0; c < slot && c < n; c++) {
        const struct sysbatch_slot *s = &slots[c];
        if (s->nr != SYSBATCH_NR_WORDCOPY || (const long *)s->arg[0] != target)
            continue;
        const long *src = (const long *)s->arg[1];
        value = *src; /* rets[j] (the result) or a word a call wrote */
    }
    return value;
}

static void verify_failed(const char *where, const char *what, int k,
                          long expected, long actual)
{
    char line[512];
    int len = snprintf(line, sizeof line,
                       "sysbatch verify: %s: %s%d: expected %ld (0x%lx), the "
                       "slot ran with %ld (0x%lx)\n",
                       where ? where : "?", what, k, expected,
                       (unsigned long)expected, actual, (unsigned long)actual);
    if (len > 0)
        (void)!write(2, line, (size_t)len < sizeof line ? (size_t)len
                                                      : sizeof line - 1);
    abort();
}

void sysbatch_verify_slot(const long *rets, const struct sysbatch_slot *slots,
                          long n, long slot, long nr, const long *expected,
                          long mask, const char *where)
{
    if (!rets || !slots || slot < 0 || slot >= n)
        verify_failed(where, "slot index ", 0, slot, n);
    if (slots[slot].nr != nr)
        verify_failed(where, "system call number, slot ", (int)slot, nr,
                      slots[slot].nr);
    for (int k = 0; k < 6; k++) {
        if (!(mask >> k & 1))
            continue;
        long actual = ran_with(slots, n, slot, k);
        if (actual != expected[k])
            verify_failed(where, "argument ", k, expected[k], actual);
    }
}
