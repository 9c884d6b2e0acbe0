/* libsysbatch's Linux backends: batch validation, the sys_batch kernel path,
 * the user-space emulator, path selection at start-up and statistics.
 *
 * A batch is an array of 64-byte slots; slot i runs, its result goes to
 * rets[i], and the result's sign picks one of three forward offsets:
 *
 *     rets  slots                         after slot i with result r
 *     [0]   openat(..)  fail:-1           r < 0   -> jump_fail
 *     [1]   COPY(&s[2].arg[0], &rets[0])  r == 0  -> jump_zero
 *     [2]   read(fd, buf, len)            r > 0   -> jump_pos
 *                                         next = i + 1 + off, off < 0 stops
 *
 * sysbatch_run() validates the whole batch first (sysbatch_check), so a
 * malformed batch is refused with nothing run on either path, whatever the
 * kernel module would have done with it; only a batch a plugin built and
 * flagged SYSBATCH_RUN_PLANNED goes to the kernel unchecked here, the
 * module's own checks then being the ones that count.  Then it issues syscall 183 when the
 * start-up probe found sys_batch, and otherwise runs the same rules in a
 * loop of raw `syscall` instructions here (the "emulator").  Neither path
 * reads or writes errno.
 *
 * On targets other than x86_64 only the emulator exists, built on libc's
 * syscall() with errno saved and restored around each call; the kernel path
 * is never selected there (syscall 183 is the x86_64 sys_batch number only).
 *
 * SYSBATCH_STATS and SYSBATCH_STATS_FILE print one line per process at exit
 * ("stats at exit" below: how the line avoids the program's own fds).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sb_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if SB__HAVE_KERNEL_PATH
#include "raw_syscall.h"
#endif

#if defined(__x86_64__)
/* The sys_batch ABI is byte-exact (design brief section 4). */
_Static_assert(sizeof(struct sysbatch_slot) == 64, "slot is 64 bytes");
_Static_assert(offsetof(struct sysbatch_slot, nr) == 0, "nr at 0");
_Static_assert(offsetof(struct sysbatch_slot, jump_fail) == 2, "jump_fail at 2");
_Static_assert(offsetof(struct sysbatch_slot, jump_zero) == 4, "jump_zero at 4");
_Static_assert(offsetof(struct sysbatch_slot, jump_pos) == 6, "jump_pos at 6");
_Static_assert(offsetof(struct sysbatch_slot, argc) == 8, "argc at 8");
_Static_assert(offsetof(struct sysbatch_slot, arg) == 16, "arg at 16");
#endif

/* ---------------------------------------------------------------- raw calls */

#if SB__HAVE_KERNEL_PATH
#define sb__syscall6 sb__raw_syscall6
#define sb__syscall3 sb__raw_syscall3
#else
/* Generic path: libc's syscall() reports failure through errno, so turn it
 * back into the raw -errno value and put errno back as it was. */
static long sb__syscall6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
    int saved = errno;
    long r = syscall(nr, a0, a1, a2, a3, a4, a5);
    if (r == -1) {
        r = -(long)errno;
    }
    errno = saved;
    return r;
}
static long sb__syscall3(long nr, long a0, long a1, long a2)
{
    return sb__syscall6(nr, a0, a1, a2, 0, 0, 0);
}
#endif

/* ---------------------------------------------------------------- deny list */

/* Calls a batch never runs; their slot gets -ENOSYS and the batch goes on
 * (its jump_fail is taken).  They either replace or end the process, need
 * the caller's real register frame (which an in-kernel batch does not have),
 * or change the thread's architectural or stack state under the caller's
 * feet.  The kernel module in kernel/ denies the same set, so the answer does
 * not depend on the path. */
#define SB__DENY_WORDS 8 /* covers syscall numbers 0..511 */
#define SB__BIT(word, nr) ((((nr) >> 6) == (word)) ? 1UL << ((nr) & 63) : 0UL)

#ifdef __NR_fork
#define SB__DENY_FORK(w) SB__BIT(w, __NR_fork)
#else
#define SB__DENY_FORK(w) 0UL
#endif
#ifdef __NR_vfork
#define SB__DENY_VFORK(w) SB__BIT(w, __NR_vfork)
#else
#define SB__DENY_VFORK(w) 0UL
#endif
#ifdef __NR_clone3
#define SB__DENY_CLONE3(w) SB__BIT(w, __NR_clone3)
#else
#define SB__DENY_CLONE3(w) 0UL
#endif
#ifdef __NR_arch_prctl
#define SB__DENY_ARCH_PRCTL(w) SB__BIT(w, __NR_arch_prctl)
#else
#define SB__DENY_ARCH_PRCTL(w) 0UL
#endif
#ifdef __NR_iopl
#define SB__DENY_IOPL(w) (SB__BIT(w, __NR_iopl) | SB__BIT(w, __NR_ioperm) | \
                          SB__BIT(w, __NR_modify_ldt))
