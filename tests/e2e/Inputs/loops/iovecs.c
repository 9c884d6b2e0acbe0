/* readv, preadv and pwritev in loops and in a row (issue #12, vectored
 * I/O): pwritev of a header and a body at computed offsets with one iovec
 * shared by every iteration, and at offsets from a table; preadv of every
 * record back into its own pair of buffers (a per-iteration iovec), past
 * the end of the file for the last ones (0 bytes) and, in a second pass,
 * from a closed descriptor (EBADF at every call site); a readv until end
 * of file and a preadv into one iovec whose buffer the loop reads after
 * each call, which must not batch; readv, readv, preadv in a row, and
 * readv then preadv behind a test of readv's result (from a closed
 * descriptor too: the batch stops at the failure, the preadv never runs).
 * Prints every result, errno and the bytes read; the files are compared by
 * the harness. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* The loops and rows whose plans tests/{llvm,gcc}/Loop_iovec.test check
 * (until_eof, shared, three, two) run here from that one file. */
#include "../loop-plans/iovec.c"

#define N 20
#define RECORD 16

static char heads[N][4], bodies[N][12];
static struct iovec records[2 * N];

static int write_records(int fd, char *head, char *body, int n)
{
    struct iovec iov[2] = {{head, 4}, {body, 12}};
    int ok = 0;
    for (int i = 0; i < n; i++)
        if (pwritev(fd, iov, 2, (off_t)i * RECORD) == RECORD)
            ok++;
    return ok;
}

static int write_at(int fd, const struct iovec *iov, const off_t *off, int n)
{
    int ok = 0;
    for (int i = 0; i < n; i++)
        if (pwritev(fd, iov, 2, off[i]) == RECORD)
            ok++;
    return ok;
}

static long read_records(int fd, struct iovec *iov, int n, int *failed_errno)
{
    long total = 0;
    for (int i = 0; i < n; i++) {
        long r = preadv(fd, &iov[2 * i], 2, (off_t)i * RECORD);
        if (r > 0)
            total += r;
        else if (r < 0)
            *failed_errno = errno;
    }
    return total;
}

int main(void)
{
    int fd = open("records", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 2;
    char head[] = "REC:", body[] = "body-of-rec\n";
    printf("written %d\n", write_records(fd, head, body, N - 4));
    static const off_t table[8] = {112, 0, 48, 16, 96, 32, 80, 64};
    struct iovec parts[2] = {{body, 12}, {head, 4}};
    int shuffled = open("shuffled", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    printf("written at %d\n", write_at(shuffled, parts, table, 8));
    close(shuffled);

    for (int i = 0; i < N; i++) {
        memset(heads[i], '.', sizeof heads[i]);
        memset(bodies[i], '.', sizeof bodies[i]);
        records[2 * i].iov_base = heads[i];
        records[2 * i].iov_len = sizeof heads[i];
        records[2 * i + 1].iov_base = bodies[i];
        records[2 * i + 1].iov_len = sizeof bodies[i];
    }
    int failed_errno = 0;
    long got = read_records(fd, records, N, &failed_errno);
    printf("read %ld failed with %d\n", got, failed_errno);
    for (int i = 0; i < N; i++)
        printf("%d %.4s %.11s\n", i, heads[i], bodies[i]);

    int closed = dup(fd);
    close(closed);
    failed_errno = 0;
    got = read_records(closed, records, 4, &failed_errno);
    printf("closed: read %ld failed with %d\n", got, failed_errno);

    char small[8];
    struct iovec one[1] = {{small, sizeof small}};
    lseek(fd, 0, SEEK_SET);
    printf("reads until end %ld\n", until_eof(fd, one));
    memset(small, 0, sizeof small);
    printf("first bytes %ld\n", shared(fd, small, N));

    char a1[3], a2[5], b1[7], c1[9];
    struct iovec a[2] = {{a1, 3}, {a2, 5}}, b[1] = {{b1, 7}}, c[1] = {{c1, 9}};
    lseek(fd, 0, SEEK_SET);
    printf("three %ld\n", three(fd, a, b, c));
    printf("%.3s|%.5s|%.7s|%.9s\n", a1, a2, b1, c1);
    printf("two %ld\n", two(fd, b, c));
    errno = 0;
    got = two(closed, b, c);
    printf("two closed %ld errno %d\n", got, errno);
    printf("%.7s|%.9s\n", b1, c1);
    close(fd);
    return 0;
}
