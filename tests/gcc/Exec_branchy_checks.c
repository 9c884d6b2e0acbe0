/* Branchy batches run: the checked open/fstat/read/close (early return on
 * error, an error arm that cleans up, st_size chained from fstat into read
 * in a later block) and a first-that-succeeds path
 * search, each called so that every arm is taken - a missing file (open
 * fails), a directory (read fails with EISDIR), an empty and a full file,
 * and searches that succeed at the first, second, third or no candidate.
 * Compared with the unplugged build at -O0 and -O2, with and without
 * BATCH_EMUL=1 (which really runs the batches, skipped slots and all).
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 *
 * The same with the slots copied from a constant template and patched:
 * RUN: sh %S/Inputs/exec-compare.sh %t.tmpl %s "%gcc" "%sbgcc -fplugin-arg-sysbatch-fill=template" %sbruntime | %FileCheck %s
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[64];

/* Early exit on error, then an error arm that closes the fd. */
static long checked_read(const char *path)
{
    struct stat st;
    errno = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("%s: open failed, errno %d\n", path, errno);
        return -1;
    }
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        printf("%s: fstat failed, errno %d\n", path, e);
        return -1;
    }
    long n = read(fd, buf, sizeof buf - 1);
    int e_read = errno;
    int c = close(fd);
    printf("%s: size %ld read %ld/%d close %d\n", path, (long)st.st_size, n,
           n < 0 ? e_read : 0, c);
    return n;
}

/* fstat's st_size chained into read in a later block (a word copy). */
static char big[4096];
static long sized_read(const char *path)
{
    struct stat st;
    errno = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) >= 0) {
        long n = read(fd, big, st.st_size);
        int e = errno;
        int c = close(fd);
        printf("%s: sized read %ld errno %d close %d\n", path, n, e, c);
        return n;
    }
    close(fd);
    return -1;
}

/* if/else with calls on both arms, on == -1 and > 0 conditions. */
static void both_arms(const char *path)
{
    errno = 0;
    int fd = open(path, O_RDONLY);
    if (fd == -1) {
        int r = access(path, F_OK);
        printf("%s: missing, access %d errno %d\n", path, r, errno);
    } else {
        long n = read(fd, buf, 4);
        if (n > 0)
            printf("%s: read %ld close %d\n", path, n, close(fd));
        else
            printf("%s: read %ld errno %d close %d\n", path, n, errno,
                   close(fd));
    }
}

/* The first that succeeds. */
static int search(const char *a, const char *b, const char *c)
{
    int fd;
    errno = 0;
    if ((fd = open(a, O_RDONLY)) < 0 && (fd = open(b, O_RDONLY)) < 0 &&
        (fd = open(c, O_RDONLY)) < 0) {
        printf("search %s %s %s: none, errno %d\n", a, b, c, errno);
        return -1;
    }
    long n = read(fd, buf, 3);
    printf("search %s %s %s: read %ld\n", a, b, c, n);
    return close(fd);
}

/* != 0 on a never-failing-style check: unlink's result decides whether
 * the second name is tried. */
static void remove_either(const char *a, const char *b)
{
    errno = 0;
    if (unlink(a) != 0) {
        int r = unlink(b);
        printf("remove %s: failed; %s: %d errno %d\n", a, b, r, errno);
    } else {
        printf("remove %s: done\n", a);
    }
}

static void make(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
    long w = write(fd, text, strlen(text));
    int c = close(fd);
    printf("make %s: %d %ld %d\n", path, fd >= 0, w, c);
}

int main(void)
{
    make("full.txt", "hello, branchy batch\n");
    make("empty.txt", "");
    make("x1", "one");
    make("x2", "two");
    mkdir("dir", 0750);
    checked_read("full.txt");
    checked_read("empty.txt");
    checked_read("missing.txt");
    checked_read("dir");
    sized_read("full.txt");
    sized_read("empty.txt");
    sized_read("missing.txt");
    sized_read("dir");
    both_arms("full.txt");
    both_arms("empty.txt");
    both_arms("missing.txt");
    both_arms("dir");
    search("x1", "x2", "full.txt");
    search("no1", "x2", "full.txt");
    search("no1", "no2", "full.txt");
    search("no1", "no2", "no3");
    remove_either("x1", "x2");
    remove_either("x1", "x2");
    remove_either("x1", "x2");
    return 0;
}
