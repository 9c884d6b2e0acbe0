/* Calls every catalogued libc function (and some aliases) once, with
 * recognisable arguments, so that check-catalog.py can compare what strace
 * shows the kernel receiving with the catalogue's raw recipe.
 *
 * Before each call, mark() issues statfs("@@<function>|<args>", NULL): the
 * marker names the function and states the libc arguments it is about to
 * pass (i:<integer>, s:<string>, p = pointer not compared, n = NULL).  Every
 * syscall between two markers was made by the marked function.  Arguments
 * are chosen so nothing happens: fd 77 is not open, paths are under
 * /nonexistent, addresses are misaligned, pid 99999999 does not exist,
 * address family 12345 is not supported.
 *
 * mark("!fn", ...) announces a call the row's precheck refuses to batch:
 * check-catalog.py then expects glibc NOT to make the row's plain call (so
 * the precheck is needed, not just cautious).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <time.h>
#include <unistd.h>

static void mark(const char *fn, const char *fmt, ...)
{
    char text[512];
    int n = snprintf(text, sizeof text, "@@%s|", fn);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    syscall(SYS_statfs, text, NULL);
}

#define FD 77
#define FD2 78
#define NOPATH "/nonexistent/sysbatch-catalog"
#define ADDR ((void *)0x1001)
#define BADFDS ((int *)0x1001) /* pipe2 and socketpair fail with EFAULT */

