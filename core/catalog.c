/* sysbatch core: the syscall catalogue (Linux x86_64, glibc 2.36, and Tock).
 *
 * One row teaches both compilers one call
 * =======================================
 *
 * Each row of `rows` below is everything either plugin knows about one libc
 * function.  Take
 *
 *     ROW("fstat", "newfstatat", 262, 2, A(FD, OUTN(144)),
 *         4, A(L(0), EMPTY, L(1), C(0x1000)), ERRNO, 32, 0)
 *
 * It says, in order:
 *   - the libc symbol `fstat` (aliases such as fstat64 are in `aliases`);
 *   - glibc issues the kernel call `newfstatat`, number 262;
 *   - the two libc arguments are a file descriptor and an output buffer the
 *     kernel writes 144 bytes into (sizeof(struct stat)), which is what the
 *     front ends' alias analysis asks when deciding whether code between two
 *     calls may be crossed;
 *   - the four raw arguments are built as (libc arg 0, "", libc arg 1,
 *     AT_EMPTY_PATH), exactly what strace shows glibc doing; the planner
 *     copies this recipe into every slot it emits;
 *   - the result is -1/errno (ERRNO), 32 bits wide (int), and the call has
 *     no special flags (it neither blocks nor touches the fd table).
 *
 * The rewritten code only ever calls the runtime's convert() for the return
 * convention, so a row is the single place where a call's libc behaviour is
 * written down.  tests/core/Catalog_strace.test runs a program calling every
 * row under strace and compares the kernel calls with `sysbatch-plan
 * --catalog`, so a row cannot silently drift from glibc.
 *
 * Rows with SB_ROW_NEVER are kept (rather than left out) so that a refusal
 * names the real reason ("replaces the process image") instead of "not in
 * the catalogue", and so that syscall(SYS_execve, ...) is refused for the
 * same reason as execve().  A symbol that has no row is simply unknown and
 * never batched; deliberately absent are wrappers that do more than one raw
 * call or keep user-space state: opendir/readdir/closedir (malloc, getdents64
 * buffering), getcwd (mallocs when buf is NULL), fortified variants
 * (__read_chk, __open_2: extra checks that may abort), stdio, and
 * utimes/futimes/lutimes (glibc converts the timevals to a local timespec
 * array, so the raw argument is not the caller's pointer).  Where only some
 * argument values are a plain call (fcntl's value commands, fchmodat with
 * flags 0, renameat2 with nonzero flags) the row has a precheck instead.
 *
 * Several rows issue the same raw call (fstat, stat, lstat, fstatat all use
 * newfstatat).  sb_catalog_by_nr() answers with the row whose libc arguments
 * ARE the raw arguments (fstatat for 262), because syscall(NR, ...) passes
 * its arguments through unchanged; rows named "SYS_<name>" exist only so
 * that syscall(NR, ...) with a number no libc function uses still meets a
 * never-batch row (SYS_exit, SYS_fork).
 */
#include "sysbatch/core.h"

#include <stdlib.h>
#include <string.h>

/* Argument kinds. */
#define V {SB_ARG_VALUE, -1, 0}
#define FD {SB_ARG_FD, -1, 0}
#define PATH {SB_ARG_PATH, -1, 0}
#define IN(k) {SB_ARG_IN_BUF, (k), 0}
#define OUT(k) {SB_ARG_OUT_BUF, (k), 0}
#define INN(n) {SB_ARG_IN_BUF, -1, (n)}
#define OUTN(n) {SB_ARG_OUT_BUF, -1, (n)}
#define ADDR {SB_ARG_ADDR, -1, 0}
#define IOVIN(k) {SB_ARG_IOVEC_IN, (k), 0}
#define IOVOUT(k) {SB_ARG_IOVEC_OUT, (k), 0}
#define OPQ {SB_ARG_OPAQUE, -1, 0}
/* A buffer the kernel writes a run-time number of bytes into (a sockaddr
 * whose room is *addrlen): unknown size, so every access to it is ordered
 * with the call. */
#define OUTU {SB_ARG_OUT_BUF, -1, 0}

/* Raw argument recipes. */
#define L(i) {SB_RAW_LIBC_ARG, (i), 0}
#define C(v) {SB_RAW_CONST, 0, (v)}
#define EMPTY {SB_RAW_EMPTY_STRING, 0, 0}

#define A(...) {__VA_ARGS__}

#define ERRNO SB_RET_ERRNO
#define MAPFAIL SB_RET_MAP_FAILED
#define POSERR SB_RET_POSITIVE_ERROR
#define NOFAIL SB_RET_NEVER_FAILS

#define BLOCK SB_ROW_MAY_BLOCK
#define FDTAB SB_ROW_FD_TABLE
#define VARIADIC SB_ROW_VARIADIC
#define OPENMODE (SB_ROW_VARIADIC | SB_ROW_OPEN_MODE)
#define COUNT SB_ROW_RESULT_LE_SIZE
#define POSITION SB_ROW_FD_POSITION
#define FDNEG SB_ROW_FD0_FAILS_NEGATIVE

