/* Loops that must not batch: read until end of file, a descriptor reused after close. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

int main(void)
{
    int fd = open("data", O_CREAT | O_RDWR | O_TRUNC, 0644);
    for (int i = 0; i < 40; i++)
        write(fd, "0123456789", 10);
    claimed += 40;
    lseek(fd, 0, SEEK_SET);
    char buf[64];
    ssize_t n;
    long total = 0, reads = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        total += n;
        reads++;
    }
    printf("read total %ld in %ld, last %zd\n", total, reads, n);

    lseek(fd, 5, SEEK_SET);
    char small[7];
    long t2 = 0;
    for (;;) {
        n = read(fd, small, sizeof small);
        if (n <= 0)
            break;
        t2 += small[0];
    }
    printf("t2 %ld\n", t2);

    /* The descriptor closed, then the number reused by the next open. */
    int cur = open("data", O_RDONLY);
    int seen[5];
    for (int i = 0; i < 5; i++) {
        close(cur);
        cur = open("data", O_RDONLY);
        seen[i] = cur;
    }
    printf("reused %d %d %d\n", seen[0] == seen[4], seen[1] == seen[2], cur == seen[4]);
    close(cur);

    /* Close each, one of them twice: the second close of it fails. */
    int fds[4];
    for (int i = 0; i < 3; i++)
        fds[i] = open("data", O_RDONLY);
    claimed += 3;
    fds[3] = fds[1];
    int rc[4], er[4];
    for (int i = 0; i < 4; i++) {
        rc[i] = close(fds[i]);
        er[i] = rc[i] ? errno : 0;
    }
    claimed += 4;
    printf("close twice: %d %d %d %d / %d\n", rc[0], rc[1], rc[2], rc[3], er[3]);

    /* Each iteration's descriptor is the one the previous close freed. */
    int d = open("data", O_RDONLY);
    for (int i = 0; i < 4; i++) {
        int nd = dup(d);
        close(d);
        d = nd;
    }
    printf("dup chain ends at %d ok %d\n", d, fcntl(d, F_GETFD) != -1);
    int x = d;
    while (x >= 0) {
        x = close(x) == 0 ? x : -1;
    }
    printf("close until fail: errno %d\n", errno);
    close(fd);
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
