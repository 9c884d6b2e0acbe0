/* libsysbatch: run a batch of system calls in one user/kernel crossing.
 *
 * The slot layout is the c-blake/batch sys_batch ABI (x86_64, syscall 183):
 *
 *     long rets[3];
 *     struct sysbatch_slot s[3] = {
 *         SYSBATCH_SLOT3(SYS_openat, AT_FDCWD, path, O_RDONLY),  -- fail: stop
 *         SYSBATCH_COPY(&s[2].arg[0], &rets[0]),                 -- fd -> read
 *         SYSBATCH_SLOT3(SYS_read, 0, buf, sizeof buf),
 *     };
 *     s[0].jump_fail = -1;
 *     long last = sysbatch_run(rets, s, 3, 0);   -- index of last slot run
 *
 * sysbatch_run() uses the kernel's sys_batch when a probe (syscall 183 with
 * n = 0 returning 0) finds it, and otherwise a user-space loop of raw
 * syscalls that follows the same jump and word-copy rules.  Neither path
 * touches errno.  Environment:
 *     BATCH_EMUL / SYSBATCH_EMUL   force the user-space loop (and make
 *                                  sysbatch_active true, so compiler-batched
 *                                  code takes its batch path without a kernel)
 *     BATCH_VERBOSE                print once which path is used
 *     SYSBATCH_STATS               print batch/slot counts per path at exit
 *
 * Code rewritten by the sysbatch compiler plugins calls only the functions
 * marked "plugin ABI" below; their names and types are frozen.
 */
#ifndef SYSBATCH_H
#define SYSBATCH_H

