/* Neither path reads or writes errno: not at start-up (the probe), not for
 * failing calls, denied calls, unknown numbers or refused batches.  errno is
 * 0 when main() starts (C11 7.5p3), so the start-up probe is covered too. */
#include "sbtest.h"

int main(void)
{
    int at_start = errno;
    struct sysbatch_slot s[6];
    long rets[6], last;
    static const char L[] = "A";
    int value;

    sbt_begin("errno_untouched");
    SBT_EQ("errno at start of main", at_start, 0);

    for (value = 0; value < 3; value++) {
        int want = value == 0 ? 0 : value == 1 ? 12345 : EINTR;
        s[0] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);                 /* -EBADF */
        s[1] = sbt_slot(SYS_openat, 3, AT_FDCWD, (long)"/nonexistent/x", O_RDONLY, 0, 0, 0);
        s[2] = sbt_slot(SYS_execve, 3, 0, 0, 0, 0, 0, 0);                 /* denied */
        s[3] = sbt_slot(999, 0, 0, 0, 0, 0, 0, 0);                       /* unknown */
        s[4] = sbt_slot(SYS_write, 3, -1, (long)L, 1, 0, 0, 0);
        s[5] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
        errno = want;
        last = sysbatch_run(rets, s, 6, 0);
        SBT_EQ("errno after a batch of failures", errno, want);
        SBT_EQ("last", last, 5);
        SBT_EQ("close(-1)", rets[0], -EBADF);
        SBT_EQ("openat missing", rets[1], -ENOENT);
        SBT_EQ("denied execve", rets[2], -ENOSYS);
        SBT_EQ("unknown 999", rets[3], -ENOSYS);

        errno = want;
        s[1] = sbt_jumps(s[1], 5, 0, 0); /* past n: refused */
        SBT_EQ("refused batch", sysbatch_run(rets, s, 6, 0), -SYSBATCH_EINVAL);
        SBT_EQ("errno after a refused batch", errno, want);
        SBT_EQ("refused NULL", sysbatch_run(NULL, s, 6, 0), -SYSBATCH_EFAULT);
        SBT_EQ("errno after a NULL batch", errno, want);
        SBT_EQ("n = 0", sysbatch_run(rets, s, 0, 0), 0);
        SBT_EQ("errno after n = 0", errno, want);
        (void)sysbatch_path();
        SBT_EQ("errno after sysbatch_path", errno, want);
    }
    return sbt_end();
}
