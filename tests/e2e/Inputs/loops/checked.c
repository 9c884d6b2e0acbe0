/* Rule 7 of sysbatch/loop.h, the run-time check: loops over parameter
 * arrays that the compiler cannot tell apart from the arrays the loop
 * stores into (without type-based alias analysis, -O0, nothing separates
 * two int arrays; at -O2 two int arrays are still one type).  The
 * inspector fills a group only when the bytes it reads ahead miss the
 * bytes the group writes; called once with separate arrays (batched) and
 * once with the result array one element into the descriptor array, so
 * each close's result replaces the next descriptor (the check fails; the
 * original calls run: close(-1) after every failed close). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 20

static int close_kept(int *rc, const int *fds, int n)
{
    int failed = 0;
    for (int i = 0; i < n; i++)
        rc[i] = close(fds[i]);
    for (int i = 0; i < n; i++)
        failed += rc[i] < 0;
    return failed;
}

static long fstat_kept(int *rc, const int *fds, struct stat *st, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++)
        rc[i] = fstat(fds[i], &st[i]);
    for (int i = 0; i < n; i++)
        total += rc[i] == 0 ? (long)st[i].st_size : -1;
    return total;
}

int main(void)
{
    int fds[N + 1], rc[N];
    struct stat st[N];
    for (int i = 0; i < N; i++) {
        fds[i] = open("data", O_RDONLY | O_CLOEXEC);
        if (fds[i] < 0)
            return 2;
    }
    printf("fstat total %ld\n", fstat_kept(rc, fds, st, N));
    printf("closed, failed %d\n", close_kept(rc, fds, N));
    /* Descriptors that are not open (closed above): each close fails with
     * EBADF and its -1 overwrites the next descriptor. */
    for (int i = 0; i < N; i++)
        fds[i] = 900 + i;
    printf("overlapping, failed %d\n", close_kept(fds + 1, fds, N));
    for (int i = 0; i < N; i++)
        printf("%d%c", fds[i], i + 1 < N ? ' ' : '\n');
    printf("errno %d\n", errno);
    return 0;
}