int main(void)
{
    char buf[64] = "hello";
    struct stat st;
    struct statx sx;
    struct timespec ts;
    struct timeval tv;
    unsigned cpu, node;
    off_t off = 0;
    int one = 1;
    struct sockaddr sa = {0};
    socklen_t salen = sizeof sa;

    mark("read", "i:%d|p|i:%d", FD, 5);
    read(FD, buf, 5);
    mark("write", "i:%d|p|i:%d", FD, 6);
    write(FD, buf, 6);
    struct iovec iov[2] = {{buf, 1}, {buf, 2}};
    mark("writev", "i:%d|p|i:%d", FD, 2);
    writev(FD, iov, 2);
    mark("readv", "i:%d|p|i:%d", FD, 2);
    readv(FD, iov, 2);
    mark("preadv", "i:%d|p|i:%d|i:%d", FD, 2, 26);
    preadv(FD, iov, 2, 26);
    mark("preadv64", "i:%d|p|i:%d|i:%d", FD, 1, 27);
    preadv64(FD, iov, 1, 27);
    mark("pwritev", "i:%d|p|i:%d|i:%d", FD, 2, 28);
    pwritev(FD, iov, 2, 28);
    mark("pwritev64", "i:%d|p|i:%d|i:%d", FD, 1, 29);
    pwritev64(FD, iov, 1, 29);
    mark("pread64", "i:%d|p|i:%d|i:%d", FD, 7, 8);
    pread64(FD, buf, 7, 8);
    mark("pread", "i:%d|p|i:%d|i:%d", FD, 9, 10);
    pread(FD, buf, 9, 10);
    mark("pwrite64", "i:%d|p|i:%d|i:%d", FD, 11, 12);
    pwrite64(FD, buf, 11, 12);
    mark("pwrite", "i:%d|p|i:%d|i:%d", FD, 13, 14);
    pwrite(FD, buf, 13, 14);
    mark("lseek", "i:%d|i:%d|i:%d", FD, 15, SEEK_CUR);
    lseek(FD, 15, SEEK_CUR);
    mark("lseek64", "i:%d|i:%d|i:%d", FD, 16, SEEK_END);
    lseek64(FD, 16, SEEK_END);
    mark("getdents64", "i:%d|p|i:%d", FD, 25);
    getdents64(FD, buf, 25);
    mark("fsync", "i:%d", FD);
    fsync(FD);
    mark("fdatasync", "i:%d", FD);
    fdatasync(FD);
    mark("posix_fadvise", "i:%d|i:%d|i:%d|i:%d", FD, 17, 18, POSIX_FADV_WILLNEED);
    posix_fadvise(FD, 17, 18, POSIX_FADV_WILLNEED);
    mark("posix_fadvise64", "i:%d|i:%d|i:%d|i:%d", FD, 19, 20, POSIX_FADV_RANDOM);
    posix_fadvise64(FD, 19, 20, POSIX_FADV_RANDOM);
    mark("truncate", "s:%s|i:%d", NOPATH "/t", 21);
    truncate(NOPATH "/t", 21);
    mark("truncate64", "s:%s|i:%d", NOPATH "/t64", 22);
    truncate64(NOPATH "/t64", 22);
    mark("ftruncate", "i:%d|i:%d", FD, 23);
    ftruncate(FD, 23);
    mark("ftruncate64", "i:%d|i:%d", FD, 24);
    ftruncate64(FD, 24);
    mark("fallocate", "i:%d|i:%d|i:%d|i:%d", FD, 1, 29, 30);
    fallocate(FD, 1, 29, 30);
    mark("fallocate64", "i:%d|i:%d|i:%d|i:%d", FD, 0, 31, 32);
    fallocate64(FD, 0, 31, 32);
    mark("sendfile", "i:%d|i:%d|n|i:%d", FD, FD2, 33);
    sendfile(FD, FD2, NULL, 33);
    mark("sendfile64", "i:%d|i:%d|p|i:%d", FD, FD2, 34);
    sendfile64(FD, FD2, &off, 34);
    mark("copy_file_range", "i:%d|p|i:%d|n|i:%d|i:%d", FD, FD2, 35, 0);
    copy_file_range(FD, &off, FD2, NULL, 35, 0);

    mark("open", "s:%s|i:%d|i:%d", NOPATH "/o", O_CREAT | O_WRONLY, 0640);
    open(NOPATH "/o", O_CREAT | O_WRONLY, 0640);
    mark("open", "s:%s|i:%d", NOPATH "/o-rdonly", O_RDONLY);
    open(NOPATH "/o-rdonly", O_RDONLY);
    mark("open64", "s:%s|i:%d|i:%d", NOPATH "/o64", O_CREAT | O_RDWR, 0604);
    open64(NOPATH "/o64", O_CREAT | O_RDWR, 0604);
    mark("openat", "i:%d|s:%s|i:%d|i:%d", FD, "oa", O_CREAT | O_EXCL | O_RDWR, 0600);
    openat(FD, "oa", O_CREAT | O_EXCL | O_RDWR, 0600);
    mark("openat64", "i:%d|s:%s|i:%d|i:%d", FD, "oa64", O_CREAT | O_WRONLY, 0611);
    openat64(FD, "oa64", O_CREAT | O_WRONLY, 0611);
    mark("creat", "s:%s|i:%d", NOPATH "/c", 0600);
    creat(NOPATH "/c", 0600);
    mark("creat64", "s:%s|i:%d", NOPATH "/c64", 0620);
    creat64(NOPATH "/c64", 0620);
    mark("close", "i:%d", FD);
    close(FD);
    mark("dup", "i:%d", FD);
    dup(FD);
    mark("dup2", "i:%d|i:%d", FD, FD2);
    dup2(FD, FD2);
    mark("dup3", "i:%d|i:%d|i:%d", FD, FD2, O_CLOEXEC);
    dup3(FD, FD2, O_CLOEXEC);
    mark("pipe", "p");
    pipe(BADFDS);
    mark("pipe2", "p|i:%d", O_CLOEXEC | O_NONBLOCK);
    pipe2(BADFDS, O_CLOEXEC | O_NONBLOCK);
    /* fcntl's value commands, with and without the variadic argument. */
    mark("fcntl", "i:%d|i:%d", FD, F_GETFD);
    fcntl(FD, F_GETFD);
    mark("fcntl", "i:%d|i:%d|i:%d", FD, F_SETFD, FD_CLOEXEC);
    fcntl(FD, F_SETFD, FD_CLOEXEC);
    mark("fcntl", "i:%d|i:%d", FD, F_GETFL);
    fcntl(FD, F_GETFL);
    mark("fcntl", "i:%d|i:%d|i:%d", FD, F_SETFL, O_NONBLOCK);
    fcntl(FD, F_SETFL, O_NONBLOCK);
    mark("fcntl", "i:%d|i:%d|i:%d", FD, F_DUPFD, 10);
    fcntl(FD, F_DUPFD, 10);
    mark("fcntl64", "i:%d|i:%d|i:%d", FD, F_DUPFD_CLOEXEC, 11);
    fcntl64(FD, F_DUPFD_CLOEXEC, 11);
    /* ... and one the precheck keeps out: glibc issues F_GETOWN_EX. */
    mark("!fcntl", "i:%d|i:%d", FD, F_GETOWN);
    fcntl(FD, F_GETOWN);

    mark("fstatat", "i:%d|s:%s|p|i:%d", FD, "fsa", AT_SYMLINK_NOFOLLOW);
    fstatat(FD, "fsa", &st, AT_SYMLINK_NOFOLLOW);
    mark("fstatat64", "i:%d|s:%s|p|i:%d", FD, "fsa64", 0);
    fstatat64(FD, "fsa64", (struct stat64 *)&st, 0);
    mark("fstat", "i:%d|p", FD);
    fstat(FD, &st);
    mark("fstat64", "i:%d|p", FD);
    fstat64(FD, (struct stat64 *)&st);
    mark("stat", "s:%s|p", NOPATH "/s");
    stat(NOPATH "/s", &st);
    mark("stat64", "s:%s|p", NOPATH "/s64");
    stat64(NOPATH "/s64", (struct stat64 *)&st);
    mark("lstat", "s:%s|p", NOPATH "/l");
    lstat(NOPATH "/l", &st);
    mark("lstat64", "s:%s|p", NOPATH "/l64");
    lstat64(NOPATH "/l64", (struct stat64 *)&st);
    mark("statx", "i:%d|s:%s|i:%d|i:%d|p", FD, "sx", AT_SYMLINK_NOFOLLOW, 0x7ff);
    statx(FD, "sx", AT_SYMLINK_NOFOLLOW, 0x7ff, &sx);
    mark("access", "s:%s|i:%d", NOPATH "/a", R_OK | W_OK);
    access(NOPATH "/a", R_OK | W_OK);
    mark("faccessat", "i:%d|s:%s|i:%d|i:%d", FD, "fa", X_OK, AT_EACCESS);
    faccessat(FD, "fa", X_OK, AT_EACCESS);
    mark("faccessat", "i:%d|s:%s|i:%d|i:%d", FD, "fa0", R_OK, 0);
    faccessat(FD, "fa0", R_OK, 0);
    mark("readlink", "s:%s|p|i:%d", NOPATH "/rl", 25);
    readlink(NOPATH "/rl", buf, 25);
    mark("chmod", "s:%s|i:%d", NOPATH "/cm", 0644);
    chmod(NOPATH "/cm", 0644);
    mark("fchmod", "i:%d|i:%d", FD, 0751);
    fchmod(FD, 0751);
    mark("chown", "s:%s|i:%d|i:%d", NOPATH "/co", 1234, 5678);
    chown(NOPATH "/co", 1234, 5678);
    mark("fchown", "i:%d|i:%d|i:%d", FD, 2345, 6789);
    fchown(FD, 2345, 6789);
    mark("lchown", "s:%s|i:%d|i:%d", NOPATH "/lc", 3456, 7890);
    lchown(NOPATH "/lc", 3456, 7890);
    mark("utimensat", "i:%d|s:%s|n|i:%d", FD, "ut", AT_SYMLINK_NOFOLLOW);
    utimensat(FD, "ut", NULL, AT_SYMLINK_NOFOLLOW);
    mark("futimens", "i:%d|n", FD);
    futimens(FD, NULL);
    mark("!futimens", "i:%d|n", -1);
    futimens(-1, NULL);
    mark("fchmodat", "i:%d|s:%s|i:%d|i:%d", FD, "fcm", 0640, 0);
    fchmodat(FD, "fcm", 0640, 0);
    mark("!fchmodat", "i:%d|s:%s|i:%d|i:%d", FD, "fcm-nofollow", 0640, AT_SYMLINK_NOFOLLOW);
    fchmodat(FD, "fcm-nofollow", 0640, AT_SYMLINK_NOFOLLOW);
    mark("fchownat", "i:%d|s:%s|i:%d|i:%d|i:%d", FD, "fco", 4567, 8901, AT_SYMLINK_NOFOLLOW);
    fchownat(FD, "fco", 4567, 8901, AT_SYMLINK_NOFOLLOW);
    mark("readlinkat", "i:%d|s:%s|p|i:%d", FD, "rla", 36);
    readlinkat(FD, "rla", buf, 36);

    /* Extended attributes (a size of 0 asks for the value's size). */
    mark("getxattr", "s:%s|s:%s|p|i:%d", NOPATH "-gx", "user.sbg", 0);
    getxattr(NOPATH "-gx", "user.sbg", buf, 0);
    mark("lgetxattr", "s:%s|s:%s|p|i:%d", NOPATH "-lgx", "user.sblg", 40);
    lgetxattr(NOPATH "-lgx", "user.sblg", buf, 40);
    mark("fgetxattr", "i:%d|s:%s|p|i:%d", FD, "user.sbfg", 41);
    fgetxattr(FD, "user.sbfg", buf, 41);
    mark("listxattr", "s:%s|p|i:%d", NOPATH "-lx", 42);
    listxattr(NOPATH "-lx", buf, 42);
    mark("llistxattr", "s:%s|p|i:%d", NOPATH "-llx", 43);
    llistxattr(NOPATH "-llx", buf, 43);
    mark("flistxattr", "i:%d|p|i:%d", FD, 44);
    flistxattr(FD, buf, 44);
    mark("setxattr", "s:%s|s:%s|p|i:%d|i:%d", NOPATH "-sx", "user.sbs", 5, XATTR_CREATE);
    setxattr(NOPATH "-sx", "user.sbs", buf, 5, XATTR_CREATE);
    mark("lsetxattr", "s:%s|s:%s|p|i:%d|i:%d", NOPATH "-lsx", "user.sbls", 6, XATTR_REPLACE);
    lsetxattr(NOPATH "-lsx", "user.sbls", buf, 6, XATTR_REPLACE);
    mark("fsetxattr", "i:%d|s:%s|p|i:%d|i:%d", FD, "user.sbfs", 7, 0);
    fsetxattr(FD, "user.sbfs", buf, 7, 0);
    mark("removexattr", "s:%s|s:%s", NOPATH "-rx", "user.sbr");
    removexattr(NOPATH "-rx", "user.sbr");
    mark("lremovexattr", "s:%s|s:%s", NOPATH "-lrx", "user.sblr");
    lremovexattr(NOPATH "-lrx", "user.sblr");
    mark("fremovexattr", "i:%d|s:%s", FD, "user.sbfr");
    fremovexattr(FD, "user.sbfr");
    /* ioctl's one value request: FICLONE from descriptor FD2 into FD. */
    mark("ioctl", "i:%d|i:%d|i:%d", FD, (int)FICLONE, FD2);
    ioctl(FD, FICLONE, FD2);

    mark("unlink", "s:%s", NOPATH "/u");
    unlink(NOPATH "/u");
    mark("unlinkat", "i:%d|s:%s|i:%d", FD, "ua", AT_REMOVEDIR);
    unlinkat(FD, "ua", AT_REMOVEDIR);
    mark("mkdir", "s:%s|i:%d", NOPATH "/md", 0755);
    mkdir(NOPATH "/md", 0755);
    mark("mkdirat", "i:%d|s:%s|i:%d", FD, "mda", 0700);
    mkdirat(FD, "mda", 0700);
    mark("rmdir", "s:%s", NOPATH "/rd");
    rmdir(NOPATH "/rd");
    mark("rename", "s:%s|s:%s", NOPATH "/r1", NOPATH "/r2");
    rename(NOPATH "/r1", NOPATH "/r2");
    mark("renameat", "i:%d|s:%s|i:%d|s:%s", FD, "ra1", FD2, "ra2");
    renameat(FD, "ra1", FD2, "ra2");
    mark("link", "s:%s|s:%s", NOPATH "/l1", NOPATH "/l2");
    link(NOPATH "/l1", NOPATH "/l2");
    mark("symlink", "s:%s|s:%s", NOPATH "/sl1", NOPATH "/sl2");
    symlink(NOPATH "/sl1", NOPATH "/sl2");
    mark("renameat2", "i:%d|s:%s|i:%d|s:%s|i:%d", FD, "r2a", FD2, "r2b", RENAME_NOREPLACE);
    renameat2(FD, "r2a", FD2, "r2b", RENAME_NOREPLACE);
    mark("!renameat2", "i:%d|s:%s|i:%d|s:%s|i:%d", FD, "r2c", FD2, "r2d", 0);
    renameat2(FD, "r2c", FD2, "r2d", 0);
    mark("linkat", "i:%d|s:%s|i:%d|s:%s|i:%d", FD, "la1", FD2, "la2", AT_SYMLINK_FOLLOW);
    linkat(FD, "la1", FD2, "la2", AT_SYMLINK_FOLLOW);
    mark("symlinkat", "s:%s|i:%d|s:%s", "sla1", FD, "sla2");
    symlinkat("sla1", FD, "sla2");

    mark("socket", "i:%d|i:%d|i:%d", 12345, SOCK_STREAM, 0);
    socket(12345, SOCK_STREAM, 0);
    mark("socketpair", "i:%d|i:%d|i:%d|p", 12345, SOCK_DGRAM, 0);
    socketpair(12345, SOCK_DGRAM, 0, BADFDS);
    mark("setsockopt", "i:%d|i:%d|i:%d|p|i:%d", FD, SOL_SOCKET, SO_REUSEADDR, 4);
    setsockopt(FD, SOL_SOCKET, SO_REUSEADDR, &one, 4);
    mark("bind", "i:%d|p|i:%d", FD, 16);
    bind(FD, &sa, 16);
    mark("listen", "i:%d|i:%d", FD, 37);
    listen(FD, 37);
    mark("connect", "i:%d|p|i:%d", FD, 16);
    connect(FD, &sa, 16);
    mark("accept", "i:%d|p|p", FD);
    accept(FD, &sa, &salen);
    mark("accept4", "i:%d|p|p|i:%d", FD, SOCK_CLOEXEC);
    accept4(FD, &sa, &salen, SOCK_CLOEXEC);
    mark("shutdown", "i:%d|i:%d", FD, SHUT_WR);
    shutdown(FD, SHUT_WR);
    mark("getsockname", "i:%d|p|p", FD);
    getsockname(FD, &sa, &salen);
    mark("getpeername", "i:%d|p|p", FD);
    getpeername(FD, &sa, &salen);

    mark("chdir", "s:%s", NOPATH "/cd");
    chdir(NOPATH "/cd");
    mark("fchdir", "i:%d", FD);
    fchdir(FD);
    mark("umask", "i:%d", 027);
    mode_t old = umask(027);
    mark("umask", "i:%d", (int)old);
    umask(old);
    mark("getuid", "");
    getuid();
    mark("geteuid", "");
    geteuid();
    mark("getgid", "");
    getgid();
    mark("getegid", "");
    getegid();
    mark("getpid", "");
    getpid();
    mark("getppid", "");
    getppid();
    mark("gettid", "");
    gettid();
    mark("getpgid", "i:%d", 0);
    getpgid(0);
    mark("getsid", "i:%d", 0);
    getsid(0);
    mark("kill", "i:%d|i:%d", 99999999, 0);
    kill(99999999, 0);
    mark("sched_yield", "");
    sched_yield();
    {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_IGN;
        sigemptyset(&sa.sa_mask);
        mark("sigaction", "i:%d|p|p", SIGURG);
        sigaction(SIGURG, &sa, &old);
        mark("sigaction", "i:%d|n|p", SIGURG);
        sigaction(SIGURG, NULL, &old);
        /* glibc's internal SIGCANCEL: EINVAL without a system call. */
        mark("!sigaction", "i:%d|p|n", 32);
        sigaction(32, &sa, NULL);
    }

    mark("mmap", "n|i:%d|i:%d|i:%d|i:%d|i:%d", 0, PROT_READ, MAP_PRIVATE, FD, 0);
    mmap(NULL, 0, PROT_READ, MAP_PRIVATE, FD, 0);
    mark("mmap64", "n|i:%d|i:%d|i:%d|i:%d|i:%d", 0, PROT_WRITE, MAP_SHARED, FD, 4096);
    mmap64(NULL, 0, PROT_WRITE, MAP_SHARED, FD, 4096);
    mark("munmap", "i:%d|i:%d", 0x1001, 26);
    munmap(ADDR, 26);
    mark("mprotect", "i:%d|i:%d|i:%d", 0x1001, 27, PROT_READ);
    mprotect(ADDR, 27, PROT_READ);
    mark("madvise", "i:%d|i:%d|i:%d", 0x1001, 28, MADV_RANDOM);
    madvise(ADDR, 28, MADV_RANDOM);

    /* syscall(NR, ...): the kernel gets NR with the arguments unchanged. */
    mark("syscall", "i:%d", SYS_getppid);
    syscall(SYS_getppid);
    mark("syscall", "i:%d|i:%d|i:%d", SYS_fchmod, FD, 0710);
    syscall(SYS_fchmod, FD, 0710);
    mark("syscall", "i:%d|i:%d|s:%s|i:%d|i:%d", SYS_openat, -100, NOPATH "/so",
         O_RDONLY, 0);
    syscall(SYS_openat, -100, NOPATH "/so", O_RDONLY, 0);

    /* vDSO rows: no kernel entry at all. */
    mark("clock_gettime", "i:%d|p", CLOCK_MONOTONIC);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    mark("gettimeofday", "p|n");
    gettimeofday(&tv, NULL);
    mark("time", "n");
    time(NULL);
    mark("getcpu", "p|p");
    getcpu(&cpu, &node);

    mark("_exit", "i:%d", 0);
    _exit(0);
}
