/* sysbatch_verify_slot (the plugins' verify mode): a call site's expected
 * raw arguments match what its slot ran with, word copies applied, on the
 * emulated and the kernel path; a difference in a value, a chained word,
 * or the call number aborts with the call site's name and both values. */
#include "sbtest.h"

#include <signal.h>
#include <sys/wait.h>

static long rets[5];
static struct sysbatch_slot s[5];
static char buf[64];

/* Run verify in a child; its exit status and stderr's first line. */
static int verify_in_child(long slot, long nr, const long *expected, long mask,
                           char *line, size_t len)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 2);
        sysbatch_verify_slot(rets, s, 5, slot, nr, expected, mask, "t.c:7: read");
        _exit(0);
    }
    close(pipefd[1]);
    ssize_t got = read(pipefd[0], line, len - 1);
    line[got > 0 ? got : 0] = 0;
    close(pipefd[0]);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

int main(void)
{
    sbt_begin("verify");
    const char *dir = sbt_tempdir();
    const char *path = sbt_path_in(dir, "in");
    sbt_write_file(path, "hello, verify", 13);

    sbt_fill_rets(rets, 5);
    s[0] = sbt_jumps(sbt_slot(SYS_openat, 4, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0),
                     -1, 0, 0);
    s[1] = sbt_copy(&s[2].arg[0], &rets[0]);
    s[2] = sbt_slot(SYS_read, 3, -1, (long)buf, sizeof buf, 0, 0, 0);
    s[3] = sbt_copy(&s[4].arg[0], &rets[0]);
    s[4] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);
    long last = sysbatch_run(rets, s, 5, 0);
    SBT_EQ("batch ran to the end", last, 4);
    SBT_TRUE("open gave an fd", rets[0] >= 0);

    /* What the call sites would pass: read(fd, buf, 64), close(fd). */
    long read_args[6] = {rets[0], (long)buf, sizeof buf, 0, 0, 0};
    long close_args[6] = {rets[0], 0, 0, 0, 0, 0};
    char line[512];
    int st = verify_in_child(2, SYS_read, read_args, 0x7, line, sizeof line);
    SBT_TRUE("matching read arguments pass", WIFEXITED(st) && WEXITSTATUS(st) == 0);
    st = verify_in_child(4, SYS_close, close_args, 0x1, line, sizeof line);
    SBT_TRUE("matching close arguments pass", WIFEXITED(st) && WEXITSTATUS(st) == 0);

    /* A chained word that differs (the call site narrowed the fd). */
    long wrong_fd[6] = {rets[0] + 1, (long)buf, sizeof buf, 0, 0, 0};
    st = verify_in_child(2, SYS_read, wrong_fd, 0x7, line, sizeof line);
    SBT_TRUE("a different chained fd aborts", WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    SBT_TRUE("the message names the site and argument 0",
             strstr(line, "sysbatch verify: t.c:7: read: argument 0: expected ") != NULL);

    /* A plain word that differs (count). */
    long wrong_count[6] = {rets[0], (long)buf, 63, 0, 0, 0};
    st = verify_in_child(2, SYS_read, wrong_count, 0x7, line, sizeof line);
    SBT_TRUE("a different count aborts", WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    SBT_TRUE("the message names argument 2 and both values",
             strstr(line, "argument 2: expected 63 (0x3f), the slot ran with 64") != NULL);
    /* An unchecked word (mask) is not compared. */
    st = verify_in_child(2, SYS_read, wrong_count, 0x3, line, sizeof line);
    SBT_TRUE("a masked-out word is not compared", WIFEXITED(st) && WEXITSTATUS(st) == 0);
    /* The wrong system call. */
    st = verify_in_child(2, SYS_write, read_args, 0x7, line, sizeof line);
    SBT_TRUE("another call number aborts", WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    return sbt_end();
}
