/* Batches of every run-flag combination the plugins emit (SB_RT_RUN_* of
 * sysbatch/runtime-abi.h, SYSBATCH_RUN_* of sysbatch.h): planned (1), a slot
 * that jumps (2), a slot that is a pthread cancellation point (4), in
 * straight-line and loop batches.  tests/gcc/Run_flags.test and
 * tests/llvm/Run_flags.test check that both compilers pass the same flags.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

long uid_gid(void)
{
    uid_t u = getuid();
    gid_t g = getgid();
    return (long)u + g;
}

long pid_close(int fd)
{
    pid_t p = getpid();
    close(fd);
    return p;
}

long open_read_close(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, buf, 64);
    close(fd);
    return n;
}

int make_then_remove(const char *a, const char *b)
{
    if (mkdir(a, 0755) < 0)
        return -1;
    if (unlink(b) < 0)
        return -2;
    return 0;
}

void close_array(int *fd, int n)
{
    for (int i = 0; i < n; i++)
        close(fd[i]);
}

void make_dirs(const char **names, int n)
{
    for (int i = 0; i < n; i++)
        mkdir(names[i], 0755);
}
