/* SYSBATCH_STATS=1 prints its line to the stderr the process started with,
 * whatever the program did to fd 2 before exit, and never into a file of the
 * program's.  Each case re-runs this program as a child (SYSBATCH_STATS=1,
 * stderr a pipe read here) that runs one batch of 3 slots (2 calls and a
 * word copy), then, by case:
 *   keep     leaves fd 2 alone                   -> the line, on the pipe
 *   close    closes fd 2 (GNU close_stdout)      -> the line, on the pipe
 *   reopen   dup2s a file of its own onto fd 2   -> the line on the pipe,
 *            and writes to it                       the file holds only its text
 *   clobber  puts its file on every fd >= 3      -> nothing anywhere (the
 *            (so also on the runtime's private fd)  private fd names another file)
 *   closeall closes every fd >= 3                -> nothing, and exit 0
 */
#include "sbtest.h"

#include <sys/resource.h>
#include <sys/wait.h>

static const char user_text[] = "the program's own output\n";

static int run_one_batch(void)
{
    struct sysbatch_slot s[3];
    long rets[3], dummy = 0, one = 1;
    s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[1] = sbt_copy(&dummy, &one);
    s[2] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
    return sysbatch_run(rets, s, 3, 0) == 2 ? 0 : 3;
}

static int child(const char *mode, const char *user_file)
{
    struct rlimit lim;
    long fd, top;
    if (run_one_batch() != 0) {
        return 3;
    }
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0) {
        return 4;
    }
    top = lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > 65536 ? 65536 : (long)lim.rlim_cur;
    if (strcmp(mode, "close") == 0) {
        close(2);
    } else if (strcmp(mode, "reopen") == 0 || strcmp(mode, "clobber") == 0) {
        int user = open(user_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (user < 0) {
            return 5;
        }
        if (strcmp(mode, "reopen") == 0) {
            if (dup2(user, 2) != 2) {
                return 6;
            }
        } else {
            for (fd = 3; fd < top; fd++) {
                if (fd != user && fcntl((int)fd, F_GETFD) >= 0 && dup2(user, (int)fd) != fd) {
                    return 6;
                }
            }
        }
        if (write(strcmp(mode, "reopen") == 0 ? 2 : user, user_text, sizeof user_text - 1) !=
            (ssize_t)(sizeof user_text - 1)) {
            return 7;
        }
        if (strcmp(mode, "reopen") == 0) {
            close(user);
        }
    } else if (strcmp(mode, "closeall") == 0) {
        for (fd = 3; fd < top; fd++) {
            close((int)fd);
        }
    }
    return 0; /* from main: the runtime's destructor runs */
}

/* Run the child for `mode` with stderr on a pipe; returns what it wrote
 * there (NUL-terminated in out), or -1 when the child could not run. */
static int run_child(const char *self, const char *mode, const char *user_file, char *out,
                     size_t out_size)
{
    int p[2], status;
    size_t got = 0;
    pid_t pid;
    if (pipe(p) != 0) {
        perror("pipe");
        exit(1);
    }
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        dup2(p[1], 2);
        close(p[0]);
        close(p[1]);
        setenv("SYSBATCH_STATS", "1", 1);
        unsetenv("SYSBATCH_STATS_FILE");
        execl("/proc/self/exe", self, "child", mode, user_file, (char *)NULL);
        execl(self, self, "child", mode, user_file, (char *)NULL);
        _exit(99);
    }
    close(p[1]);
    for (;;) {
        ssize_t n = read(p[0], out + got, out_size - 1 - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    out[got] = '\0';
    close(p[0]);
    if (waitpid(pid, &status, 0) != pid) {
        perror("waitpid");
        exit(1);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 99) {
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        sbt_fail("%s: child ended with status %#x", mode, status);
    }
    return 0;
}

static void expect_line(const char *mode, const char *out)
{
    unsigned long kb, ks, eb, es, refused, calls, shared;
    char tail;
    int fields = sscanf(out,
                        "sysbatch: kernel %lu batches %lu slots; emulated %lu batches %lu slots; "
                        "refused %lu; calls %lu; shared %lu%c",
                        &kb, &ks, &eb, &es, &refused, &calls, &shared, &tail);
    if (fields != 8 || tail != '\n' || strchr(out, '\n')[1] != '\0') {
        sbt_fail("%s: expected one stats line on the original stderr, got \"%s\"", mode, out);
        return;
    }
    SBT_EQ("batches", kb + eb, 1);
    SBT_EQ("slots (the copy included)", ks + es, 3);
    SBT_EQ("refused", refused, 0);
    SBT_EQ("calls (the copy not counted)", calls, 2);
    SBT_EQ("shared (two calls in one batch)", shared, 2);
}

static void expect_file(const char *mode, const char *path, const char *want)
{
    char buf[512];
    ssize_t n;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        sbt_fail("%s: %s missing", mode, path);
        return;
    }
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    if (strcmp(buf, want) != 0) {
        sbt_fail("%s: the program's file holds \"%s\", want \"%s\"", mode, buf, want);
    }
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"keep", "close", "reopen", "clobber", "closeall"};
    char out[1024];
    const char *dir;
    size_t k;

    if (argc == 4 && strcmp(argv[1], "child") == 0) {
        return child(argv[2], argv[3]);
    }
    sbt_begin("stats_stderr");
    dir = sbt_tempdir();
    for (k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        const char *mode = modes[k];
        const char *user_file = sbt_path_in(dir, mode);
        if (run_child(argv[0], mode, user_file, out, sizeof out) < 0) {
            printf("stats_stderr: SKIP: cannot run this program again as a child\n");
            return SBT_SKIP;
        }
        if (strcmp(mode, "clobber") == 0 || strcmp(mode, "closeall") == 0) {
            if (out[0]) {
                sbt_fail("%s: expected nothing on the original stderr, got \"%s\"", mode, out);
            }
        } else {
            expect_line(mode, out);
        }
        if (strcmp(mode, "reopen") == 0 || strcmp(mode, "clobber") == 0) {
            expect_file(mode, user_file, user_text);
        }
    }
    return sbt_end();
}
