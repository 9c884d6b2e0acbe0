/* SYSBATCH_STATS_FILE=PATH appends one line per process at exit, opened then
 * (O_APPEND, created 0644), and never touches stderr unless SYSBATCH_STATS is
 * set too.  Two children run at once with a relative PATH and leave the
 * directory it was relative to (the runtime resolved it at start-up):
 *   child 1  1 batch                                   -> calls 2
 *   child 3  3 batches, then forks (no exec) a process
 *            that runs no batch and exits               -> calls 6, and calls 0
 *            (a forked child counts only its own batches)
 * A line already in the file stays first.
 */
#include "sbtest.h"

#include <sys/wait.h>

static const char earlier[] = "an earlier line\n";

static int run_batches(int count)
{
    int k;
    for (k = 0; k < count; k++) {
        struct sysbatch_slot s[3];
        long rets[3], dummy = 0, one = 1;
        s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
        s[1] = sbt_copy(&dummy, &one);
        s[2] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
        if (sysbatch_run(rets, s, 3, 0) != 2) {
            return 3;
        }
    }
    return 0;
}

static int child(int count)
{
    if (run_batches(count) != 0) {
        return 3;
    }
    if (chdir("/") != 0) {
        return 4;
    }
    if (count == 3) {
        int status;
        pid_t pid = fork();
        if (pid < 0) {
            return 5;
        }
        if (pid == 0) {
            exit(0); /* runs the destructor in the forked process */
        }
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
            return 6;
        }
    }
    return 0;
}

static pid_t start_child(const char *self, const char *count, int err_fd)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        dup2(err_fd, 2);
        unsetenv("SYSBATCH_STATS");
        setenv("SYSBATCH_STATS_FILE", "stats.txt", 1);
        execl("/proc/self/exe", self, "child", count, (char *)NULL);
        execl(self, self, "child", count, (char *)NULL);
        _exit(99);
    }
    return pid;
}

int main(int argc, char **argv)
{
    char buf[2048], *line, *save = NULL;
    unsigned long seen_calls[8];
    int nlines = 0, status, k, err_pipe[2];
    pid_t a, b;
    struct stat st;
    ssize_t n;
    int fd;

    if (argc == 3 && strcmp(argv[1], "child") == 0) {
        return child(atoi(argv[2]));
    }
    sbt_begin("stats_file");
    if (chdir(sbt_tempdir()) != 0) {
        perror("chdir");
        return 1;
    }
    /* First one child alone: the runtime creates the file, 0644 under
     * umask 022. */
    umask(022);
    if (pipe(err_pipe) != 0) {
        perror("pipe");
        return 1;
    }
    a = start_child(argv[0], "1", err_pipe[1]);
    if (waitpid(a, &status, 0) != a) {
        perror("waitpid");
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 99) {
        printf("stats_file: SKIP: cannot run this program again as a child\n");
        return SBT_SKIP;
    }
    SBT_TRUE("first child exits 0", WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (stat("stats.txt", &st) != 0) {
        sbt_fail("the runtime did not create stats.txt");
        return sbt_end();
    }
    SBT_EQ("mode of the created file", st.st_mode & 07777, 0644);
    fd = open("stats.txt", O_RDONLY);
    n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    SBT_TRUE("one line from the first child",
             strncmp(buf, "sysbatch: ", 10) == 0 && strstr(buf, "; calls 2; shared 2\n") &&
                 strchr(buf, '\n')[1] == '\0');
    sbt_write_file("stats.txt", earlier, sizeof earlier - 1);

    /* Now two processes (and a forked third) append at the same time. */
    a = start_child(argv[0], "1", err_pipe[1]);
    b = start_child(argv[0], "3", err_pipe[1]);
    close(err_pipe[1]);
    for (k = 0; k < 2; k++) {
        pid_t got = waitpid(-1, &status, 0);
        SBT_TRUE("a child ends", got == a || got == b);
        SBT_TRUE("children exit 0", WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    n = read(err_pipe[0], buf, sizeof buf - 1);
    SBT_EQ("bytes the children wrote to stderr", n, 0);
    close(err_pipe[0]);

    fd = open("stats.txt", O_RDONLY);
    n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    SBT_TRUE("the earlier line stays first", strncmp(buf, earlier, sizeof earlier - 1) == 0);
    for (line = strtok_r(buf + sizeof earlier - 1, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        unsigned long kb, ks, eb, es, refused, calls, shared;
        char extra;
        if (sscanf(line,
                   "sysbatch: kernel %lu batches %lu slots; emulated %lu batches %lu slots; "
                   "refused %lu; calls %lu; shared %lu%c",
                   &kb, &ks, &eb, &es, &refused, &calls, &shared, &extra) != 7) {
            sbt_fail("not a stats line: \"%s\"", line);
            continue;
        }
        SBT_EQ("slots are 3 per batch", ks + es, 3 * (kb + eb));
        SBT_EQ("calls are 2 per batch", calls, 2 * (kb + eb));
        SBT_EQ("every call shared its batch", shared, calls);
        if (nlines < 8) {
            seen_calls[nlines] = calls;
        }
        nlines++;
    }
    SBT_EQ("stats lines appended", nlines, 3);
    if (nlines == 3) {
        unsigned long sum = 0, zero = 0;
        for (k = 0; k < 3; k++) {
            sum += seen_calls[k];
            zero += seen_calls[k] == 0;
        }
        SBT_EQ("calls over the three processes", sum, 2 + 6);
        SBT_EQ("processes that ran no batch", zero, 1);
        SBT_TRUE("one process ran 1 batch",
                 seen_calls[0] == 2 || seen_calls[1] == 2 || seen_calls[2] == 2);
    }
    return sbt_end();
}
