/* path_search: find a configuration file by trying a few places in order,
 * stopping at the first that opens - the "path search" of the sys_batch
 * README, written the plain way:
 *
 *     if ((fd = open(a)) < 0 && (fd = open(b)) < 0 && (fd = open(c)) < 0)
 *         ...
 *
 * With forward jumps the three opens are one batch that stops at the first
 * success: each open's "failed" outcome falls through to the next open,
 * its success jumps past the rest, so the kernel makes exactly the opens the
 * program would have made.  Then the fd found is read and closed.
 *
 * usage: path_search      (looks for ./local.conf, ./etc/app.conf,
 *                          ./default.conf in the current directory) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    char buf[128];
    int fd;
    int tried = 1;

    if ((fd = open("local.conf", O_RDONLY)) < 0 && (tried++, fd = open("etc/app.conf", O_RDONLY)) < 0 &&
        (tried++, fd = open("default.conf", O_RDONLY)) < 0) {
        printf("no configuration found after %d tries (errno %d)\n", tried, errno);
        return 1;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = 0;
    printf("found after %d tries: %s", tried, buf);
    return 0;
}
