/* Converted slots the runtime cannot send to the kernel as rt_sigaction and
 * keep glibc's behaviour: the batch runs as its original calls (glibc's
 * sigaction for the converted slots), with the same results and errno
 * convention, counted as an emulated batch even on the kernel path (the
 * VM tier expects that; tests/runtime/CMakeLists.txt lists this program as
 * one that falls back on purpose).
 *
 *   - signals glibc answers itself with EINVAL without entering the kernel:
 *     0, its internal SIGCANCEL (32) and SIGSETXID (33), 65, -1; the
 *     kernel's disposition of 32 must not change, and failed slots leave
 *     their oact alone;
 *   - slot 0's oact is slot 1's act (the runtime would read act before slot
 *     0 wrote it): SIGUSR2 must get SIGUSR1's old disposition;
 *   - a word copy into a converted slot's arguments.
 */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <signal.h>

static void on_a(int sig) { (void)sig; }
static void on_b(int sig) { (void)sig; }

static struct sysbatch_slot sa_slot(long sig, const struct sigaction *act, struct sigaction *oact)
{
    return sbt_slot(SYSBATCH_NR_SIGACTION, 3, sig, (long)act, (long)oact, 0, 0, 0);
}

static unsigned long emulated_batches(void)
{
    struct sysbatch_stats st;
    sysbatch_get_stats(&st);
    return st.batches[SYSBATCH_PATH_EMUL];
}

int main(void)
{
    static const int sigs[] = { 0, 32, 33, 65, -1 };
    enum { NS = sizeof sigs / sizeof sigs[0] };
    struct sigaction act, q, olds[NS], k32_before, k32_after;
    struct sysbatch_slot s[NS];
    long rets[NS], last;
    unsigned long emul_before;

    sbt_begin("sigaction_fallback");
    memset(&act, 0, sizeof act);
    act.sa_handler = on_a;
    sigemptyset(&act.sa_mask);

    /* 1. glibc's own EINVAL. */
    syscall(SYS_rt_sigaction, 32, NULL, &k32_before, 8);
    for (int k = 0; k < NS; k++) {
        memset(&olds[k], 0x77, sizeof olds[k]);
        s[k] = sa_slot(sigs[k], &act, &olds[k]);
    }
    sbt_fill_rets(rets, NS);
    emul_before = emulated_batches();
    errno = 99;
    last = sysbatch_run(rets, s, NS, SYSBATCH_RUN_CONVERTS);
    SBT_EQ("errno untouched by failing slots", errno, 99);
    SBT_EQ("last", last, NS - 1);
    for (int k = 0; k < NS; k++) {
        errno = 0;
        SBT_EQ("glibc's own answer", sigaction(sigs[k], &act, NULL), -1);
        SBT_EQ("slot result is -errno of glibc's", rets[k], -(long)errno);
        SBT_EQ("EINVAL", rets[k], -EINVAL);
        SBT_EQ("failed slot's oact untouched", olds[k].sa_flags, 0x77777777);
    }
    SBT_EQ("ran as its original calls", emulated_batches() - emul_before, 1);
    syscall(SYS_rt_sigaction, 32, NULL, &k32_after, 8);
    SBT_EQ("signal 32 unchanged in the kernel", (long)k32_after.sa_handler,
           (long)k32_before.sa_handler);

    /* 2. One slot's output is the next one's input. */
    {
        struct sigaction first, shared;
        memset(&first, 0, sizeof first);
        first.sa_handler = on_a;
        sigemptyset(&first.sa_mask);
        SBT_EQ("glibc install", sigaction(SIGUSR1, &first, NULL), 0);
        memset(&act, 0, sizeof act);
        act.sa_handler = on_b;
        sigemptyset(&act.sa_mask);
        memset(&shared, 0, sizeof shared);
        s[0] = sa_slot(SIGUSR1, &act, &shared);
        s[1] = sa_slot(SIGUSR2, &shared, NULL);
        emul_before = emulated_batches();
        last = sysbatch_run(rets, s, 2, SYSBATCH_RUN_CONVERTS);
        SBT_EQ("chain through memory last", last, 1);
        SBT_EQ("rets", rets[0] | rets[1], 0);
        sigaction(SIGUSR2, NULL, &q);
        SBT_EQ("SIGUSR2 got SIGUSR1's old handler", (long)q.sa_handler, (long)on_a);
        sigaction(SIGUSR1, NULL, &q);
        SBT_EQ("SIGUSR1 got the new handler", (long)q.sa_handler, (long)on_b);
        SBT_EQ("ran as its original calls", emulated_batches() - emul_before, 1);
    }

    /* 3. A word copy writes the signal number of a converted slot. */
    {
        long signo = SIGUSR2;
        memset(&act, 0, sizeof act);
        act.sa_handler = on_a;
        sigemptyset(&act.sa_mask);
        s[0] = sbt_copy(&s[1].arg[0], &signo);
        s[1] = sa_slot(0, &act, NULL);
        emul_before = emulated_batches();
        last = sysbatch_run(rets, s, 2, SYSBATCH_RUN_CONVERTS);
        SBT_EQ("copied signal last", last, 1);
        SBT_EQ("copied signal rets", rets[1], 0);
        sigaction(SIGUSR2, NULL, &q);
        SBT_EQ("SIGUSR2 installed with the copied number", (long)q.sa_handler, (long)on_a);
        SBT_EQ("ran as its original calls", emulated_batches() - emul_before, 1);
    }
    return sbt_end();
}
