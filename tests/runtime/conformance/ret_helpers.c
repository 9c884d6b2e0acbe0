/* The return-convention helpers turn a slot's raw result into exactly what
 * the libc wrapper returns, with the same errno.  Each case runs the call
 * both ways (batched and through libc) and compares; boundary values check
 * the failure rule ((unsigned long)r > -4096UL) and that errno is left alone
 * on success.  sysbatch_empty_string serves newfstatat(fd, "", AT_EMPTY_PATH). */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <sys/mman.h>

#define POISON 0x7777

int main(void)
{
    struct sysbatch_slot s[6];
    long rets[6], r;
    struct stat st_batch, st_libc;
    void *p;
    int e, fd, lr;

    sbt_begin("ret_helpers");

    /* -1/errno convention against libc, on failing and succeeding calls. */
    {
        const char *file = sbt_path_in(sbt_tempdir(), "f");
        sbt_write_file(file, "0123456789", 10);
        fd = open(file, O_RDONLY | O_CLOEXEC);
    }
    s[0] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);
    s[1] = sbt_slot(SYS_openat, 3, AT_FDCWD, (long)"/nonexistent/x", O_RDONLY, 0, 0, 0);
    s[2] = sbt_slot(SYS_lseek, 3, fd, 3, SEEK_SET, 0, 0, 0);
    s[3] = sbt_slot(SYS_newfstatat, 4, fd, (long)sysbatch_empty_string, (long)&st_batch,
                    AT_EMPTY_PATH, 0, 0);
    s[4] = sbt_slot(SYS_mmap, 6, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    s[5] = sbt_slot(SYS_mmap, 6, 0, 4096, PROT_READ, MAP_SHARED, -1, 0); /* EBADF */
    SBT_EQ("batch", sysbatch_run(rets, s, 6, 0), 5);

    errno = POISON;
    r = sysbatch_ret_errno(rets[0]);
    e = errno;
    errno = POISON;
    lr = close(-1);
    SBT_EQ("close(-1): result", r, lr);
    SBT_EQ("close(-1): errno", e, errno);

    errno = POISON;
    r = sysbatch_ret_errno(rets[1]);
    e = errno;
    errno = POISON;
    lr = open("/nonexistent/x", O_RDONLY);
    SBT_EQ("open missing: result", r, lr);
    SBT_EQ("open missing: errno", e, errno);

    errno = POISON;
    r = sysbatch_ret_errno(rets[2]);
    SBT_EQ("lseek: result", r, 3);
    SBT_EQ("lseek: errno untouched", errno, POISON);

    r = sysbatch_ret_errno(rets[3]);
    SBT_EQ("newfstatat(fd, sysbatch_empty_string): result", r, 0);
    SBT_EQ("fstat", fstat(fd, &st_libc), 0);
    SBT_EQ("same inode", (long)st_batch.st_ino, (long)st_libc.st_ino);
    SBT_EQ("same device", (long)st_batch.st_rdev, (long)st_libc.st_rdev);
    SBT_EQ("sysbatch_empty_string is empty", sysbatch_empty_string[0], 0);

    /* MAP_FAILED/errno convention. */
    errno = POISON;
    p = sysbatch_ret_mmap(rets[4]);
    SBT_TRUE("mmap success: an address", p != MAP_FAILED && p == (void *)rets[4]);
    SBT_EQ("mmap success: errno untouched", errno, POISON);
    if (p != MAP_FAILED) {
        munmap(p, 4096);
    }
    errno = POISON;
    p = sysbatch_ret_mmap(rets[5]);
    e = errno;
    errno = POISON;
    {
        void *lp = mmap(0, 4096, PROT_READ, MAP_SHARED, -1, 0);
        SBT_TRUE("mmap failure: MAP_FAILED like libc", p == MAP_FAILED && lp == MAP_FAILED);
        SBT_EQ("mmap failure: errno like libc", e, errno);
    }

    /* Positive error number convention: the result is the error, errno stays. */
    errno = POISON;
    SBT_EQ("positive_error(-EBADF)", sysbatch_ret_positive_error(-EBADF), EBADF);
    SBT_EQ("positive_error(0)", sysbatch_ret_positive_error(0), 0);
    SBT_EQ("positive_error: errno untouched", errno, POISON);
    s[0] = sbt_slot(SYS_fadvise64, 4, -1, 0, 0, POSIX_FADV_NORMAL, 0, 0);
    s[1] = sbt_slot(SYS_fadvise64, 4, fd, 0, 0, POSIX_FADV_NORMAL, 0, 0);
    SBT_EQ("fadvise batch", sysbatch_run(rets, s, 2, 0), 1);
    errno = POISON;
    SBT_EQ("posix_fadvise failure like libc", sysbatch_ret_positive_error(rets[0]),
           posix_fadvise(-1, 0, 0, POSIX_FADV_NORMAL));
    SBT_EQ("posix_fadvise success like libc", sysbatch_ret_positive_error(rets[1]),
           posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL));
    SBT_EQ("posix_fadvise: errno untouched", errno, POISON);

    /* The failure boundary: -4095..-1 fail, -4096 and below are values. */
    errno = POISON;
    SBT_EQ("ret_errno(-4095)", sysbatch_ret_errno(-4095), -1);
    SBT_EQ("errno from -4095", errno, 4095);
    errno = POISON;
    SBT_EQ("ret_errno(-1)", sysbatch_ret_errno(-1), -1);
    SBT_EQ("errno from -1", errno, 1);
    errno = POISON;
    SBT_EQ("ret_errno(-4096) is a value", sysbatch_ret_errno(-4096), -4096);
    SBT_EQ("ret_errno(0)", sysbatch_ret_errno(0), 0);
    SBT_EQ("ret_errno(LONG_MAX)", sysbatch_ret_errno(0x7fffffffffffffffL), 0x7fffffffffffffffL);
    SBT_EQ("errno untouched by values", errno, POISON);
    SBT_TRUE("ret_mmap(-4096) is an address", sysbatch_ret_mmap(-4096) == (void *)-4096L);
    SBT_EQ("errno untouched by ret_mmap(-4096)", errno, POISON);
    SBT_EQ("positive_error(-4096) is a value", sysbatch_ret_positive_error(-4096), -4096);
    close(fd);
    return sbt_end();
}
