/* sbk_program: run one real program inside the benchmark VM and report what
 * it cost, for bench/kernel/run.py's end-to-end table.
 *
 *     sbk_program time  <label> <dir> <stdin-file> <program> [args...]
 *     sbk_program count <label> <dir> <stdin-file> <program> [args...]
 *
 * Both run <program> in <dir> with <stdin-file> as its standard input and
 * wait for it.  `time` prints "P <label> ns <N> status <S>": CLOCK_MONOTONIC
 * nanoseconds from fork to exit, which under qemu -icount shift=0 are the
 * guest instructions the whole run took (exec, loader, the program and the
 * kernel work it causes).  `count` traces the program (PTRACE_SYSCALL) and
 * prints "P <label> syscalls <N> status <S>": every system call entry, i.e.
 * every user/kernel crossing the program makes (a traced task is refused by
 * sysbatch.ko, so run it where batches would not reach the kernel anyway).
 * Exit status: 0 when the program exited 0, 1 otherwise, 2 on a setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void child(const char *dir, const char *input, char **argv, int traced)
{
    int fd = open(input, O_RDONLY);
    if (fd < 0 || dup2(fd, 0) < 0 || chdir(dir) != 0) {
        fprintf(stderr, "sbk_program: setting up %s in %s: %s\n", input, dir, strerror(errno));
        _exit(127);
    }
    close(fd);
    if (traced) {
        if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) {
            perror("sbk_program: PTRACE_TRACEME");
            _exit(127);
        }
        raise(SIGSTOP); /* the tracer sets its options before the exec */
    }
    execv(argv[0], argv);
    fprintf(stderr, "sbk_program: exec %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Syscall-entry stops until the child exits; -1 on a tracing error. */
static long count_syscalls(pid_t pid, int *status)
{
    long entries = 0;
    int in_call = 0, st;
    if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
        ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) != 0) {
        return -1;
    }
    for (int sig = 0;;) {
        if (ptrace(PTRACE_SYSCALL, pid, 0, sig) != 0 || waitpid(pid, &st, 0) != pid) {
            return -1;
        }
        sig = 0;
        if (WIFEXITED(st) || WIFSIGNALED(st)) {
            break;
        }
        if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {
            /* stops alternate entry / exit; exit_group has no exit stop */
            if (!in_call) {
                entries++;
            }
            in_call = !in_call;
        } else if (WSTOPSIG(st) != SIGTRAP) {
            sig = WSTOPSIG(st); /* a real signal: deliver it */
        }
    }
    *status = st;
    return entries;
}

int main(int argc, char **argv)
{
    if (argc < 6 || (strcmp(argv[1], "time") && strcmp(argv[1], "count"))) {
        fprintf(stderr, "usage: sbk_program time|count <label> <dir> <stdin-file> <program> [args...]\n");
        return 2;
    }
    int traced = !strcmp(argv[1], "count"), st = 0;
    const char *label = argv[2];
    fflush(stdout);
    long t0 = now_ns();
    pid_t pid = fork();
    if (pid < 0) {
        perror("sbk_program: fork");
        return 2;
    }
    if (pid == 0) {
        child(argv[3], argv[4], argv + 5, traced);
    }
    if (traced) {
        long n = count_syscalls(pid, &st);
        if (n < 0) {
            perror("sbk_program: tracing");
            kill(pid, SIGKILL);
            return 2;
        }
        printf("P %s syscalls %ld status %d\n", label, n, st);
    } else {
        if (waitpid(pid, &st, 0) != pid) {
            perror("sbk_program: waitpid");
            return 2;
        }
        printf("P %s ns %ld status %d\n", label, now_ns() - t0, st);
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
