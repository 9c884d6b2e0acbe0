/* writev in loops and in a row (issue #12, "writes of several parts"): a
 * header and a body written with one writev per descriptor over an array
 * of descriptors (one of them closed: EBADF in the middle of a group, seen
 * at its own call site), two writevs in a row to one file, and a loop that
 * refills the iovec each iteration, which must not batch (the kernel reads
 * the iovec and the buffers it names when the batch runs, so the store of
 * a later iteration would come too late).  Prints every result and errno;
 * the files are compared by the harness. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

#define N 20

static int fds[N];

static int write_all(char *head, char *body, long *sum, int *failed_errno)
{
    struct iovec iov[2] = {{head, 4}, {body, 6}};
    int ok = 0;
    for (int i = 0; i < N; i++) {
        long r = writev(fds[i], iov, 2);
        if (r >= 0) {
            ok++;
            *sum += r;
        } else {
            *failed_errno = errno;
        }
    }
    return ok;
}

static long two_parts(int fd, char *a, char *b)
{
    struct iovec first[2] = {{a, 2}, {b, 3}};
    struct iovec second[1] = {{b, 1}};
    long r = writev(fd, first, 2);
    if (r < 0)
        return -1;
    return r + writev(fd, second, 1);
}

static const char *const words[6] = {"one", "two", "six", "ten", "red", "sky"};

static int refilled(int fd)
{
    struct iovec iov[1];
    int ok = 0;
    for (int i = 0; i < 6; i++) {
        iov[0].iov_base = (char *)words[i];
        iov[0].iov_len = 3;
        if (writev(fd, iov, 1) == 3)
            ok++;
    }
    return ok;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "v%02d", i);
        fds[i] = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fds[i] < 0)
            return 2;
    }
    close(fds[7]);
    char head[] = "HEAD", body[] = "body!\n";
    long sum = 0;
    int failed_errno = 0;
    int ok = write_all(head, body, &sum, &failed_errno);
    printf("writev ok %d sum %ld failed with %d\n", ok, sum, failed_errno);
    printf("two parts %ld\n", two_parts(fds[0], "ab", "cde"));
    printf("refilled %d\n", refilled(fds[1]));
    for (int i = 0; i < N; i++)
        if (i != 7)
            close(fds[i]);
    return 0;
}
