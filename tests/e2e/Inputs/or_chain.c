/* An or-chain of failure tests with several predicates on one path, as
 * cpio's and tar's rtapelib.c (rmt_open__, the child after fork) write it:
 *
 *   if (dup2(to[n][0], 0) < 0 || (to[n][0] != 0 && close(to[n][0]) != 0)
 *       || (to[n][1] != 0 && close(to[n][1]) != 0)
 *       || dup2(from[n][1], 1) < 0 || close(from[n][0]) != 0
 *       || close(from[n][1]) != 0) error(...);
 *
 * After the first dup2 succeeds, the path meets `to[n][0] != 0` and, when
 * that is false, `to[n][1] != 0` before the next call: both conditions
 * decide where the batch goes next.  Here the targets are descriptors 20
 * and 21 (stdout stays the program's), and main runs the chain once per
 * shape: every call succeeds; to[n][0] already is the target (the first
 * close is skipped); to[n][1] is the target (the second close is skipped);
 * the second dup2 fails (EBADF); a close in the middle fails (EBADF).
 * Every call's result, errno and the descriptors left open are printed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IN_FD 20
#define OUT_FD 21

/* -1 until a pipe fills them: closing an unused entry fails harmlessly. */
static int to_remote[4][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
static int from_remote[4][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};

/* Is fd one the program made (a table entry or a target)?  Descriptors the
 * test harness left open are not printed. */
static int ours(int fd)
{
    if (fd == IN_FD || fd == OUT_FD)
        return 1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            if (fd == to_remote[i][j] || fd == from_remote[i][j])
                return 1;
    return 0;
}

static int redirect(int n)
{
    if (dup2(to_remote[n][0], IN_FD) < 0 ||
        (to_remote[n][0] != IN_FD && close(to_remote[n][0]) != 0) ||
        (to_remote[n][1] != IN_FD && close(to_remote[n][1]) != 0) ||
        dup2(from_remote[n][1], OUT_FD) < 0 || close(from_remote[n][0]) != 0 ||
        close(from_remote[n][1]) != 0) {
        printf("redirect(%d): failed: %s\n", n, strerror(errno));
        return -1;
    }
    printf("redirect(%d): done\n", n);
    return 0;
}

/* The program's descriptors that are open, from /proc/self/fd (no system
 * call of the catalogue in a loop, so both compilers plan these helpers
 * alike). */
static void show(const char *what, int n)
{
    printf("%s: to %d %d from %d %d ->", what, to_remote[n][0],
           to_remote[n][1], from_remote[n][0], from_remote[n][1]);
    DIR *d = opendir("/proc/self/fd");
    int fds[64], count = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && count < 64) {
        int fd = atoi(e->d_name);
        if (fd > 2 && fd != dirfd(d) && ours(fd))
            fds[count++] = fd;
    }
    if (d)
        closedir(d);
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++)
            if (fds[j] < fds[i]) {
                int t = fds[i];
                fds[i] = fds[j];
                fds[j] = t;
            }
    for (int i = 0; i < count; i++)
        printf(" %d", fds[i]);
    printf("\n");
}

/* Out of line, so that no loop of the program holds a catalogued call
 * (loop plans are not what this test compares). */
__attribute__((noinline)) static void close_quietly(int fd)
{
    close(fd);
}

/* Every descriptor the program may have left open: one close per table
 * entry and target, failures ignored. */
static void close_all(void)
{
    int fds[] = {to_remote[1][0], to_remote[1][1], from_remote[1][0],
                 from_remote[1][1], to_remote[2][0], to_remote[2][1],
                 from_remote[2][0], from_remote[2][1], to_remote[3][0],
                 to_remote[3][1], from_remote[3][0], from_remote[3][1],
                 IN_FD, OUT_FD};
    for (unsigned i = 0; i < sizeof fds / sizeof fds[0]; i++)
        close_quietly(fds[i]);
}

static int pipes(int n)
{
    close_all();
    if (pipe(to_remote[n]) != 0 || pipe(from_remote[n]) != 0) {
        printf("pipes: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

int main(void)
{
    /* Every call succeeds. */
    if (pipes(1) != 0)
        return 1;
    redirect(1);
    show("all", 1);

    /* to[n][0] already is IN_FD: the first close is skipped. */
    if (pipes(2) != 0)
        return 1;
    dup2(to_remote[2][0], IN_FD);
    close(to_remote[2][0]);
    to_remote[2][0] = IN_FD;
    redirect(2);
    show("first-is-target", 2);

    /* to[n][1] is IN_FD: the first dup2 replaces it, the second close is
     * skipped. */
    if (pipes(3) != 0)
        return 1;
    dup2(to_remote[3][1], IN_FD);
    close(to_remote[3][1]);
    to_remote[3][1] = IN_FD;
    redirect(3);
    show("second-is-target", 3);

    /* The second dup2 fails: from[n][1] is not open. */
    if (pipes(1) != 0)
        return 1;
    close(from_remote[1][1]);
    redirect(1);
    show("dup2-fails", 1);

    /* The second close fails: to[n][1] is closed already. */
    if (pipes(2) != 0)
        return 1;
    close(to_remote[2][1]);
    redirect(2);
    show("close-fails", 2);
    close_all();
    return 0;
}