#else
#define SB__DENY_IOPL(w) 0UL
#endif
#if SB__HAVE_KERNEL_PATH
#define SB__DENY_BATCH(w) SB__BIT(w, SYSBATCH_NR_BATCH)
#else
#define SB__DENY_BATCH(w) 0UL
#endif

#define SB__DENY_WORD(w)                                                        \
    (SB__BIT(w, __NR_rt_sigreturn) | SB__BIT(w, __NR_clone) | SB__DENY_FORK(w) | \
     SB__DENY_VFORK(w) | SB__BIT(w, __NR_execve) | SB__BIT(w, __NR_execveat) |   \
     SB__BIT(w, __NR_exit) | SB__BIT(w, __NR_exit_group) | SB__DENY_CLONE3(w) |  \
     SB__DENY_ARCH_PRCTL(w) | SB__DENY_IOPL(w) | SB__BIT(w, __NR_sigaltstack) |  \
     SB__DENY_BATCH(w))

static const unsigned long sb__deny[SB__DENY_WORDS] = {
    SB__DENY_WORD(0), SB__DENY_WORD(1), SB__DENY_WORD(2), SB__DENY_WORD(3),
    SB__DENY_WORD(4), SB__DENY_WORD(5), SB__DENY_WORD(6), SB__DENY_WORD(7),
};

/* Denied numbers and negative ones (other than the word copy, handled
 * first): no kernel has a call there, so they are not worth a crossing. */
static inline int sb__denied(long nr)
{
    unsigned long u = (unsigned long)nr;
    if (__builtin_expect(u < 64 * SB__DENY_WORDS, 1)) {
        return (sb__deny[u >> 6] >> (u & 63)) & 1;
    }
    return nr < 0;
}

/* ---------------------------------------------------------------- cancellation */

/* Calls that are pthread cancellation points in libc.  A batch containing one
 * acts on a pending deferred cancellation once, before its first slot: the
 * batch is one cancellation point (raw calls inside it are not).  fcntl is
 * left out (libc makes it one only for F_SETLKW). */
static const short sb__cancel_points[] = {
    __NR_read, __NR_write, __NR_close, __NR_openat, __NR_pread64, __NR_pwrite64,
    __NR_readv, __NR_writev, __NR_preadv, __NR_pwritev, __NR_msync, __NR_fsync,
    __NR_fdatasync, __NR_waitid, __NR_accept4, __NR_connect, __NR_sendmmsg,
    __NR_rt_sigsuspend, __NR_epoll_pwait, __NR_fallocate,
    /* absent on some ABIs (no legacy open/select/poll on newer ports, no
     * direct socket or SysV IPC calls on old 32-bit ones, time64-only ports): */
#ifdef __NR_open
    __NR_open,
#endif
#ifdef __NR_creat
    __NR_creat,
#endif
#ifdef __NR_select
    __NR_select,
#endif
#ifdef __NR_poll
    __NR_poll,
#endif
#ifdef __NR_pause
    __NR_pause,
#endif
#ifdef __NR_epoll_wait
    __NR_epoll_wait,
#endif
#ifdef __NR_accept
    __NR_accept,
#endif
#ifdef __NR_sendto
    __NR_sendto,
#endif
#ifdef __NR_recvfrom
    __NR_recvfrom,
#endif
#ifdef __NR_sendmsg
    __NR_sendmsg,
#endif
#ifdef __NR_recvmsg
    __NR_recvmsg,
#endif
#ifdef __NR_msgsnd
    __NR_msgsnd,
#endif
#ifdef __NR_msgrcv
    __NR_msgrcv,
#endif
#ifdef __NR_nanosleep
    __NR_nanosleep,
#endif
#ifdef __NR_clock_nanosleep
    __NR_clock_nanosleep,
#endif
#ifdef __NR_wait4
    __NR_wait4,
#endif
#ifdef __NR_recvmmsg
    __NR_recvmmsg,
#endif
#ifdef __NR_rt_sigtimedwait
    __NR_rt_sigtimedwait,
#endif
#ifdef __NR_pselect6
    __NR_pselect6,
#endif
#ifdef __NR_ppoll
    __NR_ppoll,
#endif
#ifdef __NR_mq_timedsend
    __NR_mq_timedsend,
#endif
#ifdef __NR_mq_timedreceive
    __NR_mq_timedreceive,
#endif
#ifdef __NR_preadv2
    __NR_preadv2,
#endif
#ifdef __NR_pwritev2
    __NR_pwritev2,
#endif
#ifdef __NR_openat2
    __NR_openat2,
#endif
#ifdef __NR_epoll_pwait2
    __NR_epoll_pwait2,
#endif
#ifdef __NR_copy_file_range
    __NR_copy_file_range,
#endif
};

/* One byte per number (not a bit): the check loop ORs it in with a single
 * load.  Filled once, before any batch runs. */
static unsigned char sb__cancel[64 * SB__DENY_WORDS];

