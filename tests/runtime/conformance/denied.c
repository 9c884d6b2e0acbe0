/* Denied calls (the batch itself, the clone and fork family, the exec family,
 * exit and exit_group, rt_sigreturn) get -ENOSYS in their slot, nothing else
 * happens, and the batch goes on: each denied slot is followed by a marker
 * that must run.  Where possible the arguments would make the call fail
 * with something other than ENOSYS if it were run; exit(42) and
 * exit_group(43) would end the test with that status. */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <linux/sched.h>

struct denied_call {
    const char *name;
    struct sysbatch_slot slot;
};

int main(void)
{
    static const char L[] = "abcdefghijklmnop";
    struct denied_call calls[] = {
        { "sys_batch (183)", sbt_slot(SYSBATCH_NR_BATCH, 5, 0, 0, 0, 0, 0, 0) },
        { "clone", sbt_slot(SYS_clone, 5, CLONE_SIGHAND, 0, 0, 0, 0, 0) },
        { "clone3", sbt_slot(SYS_clone3, 2, 0, 0, 0, 0, 0, 0) },
        { "fork", sbt_slot(SYS_fork, 0, 0, 0, 0, 0, 0, 0) },
        { "vfork", sbt_slot(SYS_vfork, 0, 0, 0, 0, 0, 0, 0) },
        { "execve", sbt_slot(SYS_execve, 3, 0, 0, 0, 0, 0, 0) },
        { "execveat", sbt_slot(SYS_execveat, 5, -1, (long)"", 0, 0, 0, 0) },
        { "exit", sbt_slot(SYS_exit, 1, 42, 0, 0, 0, 0, 0) },
        { "exit_group", sbt_slot(SYS_exit_group, 1, 43, 0, 0, 0, 0, 0) },
        { "rt_sigreturn", sbt_slot(SYS_rt_sigreturn, 0, 0, 0, 0, 0, 0, 0) },
    };
    enum { NCALLS = sizeof calls / sizeof calls[0] };
    struct sysbatch_slot s[2 * NCALLS + 2];
    long rets[2 * NCALLS + 2], last;
    pid_t pid = getpid();
    struct sbt_trace t;
    char want[NCALLS + 1];
    int k;

    sbt_begin("denied");
    t = sbt_trace_open();
    for (k = 0; k < NCALLS; k++) {
        s[2 * k] = calls[k].slot;
        s[2 * k + 1] = sbt_mark(t, &L[k], 1);
        want[k] = L[k];
    }
    want[NCALLS] = 0;
    sbt_fill_rets(rets, 2 * NCALLS);
    last = sysbatch_run(rets, s, 2 * NCALLS, 0);
    SBT_EQ("still the same process", getpid(), pid);
    SBT_EQ("last", last, 2 * NCALLS - 1);
    for (k = 0; k < NCALLS; k++) {
        char what[80];
        snprintf(what, sizeof what, "%s result", calls[k].name);
        SBT_EQ(what, rets[2 * k], -ENOSYS);
        snprintf(what, sizeof what, "marker after %s", calls[k].name);
        SBT_EQ(what, rets[2 * k + 1], 1);
    }
    SBT_STREQ("markers after denied calls", sbt_trace_read(t), want);

    /* A denied call takes jump_fail like any other failure. */
    sbt_fill_rets(rets, 3);
    s[0] = sbt_jumps(sbt_slot(SYS_exit_group, 1, 44, 0, 0, 0, 0, 0), 1, -1, -1);
    s[1] = sbt_mark(t, &L[0], 1);
    s[2] = sbt_mark(t, &L[1], 1);
    last = sysbatch_run(rets, s, 3, 0);
    SBT_EQ("denied + jump_fail: last", last, 2);
    SBT_EQ("denied + jump_fail: result", rets[0], -ENOSYS);
    SBT_STREQ("denied + jump_fail: trace", sbt_trace_read(t), "b");
    return sbt_end();
}
