/* Loops the planner must leave alone, with the same behaviour: a read
 * until end of file, a call whose result feeds the next iteration (dup of
 * the previous dup), a guard on a flag the loop itself sets, and a
 * diagnostic after every call. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long read_all(int fd)
{
    char buf[7];
    long total = 0, calls = 0;
    while (read(fd, buf, sizeof buf) > 0)
        calls++;
    lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        total += n;
    return total * 100 + calls;
}

static int dup_chain(int fd)
{
    for (int i = 0; i < 6; i++)
        fd = dup(fd);
    return fd;
}

static int flagged(const int *fds, int n)
{
    int skip = 0, closed = 0;
    for (int i = 0; i < n; i++) {
        if (!skip && close(fds[i]) == 0) {
            closed++;
            skip = fds[i] % 3 == 0;
        } else {
            skip = 0;
        }
    }
    return closed;
}

static void chatty(const int *fds, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = fcntl(fds[i], F_GETFD);
        printf("fd %d: %d\n", i, rc);
    }
}

int main(void)
{
    int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "0123456789abcdefghijklmnopqrstuvwxyz", 36) != 36)
        return 2;
    lseek(fd, 0, SEEK_SET);
    printf("read_all %ld\n", read_all(fd));
    int last = dup_chain(fd);
    printf("dup chain ends at %d\n", last - fd);
    int fds[8];
    for (int i = 0; i < 8; i++)
        fds[i] = dup(fd);
    chatty(fds, 8);
    printf("flagged closed %d\n", flagged(fds, 8));
    return 0;
}