static void sb__fill_cancel_points(void)
{
    size_t k;
    for (k = 0; k < sizeof sb__cancel_points / sizeof sb__cancel_points[0]; k++) {
        unsigned long nr = (unsigned long)sb__cancel_points[k];
        if (nr < sizeof sb__cancel) {
            __atomic_store_n(&sb__cancel[nr], 1, __ATOMIC_RELAXED);
        }
    }
}

/* ---------------------------------------------------------------- state */

int sysbatch_active;
static int sb__path_chosen; /* enum sysbatch_path, written once per process */

/* Counters are bumped once per batch with relaxed atomics: exact under
 * threads, with no ordering cost beyond the locked add.  sb__calls counts
 * the executed slots that were system calls (word copies are not). */
static unsigned long sb__batches[3];
static unsigned long sb__slots[3];
static unsigned long sb__calls;
/* Of sb__calls, those that shared their batch with another call: a batch
 * that ran one call saved no crossing, whatever it was planned to hold. */
static unsigned long sb__shared;
static unsigned long sb__refused;
/* Set at start-up when no stats line will be printed: the "calls" figure
 * (slots less word copies) is then not worth a pass over a planned batch. */
static int sb__calls_untracked;

static inline void sb__count(unsigned long *counter, unsigned long by)
{
    __atomic_fetch_add(counter, by, __ATOMIC_RELAXED);
}

static int sb__env_on(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] && strcmp(v, "0") != 0;
}

/* Under valgrind: it preloads its vgpreload_*.so into every program it
 * runs.  Valgrind knows no syscall 183, answers -ENOSYS and prints a
 * warning to the program's stderr, which programs' own test suites (that
 * run them under valgrind and want an empty stderr) see as a failure. */
static int sb__under_valgrind(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "/vgpreload_") != NULL;
}

static int sb__kernel_has_batch(void)
{
#if SB__HAVE_KERNEL_PATH
    /* Valgrind would answer -ENOSYS anyway; don't make it warn. */
    if (sb__under_valgrind())
        return 0;
    /* n = 0 is the presence probe: 0 from sys_batch, -ENOSYS without it. */
    return sb__raw_syscall6(SYSBATCH_NR_BATCH, 0, 0, 0, 0, 0, 0) == 0;
#else
    return 0;
#endif
}

/* Batches smaller than this run as their original calls even on the kernel
 * path: below it one crossing with sys_batch costs more than the separate
 * calls.  SYSBATCH_MIN_BATCH=<n> overrides what the module reports through
 * its info query; a module without the query (or an answer that makes no
 * sense) gets 1, i.e. every batch goes to the kernel, as before. */
static long sb__min_batch = 1;

static long sb__kernel_min_batch(void)
{
    const char *env = getenv("SYSBATCH_MIN_BATCH");
    if (env && env[0]) {
        long v = strtol(env, NULL, 10);
        return v >= 1 && v <= SYSBATCH_MAX_SLOTS ? v : 1;
    }
#if SB__HAVE_KERNEL_PATH
    long info[SYSBATCH_INFO_WORDS] = { 0 };
    if (sb__raw_syscall6(SYSBATCH_NR_BATCH, (long)info, 0, 0, SYSBATCH_QUERY_INFO, 0, 0) == 0 &&
        info[SYSBATCH_INFO_VERSION] == 1 && info[SYSBATCH_INFO_MIN_BATCH] >= 1 &&
        info[SYSBATCH_INFO_MIN_BATCH] <= SYSBATCH_MAX_SLOTS) {
        return info[SYSBATCH_INFO_MIN_BATCH];
    }
#endif
    return 1;
}

static enum sysbatch_path sb__choose_path(void)
{
    int forced = sb__env_on("BATCH_EMUL") || sb__env_on("SYSBATCH_EMUL");
    enum sysbatch_path p = SYSBATCH_PATH_EMUL;
    sb__fill_cancel_points();
    if (!forced && sb__kernel_has_batch()) {
        p = SYSBATCH_PATH_KERNEL;
        __atomic_store_n(&sb__min_batch, sb__kernel_min_batch(), __ATOMIC_RELAXED);
    }
    __atomic_store_n(&sysbatch_active, forced || p == SYSBATCH_PATH_KERNEL, __ATOMIC_RELAXED);
    __atomic_store_n(&sb__path_chosen, (int)p, __ATOMIC_RELEASE);
    return p;
}

enum sysbatch_path sysbatch_path(void)
{
    int p = __atomic_load_n(&sb__path_chosen, __ATOMIC_ACQUIRE);
    if (p == SYSBATCH_PATH_NONE) {
        /* Only reached when a batch runs before our constructor (from an
         * earlier constructor); two racing threads reach the same answer. */
        return sb__choose_path();
    }
    return (enum sysbatch_path)p;
}

static void sb__write_stderr(const char *text, size_t len)
{
    (void)sb__syscall3(__NR_write, 2, (long)text, (long)len);
}