#ifdef __cplusplus
extern "C" {
#endif

#define SYSBATCH_VERSION_MAJOR 0
#define SYSBATCH_VERSION_MINOR 1

#define SYSBATCH_NR_BATCH 183     /* the afs_syscall slot sys_batch occupies */
#define SYSBATCH_NR_WORDCOPY (-2) /* pseudo-op: *(long *)arg[0] = *(long *)arg[1] */
/* pseudo-op: sigaction((int)arg[0], arg[1], arg[2]) exactly as glibc's,
 * result 0 or -errno.  The runtime checks the signal as glibc does and
 * issues rt_sigaction with kernel structs of its own (docs/runtime.md,
 * "Converted slots"); the batch must be run with SYSBATCH_RUN_CONVERTS. */
#define SYSBATCH_NR_SIGACTION (-3)
#define SYSBATCH_MAX_SLOTS 1024   /* same cap as our kernel module */
/* rets[i] of a slot that did not run.  No system call returns it: it is not
 * an error (-4095..-1), a user address, a size or an offset.  (plugin ABI) */
#define SYSBATCH_NOT_RUN (-0x7fffffffffffffffL - 1)

/* The info query of our kernel module (kernel/sysbatch.c):
 *     long info[SYSBATCH_INFO_WORDS];
 *     syscall(183, info, NULL, 0, SYSBATCH_QUERY_INFO, 0) == 0
 * fills info[] with a version (1), the hook in use and the batch size from
 * which one batch costs less than its separate calls; sysbatch_run() runs
 * smaller batches as their original calls.  Other sys_batch modules refuse
 * the flag (or ignore it and write nothing), which reads as "unknown". */
#define SYSBATCH_QUERY_INFO 0x100
enum {
    SYSBATCH_INFO_VERSION = 0,
    SYSBATCH_INFO_HOOK = 1,      /* SYSBATCH_HOOK_* */
    SYSBATCH_INFO_MIN_BATCH = 2, /* smallest n worth a crossing */
    SYSBATCH_INFO_WORDS = 4,
};
#define SYSBATCH_HOOK_FTRACE 1 /* ftrace direct call on x64_sys_call */
#define SYSBATCH_HOOK_KPROBE 2 /* kprobe on __x64_sys_ni_syscall */

/* The errno sys_batch refuses a whole batch with, running nothing, when the
 * calling task must be seen making each call: a seccomp filter, ptrace
 * syscall tracing (strace), audit or syscall tracepoints (perf trace).
 * sysbatch_run() then runs the batch as the original calls. */
#define SYSBATCH_EREFUSED 1 /* EPERM */

struct sysbatch_slot {
    short nr;        /* syscall number, SYSBATCH_NR_WORDCOPY or
                        SYSBATCH_NR_SIGACTION */
    short jump_fail; /* taken when the result is < 0 */
    short jump_zero; /*                         == 0 */
    short jump_pos;  /*                          > 0 */
    char argc;       /* 0..6 */
    char pad_[7];
    long arg[6];
};

#define SYSBATCH_SLOT(nr_, argc_, a0, a1, a2, a3, a4, a5)                      \
    { (short)(nr_), 0, 0, 0, (char)(argc_), {0},                               \
      { (long)(a0), (long)(a1), (long)(a2), (long)(a3), (long)(a4), (long)(a5) } }
#define SYSBATCH_SLOT0(nr) SYSBATCH_SLOT(nr, 0, 0, 0, 0, 0, 0, 0)
#define SYSBATCH_SLOT1(nr, a) SYSBATCH_SLOT(nr, 1, a, 0, 0, 0, 0, 0)
#define SYSBATCH_SLOT2(nr, a, b) SYSBATCH_SLOT(nr, 2, a, b, 0, 0, 0, 0)
#define SYSBATCH_SLOT3(nr, a, b, c) SYSBATCH_SLOT(nr, 3, a, b, c, 0, 0, 0)
#define SYSBATCH_COPY(dst, src) SYSBATCH_SLOT(SYSBATCH_NR_WORDCOPY, 2, dst, src, 0, 0, 0, 0)

enum sysbatch_path {
    SYSBATCH_PATH_NONE = 0,   /* not decided yet */
    SYSBATCH_PATH_KERNEL = 1, /* sys_batch, one crossing */
    SYSBATCH_PATH_EMUL = 2,   /* user-space loop of raw syscalls */
};

/* Errors sysbatch_run() returns (negated) for a batch it refuses before
 * running anything.  Denied calls inside a valid batch are not errors: they
 * get -ENOSYS in their rets slot and the batch goes on. */
#define SYSBATCH_EINVAL 22  /* jump past the end, argc > 6, n too large
                              (also unknown flags, overlapping arrays, and word
                              copies outside the rules in docs/runtime.md) */
#define SYSBATCH_EFAULT 14  /* NULL rets or slots */

/* sysbatch_run()'s flags.  0 is what a hand-written caller passes: the
 * batch is checked in full (sysbatch_check) before anything runs.  The
 * plugins pass SYSBATCH_RUN_PLANNED for a batch they built, which they
 * guarantee well-formed (argc 0..6, jumps in range, word copies by the
 * rules), together with two facts about it they know at compile time; on
 * the kernel path the runtime then skips its own pass over the slots (the
 * module checks every batch anyway), on the user-space path it still
 * checks.  The two facts without SYSBATCH_RUN_PLANNED, or any other bit,
 * are -SYSBATCH_EINVAL. */
#define SYSBATCH_RUN_PLANNED 0x1 /* built by a sysbatch plugin */
#define SYSBATCH_RUN_JUMPS 0x2   /* some slot has a jump offset set */
#define SYSBATCH_RUN_CANCEL 0x4  /* some slot is a pthread cancellation point */
/* The batch may hold converted slots (SYSBATCH_NR_SIGACTION), with or
 * without SYSBATCH_RUN_PLANNED: a batch holding one without this flag is
 * refused with -SYSBATCH_EINVAL. */
#define SYSBATCH_RUN_CONVERTS 0x8

/* Run slots[0..n-1].  Returns the index of the last slot executed (0..n-1),
 * 0 for n == 0, or -SYSBATCH_E* without running anything.  (plugin ABI) */
long sysbatch_run(long *rets, struct sysbatch_slot *slots, long n, long flags);

/* Validate without running: 0 or -SYSBATCH_E*.  Both backends call it. */
long sysbatch_check(const long *rets, const struct sysbatch_slot *slots, long n);

/* Which path sysbatch_run() takes (probes once, then cached). */
enum sysbatch_path sysbatch_path(void);

/* Nonzero when batches should be issued: the kernel has sys_batch, or
 * BATCH_EMUL forced the user-space loop.  Set before main() runs; compiler-
 * batched code branches on it once per batch.  (plugin ABI) */
extern int sysbatch_active;

/* An empty string for rows whose raw call takes one (fstat -> newfstatat(fd,
 * "", buf, AT_EMPTY_PATH)).  (plugin ABI) */
extern const char sysbatch_empty_string[1];

/* Return-convention helpers: turn a raw kernel result into what the libc
 * wrapper would have returned, setting errno exactly as it would.  Called
 * at each original call site, in program order.  (plugin ABI) */
long sysbatch_ret_errno(long raw);        /* -1 + errno on failure */
void *sysbatch_ret_mmap(long raw);        /* MAP_FAILED + errno */
int sysbatch_ret_positive_error(long raw);/* error number, errno untouched */

/* The plugins' `verify` mode: at a batched call site whose slot ran, the
 * raw arguments the original call would have made (expected[k] for every
 * bit k of mask; a runtime-provided "" is not checked) against the ones
 * slot `slot` of slots[0..n-1] ran with, word copies applied.  On any
 * difference prints where ("file:line: call"), the argument and both
 * values to stderr and aborts.  (plugin ABI) */
void sysbatch_verify_slot(const long *rets, const struct sysbatch_slot *slots,
                          long n, long slot, long nr, const long *expected,
                          long mask, const char *where);

/* Runtime statistics (also printed at exit under SYSBATCH_STATS). */
struct sysbatch_stats {
    unsigned long batches[3]; /* indexed by enum sysbatch_path */
    unsigned long slots[3];   /* slots executed */
    unsigned long refused;    /* batches rejected by sysbatch_check */
};
void sysbatch_get_stats(struct sysbatch_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_H */
