/* Or-chains of failure tests, as real programs write them (cpio's
 * rtapelib.c: `if (pipe(to[n]) == -1 || pipe(from[n]) == -1)`): each later
 * call runs only when every earlier one succeeded, and its buffer address
 * is computed on its own path (&from[n], &st[i + 1]).  Such an address
 * reads no memory, so both compilers compute it again where the batch is
 * issued and the chain is one batch that stops at the first failure.
 *
 *   failure_chains     runs every chain twice: once where each call
 *                      succeeds, once where a call in the middle fails
 *                      (a descriptor limit, a closed descriptor), and
 *                      prints results, errno and what the calls left.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static int to_remote[4][2], from_remote[4][2];

/* cpio's rmt_open__: two pipes, the second only when the first worked. */
static int two_pipes(int n)
{
    if (pipe(to_remote[n]) == -1 || pipe(from_remote[n]) == -1) {
        int e = errno;
        printf("two_pipes(%d): failed: %s\n", n, strerror(e));
        return -1;
    }
    printf("two_pipes(%d): %d %d %d %d\n", n, to_remote[n][0],
           to_remote[n][1], from_remote[n][0], from_remote[n][1]);
    return 0;
}

/* Two stats into neighbouring elements, stopping at the first that
 * fails; `!= 0` is the failure test of a call that returns 0 or -1. */
static int two_stats(const char *a, const char *b, struct stat *st, int i)
{
    if (stat(a, &st[i]) != 0 || stat(b, &st[i + 1]) != 0) {
        printf("two_stats(%s, %s): failed: %s\n", a, b, strerror(errno));
        return -1;
    }
    printf("two_stats(%s, %s): types %o %o\n", a, b,
           (unsigned)(st[i].st_mode & S_IFMT),
           (unsigned)(st[i + 1].st_mode & S_IFMT));
    return 0;
}

/* Three closes of one table row; a close of a descriptor that is already
 * closed fails with EBADF and the rest are not made. */
static int close_row(int (*fds)[2], int n, int extra)
{
    if (close(fds[n][0]) != 0 || close(fds[n][1]) != 0 || close(extra) != 0) {
        printf("close_row(%d): failed: %s\n", n, strerror(errno));
        return -1;
    }
    printf("close_row(%d): closed\n", n);
    return 0;
}

static int still_open(int fd)
{
    return fcntl(fd, F_GETFD) != -1;
}

int main(void)
{
    struct stat st[4];
    memset(st, 0, sizeof st);
    if (two_pipes(1) != 0)
        return 1;
    two_stats(".", "/", st, 1);
    two_stats("/", "missing", st, 0);
    two_stats("missing", "/", st, 2);
    int spare = dup(0);
    close_row(to_remote, 1, spare);
    printf("after close_row: %d %d %d\n", still_open(to_remote[1][0]),
           still_open(from_remote[1][0]), still_open(spare));
    /* to_remote[1] is closed now: the first close fails, the others are
     * not made (from_remote[1][0] stays open). */
    close_row(to_remote, 1, from_remote[1][0]);
    printf("after failed close_row: %d\n", still_open(from_remote[1][0]));
    close_row(from_remote, 1, dup(0));

    /* Room for one more pipe, not two: the second pipe fails with EMFILE
     * and the first one's descriptors stay open. */
    struct rlimit rl;
    int probe = dup(0);
    close(probe);
    rl.rlim_cur = rl.rlim_max = (rlim_t)probe + 3;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 2;
    two_pipes(2);
    printf("first pipe of 2 open: %d\n", still_open(to_remote[2][0]));
    return 0;
}