/* Linux values the recipes use (from the kernel uapi headers). */
#define AT_FDCWD_VALUE (-100)
#define AT_EMPTY_PATH_VALUE 0x1000
#define AT_SYMLINK_NOFOLLOW_VALUE 0x100

#define ROW(name, raw, nr, lc, largs, rc, rargs, ret, bits, flags)            \
    {name, raw, SB_ABI_LINUX_X86_64, nr, lc, largs, rc, rargs, ret, bits,     \
     flags, NULL, SB_PRE_NONE, 0, NULL, 0}
/* A row whose glibc wrapper checks one argument itself (enum sb_precheck). */
#define ROW_PRE(name, raw, nr, lc, largs, rc, rargs, ret, bits, flags, pre,    \
                parg)                                                          \
    {name, raw, SB_ABI_LINUX_X86_64, nr, lc, largs, rc, rargs, ret, bits,     \
     flags, NULL, pre, parg, NULL, 0}
/* A row that is one plain system call only when libc argument `parg` is a
 * constant from the array `allowed` (SB_PRE_CONST_ALLOWED). */
#define ROW_ALLOWED(name, raw, nr, lc, largs, rc, rargs, ret, bits, flags,     \
                    parg, allowed)                                             \
    {name, raw, SB_ABI_LINUX_X86_64, nr, lc, largs, rc, rargs, ret, bits,     \
     flags, NULL, SB_PRE_CONST_ALLOWED, parg, allowed,                         \
     sizeof allowed / sizeof allowed[0]}
#define NEVER(name, raw, nr, why)                                              \
    {name, raw, SB_ABI_LINUX_X86_64, nr, 0, {{0, 0, 0}}, 0, {{0, 0, 0}},      \
     ERRNO, 64, SB_ROW_NEVER, why, SB_PRE_NONE, 0, NULL, 0}
#define SHM SB_ROW_SHARED_MEMORY
#define TOCK(name, cls, lc, largs, rc, rargs, flags, why)                      \
    {name, name, SB_ABI_TOCK, cls, lc, largs, rc, rargs, SB_RET_TOCK, 32,      \
     flags, why, SB_PRE_NONE, 0, NULL, 0}

static const char why_process_ends[] =
    "ends the process: nothing after it may be moved before it";
static const char why_exec[] =
    "replaces the process image: later calls would never run";
static const char why_fork[] =
    "creates a process or thread: the child would inherit a half-run batch";
static const char why_vdso[] =
    "served by the vDSO without entering the kernel: a batch would only add "
    "a crossing";
static const char why_yield_no_wait[] =
    "yield-no-wait reports through a flag the kernel writes into app memory; "
    "sysbatch puts only yield-wait and Yield-WaitFor into a series";
static const char why_yield_for[] =
    "yield_for loops on a condition an upcall sets: a loop is not a series";

/* fcntl commands glibc 2.36 passes straight to the kernel with a plain
 * integer third argument (or none), and that never block: F_DUPFD,
 * F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC.  Every other command
 * stays unbatched: the lock commands take a struct flock pointer (and
 * F_SETLKW blocks and is a cancellation point), F_GETOWN is issued as
 * F_GETOWN_EX on a local struct, and the rest take pointers or change
 * signal delivery. */
static const long fcntl_value_commands[] = {0, 1, 2, 3, 4, 1030};
/* fchmodat with AT_SYMLINK_NOFOLLOW is emulated (openat O_PATH, then
 * fstatat and chmod through /proc); any other nonzero flag is EINVAL
 * without a system call.  Only flags 0 is the plain 3-argument call. */
static const long fchmodat_plain_flags[] = {0};
/* ioctl requests glibc 2.36 passes straight to the kernel whose third
 * argument is a plain integer and whose only effect is on files: FICLONE
 * (_IOW(0x94, 9, int), the source descriptor), which cp --reflink=auto
 * tries before every data copy.  Every other request stays unbatched: most
 * take a pointer the kernel reads or writes in a layout of its own. */
static const long ioctl_value_requests[] = {0x40049409};

