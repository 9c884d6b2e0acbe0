/* Loop shapes over descriptors: results kept per iteration (fd[i] =
 * open(...)), results ignored (for (...) close(fd[i]); while (fd > 2)
 * close(fd--)), fstat over an array of descriptors (one of them closed, so
 * glibc's and the kernel's EBADF both show).  Prints what it saw. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 24

static const char *const names[N] = {
    "f00", "f01", "f02", "f03", "f04", "f05", "f06", "f07",
    "f08", "f09", "f10", "f11", "f12", "f13", "f14", "f15",
    "f16", "f17", "missing", "f19", "f20", "f21", "f22", "f23",
};

static int open_all(int *fd)
{
    int opened = 0;
    for (int i = 0; i < N; i++) {
        fd[i] = open(names[i], O_RDONLY | O_CLOEXEC);
        if (fd[i] >= 0)
            opened++;
    }
    return opened;
}

static long sizes(const int *fd, struct stat *st, int *rc)
{
    long total = 0;
    for (int i = 0; i < N; i++)
        rc[i] = fstat(fd[i], &st[i]);
    for (int i = 0; i < N; i++)
        if (rc[i] == 0)
            total += st[i].st_size;
    return total;
}

static void close_all(const int *fd)
{
    for (int i = 0; i < N; i++)
        close(fd[i]);
}

static int close_down(int top)
{
    int closed = 0;
    while (top > 2)
        if (close(top--) == 0)
            closed++;
    return closed;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        if (i == 18)
            continue;
        FILE *f = fopen(names[i], "w");
        if (!f)
            return 2;
        fprintf(f, "%*s", i + 1, "x");
        fclose(f);
    }
    int fd[N], rc[N];
    struct stat st[N];
    int opened = open_all(fd);
    printf("opened %d, missing fd %d\n", opened, fd[18]);
    printf("total %ld\n", sizes(fd, st, rc));
    for (int i = 0; i < N; i++)
        printf("%s rc %d size %ld\n", names[i], rc[i], rc[i] == 0 ? (long)st[i].st_size : -1L);
    close_all(fd);
    errno = 0;
    int after = fcntl(fd[3], F_GETFD);
    printf("after close: fcntl %d errno %d\n", after, errno);

    /* Descriptors 3..3+k from dup, then closed from the top down. */
    int top = 2;
    for (int i = 0; i < 10; i++)
        top = dup(1) > top ? top + 1 : top;
    printf("closed %d from the top\n", close_down(top));
    return 0;
}