/* ---------------------------------------------------------------- stats at exit */

/* The stats line must reach the stderr the process was started with, and
 * nothing else.  By exit time fd 2 may be closed (GNU programs close stdout
 * and stderr in an atexit handler) or be a file the program put there with
 * dup2, so fd 2 is copied at start-up to a private descriptor, placed high
 * (F_DUPFD_CLOEXEC from near the top of a capped range, so it never takes
 * the lowest free number a program counts on, and exec drops it), and its
 * file identity is remembered.  At exit the line goes to that descriptor
 * only if it still names the same file; if the program closed it, or put
 * something else on that number, nothing is printed. */
#define SB__STATS_FD_CEILING 1024 /* never grow a huge fd table for this */
#define SB__STATS_FD_BELOW_TOP 32 /* room left under the limit for the program */

static int sb__stats_fd = -1;
static dev_t sb__stats_dev;
static ino_t sb__stats_ino;
static char sb__stats_file[4096]; /* SYSBATCH_STATS_FILE, absolute; "" when unset */

static int sb__private_fd_base(void)
{
    struct rlimit lim;
    long top = SB__STATS_FD_CEILING;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
        (long)lim.rlim_cur < top) {
        top = (long)lim.rlim_cur;
    }
    if (top - SB__STATS_FD_BELOW_TOP >= 10) {
        return (int)(top - SB__STATS_FD_BELOW_TOP);
    }
    return top - 1 >= 3 ? (int)(top - 1) : -1;
}

static void sb__keep_stderr(void)
{
    struct stat st;
    int base = sb__private_fd_base(), fd;
    if (base < 0 || fstat(2, &st) != 0) {
        return; /* no stderr to keep: the line is never printed */
    }
    fd = fcntl(2, F_DUPFD_CLOEXEC, base);
    if (fd < 0) {
        return;
    }
    sb__stats_dev = st.st_dev;
    sb__stats_ino = st.st_ino;
    sb__stats_fd = fd;
}

/* The path is made absolute now: by exit the program may have changed its
 * working directory (tar -C, find -execdir). */
static void sb__remember_stats_file(void)
{
    const char *path = getenv("SYSBATCH_STATS_FILE");
    size_t len, dir_len;
    if (!path || !path[0]) {
        return;
    }
    len = strlen(path);
    if (path[0] == '/') {
        if (len < sizeof sb__stats_file) {
            memcpy(sb__stats_file, path, len + 1);
        }
        return;
    }
    if (!getcwd(sb__stats_file, sizeof sb__stats_file)) {
        sb__stats_file[0] = '\0';
        return;
    }
    dir_len = strlen(sb__stats_file);
    if (dir_len + 1 + len >= sizeof sb__stats_file) {
        sb__stats_file[0] = '\0'; /* too long to name: write nothing */
        return;
    }
    sb__stats_file[dir_len] = '/';
    memcpy(sb__stats_file + dir_len + 1, path, len + 1);
}

/* A child made by fork (without exec) reports only its own batches, so the
 * lines of all processes add up to the batches that ran. */
static void sb__reset_counters_in_child(void)
{
    int k;
    for (k = 0; k < 3; k++) {
        __atomic_store_n(&sb__batches[k], 0, __ATOMIC_RELAXED);
        __atomic_store_n(&sb__slots[k], 0, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&sb__calls, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&sb__shared, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&sb__refused, 0, __ATOMIC_RELAXED);
}

__attribute__((constructor(101))) static void sb__init(void)
{
    int saved_errno = errno;
    enum sysbatch_path p = sb__choose_path();
    if (sb__env_on("BATCH_VERBOSE")) {
        static const char real[] = "sys_batch Real\n";
        static const char emul[] = "sys_batch Emulated\n";
        if (p == SYSBATCH_PATH_KERNEL) {
            sb__write_stderr(real, sizeof real - 1);
        } else {
            sb__write_stderr(emul, sizeof emul - 1);
        }
    }
    if (sb__env_on("SYSBATCH_STATS")) {
        sb__keep_stderr();
    }
    sb__remember_stats_file();
    if (sb__stats_fd >= 0 || sb__stats_file[0]) {
        (void)pthread_atfork(NULL, NULL, sb__reset_counters_in_child);
    } else {
        __atomic_store_n(&sb__calls_untracked, 1, __ATOMIC_RELAXED);
    }
    errno = saved_errno;
}

static int sb__still_our_stderr(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_dev == sb__stats_dev && st.st_ino == sb__stats_ino;
}

static void sb__write_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        long n = sb__syscall3(__NR_write, fd, (long)text, (long)len);
        if (n == -EINTR) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        text += n;
        len -= (size_t)n;
    }
}

