/* sbk_probe: is sys_batch on syscall 183, and does the hook leave every
 * other unimplemented syscall alone?
 *     sbk_probe present   module loaded: probe 0, flags/size checked,
 *                         tiny batch runs, other ENOSYS numbers unchanged
 *     sbk_probe absent    module unloaded (after rmmod): 183 is -ENOSYS
 *                         again and runs nothing
 */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "sbk.h"

static void expect_other_numbers_unchanged(void)
{
    /* 184 (tuxcall) is another unimplemented slot next to ours; 1000 is out
     * of range.  Both end in the probed __x64_sys_ni_syscall. */
    SBK_EXPECT_EQ(sbk_raw6(184, 0, 0, 0, 0, 0, 0), -ENOSYS);
    SBK_EXPECT_EQ(sbk_raw6(1000, 0, 0, 0, 0, 0, 0), -ENOSYS);
    SBK_EXPECT_EQ(sbk_raw6(SYS_getpid, 0, 0, 0, 0, 0, 0), getpid());
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    long rets[1];
    struct sysbatch_slot s[1] = { SBK0(SYS_getppid) };

    if (strcmp(mode, "present") == 0) {
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 0), 0);
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 64), 0);     /* size = slot size */
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 1, 0), -EINVAL);
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 32), -EINVAL);
        sbk_fill_rets(rets, 1);
        SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), 0);
        SBK_EXPECT_EQ(rets[0], getppid());
        expect_other_numbers_unchanged();
    } else if (strcmp(mode, "absent") == 0) {
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 0), -ENOSYS);
        sbk_fill_rets(rets, 1);
        SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), -ENOSYS);
        SBK_EXPECT_EQ(rets[0], SBK_UNTOUCHED);
        expect_other_numbers_unchanged();
    } else {
        fprintf(stderr, "usage: sbk_probe present|absent\n");
        return 1;
    }
    return sbk_finish("sbk_probe");
}
