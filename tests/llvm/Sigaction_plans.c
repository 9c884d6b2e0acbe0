// sigaction batched by clang at -O0 and -O2 (issues #12, #17): the
// start-up run and the loop over a list of signals are planned with the
// runtime-converted slot (printed as rt_sigaction, pseudo number -3), the
// batches are issued with SYSBATCH_RUN_PLANNED | SYSBATCH_RUN_CONVERTS (flags 9), and a call with
// a pointer next to a sigaction is kept out of its batch (converted-mix).
// REQUIRES: llvm
// RUN: %sbclang -O0 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAN
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAN
// RUN: %sbclang -O0 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
// RUN: %sbclang -O2 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_signal(int sig) { (void)sig; }
static const int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};

// PLAN-DAG: function start_up block 0:
// PLAN-DAG: slot 0: call 0 rt_sigaction(2, a1, a2) fail=stop
// PLAN-DAG: slot 1: call 1 rt_sigaction(15, a1, 0) fail=stop
// PLAN-DAG: slot 2: call 2 rt_sigaction(13, a1, 0)
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

// PLAN-DAG: function install_list loop 0:
// PLAN-DAG: loop call sigaction: 16 iterations per batch
// PLAN-DAG: slot: rt_sigaction(a0, a1, 0)
void install_list(int n)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    for (int i = 0; i < n; i++)
        sigaction(sigs[i], &sa, NULL);
}

// The write takes a pointer: it may not share the sigactions' batch.
// PLAN-DAG: ended before call 2 (write): converted-mix
void mixed(const char *msg, struct sigaction *sa)
{
    sigaction(SIGUSR1, sa, NULL);
    sigaction(SIGUSR2, sa, NULL);
    write(1, msg, 4);
    getpid();
}

// Slots with the pseudo number -3 (the first slot word: nr 0xfffd, no
// jumps), issued with flags 11 (PLANNED | JUMPS | CONVERTS: a failed
// sigaction stops the batch) or, in the loop and the batch without tests, 9
// (PLANNED | CONVERTS); the batch of write and getpid with 5 (PLANNED |
// CANCEL: write is a cancellation point).
// IR-DAG: i64 65533
// IR-DAG: call i64 @sysbatch_run({{.*}}, i64 3, i64 11)
// IR-DAG: call i64 @sysbatch_run({{.*}}, i64 9), !sysbatch.loop
// IR-DAG: call i64 @sysbatch_run({{.*}}, i64 2, i64 9)
// IR-DAG: call i64 @sysbatch_run({{.*}}, i64 2, i64 5)