__attribute__((destructor)) static void sb__fini(void)
{
    struct sysbatch_stats st;
    char line[320];
    int len, saved_errno;
    if (sb__stats_fd < 0 && !sb__stats_file[0]) {
        return;
    }
    saved_errno = errno;
    sysbatch_get_stats(&st);
    len = snprintf(line, sizeof line,
                   "sysbatch: kernel %lu batches %lu slots; emulated %lu batches %lu slots; "
                   "refused %lu; calls %lu; shared %lu\n",
                   st.batches[SYSBATCH_PATH_KERNEL], st.slots[SYSBATCH_PATH_KERNEL],
                   st.batches[SYSBATCH_PATH_EMUL], st.slots[SYSBATCH_PATH_EMUL], st.refused,
                   __atomic_load_n(&sb__calls, __ATOMIC_RELAXED),
                   __atomic_load_n(&sb__shared, __ATOMIC_RELAXED));
    if (len <= 0 || (size_t)len >= sizeof line) {
        errno = saved_errno;
        return;
    }
    if (sb__stats_fd >= 0 && sb__still_our_stderr(sb__stats_fd)) {
        sb__write_all(sb__stats_fd, line, (size_t)len);
    }
    if (sb__stats_file[0]) {
        /* One write of one short line to an O_APPEND file: lines of
         * processes exiting together do not interleave. */
        int fd = open(sb__stats_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
        if (fd >= 0) {
            sb__write_all(fd, line, (size_t)len);
            close(fd);
        }
    }
    errno = saved_errno;
}

void sysbatch_get_stats(struct sysbatch_stats *out)
{
    int k;
    for (k = 0; k < 3; k++) {
        out->batches[k] = __atomic_load_n(&sb__batches[k], __ATOMIC_RELAXED);
        out->slots[k] = __atomic_load_n(&sb__slots[k], __ATOMIC_RELAXED);
    }
    out->refused = __atomic_load_n(&sb__refused, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------- checking */

static int sb__inside(const void *p, const void *base, size_t bytes)
{
    unsigned long a = (unsigned long)p, b = (unsigned long)base;
    return a >= b && a - b < bytes;
}

/* A word copy may read anything and write anything, except where the two
 * paths would disagree: the kernel works on its own copies of rets and of
 * the slots, so a copy must not write into rets, must not read from the
 * slot array, and may patch the slot array only in an arg[] word of a later
 * slot (patching nr, argc or a jump would bypass this very check). */
static long sb__check_copy(const long *rets, const struct sysbatch_slot *slots, long n,
                           long i)
{
    const struct sysbatch_slot *s = &slots[i];
    const void *dst = (const void *)s->arg[0];
    const void *src = (const void *)s->arg[1];
    size_t slot_bytes = (size_t)n * sizeof *slots;

    if (s->argc != 2 || s->jump_fail != 0 || s->jump_zero != 0 || s->jump_pos != 0) {
        return -SYSBATCH_EINVAL;
    }
    if (sb__inside(dst, rets, (size_t)n * sizeof *rets) || sb__inside(src, slots, slot_bytes)) {
        return -SYSBATCH_EINVAL;
    }
    if (sb__inside(dst, slots, slot_bytes)) {
        size_t at = (size_t)((unsigned long)dst - (unsigned long)slots);
        size_t slot = at / sizeof *slots, within = at % sizeof *slots;
        size_t arg0 = offsetof(struct sysbatch_slot, arg);
        if ((long)slot <= i || within < arg0 || (within - arg0) % sizeof(long) != 0) {
            return -SYSBATCH_EINVAL;
        }
    }
    return 0;
}

/* Nonzero when any of the three jump offsets is set. */
static inline int sb__has_jump(const struct sysbatch_slot *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* nr and the three jumps are the first 8 bytes: one load, one test. */
    unsigned long long head;
    memcpy(&head, s, sizeof head);
    return (head >> 16) != 0;
#else
    return (s->jump_fail | s->jump_zero | s->jump_pos) != 0;
#endif
}

/* What sb__validate learns about a valid batch on its way through it. */
struct sb__shape {
    unsigned long cancel_point; /* nonzero: some slot is a cancellation point */
    int has_jump;               /* some slot jumps (so slots may be skipped) */
    long copies;                /* word copies in the batch */
    long converted;             /* converted slots (SYSBATCH_NR_SIGACTION) */
};

/* sysbatch_check, also telling the batch's shape (both extra facts are
 * noted on paths the common slot never takes). */
static inline __attribute__((always_inline)) long
sb__validate(const long *rets, const struct sysbatch_slot *slots, long n,
             struct sb__shape *shape)
{
    long i, copies = 0, converted = 0;
    int has_jump = 0;
    unsigned long cancel = 0;
    if (n < 0 || n > SYSBATCH_MAX_SLOTS) {
        return -SYSBATCH_EINVAL;
    }
    if (n == 0) {
        return 0;
    }
    if (!rets || !slots) {
        return -SYSBATCH_EFAULT;
    }
    if (sb__inside(rets, slots, (size_t)n * sizeof *slots) ||
        sb__inside(slots, rets, (size_t)n * sizeof *rets)) {
        return -SYSBATCH_EINVAL; /* results would overwrite slots */
    }
    for (i = 0; i < n; i++) {
        const struct sysbatch_slot *s = &slots[i];
        long fz, far;
        if ((unsigned char)s->argc > 6) {
            return -SYSBATCH_EINVAL;
        }
        /* A jump's target is i + 1 + off, where n means "done"; a negative
         * off stops, and then i + 1 + off <= i < n, so testing the largest
         * of the three offsets covers all of them.  Most slots fall through
         * on every outcome: one test of the three jumps together. */
        if (sb__has_jump(s)) {
            has_jump = 1;
            fz = s->jump_fail > s->jump_zero ? s->jump_fail : s->jump_zero;
            far = fz > s->jump_pos ? fz : s->jump_pos;
            if (i + 1 + far > n) {
                return -SYSBATCH_EINVAL;
            }
        }
        /* Ordinary numbers index the cancellation table; only numbers
         * outside it (the word copy among them) need a second look. */
        if (__builtin_expect((unsigned long)(long)s->nr < sizeof sb__cancel, 1)) {
            cancel |= sb__cancel[(unsigned long)(long)s->nr];
        } else if (s->nr == SYSBATCH_NR_WORDCOPY) {
            long bad = sb__check_copy(rets, slots, n, i);
            if (bad) {
                return bad;
            }
            copies++;
        } else if (s->nr == SYSBATCH_NR_SIGACTION) {
            converted++;
        }
    }
    shape->converted = converted;
    shape->cancel_point = cancel;
    shape->has_jump = has_jump;
    shape->copies = copies;
    return 0;
}

long sysbatch_check(const long *rets, const struct sysbatch_slot *slots, long n)
{
    struct sb__shape shape;
    return sb__validate(rets, slots, n, &shape);
}

/* rets[from..n-1] = SYSBATCH_NOT_RUN */
static void sb__mark_not_run(long *rets, long from, long n)
{
    for (long i = from; i < n; i++) {
        rets[i] = SYSBATCH_NOT_RUN;
    }
}

/* ---------------------------------------------------------------- emulator */

/* The hot loop: a few loads, the deny test, one raw syscall, a three-way
 * pick.  Arguments beyond argc are passed as 0, as the kernel path does. */
static long sb__emulate(long *rets, struct sysbatch_slot *slots, long n, long *executed,
                        long *copies)
{
    long i = 0, last = 0, count = 0, copied = 0;
    while (i < n) {
        struct sysbatch_slot *s = &slots[i];
        long nr = s->nr, r, off;
        last = i;
        count++;
        /* One compare sends every ordinary number to the deny table; the
         * word copy and the negative numbers are off that path. */
        if (__builtin_expect((unsigned long)nr >= 64 * SB__DENY_WORDS, 0) &&
            nr == SYSBATCH_NR_WORDCOPY) {
            *(long *)s->arg[0] = *(const long *)s->arg[1];
            rets[i] = 0;
            copied++;
            i++; /* sysbatch_check made its jumps 0 */
            continue;
        }
        if (__builtin_expect(nr == SYSBATCH_NR_SIGACTION, 0)) {
            r = sb__sigaction_call(s->argc > 0 ? s->arg[0] : 0, s->argc > 1 ? s->arg[1] : 0,
                                   s->argc > 2 ? s->arg[2] : 0);
        } else if (__builtin_expect(sb__denied(nr), 0)) {
            r = -ENOSYS;
        } else {
            /* One indirect jump on argc (checked 0..6) instead of six tests. */
            long a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0;
            switch (s->argc) {
            case 6: a5 = s->arg[5]; /* fall through */
            case 5: a4 = s->arg[4]; /* fall through */
            case 4: a3 = s->arg[3]; /* fall through */
            case 3: a2 = s->arg[2]; /* fall through */
            case 2: a1 = s->arg[1]; /* fall through */
            case 1: a0 = s->arg[0]; /* fall through */
            default: break;
            }
            r = sb__syscall6(nr, a0, a1, a2, a3, a4, a5);
        }
        rets[i] = r;
        off = r < 0 ? s->jump_fail : r == 0 ? s->jump_zero : s->jump_pos;
        if (off < 0) {
            break;
        }
        i += 1 + off;
    }
    *executed = count;
    *copies = copied;
    return last;
}

/* ---------------------------------------------------------------- kernel */

#if SB__HAVE_KERNEL_PATH
/* The kernel reports only the last index; replay the jumps over rets to
 * count the slots it ran and the word copies among them (a word copy always
 * falls through). */
static long sb__count_path(const long *rets, const struct sysbatch_slot *slots, long last,
                           long *copies)
{
    long i = 0, count = 0, copied = 0;
    while (i <= last) {
        const struct sysbatch_slot *s = &slots[i];
        long off = 0;
        count++;
        if (s->nr == SYSBATCH_NR_WORDCOPY) {
            copied++;
        } else {
            long r = rets[i];
            off = r < 0 ? s->jump_fail : r == 0 ? s->jump_zero : s->jump_pos;
            if (off < 0) {
                break;
            }
        }
        i += 1 + off;
    }
    *copies = copied;
    return count;
}
#endif

/* ---------------------------------------------------------------- entry */

#define SB__RUN_FLAGS \
    (SYSBATCH_RUN_PLANNED | SYSBATCH_RUN_JUMPS | SYSBATCH_RUN_CANCEL | SYSBATCH_RUN_CONVERTS)
/* The facts a plugin vouches for: only with SYSBATCH_RUN_PLANNED. */
#define SB__RUN_FACTS (SYSBATCH_RUN_JUMPS | SYSBATCH_RUN_CANCEL)

/* Word copies among slots[0..n-1], for the "calls" figure of the stats
 * line when the plugin's flags stood in for the check that counts them. */
static long sb__count_copies(const struct sysbatch_slot *slots, long n)
{
    long i, copies = 0;
    for (i = 0; i < n; i++) {
        copies += slots[i].nr == SYSBATCH_NR_WORDCOPY;
    }
    return copies;
}

/* The "calls" and "shared" figures of one batch that ran `calls` system
 * calls. */
static inline void sb__count_calls(long calls)
{
    sb__count(&sb__calls, (unsigned long)calls);
    if (calls >= 2) {
        sb__count(&sb__shared, (unsigned long)calls);
    }
}

/* Nonzero when a jump offset of a slot-0 outcome leaves the batch: a stop,
 * or a jump to the end of an n-slot batch. */
static inline int sb__first_outcome_ends(short off, long n)
{
    return off < 0 || 1 + off >= n;
}

/* Nonzero when the batch should run as its original calls because through
 * the kernel it would cost more: fewer slots than the module's break-even,
 * or (break-even above 1) a batch planned with several slots of which the
 * first is the only one that can run.  The latter is what a predicated
 * fill makes when the flag that guards the later calls is off (tar -xf
 * without --overwrite: openat runs, fstat and close are skipped): every
 * outcome of slot 0 ends the batch.  Only slot 0 is looked at, so the test
 * costs the common batch two loads at most. */
static inline int sb__below_break_even(const struct sysbatch_slot *slots, long n)
{
    long min = __atomic_load_n(&sb__min_batch, __ATOMIC_RELAXED);
    const struct sysbatch_slot *first = &slots[0];
    if (n < min) {
        return 1;
    }
    if (min <= 1 || n == 1 || !sb__has_jump(first)) {
        return 0;
    }
    return sb__first_outcome_ends(first->jump_fail, n) &&
           sb__first_outcome_ends(first->jump_zero, n) &&
           sb__first_outcome_ends(first->jump_pos, n);
}

/* What every batch does before its first slot runs, on either path. */
static inline void sb__before_run(long *rets, long n, const struct sb__shape *shape)
{
    if (shape->cancel_point) {
        pthread_testcancel();
    }
    /* A slot the batch jumps over keeps this value, so rewritten code can
     * tell which calls ran (neither sys_batch nor the loop below writes the
     * rets of skipped slots).  Without jumps only a batch that ends early
     * leaves slots unrun, and those are marked after it returns: the
     * common batch pays no pass over rets. */
    if (shape->has_jump) {
        sb__mark_not_run(rets, 0, n);
    }
}

#if SB__HAVE_KERNEL_PATH
/* One crossing through sys_batch (1 <= n <= SYSBATCH_MAX_SLOTS).  Returns
 * what sysbatch_run returns, or -SYSBATCH_EREFUSED when the kernel ran
 * nothing because the task must be seen making each call.  shape->copies
 * < 0: not counted yet (a planned batch). */
static inline long sb__run_kernel(long *rets, const struct sysbatch_slot *slots, long n,
                                  const struct sb__shape *shape)
{
    long last = sb__raw_syscall6(SYSBATCH_NR_BATCH, (long)rets, (long)slots, n, 0, 0, 0);
    long executed, copies;
    if (last >= 0 && last < n) {
        if (!shape->has_jump && last == n - 1) {
            executed = n; /* every slot ran, in order */
            copies = shape->copies;
            if (copies < 0) {
                copies = __atomic_load_n(&sb__calls_untracked, __ATOMIC_RELAXED)
                             ? 0
                             : sb__count_copies(slots, n);
            }
        } else {
            if (!shape->has_jump) {
                sb__mark_not_run(rets, last + 1, n); /* stopped early */
            }
            executed = sb__count_path(rets, slots, last, &copies);
        }
        sb__count(&sb__batches[SYSBATCH_PATH_KERNEL], 1);
        sb__count(&sb__slots[SYSBATCH_PATH_KERNEL], (unsigned long)executed);
        sb__count_calls(executed - copies);
    } else if (last != -SYSBATCH_EREFUSED) {
        /* The batch failed as a whole (bad pointers, or a planned batch
         * that was malformed after all, found before anything ran on our
         * module): nothing to read, as before - unless rets itself may be
         * the bad pointer, which is then left alone. */
        if (!shape->has_jump && last != -SYSBATCH_EFAULT) {
            sb__mark_not_run(rets, 0, n);
        }
        sb__count(&sb__refused, 1);
    }
    return last;
}

/* A batch that may hold converted slots (sigaction.c): the kernel runs the
 * runtime's converted copy, then each *oact is written.  Its own frame, so
 * the common batch does not pay for the scratch.  -SYSBATCH_EREFUSED as
 * above, also when the conversion cannot keep glibc's behaviour. */
static __attribute__((noinline)) long sb__run_kernel_converted(long *rets,
                                                               const struct sysbatch_slot *slots,
                                                               long n,
                                                               const struct sb__shape *shape)
{
    struct sb__sigaction_work work;
    long last;
    if (sb__sigaction_to_kernel(slots, n, &work) != 0) {
        return -SYSBATCH_EREFUSED;
    }
    last = sb__run_kernel(rets, work.slots, n, shape);
    if (last >= 0 && last < n) {
        sb__sigaction_from_kernel(rets, slots, n, &work);
    }
    return last;
}
#endif

long sysbatch_run(long *rets, struct sysbatch_slot *slots, long n, long flags)
{
    enum sysbatch_path p = sysbatch_path(); /* first: it fills sb__cancel */
    struct sb__shape shape = { 0, 0, 0, 0 }, told = { 0, 0, -1, 0 };
    long bad, last, executed, copies;
    int prepared = 0;

    if ((flags & ~(long)SB__RUN_FLAGS) != 0 ||
        ((flags & SB__RUN_FACTS) && !(flags & SYSBATCH_RUN_PLANNED))) {
        sb__count(&sb__refused, 1);
        return -SYSBATCH_EINVAL;
    }
#if SB__HAVE_KERNEL_PATH
    /* A planned batch on the kernel path goes straight to the kernel with
     * the shape its plugin told: the module refuses, with nothing run, any
     * batch that could take it or the process outside the two arrays (bad
     * pointers, argc, jumps, header patches), and the plugins build only
     * batches that pass sysbatch_check, so a pass here would only repeat
     * the planner's work on every batch.  Everything else, including a
     * planned batch the kernel refuses (the loop below trusts only a
     * checked batch), is checked first. */
    if ((flags & (SYSBATCH_RUN_PLANNED | SYSBATCH_RUN_CONVERTS)) == SYSBATCH_RUN_PLANNED &&
        p == SYSBATCH_PATH_KERNEL && rets && slots &&
        (unsigned long)(n - 1) < SYSBATCH_MAX_SLOTS && !sb__below_break_even(slots, n)) {
        told.cancel_point = (unsigned long)(flags & SYSBATCH_RUN_CANCEL);
        told.has_jump = (flags & SYSBATCH_RUN_JUMPS) != 0;
        sb__before_run(rets, n, &told);
        last = sb__run_kernel(rets, slots, n, &told);
        if (last != -SYSBATCH_EREFUSED) {
            return last;
        }
        prepared = 1;
    }
#endif
    bad = sb__validate(rets, slots, n, &shape);
    /* A converted slot the caller did not announce would reach the kernel
     * as an unknown number. */
    if (!bad && shape.converted && !(flags & SYSBATCH_RUN_CONVERTS)) {
        bad = -SYSBATCH_EINVAL;
    }
    if (bad) {
        sb__count(&sb__refused, 1);
        return bad;
    }
    if (n == 0) {
        return 0;
    }
    if (!prepared) {
        sb__before_run(rets, n, &shape);
    } else if (shape.has_jump && !told.has_jump) {
        sb__mark_not_run(rets, 0, n); /* the flags left out a jump */
    }
#if SB__HAVE_KERNEL_PATH
    /* Below the break-even the original calls are cheaper; a refusal means
     * the task must be seen making each call (it is traced, audited or
     * filtered now, perhaps only since start-up): the kernel ran nothing,
     * so the batch runs as its original calls below, and that is no error. */
    if (!prepared && p == SYSBATCH_PATH_KERNEL && !sb__below_break_even(slots, n)) {
        last = (flags & SYSBATCH_RUN_CONVERTS) ? sb__run_kernel_converted(rets, slots, n, &shape)
                                               : sb__run_kernel(rets, slots, n, &shape);
        if (last != -SYSBATCH_EREFUSED) {
            return last;
        }
    }
#else
    (void)p;
    (void)prepared;
#endif
    /* without jumps the loop runs every slot, so none needs the mark */
    last = sb__emulate(rets, slots, n, &executed, &copies);
    sb__count(&sb__batches[SYSBATCH_PATH_EMUL], 1);
    sb__count(&sb__slots[SYSBATCH_PATH_EMUL], (unsigned long)executed);
    sb__count_calls(executed - copies);
    return last;
}
