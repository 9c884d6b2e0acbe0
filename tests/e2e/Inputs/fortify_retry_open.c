/* tar 1.34's create_placeholder_file (extract.c) reduced: openat in a
 * retry loop whose exit test leaves with fd >= 0, then fstat and close.
 * Under _FORTIFY_SOURCE the function is the late look's (the early one
 * leaves functions that call an inlined wrapper to it), where the fd
 * reaches fstat through the loop-closed PHI of the value the exit test
 * checked: glibc's negative-fd precheck is proven there, and fstat and
 * close batch.  Run where the file is new, exists (recovered by unlinking
 * it once), cannot be created, and with fd 0 closed (the new file gets fd
 * 0: the smallest non-negative one).
 *
 * Run by tests/e2e/Fortify_wrappers.test, plugged against unplugged.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int recoveries; /* one unlink per run of the program */

static int recover(const char *name)
{
    if (errno == EEXIST && recoveries++ == 0 && unlink(name) == 0)
        return 0; /* try again */
    return 2;
}

static void report(const char *name, int err)
{
    printf("%s: %s\n", name, strerror(err));
}

__attribute__((noinline)) static int placeholder(int dirfd, const char *name,
                                                 long *size)
{
    int fd;
    struct stat st;
    while ((fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0) {
        switch (recover(name)) {
        case 0:
            continue;
        default:
            report(name, errno);
            return -1;
        }
    }
    if (fstat(fd, &st) != 0) {
        report(name, errno);
        close(fd);
    } else if (close(fd) != 0) {
        report(name, errno);
    } else {
        *size = (long)st.st_size;
        return 1;
    }
    return -1;
}

int main(void)
{
    long size = -1;
    int r = placeholder(AT_FDCWD, "new", &size);
    printf("new: %d %ld\n", r, size);
    int fd = open("old", O_CREAT | O_WRONLY | O_TRUNC, 0600);
    write(fd, "12345", 5);
    close(fd);
    size = -1;
    r = placeholder(AT_FDCWD, "old", &size);
    printf("old: %d %ld\n", r, size);
    r = placeholder(AT_FDCWD, "old", &size);
    printf("again: %d\n", r);
    r = placeholder(AT_FDCWD, "nodir/x", &size);
    printf("missing dir: %d\n", r);
    close(0);
    size = -1;
    r = placeholder(AT_FDCWD, "zero", &size);
    printf("on fd 0: %d %ld\n", r, size);
    return 0;
}
