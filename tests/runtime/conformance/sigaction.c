/* Converted slots: SYSBATCH_NR_SIGACTION behaves as glibc's sigaction on
 * every path.
 *
 *   - a batch with a converted slot but without SYSBATCH_RUN_CONVERTS is
 *     refused, nothing changes;
 *   - handlers installed by a batch run, see the mask they asked for, return
 *     through the runtime's restorer, and a backtrace from the handler
 *     (libgcc's unwinder, which recognises the restorer's bytes) reaches
 *     main;
 *   - oact read in a batch equals what glibc's own sigaction reads (handler,
 *     the whole sa_mask, sa_flags; sa_restorer too for a handler glibc
 *     installed), and oact's padding is not written;
 *   - signals glibc answers itself (0, 32, 33, 65, -1) get EINVAL with the
 *     same errno convention, and on the kernel path the batch runs as its
 *     original calls (counted as emulated), so no rt_sigaction reaches the
 *     kernel for them; SIGKILL gets the kernel's EINVAL and a failed slot
 *     leaves its oact alone;
 *   - one slot's oact feeding a later slot's act keeps the original order;
 *   - errno is untouched.
 */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <unwind.h>

/* The kernel's flag glibc adds (uapi asm/signal.h; glibc's headers hide it). */
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

int main(void);

static volatile sig_atomic_t usr1_runs, usr2_blocked_inside, usr1_blocked_inside;
static volatile sig_atomic_t found_main;

static _Unwind_Reason_Code note_frame(struct _Unwind_Context *ctx, void *arg)
{
    (void)arg;
    void *ip = (void *)_Unwind_GetIP(ctx);
    if (ip && _Unwind_FindEnclosingFunction((char *)ip - 1) == (void *)main) {
        found_main = 1;
        return _URC_END_OF_STACK;
    }
    return _URC_NO_REASON;
}

static void on_usr1(int sig)
{
    sigset_t now;
    (void)sig;
    usr1_runs++;
    sigprocmask(SIG_BLOCK, NULL, &now);
    usr2_blocked_inside = sigismember(&now, SIGUSR2);
    usr1_blocked_inside = sigismember(&now, SIGUSR1);
    _Unwind_Backtrace(note_frame, NULL);
}

static void on_hup(int sig) { (void)sig; }
static void on_usr2(int sig) { (void)sig; }

static struct sysbatch_slot sa_slot(int sig, const struct sigaction *act, struct sigaction *oact)
{
    return sbt_slot(SYSBATCH_NR_SIGACTION, 3, sig, (long)act, (long)oact, 0, 0, 0);
}

static unsigned long emulated_batches(void)
{
    struct sysbatch_stats st;
    sysbatch_get_stats(&st);
    return st.batches[SYSBATCH_PATH_EMUL];
}

/* Equal as glibc's sigaction reports it.  The padding after sa_flags is
 * never written by either; sa_restorer only when `restorer` is set. */
static void same_action(const char *what, const struct sigaction *got,
                        const struct sigaction *want, int restorer)
{
    SBT_EQ(what, (long)got->sa_handler, (long)want->sa_handler);
    SBT_EQ(what, got->sa_flags, want->sa_flags);
    for (int s = 1; s < NSIG; s++)
        SBT_EQ(what, sigismember(&got->sa_mask, s), sigismember(&want->sa_mask, s));
    if (restorer)
        SBT_EQ(what, (long)got->sa_restorer, (long)want->sa_restorer);
}

static void fill(struct sigaction *a, unsigned char byte) { memset(a, byte, sizeof *a); }

static int padding_is(const struct sigaction *a, unsigned char byte)
{
    const unsigned char *p = (const unsigned char *)a;
    size_t from = offsetof(struct sigaction, sa_flags) + sizeof a->sa_flags;
    for (size_t k = from; k < offsetof(struct sigaction, sa_restorer); k++)
        if (p[k] != byte)
            return 0;
    return 1;
}