static const struct sb_syscall rows[] = {
    /* --- data --------------------------------------------------------- */
    ROW("read", "read", 0, 3, A(FD, OUT(2), V), 3, A(L(0), L(1), L(2)),
        ERRNO, 64, BLOCK | COUNT | POSITION | FDNEG),
    ROW("write", "write", 1, 3, A(FD, IN(2), V), 3, A(L(0), L(1), L(2)),
        ERRNO, 64, BLOCK | COUNT | POSITION | FDNEG),
    /* glibc's writev is the plain system call (no emulation above
     * IOV_MAX: the kernel answers EINVAL). */
    ROW("writev", "writev", 20, 3, A(FD, IOVIN(2), V), 3, A(L(0), L(1), L(2)),
        ERRNO, 64, BLOCK | POSITION | FDNEG),
    /* readv, preadv and pwritev are plain system calls in glibc 2.36 (no
     * emulation above IOV_MAX either).  preadv/pwritev pass the offset as
     * (low, high) words; on x86_64 the low word is the whole offset and
     * glibc passes 0 as the high one (xor %r8d in its wrapper), as the
     * rows do.
     * preadv2/pwritev2 are left out: glibc falls back to preadv/readv
     * when the kernel answers ENOSYS, which one slot cannot do. */
    ROW("readv", "readv", 19, 3, A(FD, IOVOUT(2), V), 3, A(L(0), L(1), L(2)),
        ERRNO, 64, BLOCK | POSITION | FDNEG),
    ROW("preadv", "preadv", 295, 4, A(FD, IOVOUT(2), V, V), 5,
        A(L(0), L(1), L(2), L(3), C(0)), ERRNO, 64, BLOCK | FDNEG),
    ROW("pwritev", "pwritev", 296, 4, A(FD, IOVIN(2), V, V), 5,
        A(L(0), L(1), L(2), L(3), C(0)), ERRNO, 64, BLOCK | FDNEG),
    ROW("pread64", "pread64", 17, 4, A(FD, OUT(2), V, V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 64, BLOCK | COUNT | FDNEG),
    ROW("pwrite64", "pwrite64", 18, 4, A(FD, IN(2), V, V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 64, BLOCK | COUNT | FDNEG),
    ROW("lseek", "lseek", 8, 3, A(FD, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 64, FDNEG),
    /* glibc clamps count to INT_MAX (the kernel's count is an int). */
    ROW_PRE("getdents64", "getdents64", 217, 3, A(FD, OUT(2), V), 3,
        A(L(0), L(1), L(2)), ERRNO, 64, COUNT | POSITION,
        SB_PRE_COUNT_INT_MAX, 2),
    ROW("fsync", "fsync", 74, 1, A(FD), 1, A(L(0)), ERRNO, 32, BLOCK | FDNEG),
    ROW("fdatasync", "fdatasync", 75, 1, A(FD), 1, A(L(0)), ERRNO, 32,
        BLOCK | FDNEG),
    ROW("posix_fadvise", "fadvise64", 221, 4, A(FD, V, V, V), 4,
        A(L(0), L(1), L(2), L(3)), POSERR, 32, BLOCK),
    ROW("truncate", "truncate", 76, 2, A(PATH, V), 2, A(L(0), L(1)),
        ERRNO, 32, 0),
    ROW("ftruncate", "ftruncate", 77, 2, A(FD, V), 2, A(L(0), L(1)),
        ERRNO, 32, FDNEG),
    ROW("fallocate", "fallocate", 285, 4, A(FD, V, V, V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, BLOCK),
    /* *offset, when not NULL, is read and updated by the kernel: an output
     * buffer, so code touching it in either direction stays ordered. */
    ROW("sendfile", "sendfile", 40, 4, A(FD, FD, OUTN(8), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 64, BLOCK),
    ROW("copy_file_range", "copy_file_range", 326, 6,
        A(FD, OUTN(8), FD, OUTN(8), V, V), 6,
        A(L(0), L(1), L(2), L(3), L(4), L(5)), ERRNO, 64, BLOCK),

    /* --- opening and closing -------------------------------------------- */
    ROW("open", "openat", 257, 3, A(PATH, V, V), 4,
        A(C(AT_FDCWD_VALUE), L(0), L(1), L(2)), ERRNO, 32,
        BLOCK | FDTAB | OPENMODE),
    ROW("openat", "openat", 257, 4, A(FD, PATH, V, V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, BLOCK | FDTAB | OPENMODE),
    ROW("creat", "creat", 85, 2, A(PATH, V), 2, A(L(0), L(1)), ERRNO, 32,
        BLOCK | FDTAB),
    ROW("close", "close", 3, 1, A(FD), 1, A(L(0)), ERRNO, 32,
        BLOCK | FDTAB | FDNEG),
    ROW("dup", "dup", 32, 1, A(FD), 1, A(L(0)), ERRNO, 32, FDTAB | FDNEG),
    ROW("dup2", "dup2", 33, 2, A(FD, FD), 2, A(L(0), L(1)), ERRNO, 32, FDTAB),
    ROW("dup3", "dup3", 292, 3, A(FD, FD, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, FDTAB),
    /* glibc's pipe is pipe2(fds, 0). */
    ROW("pipe", "pipe2", 293, 1, A(OUTN(8)), 2, A(L(0), C(0)), ERRNO, 32,
        FDTAB),
    ROW("pipe2", "pipe2", 293, 2, A(OUTN(8), V), 2, A(L(0), L(1)), ERRNO, 32,
        FDTAB),
    /* Variadic: a missing third argument (F_GETFD, F_GETFL) is passed as 0;
     * the kernel ignores it for those commands. */
    ROW_ALLOWED("fcntl", "fcntl", 72, 3, A(FD, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, FDTAB | VARIADIC, 1, fcntl_value_commands),

    /* --- metadata ------------------------------------------------------- */
    ROW("fstatat", "newfstatat", 262, 4, A(FD, PATH, OUTN(144), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, 0),
    /* glibc: fd < 0 is EBADF without a system call. */
    ROW_PRE("fstat", "newfstatat", 262, 2, A(FD, OUTN(144)), 4,
        A(L(0), EMPTY, L(1), C(AT_EMPTY_PATH_VALUE)), ERRNO, 32, 0,
        SB_PRE_FD_NONNEG, 0),
    ROW("stat", "newfstatat", 262, 2, A(PATH, OUTN(144)), 4,
        A(C(AT_FDCWD_VALUE), L(0), L(1), C(0)), ERRNO, 32, 0),
    ROW("lstat", "newfstatat", 262, 2, A(PATH, OUTN(144)), 4,
        A(C(AT_FDCWD_VALUE), L(0), L(1), C(AT_SYMLINK_NOFOLLOW_VALUE)),
        ERRNO, 32, 0),
    ROW("statx", "statx", 332, 5, A(FD, PATH, V, V, OUTN(256)), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, 0),
    ROW("access", "access", 21, 2, A(PATH, V), 2, A(L(0), L(1)), ERRNO, 32, 0),
    ROW("faccessat", "faccessat2", 439, 4, A(FD, PATH, V, V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, 0),
    ROW("readlink", "readlink", 89, 3, A(PATH, OUT(2), V), 3,
        A(L(0), L(1), L(2)), ERRNO, 64, COUNT),
    ROW("chmod", "chmod", 90, 2, A(PATH, V), 2, A(L(0), L(1)), ERRNO, 32, 0),
    ROW("fchmod", "fchmod", 91, 2, A(FD, V), 2, A(L(0), L(1)), ERRNO, 32, FDNEG),
    ROW("chown", "chown", 92, 3, A(PATH, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, 0),
    ROW("fchown", "fchown", 93, 3, A(FD, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, FDNEG),
    ROW("lchown", "lchown", 94, 3, A(PATH, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, 0),
    /* times may be NULL ("now"); otherwise two struct timespec. */
    /* glibc: a NULL path is EINVAL without a system call. */
    ROW_PRE("utimensat", "utimensat", 280, 4, A(FD, PATH, INN(32), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, 0, SB_PRE_NONNULL, 1),
    /* futimens is utimensat(fd, NULL, times, 0); glibc: fd < 0 is EBADF
     * without a system call. */
    ROW_PRE("futimens", "utimensat", 280, 2, A(FD, INN(32)), 4,
        A(L(0), C(0), L(1), C(0)), ERRNO, 32, 0, SB_PRE_FD_NONNEG, 0),
    ROW_ALLOWED("fchmodat", "fchmodat", 268, 4, A(FD, PATH, V, V), 3,
        A(L(0), L(1), L(2)), ERRNO, 32, 0, 3, fchmodat_plain_flags),
    ROW("fchownat", "fchownat", 260, 5, A(FD, PATH, V, V, V), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, 0),
    ROW("readlinkat", "readlinkat", 267, 4, A(FD, PATH, OUT(3), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 64, COUNT),

    /* --- extended attributes ---------------------------------------------
     * Plain system calls in glibc 2.36.  The attribute name is a string the
     * kernel reads (PATH: what the front ends' alias analysis needs).  A
     * getxattr or listxattr with size 0 returns the size the value would
     * need and writes nothing, so the result is not bounded by the size
     * argument (no COUNT): a loop's shared value buffer stays refused. */
    ROW("getxattr", "getxattr", 191, 4, A(PATH, PATH, OUT(3), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 64, 0),
    ROW("lgetxattr", "lgetxattr", 192, 4, A(PATH, PATH, OUT(3), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 64, 0),
    ROW("fgetxattr", "fgetxattr", 193, 4, A(FD, PATH, OUT(3), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 64, FDNEG),
    ROW("listxattr", "listxattr", 194, 3, A(PATH, OUT(2), V), 3,
        A(L(0), L(1), L(2)), ERRNO, 64, 0),
    ROW("llistxattr", "llistxattr", 195, 3, A(PATH, OUT(2), V), 3,
        A(L(0), L(1), L(2)), ERRNO, 64, 0),
    ROW("flistxattr", "flistxattr", 196, 3, A(FD, OUT(2), V), 3,
        A(L(0), L(1), L(2)), ERRNO, 64, FDNEG),
    ROW("setxattr", "setxattr", 188, 5, A(PATH, PATH, IN(3), V, V), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, 0),
    ROW("lsetxattr", "lsetxattr", 189, 5, A(PATH, PATH, IN(3), V, V), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, 0),
    ROW("fsetxattr", "fsetxattr", 190, 5, A(FD, PATH, IN(3), V, V), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, FDNEG),
    ROW("removexattr", "removexattr", 197, 2, A(PATH, PATH), 2,
        A(L(0), L(1)), ERRNO, 32, 0),
    ROW("lremovexattr", "lremovexattr", 198, 2, A(PATH, PATH), 2,
        A(L(0), L(1)), ERRNO, 32, 0),
    ROW("fremovexattr", "fremovexattr", 199, 2, A(FD, PATH), 2,
        A(L(0), L(1)), ERRNO, 32, FDNEG),
    /* Variadic; only FICLONE (ioctl_value_requests) is a plain call whose
     * third argument is a value.  Reflinking may wait on I/O. */
    ROW_ALLOWED("ioctl", "ioctl", 16, 3, A(FD, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, BLOCK | VARIADIC | FDNEG, 1, ioctl_value_requests),

    /* --- names in the file system --------------------------------------- */
    ROW("unlink", "unlink", 87, 1, A(PATH), 1, A(L(0)), ERRNO, 32, 0),
    ROW("unlinkat", "unlinkat", 263, 3, A(FD, PATH, V), 3,
        A(L(0), L(1), L(2)), ERRNO, 32, 0),
    ROW("mkdir", "mkdir", 83, 2, A(PATH, V), 2, A(L(0), L(1)), ERRNO, 32, 0),
    ROW("mkdirat", "mkdirat", 258, 3, A(FD, PATH, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, 0),
    ROW("rmdir", "rmdir", 84, 1, A(PATH), 1, A(L(0)), ERRNO, 32, 0),
    ROW("rename", "rename", 82, 2, A(PATH, PATH), 2, A(L(0), L(1)),
        ERRNO, 32, 0),
    ROW("renameat", "renameat", 264, 4, A(FD, PATH, FD, PATH), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, 0),
    /* glibc: renameat2(..., 0) is issued as renameat. */
    ROW_PRE("renameat2", "renameat2", 316, 5, A(FD, PATH, FD, PATH, V), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, 0, SB_PRE_CONST_NONZERO,
        4),
    ROW("link", "link", 86, 2, A(PATH, PATH), 2, A(L(0), L(1)), ERRNO, 32, 0),
    ROW("linkat", "linkat", 265, 5, A(FD, PATH, FD, PATH, V), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, 0),
    ROW("symlink", "symlink", 88, 2, A(PATH, PATH), 2, A(L(0), L(1)),
        ERRNO, 32, 0),
    ROW("symlinkat", "symlinkat", 266, 3, A(PATH, FD, PATH), 3,
        A(L(0), L(1), L(2)), ERRNO, 32, 0),

    /* --- sockets -------------------------------------------------------- */
    ROW("socket", "socket", 41, 3, A(V, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, FDTAB),
    ROW("socketpair", "socketpair", 53, 4, A(V, V, V, OUTN(8)), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, FDTAB),
    ROW("setsockopt", "setsockopt", 54, 5, A(FD, V, V, IN(4), V), 5,
        A(L(0), L(1), L(2), L(3), L(4)), ERRNO, 32, 0),
    ROW("bind", "bind", 49, 3, A(FD, IN(2), V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, 0),
    ROW("listen", "listen", 50, 2, A(FD, V), 2, A(L(0), L(1)), ERRNO, 32, 0),
    ROW("connect", "connect", 42, 3, A(FD, IN(2), V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, BLOCK),
    /* The kernel reads *addrlen, writes up to that many bytes of address
     * and then the real length back into *addrlen. */
    ROW("accept", "accept", 43, 3, A(FD, OUTU, OUTN(4)), 3,
        A(L(0), L(1), L(2)), ERRNO, 32, BLOCK | FDTAB),
    ROW("accept4", "accept4", 288, 4, A(FD, OUTU, OUTN(4), V), 4,
        A(L(0), L(1), L(2), L(3)), ERRNO, 32, BLOCK | FDTAB),
    ROW("shutdown", "shutdown", 48, 2, A(FD, V), 2, A(L(0), L(1)),
        ERRNO, 32, 0),
    ROW("getsockname", "getsockname", 51, 3, A(FD, OUTU, OUTN(4)), 3,
        A(L(0), L(1), L(2)), ERRNO, 32, 0),
    ROW("getpeername", "getpeername", 52, 3, A(FD, OUTU, OUTN(4)), 3,
        A(L(0), L(1), L(2)), ERRNO, 32, 0),

    /* --- process state -------------------------------------------------- */
    ROW("chdir", "chdir", 80, 1, A(PATH), 1, A(L(0)), ERRNO, 32, FDTAB),
    ROW("fchdir", "fchdir", 81, 1, A(FD), 1, A(L(0)), ERRNO, 32, FDTAB | FDNEG),
    ROW("umask", "umask", 95, 1, A(V), 1, A(L(0)), NOFAIL, 32, 0),
    ROW("getuid", "getuid", 102, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        NOFAIL, 32, 0),
    ROW("geteuid", "geteuid", 107, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        NOFAIL, 32, 0),
    ROW("getgid", "getgid", 104, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        NOFAIL, 32, 0),
    ROW("getegid", "getegid", 108, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        NOFAIL, 32, 0),
    ROW("getpid", "getpid", 39, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        NOFAIL, 32, 0),
    ROW("getppid", "getppid", 110, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        NOFAIL, 32, 0),
    ROW("gettid", "gettid", 186, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        NOFAIL, 32, 0),
    ROW("getpgid", "getpgid", 121, 1, A(V), 1, A(L(0)), ERRNO, 32, 0),
    ROW("getsid", "getsid", 124, 1, A(V), 1, A(L(0)), ERRNO, 32, 0),
    /* A signal sent to the caller itself is delivered when the batch
     * returns, after the later calls of the batch: documented difference. */
    ROW("kill", "kill", 62, 2, A(V, V), 2, A(L(0), L(1)), ERRNO, 32, 0),
    ROW("sched_yield", "sched_yield", 24, 0, A({0, 0, 0}), 0, A({0, 0, 0}),
        ERRNO, 32, BLOCK),
    /* glibc's sigaction is not the raw call: it answers EINVAL itself for
     * signals outside 1..64 and for its internal SIGCANCEL (32) and
     * SIGSETXID (33), and passes the kernel a struct of its own (handler,
     * flags | SA_RESTORER, its restorer, an 8-byte mask) for rt_sigaction(sig,
     * kact, koact, 8), converting koact back into *oact.  The slot is the
     * runtime's pseudo call SB_NR_RT_SIGACTION, which does the same
     * (docs/design.md, "Runtime-converted calls").  152 bytes is
     * sizeof(struct sigaction): read from act, written to oact. */
    ROW("sigaction", "rt_sigaction", SB_NR_RT_SIGACTION, 3,
        A(V, INN(152), OUTN(152)), 3, A(L(0), L(1), L(2)), ERRNO, 32,
        SB_ROW_RUNTIME_CONVERTED),

    /* --- memory --------------------------------------------------------- */
    /* glibc: an offset that is not page-aligned is EINVAL without a
     * system call. */
    ROW_PRE("mmap", "mmap", 9, 6, A(ADDR, V, V, V, FD, V), 6,
        A(L(0), L(1), L(2), L(3), L(4), L(5)), MAPFAIL, 64,
        BLOCK | SB_ROW_FRESH_MAPPING, SB_PRE_PAGE_ALIGNED, 5),
    ROW("munmap", "munmap", 11, 2, A(ADDR, V), 2, A(L(0), L(1)), ERRNO, 32, 0),
    ROW("mprotect", "mprotect", 10, 3, A(ADDR, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, 0),
    ROW("madvise", "madvise", 28, 3, A(ADDR, V, V), 3, A(L(0), L(1), L(2)),
        ERRNO, 32, 0),

    /* --- syscall(NR, ...): arguments come from the row of NR ------------ */
    {"syscall", "syscall", SB_ABI_LINUX_X86_64, -1, 1, A(V), 0,
     A({0, 0, 0}), ERRNO, 64, SB_ROW_RAW_SYSCALL | SB_ROW_VARIADIC, NULL,
     SB_PRE_NONE, 0, NULL, 0},

    /* --- never batched (contract rule 6) -------------------------------- */
    NEVER("exit", "exit_group", 231,
          "runs atexit handlers and flushes stdio, then ends the process"),
    NEVER("_exit", "exit_group", 231, why_process_ends),
    NEVER("SYS_exit", "exit", 60, why_process_ends),
    NEVER("execve", "execve", 59, why_exec),
    NEVER("fexecve", "execveat", 322, why_exec),
    NEVER("fork", "clone", 56, why_fork),
    NEVER("vfork", "vfork", 58, why_fork),
    NEVER("clone", "clone", 56, why_fork),
    NEVER("SYS_fork", "fork", 57, why_fork),
    NEVER("clone3", "clone3", 435, why_fork),
    NEVER("rt_sigreturn", "rt_sigreturn", 15,
          "restores a signal frame: only valid as a signal handler's return"),
    NEVER("clock_gettime", "clock_gettime", 228, why_vdso),
    NEVER("gettimeofday", "gettimeofday", 96, why_vdso),
    NEVER("time", "time", 201, why_vdso),
    NEVER("getcpu", "getcpu", 309, why_vdso),
    NEVER("sys_batch", "sys_batch", 183,
          "the batch call itself cannot be batched"),

    /* --- Tock (libtock-c libtock/tock.h; nr is the TRD104 class) --------- */
    TOCK("command", 2, 4, A(V, V, V, V), 4, A(L(0), L(1), L(2), L(3)), SHM,
         NULL),
    TOCK("subscribe", 1, 4, A(V, V, OPQ, OPQ), 4, A(L(0), L(1), L(2), L(3)),
         SHM, NULL),
    /* Allowed buffers stay shared with the kernel until the next allow on
     * the same number, so they are opaque rather than in/out buffers. */
    TOCK("allow_readwrite", 3, 4, A(V, V, OPQ, V), 4,
         A(L(0), L(1), L(2), L(3)), SHM, NULL),
    TOCK("allow_readonly", 4, 4, A(V, V, OPQ, V), 4,
         A(L(0), L(1), L(2), L(3)), SHM, NULL),
    TOCK("allow_userspace_read", 7, 4, A(V, V, OPQ, V), 4,
         A(L(0), L(1), L(2), L(3)), SHM, NULL),
    /* memop can move the break: like mmap, nothing moves across it. */
    TOCK("memop", 5, 2, A(V, ADDR), 2, A(L(0), L(1)), SHM, NULL),
    /* yield-wait: r0 = 1; only as the last frame of a series, where its
     * upcall runs after every other call, as in the original order. */
    TOCK("yield", 0, 0, A({0, 0, 0}), 1, A(C(1)), SHM | SB_ROW_SERIES_LAST,
         NULL),
    TOCK("yield_no_wait", 0, 0, A({0, 0, 0}), 1, A(C(0)), SB_ROW_NEVER,
         why_yield_no_wait),
    TOCK("yield_for", 0, 1, A(OPQ), 1, A(C(1)), SB_ROW_NEVER,
         why_yield_for),
    /* yield_waitfor_return_t yield_wait_for(driver, subscribe): r0 = 2.
     * It runs no upcall (its values are the result, words 1-3 of its
     * frame), but it blocks until one arrives, and PR #3077's kernel
     * suspends a process only at a series' end: last frame, as yield. */
    TOCK("yield_wait_for", 0, 2, A(V, V), 3, A(C(2), L(0), L(1)),
         SHM | SB_ROW_SERIES_LAST, NULL),
    TOCK("tock_exit", 6, 1, A(V), 2, A(C(0), L(0)), SB_ROW_NEVER,
         why_process_ends),
    TOCK("tock_restart", 6, 1, A(V), 2, A(C(1), L(0)), SB_ROW_NEVER,
         why_process_ends),
};

#define NROWS (sizeof rows / sizeof rows[0])

/* Other libc symbols for a row: the LFS "64" names (identical on x86_64),
 * short names glibc also exports, and the runtime's own batch entry. */
static const struct {
    const char *alias;
    const char *name;
} aliases[] = {
    {"pread", "pread64"},
    {"pwrite", "pwrite64"},
    {"preadv64", "preadv"},
    {"pwritev64", "pwritev"},
    {"lseek64", "lseek"},
    {"posix_fadvise64", "posix_fadvise"},
    {"truncate64", "truncate"},
    {"ftruncate64", "ftruncate"},
    {"fallocate64", "fallocate"},
    {"sendfile64", "sendfile"},
    {"fcntl64", "fcntl"},
    {"open64", "open"},
    {"openat64", "openat"},
    {"creat64", "creat"},
    {"fstatat64", "fstatat"},
    {"fstat64", "fstat"},
    {"stat64", "stat"},
    {"lstat64", "lstat"},
    {"mmap64", "mmap"},
    {"_Exit", "_exit"},
    {"__sigaction", "sigaction"},
    {"sysbatch_run", "sys_batch"},
};

#define NALIASES (sizeof aliases / sizeof aliases[0])

size_t sb_catalog_size(void) { return NROWS; }

const struct sb_syscall *sb_catalog_row(size_t index)
{
    return index < NROWS ? &rows[index] : NULL;
}

static const struct sb_syscall *row_by_name(enum sb_abi abi, const char *name)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].abi == abi && strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

const struct sb_syscall *sb_catalog_lookup(enum sb_abi abi, const char *symbol)
{
    if (!symbol)
        return NULL;
    const struct sb_syscall *row = row_by_name(abi, symbol);
    if (row)
        return row;
    for (size_t i = 0; i < NALIASES; i++)
        if (strcmp(aliases[i].alias, symbol) == 0)
            return row_by_name(abi, aliases[i].name);
    return NULL;
}

/* True when the row passes its libc arguments straight through, which is
 * what syscall(NR, ...) does. */
static bool passes_args_through(const struct sb_syscall *row)
{
    if (row->libc_argc != row->raw_argc)
        return false;
    for (int i = 0; i < row->raw_argc; i++)
        if (row->raw_args[i].from != SB_RAW_LIBC_ARG ||
            row->raw_args[i].index != i)
            return false;
    return true;
}

const struct sb_syscall *sb_catalog_by_nr(enum sb_abi abi, long nr)
{
    const struct sb_syscall *first = NULL;
    for (size_t i = 0; i < NROWS; i++) {
        const struct sb_syscall *row = &rows[i];
        if (row->abi != abi || row->nr != nr ||
            (row->flags & SB_ROW_RAW_SYSCALL))
            continue;
        if (passes_args_through(row))
            return row;
        if (!first)
            first = row;
    }
    return first;
}

bool sb_catalog_is_raw_syscall_symbol(const char *symbol)
{
    return symbol && strcmp(symbol, "syscall") == 0;
}

const char *sb_catalog_alias(const struct sb_syscall *row, size_t i)
{
    if (!row)
        return NULL;
    for (size_t a = 0; a < NALIASES; a++) {
        if (strcmp(aliases[a].name, row->name) != 0 ||
            row_by_name((enum sb_abi)row->abi, aliases[a].name) != row)
            continue;
        if (i == 0)
            return aliases[a].alias;
        i--;
    }
    return NULL;
}

struct sb_arg_extent sb_arg_extent(const struct sb_arg_desc *d, int nargs)
{
    struct sb_arg_extent e = {SB_EXTENT_UNKNOWN, -1, 0};
    /* An iovec's size argument counts entries; the bytes its buffers hold
     * are known only at run time. */
    if (d->kind == SB_ARG_IOVEC_IN || d->kind == SB_ARG_IOVEC_OUT)
        return e;
    if (d->size_arg >= 0 && d->size_arg < nargs) {
        e.kind = SB_EXTENT_ARG;
        e.arg = d->size_arg;
    } else if (d->size_arg < 0 && d->fixed_size > 0) {
        e.kind = SB_EXTENT_FIXED;
        e.bytes = d->fixed_size;
    }
    return e;
}

bool sb_call_is_raw_syscall(const struct sb_call_event *ev)
{
    if (ev->row && (ev->row->flags & SB_ROW_RAW_SYSCALL))
        return true;
    return sb_catalog_is_raw_syscall_symbol(ev->symbol);
}

const struct sb_syscall *sb_call_raw_row(enum sb_abi abi,
                                         const struct sb_call_event *ev)
{
    if (!sb_call_is_raw_syscall(ev))
        return ev->row;
    if (ev->nargs < 1 || ev->args[0].kind != SB_OPND_CONST)
        return NULL;
    return sb_catalog_by_nr(abi, ev->args[0].value);
}

enum sb_ret_conv sb_call_ret_conv(enum sb_abi abi, const struct sb_call_event *ev)
{
    if (sb_call_is_raw_syscall(ev))
        return SB_RET_ERRNO;
    const struct sb_syscall *row = sb_call_raw_row(abi, ev);
    return row ? (enum sb_ret_conv)row->ret : SB_RET_ERRNO;
}

int sb_call_result_bits(enum sb_abi abi, const struct sb_call_event *ev)
{
    if (sb_call_is_raw_syscall(ev))
        return 64;
    const struct sb_syscall *row = sb_call_raw_row(abi, ev);
    return row ? row->result_bits : 64;
}

long sb_call_success_max(enum sb_abi abi, const struct sb_call_event *ev)
{
    if (sb_call_result_bits(abi, ev) == 32)
        return INT32_MAX;
    const struct sb_syscall *row = sb_call_is_raw_syscall(ev) ? NULL : ev->row;
    if (row && (row->flags & SB_ROW_RESULT_LE_SIZE)) {
        for (int k = 0; k < row->libc_argc && k < ev->nargs; k++) {
            const struct sb_arg_desc *d = &row->libc_args[k];
            if ((d->kind != SB_ARG_IN_BUF && d->kind != SB_ARG_OUT_BUF) ||
                d->size_arg < 0 || d->size_arg >= ev->nargs)
                continue;
            const struct sb_operand *count = &ev->args[d->size_arg];
            if (count->kind == SB_OPND_CONST && count->value >= 0)
                return count->value;
        }
    }
    return INT64_MAX;
}

bool sb_conversion_keeps_result(enum sb_abi abi,
                                const struct sb_call_event *producer,
                                int narrowest_bits)
{
    if (narrowest_bits <= 0 || narrowest_bits >= 64)
        return true;
    /* Test hook: tests/e2e/Verify_catches_narrowing.test plans as if this
     * rule did not exist, to show that verify mode catches what it
     * prevents.  Never set it for real builds. */
    if (getenv("SYSBATCH_TEST_IGNORE_NARROWING"))
        return true;
    /* Signed or not, a w-bit conversion keeps 0..2^(w-1)-1. */
    long limit = (1L << (narrowest_bits - 1)) - 1;
    return sb_call_success_max(abi, producer) <= limit;
}

bool sb_max_keeps_result(enum sb_abi abi, const struct sb_call_event *producer,
                         long floor)
{
    switch (sb_call_ret_conv(abi, producer)) {
    case SB_RET_ERRNO:
        return sb_call_result_bits(abi, producer) == 32 && floor <= -1;
    case SB_RET_POSITIVE_ERROR:
        return floor <= 0;
    default:
        return false;
    }
}

/* MAP_FIXED (x86_64 and the generic value): the one flag that makes mmap
 * replace whatever is mapped at the address.  MAP_FIXED_NOREPLACE fails
 * instead of replacing, so it changes nothing that exists either. */
#define SB_MAP_FIXED 0x10

bool sb_call_addr_touches_memory(const struct sb_syscall *row, int nargs,
                                 const bool *is_const, const long *value)
{
    if (!row)
        return true;
    bool has_addr = false;
    for (int k = 0; k < row->libc_argc && k < SB_MAX_ARGS; k++)
        has_addr |= row->libc_args[k].kind == SB_ARG_ADDR;
    if (!has_addr)
        return false;
    if (!(row->flags & SB_ROW_FRESH_MAPPING) || nargs < 4)
        return true;
    return !(is_const[0] && value[0] == 0 && is_const[3] &&
             !(value[3] & SB_MAP_FIXED));
}
