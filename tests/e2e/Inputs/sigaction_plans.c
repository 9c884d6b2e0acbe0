/* sigaction batched at -O0 and -O2 (issues #12, #17): the start-up run and
 * the loop over a list of signals are planned with the runtime-converted
 * slot (printed as rt_sigaction, pseudo number -3), and a call with a
 * pointer next to a sigaction is kept out of its batch (converted-mix).
 *
 * Compiled by tests/gcc/Sigaction_plans.test and
 * tests/llvm/Sigaction_plans.test: both compilers must print the PLAN lines
 * below and remark the loop (REMARK); each test checks its own emitted
 * run flags.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_signal(int sig) { (void)sig; }
static const int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};

/* PLAN-DAG: function start_up block 0:
 * PLAN-DAG: slot 0: call 0 rt_sigaction(2, a1, a2) fail=stop
 * PLAN-DAG: slot 1: call 1 rt_sigaction(15, a1, 0) fail=stop
 * PLAN-DAG: slot 2: call 2 rt_sigaction(13, a1, 0)
 */
int start_up(struct sigaction *old_int)
{
    struct sigaction sa, ign;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    if (sigaction(SIGINT, &sa, old_int) < 0)
        return -1;
    if (sigaction(SIGTERM, &sa, NULL) < 0)
        return -2;
    if (sigaction(SIGPIPE, &ign, NULL) < 0)
        return -3;
    return 0;
}

/* PLAN-DAG: function install_list loop 0:
 * PLAN-DAG: loop call sigaction: 16 iterations per batch
 * PLAN-DAG: slot: rt_sigaction(a0, a1, 0)
 */
void install_list(int n)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    for (int i = 0; i < n; i++)
        sigaction(sigs[i], &sa, NULL);
    // REMARK: sigaction_plans.c:[[@LINE-1]]:{{[0-9]+}}: {{(optimized: sysbatch|remark)}}: batched loop call sigaction: 16 iterations per batch
}

/* The write takes a pointer: it may not share the sigactions' batch.
 * PLAN-DAG: ended before call 2 (write): converted-mix
 */
void mixed(const char *msg, struct sigaction *sa)
{
    sigaction(SIGUSR1, sa, NULL);
    sigaction(SIGUSR2, sa, NULL);
    write(1, msg, 4);
    getpid();
}
