/* sbk_slots: every kind of slot does what the same call does on its own.
 * Plain calls of 0..6 arguments, arguments past argc passed as 0, results
 * and errors in rets, unknown numbers -ENOSYS, a call that blocks (the
 * batch runs in process context), and a call interrupted by a signal
 * (-EINTR in its slot, never a kernel-internal restart code).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbk.h"

static void plain_calls(void)
{
    long rets[4];
    struct sysbatch_slot s[4] = { SBK0(SYS_getpid), SBK0(SYS_getppid), SBK0(SYS_getuid),
                                  SBK1(SYS_close, -1) };
    sbk_fill_rets(rets, 4);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 4, 0, 0), 3);
    SBK_EXPECT_EQ(rets[0], getpid());
    SBK_EXPECT_EQ(rets[1], getppid());
    SBK_EXPECT_EQ(rets[2], getuid());
    SBK_EXPECT_EQ(rets[3], -EBADF);
}

static void pipe_write_read(void)
{
    int p[2];
    char buf[16] = { 0 };
    long rets[2];
    SBK_EXPECT(pipe(p) == 0, "pipe");
    struct sysbatch_slot s[2] = { SBK3(SYS_write, p[1], "hello", 5),
                                  SBK3(SYS_read, p[0], buf, sizeof buf) };
    SBK_EXPECT_EQ(sbk_batch(rets, s, 2, 0, 0), 1);
    SBK_EXPECT_EQ(rets[0], 5);
    SBK_EXPECT_EQ(rets[1], 5);
    SBK_EXPECT(memcmp(buf, "hello", 5) == 0, "read back '%.5s'", buf);
    close(p[0]);
    close(p[1]);
}

/* openat with O_CREAT takes its mode from arg[3]: with argc 3 the mode the
 * slot carries in arg[3] must not reach the kernel. */
static void args_past_argc_are_zero(void)
{
    long rets[4];
    struct stat st3, st4;
    umask(0);
    struct sysbatch_slot s[4] = {
        sbk_slot(SYS_openat, 3, AT_FDCWD, (long)"mode3", O_CREAT | O_WRONLY | O_EXCL, 0644, 0, 0),
        sbk_slot(SYS_openat, 4, AT_FDCWD, (long)"mode4", O_CREAT | O_WRONLY | O_EXCL, 0644, 0, 0),
        SBK0(SYS_getpid), SBK0(SYS_getpid),
    };
    SBK_EXPECT_EQ(sbk_batch(rets, s, 2, 0, 0), 1);
    SBK_EXPECT(rets[0] >= 0 && rets[1] >= 0, "opens gave %ld %ld", rets[0], rets[1]);
    SBK_EXPECT(stat("mode3", &st3) == 0 && stat("mode4", &st4) == 0, "stat");
    SBK_EXPECT_EQ(st3.st_mode & 07777, 0);
    SBK_EXPECT_EQ(st4.st_mode & 07777, 0644);
    close(rets[0]);
    close(rets[1]);
}

static void six_arguments(void)
{
    long rets[2];
    struct sysbatch_slot s[2] = {
        sbk_slot(SYS_mmap, 6, 0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        SBKCOPY(0, 0),
    };
    s[1] = SBK2(SYS_munmap, 0, 8192);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), 0);
    SBK_EXPECT(rets[0] > 0 && (rets[0] & 4095) == 0, "mmap gave %#lx", rets[0]);
    if (rets[0] > 0) {
        volatile char *m = (char *)rets[0];
        m[8191] = 1;   /* mapped and writable, or this test dies */
        s[1].arg[0] = rets[0];
        SBK_EXPECT_EQ(sbk_batch(rets, &s[1], 1, 0, 0), 0);
        SBK_EXPECT_EQ(rets[0], 0);
    }
    /* 6 arguments that all matter: an out-of-range offset must fail. */
    s[0].arg[5] = 4095;   /* unaligned offset -> EINVAL */
    s[0].arg[3] = MAP_PRIVATE;
    s[0].arg[4] = 0;      /* stdin's fd is not mappable at an odd offset either */
    SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), 0);
    SBK_EXPECT_EQ(rets[0], -EINVAL);
}

static void unknown_numbers(void)
{
    long rets[4];
    struct sysbatch_slot s[4] = { SBK0(500), SBK0(-5), SBK0(32000), SBK0(SYS_getpid) };
    s[3] = SBK0(184);     /* tuxcall: in range, unimplemented */
    SBK_EXPECT_EQ(sbk_batch(rets, s, 4, 0, 0), 3);
    for (int i = 0; i < 4; i++)
        SBK_EXPECT(rets[i] == -ENOSYS, "slot %d gave %ld", i, rets[i]);
}

/* A read that has to wait for another process: only possible when the
 * batch runs in ordinary process context. */
static void blocking_call(void)
{
    int p[2];
    char c = 0;
    long rets[2];
    SBK_EXPECT(pipe(p) == 0, "pipe");
    pid_t child = fork();
    if (child == 0) {
        usleep(200 * 1000);
        _exit(write(p[1], "x", 1) == 1 ? 0 : 1);
    }
    struct sysbatch_slot s[2] = { SBK3(SYS_read, p[0], &c, 1), SBK0(SYS_getpid) };
    SBK_EXPECT_EQ(sbk_batch(rets, s, 2, 0, 0), 1);
    SBK_EXPECT_EQ(rets[0], 1);
    SBK_EXPECT_EQ(c, 'x');
    SBK_EXPECT_EQ(rets[1], getpid());
    int status;
    SBK_EXPECT(waitpid(child, &status, 0) == child && status == 0, "child status %d", status);
    close(p[0]);
    close(p[1]);
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

static void interrupted_call(void)
{
    int p[2];
    char c;
    long rets[2];
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;   /* no SA_RESTART */
    sigaction(SIGALRM, &sa, NULL);
    SBK_EXPECT(pipe(p) == 0, "pipe");
    struct itimerval it = { { 0, 0 }, { 0, 100 * 1000 } };
    setitimer(ITIMER_REAL, &it, NULL);
    struct sysbatch_slot s[2] = { SBK3(SYS_read, p[0], &c, 1), SBK0(SYS_getpid) };
    SBK_EXPECT_EQ(sbk_batch(rets, s, 2, 0, 0), 1);
    SBK_EXPECT_EQ(rets[0], -EINTR);
    SBK_EXPECT_EQ(rets[1], getpid());
    SBK_EXPECT_EQ(alarms, 1);   /* delivered when the batch returned */

    /* the same as the batch's last slot (the module fixes restart codes
     * where its signal test finds the signal, also on the way out) */
    setitimer(ITIMER_REAL, &it, NULL);
    struct sysbatch_slot t[2] = { SBK0(SYS_getpid), SBK3(SYS_read, p[0], &c, 1) };
    SBK_EXPECT_EQ(sbk_batch(rets, t, 2, 0, 0), 1);
    SBK_EXPECT_EQ(rets[0], getpid());
    SBK_EXPECT_EQ(rets[1], -EINTR);
    SBK_EXPECT_EQ(alarms, 2);
    close(p[0]);
    close(p[1]);
}

int main(void)
{
    sbk_require_module();
    plain_calls();
    pipe_write_read();
    args_past_argc_are_zero();
    six_arguments();
    unknown_numbers();
    blocking_call();
    interrupted_call();
    return sbk_finish("sbk_slots");
}
