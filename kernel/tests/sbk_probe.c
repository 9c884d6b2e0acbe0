/* sbk_probe: is sys_batch on syscall 183, and does the hook leave every
 * other unimplemented syscall alone?
 *     sbk_probe present   module loaded: probe 0, flags/size checked,
 *                         tiny batch runs, other ENOSYS numbers unchanged
 *     sbk_probe absent    module unloaded (after rmmod): 183 is -ENOSYS
 *                         again and runs nothing
 *     sbk_probe busy      unloading while a batch is blocked inside the
 *                         module fails (EWOULDBLOCK); the batch finishes
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbk.h"

static void expect_other_numbers_unchanged(void)
{
    /* 184 (tuxcall) is another unimplemented slot next to ours; 1000 is out
     * of range.  Both end in the probed __x64_sys_ni_syscall. */
    SBK_EXPECT_EQ(sbk_raw6(184, 0, 0, 0, 0, 0, 0), -ENOSYS);
    SBK_EXPECT_EQ(sbk_raw6(1000, 0, 0, 0, 0, 0, 0), -ENOSYS);
    SBK_EXPECT_EQ(sbk_raw6(SYS_getpid, 0, 0, 0, 0, 0, 0), getpid());
}

/* The child's batch tells us it is running (slot 0 writes to `running`),
 * then blocks in slot 1 until we write to `release`. */
static void unload_while_busy(void)
{
    int running[2], release[2];
    char c;
    SBK_EXPECT(pipe(running) == 0 && pipe(release) == 0, "pipe");
    pid_t child = fork();
    if (child == 0) {
        long rets[2];
        struct sysbatch_slot s[2] = { SBK3(SYS_write, running[1], "r", 1),
                                      SBK3(SYS_read, release[0], &c, 1) };
        long r = sbk_batch(rets, s, 2, 0, 0);
        _exit(r == 1 && rets[0] == 1 && rets[1] == 1 && c == 'x' ? 0 : 1);
    }
    SBK_EXPECT(read(running[0], &c, 1) == 1, "child batch never started");
    long r = syscall(SYS_delete_module, "sysbatch", O_NONBLOCK);
    SBK_EXPECT(r == -1 && errno == EWOULDBLOCK, "delete_module gave %ld errno %d", r, errno);
    SBK_EXPECT(write(release[1], "x", 1) == 1, "write");
    int status = -1;
    SBK_EXPECT(waitpid(child, &status, 0) == child && status == 0, "child status %#x", status);
    SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 0), 0);   /* still loaded */
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
    } else if (strcmp(mode, "busy") == 0) {
        sbk_require_module();
        unload_while_busy();
    } else {
        fprintf(stderr, "usage: sbk_probe present|absent|busy\n");
        return 1;
    }
    return sbk_finish("sbk_probe");
}
