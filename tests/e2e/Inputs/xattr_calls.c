/* Extended attributes and ioctl(FICLONE) as ls -l and cp -a use them, in
 * runs the planner batches: a name's lstat and its two ACL probes (ls),
 * a new file's attributes set, read back, listed and removed, and a
 * descriptor's attributes copied and a clone tried before the data copy
 * (cp).  Every result and errno is printed, so plugged and unplugged runs
 * must agree on each, whatever the file system supports (ENOTSUP, ENODATA
 * and EOPNOTSUPP are as good as success).
 *
 * Run by tests/e2e/Xattr_calls.test, plugged against unplugged with both
 * compilers, with and without BATCH_EMUL=1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

static void show(const char *what, long r, int err)
{
    printf("%s %ld %s\n", what, r, r < 0 ? strerror(err) : "-");
}

/* ls -l's per-name probes: the three calls are one batch. */
__attribute__((noinline)) static void probe(const char *name)
{
    struct stat st;
    char value[64];
    int e1, e2, e3;
    int r1 = lstat(name, &st);
    e1 = errno;
    ssize_t r2 = lgetxattr(name, "system.posix_acl_access", value,
                           sizeof value);
    e2 = errno;
    ssize_t r3 = getxattr(name, "system.posix_acl_default", NULL, 0);
    e3 = errno;
    show("lstat", r1, e1);
    if (r1 == 0)
        printf("size %ld\n", (long)st.st_size);
    show("lgetxattr", (long)r2, e2);
    show("getxattr", (long)r3, e3);
}

/* Set, read back, list and remove one user attribute by name. */
__attribute__((noinline)) static void by_name(const char *name)
{
    char value[16] = {0}, list[128] = {0};
    int e[5];
    int r0 = setxattr(name, "user.sysbatch", "abc", 3, 0);
    e[0] = errno;
    ssize_t r1 = getxattr(name, "user.sysbatch", value, sizeof value);
    e[1] = errno;
    ssize_t r2 = listxattr(name, list, sizeof list);
    e[2] = errno;
    int r3 = lsetxattr(name, "user.second", "z", 1, XATTR_CREATE);
    e[3] = errno;
    int r4 = removexattr(name, "user.sysbatch");
    e[4] = errno;
    show("setxattr", r0, e[0]);
    show("getxattr", (long)r1, e[1]);
    if (r1 > 0)
        printf("value %.*s\n", (int)r1, value);
    show("listxattr", (long)r2, e[2]);
    for (ssize_t k = 0; k < r2; k += (ssize_t)strlen(list + k) + 1)
        printf("attr %s\n", list + k);
    show("lsetxattr", r3, e[3]);
    show("removexattr", r4, e[4]);
    ssize_t r5 = llistxattr(name, list, sizeof list);
    int e5 = errno;
    int r6 = lremovexattr(name, "user.second");
    int e6 = errno;
    show("llistxattr", (long)r5, e5);
    show("lremovexattr", r6, e6);
}

/* cp -a's descriptor-side attribute copy and clone attempt. */
__attribute__((noinline)) static void by_fd(int src, int dst)
{
    char list[128] = {0}, value[16] = {0};
    int e[6];
    ssize_t r0 = flistxattr(src, list, sizeof list);
    e[0] = errno;
    ssize_t r1 = fgetxattr(src, "user.keep", value, sizeof value);
    e[1] = errno;
    int r2 = fsetxattr(dst, "user.keep", "kept", 4, 0);
    e[2] = errno;
    int r3 = ioctl(dst, FICLONE, src);
    e[3] = errno;
    int r4 = fremovexattr(dst, "user.keep");
    e[4] = errno;
    int r5 = fchmod(dst, 0640);
    e[5] = errno;
    show("flistxattr", (long)r0, e[0]);
    show("fgetxattr", (long)r1, e[1]);
    if (r1 > 0)
        printf("value %.*s\n", (int)r1, value);
    show("fsetxattr", r2, e[2]);
    show("ioctl", r3, e[3]);
    show("fremovexattr", r4, e[4]);
    show("fchmod", r5, e[5]);
}

int main(void)
{
    int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "payload\n", 8) != 8)
        return 2;
    fsetxattr(fd, "user.keep", "yes", 3, 0);
    int out = open("copy", O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (out < 0)
        return 2;

    probe("data");
    probe("missing");
    by_name("data");
    by_name("missing");
    by_fd(fd, out);
    by_fd(fd, 99); /* not open: EBADF from the kernel at every call */
    close(out);
    close(fd);
    return 0;
}
