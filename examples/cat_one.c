/* cat_one: open a file, look at its size, read it, close it - the classic
 * four-call sequence with the descriptor from open() feeding the next three
 * calls.  No error checks between the calls (see the branchy examples for
 * those): a failed open makes fstat, read and close fail with EBADF, and the
 * program reports every result and errno at the end.
 *
 * With the plugin, open/fstat/read/close form one batch whose word copies
 * carry the fd from open's result into the three later slots.
 *
 * usage: cat_one [path]      (default: cat_one.txt, created by the caller) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "cat_one.txt";
    char buf[256];
    struct stat st;
    int err[4];

    memset(&st, 0, sizeof st);
    int fd = open(path, O_RDONLY);
    err[0] = errno;
    int rc_stat = fstat(fd, &st);
    err[1] = errno;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    err[2] = errno;
    int rc_close = close(fd);
    err[3] = errno;

    printf("open: %s (errno %d)\n", fd >= 0 ? "ok" : "failed", fd >= 0 ? 0 : err[0]);
    printf("fstat: %d errno %d size %lld\n", rc_stat, rc_stat ? err[1] : 0,
           (long long)st.st_size);
    printf("read: %zd errno %d\n", n, n < 0 ? err[2] : 0);
    printf("close: %d errno %d\n", rc_close, rc_close ? err[3] : 0);
    if (n > 0) {
        buf[n] = 0;
        printf("data: %s", buf);
    }
    return fd >= 0 ? 0 : 1;
}
