/* sbk_seccomp: inner calls would bypass a seccomp filter, so a task under
 * one gets -EPERM for every sys_batch call, the probe included (its runtime
 * then falls back to separate, filtered calls).  The filter here allows
 * everything, so only the module can be refusing.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbk.h"

int main(void)
{
    sbk_require_module();
    long rets[1];
    struct sysbatch_slot s[1] = { SBK0(SYS_getpid) };
    SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), 0);   /* unfiltered: runs */

    pid_t child = fork();
    if (child == 0) {
        struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        struct sock_fprog prog = { 1, &allow };
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
            _exit(2);
        rets[0] = 0;
        int ok = sbk_batch(0, 0, 0, 0, 0) == -EPERM && sbk_batch(rets, s, 1, 0, 0) == -EPERM &&
                 rets[0] == 0;
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    SBK_EXPECT(waitpid(child, &status, 0) == child, "waitpid");
    SBK_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
               "filtered child: status %#x (1: batch not refused, 2: no seccomp)", status);
    return sbk_finish("sbk_seccomp");
}
