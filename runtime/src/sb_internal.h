/* libsysbatch internals shared by its source files (not installed): which
 * paths this build has, and the converted-slot helpers of sigaction.c that
 * linux.c's sysbatch_run calls. */
#ifndef SB_INTERNAL_H
#define SB_INTERNAL_H

#include "sysbatch.h"

/* SYSBATCH_GENERIC_SYSCALLS builds the portable path on x86_64 too, so it
 * can be tested here (see docs/runtime.md). */
#if defined(__x86_64__) && !defined(SYSBATCH_GENERIC_SYSCALLS)
#define SB__HAVE_KERNEL_PATH 1
#else
#define SB__HAVE_KERNEL_PATH 0
#endif

#define SB__HIDDEN __attribute__((visibility("hidden")))

/* A SYSBATCH_NR_SIGACTION slot run as glibc's sigaction: 0 or -errno, errno
 * left as it was.  The emulator's way, and the fallback's. */
SB__HIDDEN long sb__sigaction_call(long sig, long act, long oact);

#if SB__HAVE_KERNEL_PATH
/* The x86_64 kernel's struct sigaction (rt_sigaction with sigsetsize 8). */
struct sb__kernel_sigaction {
    unsigned long handler;
    unsigned long flags;
    unsigned long restorer;
    unsigned long mask;
};

/* Larger batches with converted slots run on the emulator: the scratch
 * below lives on sysbatch_run's stack. */
#define SB__CONVERT_MAX_SLOTS 64

struct sb__sigaction_work {
    struct sysbatch_slot slots[SB__CONVERT_MAX_SLOTS]; /* what the kernel runs */
    struct sb__kernel_sigaction act[SB__CONVERT_MAX_SLOTS], oact[SB__CONVERT_MAX_SLOTS];
};

/* Fill w->slots from slots[0..n-1] with every converted slot turned into
 * rt_sigaction over w's structs.  -1: the batch must run as its original
 * calls (emulator) instead; nothing was read from act then but what this
 * decided on. */
SB__HIDDEN int sb__sigaction_to_kernel(const struct sysbatch_slot *slots, long n,
                                       struct sb__sigaction_work *w);
/* After the kernel ran w->slots: each converted slot that succeeded writes
 * its *oact as glibc would. */
SB__HIDDEN void sb__sigaction_from_kernel(const long *rets, const struct sysbatch_slot *slots,
                                          long n, const struct sb__sigaction_work *w);
/* The restorer converted slots install (tests compare oact with it). */
SB__HIDDEN const void *sb__sigaction_restorer_address(void);
#endif

#endif /* SB_INTERNAL_H */
