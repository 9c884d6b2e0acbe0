/* Retry loops (issue #12: gnulib's safe_read/safe_write shape) run plugged
 * and unplugged: the functions are those whose plans
 * tests/{llvm,gcc}/Loop_retry.test check (loop-plans/retry.c, included, not
 * copied).  Each is called where it succeeds at once, where it fails for
 * good (a closed descriptor, a missing name: EBADF, ENOENT must reach the
 * caller), and with a count the kernel shortens (a read past the end of
 * the file); around them, straight-line calls on the same descriptors.
 * Prints every result and errno; the files are compared by the harness. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../loop-plans/retry.c"

int main(void)
{
    static const char text[] = "retry loops make one call per run\n";
    int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 2;
    errno = 0;
    long n = write_retry(fd, text, sizeof text - 1);
    printf("write %ld errno %d\n", n, errno);

    char buf[64];
    memset(buf, 0, sizeof buf);
    lseek(fd, 0, SEEK_SET);
    n = read_retry(fd, buf, sizeof buf);
    printf("read %ld errno %d: %.*s", n, errno, (int)(n > 0 ? n : 0), buf);
    n = read_retry(fd, buf, sizeof buf);
    printf("read at end %ld errno %d\n", n, errno);

    int closed = dup(fd);
    close(closed);
    errno = 0;
    n = read_retry(closed, buf, sizeof buf);
    printf("read closed %ld errno %d\n", n, errno);
    errno = 0;
    n = write_retry(closed, text, 4);
    printf("write closed %ld errno %d\n", n, errno);

    int again = open_retry("data");
    memset(buf, 0, sizeof buf);
    n = again >= 0 ? read_retry(again, buf, 6) : -1;
    printf("open again %d read %ld: %.6s\n", again >= 0, n, buf);
    if (again >= 0)
        close(again);
    errno = 0;
    int missing = open_retry("missing");
    printf("open missing %d errno %d\n", missing, errno);

    int copy = open("copy", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    lseek(fd, 0, SEEK_SET);
    for (;;) {
        char part[8];
        long got = read_retry(fd, part, sizeof part);
        if (got <= 0)
            break;
        if (write_retry(copy, part, (unsigned long)got) != got)
            break;
    }
    close(copy);
    close(fd);
    return 0;
}
