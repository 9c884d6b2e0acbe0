/* A chain from a producer whose zero result leaves (n = read(...); if
 * (n <= 0) return n; write(out, buf, n)): open, read and write are one
 * batch; an empty input stops it at read, a missing one at open. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static char buf[4096];

static long copy_once(const char *path, int out)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, buf, sizeof buf);
    if (n <= 0)
        return n;
    return write(out, buf, n);
}

int main(void)
{
    int out = open("out", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    const char *names[] = {"full", "empty", "missing"};
    for (int i = 0; i < 3; i++) {
        errno = 0;
        long r = copy_once(names[i], out);
        printf("%s: %ld errno %d\n", names[i], r, errno);
    }
    return 0;
}
