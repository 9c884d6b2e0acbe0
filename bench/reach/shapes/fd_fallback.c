/* fd_fallback.c: the shape of tar's set_stat tail (extract.c fd_chown,
 * fd_i_chmod, then close in extract_file), reduced: gnulib's "use the fd
 * call if possible, the *at call otherwise" wrappers, inlined into one
 * function.  Neither plugin batches fchown with fchmod and close, even with
 * everything in one function (bench/reach/notes.md, "Session 12"):
 *
 *     clang -O2 -fpass-plugin=SysbatchPass.so -c fd_fallback.c -Rpass-missed=sysbatch
 *     gcc -O2 -fplugin=sysbatch.so -fplugin-arg-sysbatch-print-plan -c fd_fallback.c
 *
 * Kept as the reduced case for the next region rule, not run by any test. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int chdir_fd = AT_FDCWD;
static bool implemented(int err) { return !(err == ENOSYS || err == ENOTSUP); }
static int fd_chown(int fd, const char *file, uid_t uid, gid_t gid, int atflag)
{
    if (0 <= fd) {
        int result = fchown(fd, uid, gid);
        if (result == 0 || implemented(errno))
            return result;
    }
    return fchownat(chdir_fd, file, uid, gid, atflag);
}
static int fd_i_chmod(int fd, char const *file, mode_t mode, int atflag)
{
    if (0 <= fd) {
        int result = fchmod(fd, mode);
        if (result == 0 || implemented(errno))
            return result;
    }
    return fchmodat(chdir_fd, file, mode, atflag);
}
int set_stat(const char *name, int fd, uid_t uid, gid_t gid, mode_t mode)
{
    int bad = 0;
    if (fd_chown(fd, name, uid, gid, 0) != 0)
        bad |= 1;
    if (fd_i_chmod(fd, name, mode, 0) != 0)
        bad |= 2;
    if (close(fd) != 0)
        bad |= 4;
    return bad;
}
int main(int argc, char **argv)
{
    int fd = open(argc > 1 ? argv[1] : "x", O_WRONLY | O_CREAT, 0600);
    int r = set_stat("x", fd, getuid(), getgid(), 0640);
    printf("%d %d\n", fd >= 0, r);
    return 0;
}
