/* Loop shapes whose call runs under a guard the inspector repeats (issue
 * #12): close the descriptors that are open (fd[i] >= 0), unlink the names
 * that are not hidden (names[i][0] != '.'), unlink under an invariant flag,
 * stat under two conditions (a && b), and a guard that is rarely true (one
 * iteration in eight: a refill looks at up to 4 iterations per slot).  The
 * skipped iterations run their own code (a counter) between the calls.
 * Prints what it saw. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 24
#define KEEP_HIDDEN 4

static const char *const names[N] = {
    "g00", ".g01", "g02", "g03", ".g04", "g05", "g06", "g07",
    "g08", "g09", ".g10", "g11", "g12", "g13", "g14", "g15",
    "g16", "g17", "missing", "g19", ".g20", "g21", "g22", "g23",
};

static int close_open(const int *fd, int n)
{
    int closed = 0;
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0)
            if (close(fd[i]) == 0)
                closed++;
    return closed;
}

static int unlink_visible(int *skipped)
{
    int failed = 0;
    for (int i = 0; i < N; i++) {
        if (names[i][0] != '.') {
            if (unlink(names[i]) != 0)
                failed++;
        } else {
            ++*skipped;
        }
    }
    return failed;
}

static int unlink_if(int flags, int n)
{
    int gone = 0;
    for (int i = 0; i < n; i++)
        if (flags & KEEP_HIDDEN)
            if (unlink(names[i]) == 0)
                gone++;
    return gone;
}

static int fd_table[N];

/* Into one shared buffer, over a global array. */
static long stat_some(int lim)
{
    const int *fd = fd_table;
    struct stat sb;
    long total = 0;
    for (int i = 0; i < N; i++)
        if (fd[i] >= 0 && fd[i] < lim)
            if (fstat(fd[i], &sb) == 0)
                total += sb.st_size;
    return total;
}

static int close_rare(const int *fd, int n)
{
    int closed = 0;
    for (int i = 0; i < n; i++)
        if ((i & 7) == 3)
            closed += close(fd[i & 15]) == 0;
    return closed;
}

int main(void)
{
    int *fd = fd_table;
    for (int i = 0; i < N; i++) {
        fd[i] = -1;
        if (i == 18)
            continue;
        FILE *f = fopen(names[i], "w");
        if (!f)
            return 2;
        fprintf(f, "%*s", i + 1, "x");
        fclose(f);
        if (i % 3 != 1)
            fd[i] = open(names[i], O_RDONLY | O_CLOEXEC);
    }
    long total = stat_some(fd[0] + 12);
    printf("stat_some %ld\n", total);
    int rare = close_rare(fd, 60);
    printf("close_rare %d\n", rare);
    int closed = close_open(fd, N);
    printf("close_open %d errno %d\n", closed, errno);
    int skipped = 0;
    errno = 0;
    int failed = unlink_visible(&skipped);
    printf("unlink_visible failed %d skipped %d errno %d\n", failed, skipped,
           errno);
    printf("unlink_if 0: %d\n", unlink_if(0, N));
    errno = 0;
    int gone = unlink_if(KEEP_HIDDEN, N);
    printf("unlink_if hidden: %d errno %d\n", gone, errno);
    return 0;
}
