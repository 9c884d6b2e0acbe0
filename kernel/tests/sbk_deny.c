/* sbk_deny: calls that need the caller's real register frame, replace or
 * end the task, or would recurse get -ENOSYS in their slot, and the batch
 * goes on.  Each is given arguments that would succeed if it ran; the test
 * then checks that nothing happened (no child, no exit, no exec).
 */
#include <errno.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbk.h"

int main(void)
{
    sbk_require_module();
    static char *argv[] = { "/bin/true", 0 };
    static char *envp[] = { 0 };
    struct clone_args ca;
    memset(&ca, 0, sizeof ca);
    ca.exit_signal = SIGCHLD;
    stack_t old_stack;
    char ldt[16] = { 0 };
    long fsbase = 0;
    struct { const char *name; struct sysbatch_slot slot; } denied[] = {
        { "fork", SBK0(SYS_fork) },
        { "vfork", SBK0(SYS_vfork) },
        { "clone", SBK2(SYS_clone, SIGCHLD, 0) },
        { "clone3", SBK2(SYS_clone3, &ca, sizeof ca) },
        { "execve", SBK3(SYS_execve, "/bin/true", argv, envp) },
        { "execveat", sbk_slot(SYS_execveat, 5, -100, (long)"/bin/true", (long)argv, (long)envp, 0, 0) },
        { "exit", SBK1(SYS_exit, 3) },
        { "exit_group", SBK1(SYS_exit_group, 3) },
        { "rt_sigreturn", SBK0(SYS_rt_sigreturn) },
        { "sys_batch", sbk_slot(SYSBATCH_NR_BATCH, 5, 0, 0, 0, 0, 0, 0) },
        { "arch_prctl", SBK2(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, &fsbase) },
        { "iopl", SBK1(SYS_iopl, 0) },
        { "ioperm", SBK3(SYS_ioperm, 0x80, 1, 0) },
        { "sigaltstack", SBK2(SYS_sigaltstack, 0, &old_stack) },
        { "modify_ldt", SBK3(SYS_modify_ldt, 0, ldt, sizeof ldt) },
    };
    for (unsigned i = 0; i < sizeof denied / sizeof denied[0]; i++) {
        long rets[2];
        struct sysbatch_slot s[2] = { denied[i].slot, SBK0(SYS_getpid) };
        sbk_fill_rets(rets, 2);
        long r = sbk_batch(rets, s, 2, 0, 0);
        SBK_EXPECT(r == 1 && rets[0] == -ENOSYS && rets[1] == getpid(),
                   "%s: batch %ld, slot %ld, next %ld", denied[i].name, r, rets[0], rets[1]);
    }
    /* Still here (exit, exit_group, execve did not happen) and childless
     * (fork, vfork, clone, clone3 did not happen). */
    SBK_EXPECT(waitpid(-1, 0, WNOHANG) == -1 && errno == ECHILD, "a denied call made a child");
    SBK_EXPECT_EQ(fsbase, 0);
    return sbk_finish("sbk_deny");
}
