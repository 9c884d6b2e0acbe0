/* reasons.c: one function per thing sysbatch-src reports - a batch, a
 * store that does not commute, a barrier call, an argument computed from a
 * result, a declaration the fix-it moves, and a branch that ends a region.
 * Run as a program it prints what each call returned, so the fixed file
 * can be compared with the original. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static long chained(const char *path)
{
    char buf[32];
    int fd = open(path, O_RDONLY);
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    return n;
}

static long stored(int fd)
{
    char buf[16];
    ssize_t n = read(fd, buf, sizeof buf);
    buf[0] = 'x';
    ssize_t w = write(1, buf, 1);
    return n + w;
}

static long barrier(void)
{
    pid_t a = getpid();
    puts("between");
    pid_t b = getppid();
    return a > 0 && b > 0;
}

static long computed(int fd)
{
    char buf[16];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    ssize_t w = write(1, buf, n + 1);
    return w;
}

static long fixable(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st = {0};
    int rc = fstat(fd, &st);
    close(fd);
    return rc == 0 ? (long)st.st_size : -1;
}

static long branch(const char *path)
{
    char buf[8];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, 4);
    if (n != 4)
        return -2;
    off_t off = lseek(fd, 0, SEEK_CUR);
    close(fd);
    return (long)off;
}

int main(void)
{
    printf("chained %ld\n", chained("reasons.c"));
    printf("stored %ld\n", stored(-1));
    printf("barrier %ld\n", barrier());
    printf("computed %ld\n", computed(-1));
    printf("fixable %ld\n", fixable("/dev/null"));
    printf("branch %ld\n", branch("/dev/null"));
    return 0;
}