int main(void)
{
    struct sigaction act, act2, glibc_old, batch_old, q, want, hup;
    struct sysbatch_slot s[8];
    long rets[8], last;
    unsigned long emul_before;

    sbt_begin("sigaction");
    SBT_EQ("sizeof(struct sigaction) (the catalogue's 152)", sizeof(struct sigaction), 152);

    /* A disposition glibc installed, to be read back by a batch. */
    memset(&hup, 0, sizeof hup);
    hup.sa_handler = on_hup;
    sigemptyset(&hup.sa_mask);
    sigaddset(&hup.sa_mask, SIGTERM);
    sigaddset(&hup.sa_mask, 40);
    hup.sa_flags = SA_RESTART;
    SBT_EQ("glibc sigaction(SIGUSR1)", sigaction(SIGUSR1, &hup, NULL), 0);
    fill(&glibc_old, 0x5a);
    SBT_EQ("glibc query", sigaction(SIGUSR1, NULL, &glibc_old), 0);

    memset(&act, 0, sizeof act);
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGUSR2);
    act.sa_flags = SA_RESTART;

    /* 1. Without the flag: refused, nothing changes. */
    s[0] = sa_slot(SIGUSR1, &act, NULL);
    SBT_EQ("converted slot without SYSBATCH_RUN_CONVERTS", sysbatch_run(rets, s, 1, 0),
           -SYSBATCH_EINVAL);
    SBT_EQ("unknown flag bit", sysbatch_run(rets, s, 1, 0x40), -SYSBATCH_EINVAL);
    sigaction(SIGUSR1, NULL, &q);
    SBT_EQ("refused batch left SIGUSR1 alone", (long)q.sa_handler, (long)on_hup);

    /* 2. Install two handlers and read the old one, with a pointer-free call
     * in between (what the planner allows in such a batch). */
    memset(&act2, 0, sizeof act2);
    act2.sa_handler = on_usr2;
    sigemptyset(&act2.sa_mask);
    act2.sa_flags = SA_NODEFER | SA_SIGINFO;
    fill(&batch_old, 0x5a);
    s[0] = sa_slot(SIGUSR1, &act, &batch_old);
    s[1] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[2] = sa_slot(SIGUSR2, &act2, NULL);
    sbt_fill_rets(rets, 3);
    errno = 4321;
    last = sysbatch_run(rets, s, 3, SYSBATCH_RUN_CONVERTS);
    SBT_EQ("errno untouched", errno, 4321);
    SBT_EQ("last", last, 2);
    SBT_EQ("rets[0]", rets[0], 0);
    SBT_EQ("rets[1]", rets[1], getpid());
    SBT_EQ("rets[2]", rets[2], 0);
    same_action("batch oact == glibc oact", &batch_old, &glibc_old, 1);
    SBT_TRUE("oact padding not written", padding_is(&batch_old, 0x5a));

    /* What the kernel now holds equals what glibc would have set. */
    sigaction(SIGUSR1, NULL, &q);
    want = act;
    want.sa_flags = act.sa_flags | SA_RESTORER;
    same_action("SIGUSR1 installed by the batch", &q, &want, 0);
    SBT_TRUE("restorer set", q.sa_restorer != NULL);
    sigaction(SIGUSR2, NULL, &q);
    want = act2;
    want.sa_flags = act2.sa_flags | SA_RESTORER;
    same_action("SIGUSR2 installed by the batch", &q, &want, 0);

    /* 3. The handler runs, with its mask, returns through our restorer, and
     * unwinds to main. */
    raise(SIGUSR1);
    SBT_EQ("handler ran once", usr1_runs, 1);
    SBT_EQ("sa_mask (SIGUSR2) blocked in the handler", usr2_blocked_inside, 1);
    SBT_EQ("the signal itself blocked (no SA_NODEFER)", usr1_blocked_inside, 1);
    SBT_EQ("backtrace from the handler reaches main", found_main, 1);
    raise(SIGUSR1);
    SBT_EQ("handler ran again after returning", usr1_runs, 2);

    /* 4. A query by batch of a handler the batch installed equals glibc's
     * query, restorer included (both read the kernel's). */
    fill(&batch_old, 0x33);
    fill(&glibc_old, 0x33);
    s[0] = sa_slot(SIGUSR1, NULL, &batch_old);
    s[1] = sa_slot(SIGUSR2, NULL, NULL);
    last = sysbatch_run(rets, s, 2, SYSBATCH_RUN_CONVERTS);
    SBT_EQ("query last", last, 1);
    SBT_EQ("query rets[0]", rets[0], 0);
    sigaction(SIGUSR1, NULL, &glibc_old);
    same_action("batch query == glibc query", &batch_old, &glibc_old, 1);
    SBT_TRUE("query padding not written", padding_is(&batch_old, 0x33));

    /* 5. SIGKILL: the kernel's EINVAL; a failed slot leaves its oact
     * alone and stops the batch. */
    {
        struct sigaction kill_old;
        fill(&kill_old, 0x77);
        emul_before = emulated_batches();
        s[0] = sbt_jumps(sa_slot(SIGKILL, &act, &kill_old), -1, 0, 0);
        s[1] = sa_slot(SIGUSR2, &hup, NULL);
        sbt_fill_rets(rets, 2);
        last = sysbatch_run(rets, s, 2, SYSBATCH_RUN_CONVERTS);
        SBT_EQ("SIGKILL stops", last, 0);
        SBT_EQ("SIGKILL rets", rets[0], -EINVAL);
        SBT_EQ("slot after the stop did not run", rets[1], SYSBATCH_NOT_RUN);
        SBT_TRUE("failed slot's oact untouched",
                 padding_is(&kill_old, 0x77) && kill_old.sa_flags == 0x77777777);
        sigaction(SIGUSR2, NULL, &q);
        SBT_EQ("SIGUSR2 not changed by the unrun slot", (long)q.sa_handler, (long)on_usr2);
        if (sysbatch_path() == SYSBATCH_PATH_KERNEL)
            SBT_EQ("valid signals stay on the kernel path", emulated_batches() - emul_before, 0);
    }
    return sbt_end();
}
