/* glibc's _FORTIFY_SOURCE wrappers: with -D_FORTIFY_SOURCE=2 at -O1 and
 * up, <bits/unistd.h> defines read() extern inline; where the buffer's
 * size is known and the count is not a constant, it calls __read_chk,
 * which aborts the program ("buffer overflow detected") when the count is
 * larger than the buffer.  A batch that took the call to the wrapper for
 * the plain read would skip that check: the read below would overflow
 * `small` instead of aborting.  The wrapper's call is no candidate; what
 * it inlines to is (the plain read where the size is unknown, and those
 * calls batch; __read_chk, an unknown call, where it is known).
 *
 * Run by tests/e2e/Fortify_wrappers.test: reads a file it writes itself,
 * through a buffer of unknown size (batched), then through a 16-byte one
 * with a count that fits and, in a child, one that does not (the check
 * aborts; the SIGABRT handler makes that an exit status every build must
 * share).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_abort(int sig)
{
    static const char msg[] = "aborted: the buffer check ran\n";
    (void)sig;
    if (write(1, msg, sizeof msg - 1) < 0)
        _exit(4);
    _exit(3);
}

/* The wrapper cannot know buf's size here: no check, a plain read. */
__attribute__((noinline)) static ssize_t read_unknown(const char *path,
                                                      char *buf, size_t n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, buf, n);
    close(fd);
    return got;
}

/* The wrapper knows `small` is 16 bytes: __read_chk checks n. */
__attribute__((noinline)) static ssize_t read_known(const char *path, size_t n)
{
    char small[16];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, small, n);
    close(fd);
    if (got > 0)
        printf("known: %.*s\n", (int)got, small);
    return got;
}

int main(int argc, char **argv)
{
    (void)argv;
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGABRT, on_abort);
    FILE *f = fopen("data", "w");
    if (!f || fputs("0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\n", f) < 0 ||
        fclose(f) != 0)
        return 2;
    char big[128];
    ssize_t got = read_unknown("data", big, sizeof big);
    printf("unknown: %zd\n", got);
    /* argc keeps the counts out of the compiler's reach. */
    size_t fits = (size_t)argc * 8, too_many = (size_t)argc * 64;
    printf("fits: %zd\n", read_known("data", fits));
    /* In a child, so that the parent exits normally (and the runtime
     * prints its stats line). */
    pid_t child = fork();
    if (child < 0)
        return 2;
    if (child == 0) {
        printf("too many: %zd\n", read_known("data", too_many));
        _exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child)
        return 2;
    printf("child: %s %d\n", WIFEXITED(status) ? "exit" : "signal",
           WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return 0;
}
