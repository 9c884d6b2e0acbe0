/* Straight-line batches whose call sites take every result on one test
 * "every slot ran" (sb_rt_all_ran_test), and the same batches when they do
 * not run to the end: open fails and stops the batch (its fd feeds the
 * later calls), so fstat, read and close are made by their call sites, each
 * setting errno there.  Code between the calls (errno read after each call,
 * a value computed from a result and used after the batch) runs on either
 * path.  Prints everything a call site saw. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void slurp(const char *path)
{
    char buf[64];
    struct stat st;
    int err[4];

    memset(&st, 0, sizeof st);
    memset(buf, 0, sizeof buf);
    errno = 0;
    int fd = open(path, O_RDONLY);
    err[0] = errno;
    int doubled = fd * 2;
    int rc_stat = fstat(fd, &st);
    err[1] = errno;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    err[2] = errno;
    int rc_close = close(fd);
    err[3] = errno;
    printf("%s: open %s errno %d doubled-ok %d\n", path, fd >= 0 ? "ok" : "failed",
           err[0], doubled == fd * 2);
    printf("  fstat %d errno %d size %lld\n", rc_stat, err[1], (long long)st.st_size);
    printf("  read %zd errno %d data '%s'\n", n, err[2], n > 0 ? buf : "");
    printf("  close %d errno %d\n", rc_close, err[3]);
}

/* No chain and no stop: the batch always runs to its end. */
static void ids(void)
{
    uid_t u = getuid();
    gid_t g = getgid();
    uid_t e = geteuid();
    printf("ids same %d\n", u == getuid() && g == getgid() && e == geteuid());
}

int main(void)
{
    int fd = open("present.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "all ran", 7) != 7 || close(fd) != 0) {
        perror("present.txt");
        return 2;
    }
    slurp("present.txt");
    slurp("missing.txt");
    ids();
    errno = 0;
    slurp("present.txt");
    return 0;
}
