/* Shared helpers for the kernel module tests (kernel/tests/sbk_*.c).
 *
 * Each test is a static program run inside the VM with sysbatch.ko loaded:
 * exit 0 pass, 1 fail, 77 skip (module absent and SYSBATCH_REQUIRE_KERNEL
 * unset).  sbk_batch() issues syscall 183 with the raw `syscall`
 * instruction so the test sees the kernel's exact return value (-errno),
 * with no libc wrapper or errno in between.
 */
#ifndef SBK_H
#define SBK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysbatch.h"

static inline long sbk_raw6(long nr, long a, long b, long c, long d, long e, long f)
{
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

static inline long sbk_batch(long *rets, void *slots, unsigned long n, long flags, long size)
{
    return sbk_raw6(SYSBATCH_NR_BATCH, (long)rets, (long)slots, (long)n, flags, size, 0);
}

static int sbk_failures;

/* Records a failed expectation with its source line and carries on, so one
 * run lists every broken case. */
#define SBK_EXPECT(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            sbk_failures++;                                                    \
            fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

#define SBK_EXPECT_EQ(got, want)                                               \
    do {                                                                       \
        long got_ = (long)(got), want_ = (long)(want);                         \
        SBK_EXPECT(got_ == want_, "got %ld, want %ld", got_, want_);           \
    } while (0)

/* Skips (77) unless the module answers the probe; with
 * SYSBATCH_REQUIRE_KERNEL=1 a missing module is a failure instead. */
static inline void sbk_require_module(void)
{
    long r = sbk_batch(0, 0, 0, 0, 0);
    if (r == 0)
        return;
    const char *req = getenv("SYSBATCH_REQUIRE_KERNEL");
    fprintf(stderr, "sys_batch probe returned %ld: module not loaded\n", r);
    exit(req && *req == '1' ? 1 : 77);
}

static inline int sbk_finish(const char *name)
{
    if (sbk_failures) {
        fprintf(stderr, "%s: %d expectation(s) failed\n", name, sbk_failures);
        return 1;
    }
    printf("%s: all expectations met\n", name);
    return 0;
}

static inline struct sysbatch_slot sbk_slot(long nr, int argc, long a0, long a1, long a2,
                                            long a3, long a4, long a5)
{
    struct sysbatch_slot s;
    memset(&s, 0, sizeof s);
    s.nr = (short)nr;
    s.argc = (char)argc;
    s.arg[0] = a0; s.arg[1] = a1; s.arg[2] = a2;
    s.arg[3] = a3; s.arg[4] = a4; s.arg[5] = a5;
    return s;
}
#define SBK0(nr) sbk_slot(nr, 0, 0, 0, 0, 0, 0, 0)
#define SBK1(nr, a) sbk_slot(nr, 1, (long)(a), 0, 0, 0, 0, 0)
#define SBK2(nr, a, b) sbk_slot(nr, 2, (long)(a), (long)(b), 0, 0, 0, 0)
#define SBK3(nr, a, b, c) sbk_slot(nr, 3, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SBK4(nr, a, b, c, d) sbk_slot(nr, 4, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define SBKCOPY(dst, src) sbk_slot(SYSBATCH_NR_WORDCOPY, 2, (long)(dst), (long)(src), 0, 0, 0, 0)

/* A value no call returns, to tell "not written" from "written". */
#define SBK_UNTOUCHED 0x5a5a5a5a5a5a5a5aL

static inline void sbk_fill_rets(long *rets, int n)
{
    for (int i = 0; i < n; i++)
        rets[i] = SBK_UNTOUCHED;
}

#endif
