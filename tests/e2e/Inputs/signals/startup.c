/* Signal set-up as programs write it at start-up: a straight-line run
 * (sigaction x3 with an old action kept, signal x2) and sigaction over a
 * list of signals, one with a signal glibc refuses itself (its internal 32)
 * and one with SIGKILL, which the kernel refuses.  Then the handlers are
 * exercised and everything a handler or a later query can see is printed:
 * which handler ran, the old actions, errno of each failure. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

static volatile sig_atomic_t last_signal, count;

static void on_signal(int sig)
{
    last_signal = sig;
    count++;
}

static void on_other(int sig)
{
    last_signal = -sig;
    count++;
}

static const int list[] = {SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD, SIGWINCH, SIGCONT};
#ifndef SIGNALS_KERNEL_ONLY
static const int with_internal[] = {SIGHUP, 32, SIGUSR1};
#endif
static const int with_kill[] = {SIGUSR2, SIGKILL, SIGALRM};

static void describe(const char *what, const struct sigaction *sa)
{
    const char *h = sa->sa_handler == SIG_DFL   ? "default"
                    : sa->sa_handler == SIG_IGN ? "ignore"
                    : sa->sa_handler == on_signal ? "on_signal"
                    : sa->sa_handler == on_other  ? "on_other"
                                                  : "other";
    int blocked = 0;
    for (int s = 1; s < NSIG; s++)
        blocked += sigismember(&sa->sa_mask, s) == 1;
    printf("%s: handler %s flags %#x blocked %d%s\n", what, h, sa->sa_flags & ~SA_RESTORER,
           blocked, sigismember(&sa->sa_mask, SIGTERM) == 1 ? " (SIGTERM)" : "");
}

static int start_up(struct sigaction *old_int)
{
    struct sigaction sa, ign;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    if (sigaction(SIGINT, &sa, old_int) < 0)
        return -1;
    if (sigaction(SIGTERM, &sa, NULL) < 0)
        return -2;
    if (sigaction(SIGPIPE, &ign, NULL) < 0)
        return -3;
    if (signal(SIGXCPU, on_other) == SIG_ERR)
        return -4;
    if (signal(SIGXFSZ, SIG_IGN) == SIG_ERR)
        return -5;
    return 0;
}

/* Returns failures * 1000 + errno of the last failure. */
static int install_all(const int *sigs, int n, void (*handler)(int))
{
    struct sigaction sa;
    int failed = 0, last_errno = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int i = 0; i < n; i++) {
        if (sigaction(sigs[i], &sa, NULL) < 0) {
            failed++;
            last_errno = errno;
        }
    }
    return failed * 1000 + last_errno;
}

/* Signals to ourselves without a pid in the arguments (the comparison
 * masks pids only in results): as our own process group's only member,
 * kill(0, sig) reaches this process alone, before kill returns. */
static void deliver(int sig)
{
    kill(0, sig);
}

int main(void)
{
    struct sigaction old_int, q;
    int rc;

    if (setpgid(0, 0) != 0)
        return 2;
    memset(&old_int, 0, sizeof old_int);
    rc = start_up(&old_int);
    printf("start_up %d\n", rc);
    describe("old SIGINT", &old_int);
    sigaction(SIGINT, NULL, &q);
    describe("SIGINT", &q);
    sigaction(SIGTERM, NULL, &q);
    describe("SIGTERM", &q);
    sigaction(SIGPIPE, NULL, &q);
    describe("SIGPIPE", &q);
    sigaction(SIGXCPU, NULL, &q);
    describe("SIGXCPU", &q);

    rc = install_all(list, (int)(sizeof list / sizeof list[0]), on_other);
    printf("list: %d failed, errno %d\n", rc / 1000, rc % 1000);
#ifndef SIGNALS_KERNEL_ONLY
    rc = install_all(with_internal, 3, on_signal);
    printf("with 32: %d failed, errno %d\n", rc / 1000, rc % 1000);
#endif
    rc = install_all(with_kill, 3, on_signal);
    printf("with SIGKILL: %d failed, errno %d\n", rc / 1000, rc % 1000);

    for (unsigned i = 0; i < sizeof list / sizeof list[0]; i++) {
        sigaction(list[i], NULL, &q);
        describe("listed", &q);
    }
    deliver(SIGINT);
    printf("after SIGINT: last %d count %d\n", (int)last_signal, (int)count);
    deliver(SIGXCPU);
    printf("after SIGXCPU: last %d count %d\n", (int)last_signal, (int)count);
    deliver(SIGWINCH);
    printf("after SIGWINCH: last %d count %d\n", (int)last_signal, (int)count);
    deliver(SIGUSR1);
    printf("after SIGUSR1: last %d count %d\n", (int)last_signal, (int)count);
    deliver(SIGPIPE);
    printf("after SIGPIPE: count %d\n", (int)count);
    return 0;
}
