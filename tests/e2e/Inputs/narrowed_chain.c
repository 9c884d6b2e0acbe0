/* A chained result narrowed on its way to the next call (issue: one
 * policy, case 1).  On a 3 GiB sparse file, (int)lseek(...) is negative,
 * so read() gets a huge count and fails with EFAULT; copying lseek's whole
 * result into read's slot would make read succeed with 0 instead.  The
 * planner must refuse that chain (arg-computed), while a read's count
 * narrowed to int still chains into write: its result is at most the
 * constant count it was given.  The big file is removed before exit. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

static char buf[64];

static void narrowed_offset(const char *path)
{
    errno = 0;
    int fd = open(path, O_RDONLY);
    off_t o = lseek(fd, 0, SEEK_END);
    long n = read(fd, buf, (int)o);
    int e = errno;
    close(fd);
    printf("lseek %lld read %ld errno %d\n", (long long)o, n, e);
}

static void narrowed_count(const char *in, const char *out)
{
    errno = 0;
    int fd = open(in, O_RDONLY);
    int n = read(fd, buf, sizeof buf);
    int w = write(1, buf, n);
    int e = errno;
    close(fd);
    printf("\nread %d write %d errno %d\n", n, w, e);
    (void)out;
}

int main(void)
{
    int fd = open("sparse", O_CREAT | O_WRONLY | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, 3LL << 30) != 0) {
        perror("sparse");
        return 1;
    }
    close(fd);
    fd = open("small", O_CREAT | O_WRONLY | O_TRUNC, 0600);
    if (fd < 0 || write(fd, "twelve bytes", 12) != 12)
        return 1;
    close(fd);
    narrowed_offset("sparse");
    narrowed_count("small", "copy");
    unlink("sparse");
    return 0;
}
