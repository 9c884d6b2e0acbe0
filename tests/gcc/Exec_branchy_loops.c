/* Branchy batches inside loops and on the remaining compare forms, run:
 * a read loop whose header batches read with the close after the loop (one
 * batch per iteration), rmdir-or-unlink on != 0, fsync after a write on
 * 0 < n, and a loop over candidate names that stops at the first open that
 * works (not batched: the block after the loop joins the break with the
 * loop's exit, so it is outside the region - run for its paths anyway).  Inputs are arranged so every arm runs.  Compared with the
 * unplugged build at -O0 and -O2, with and without BATCH_EMUL=1.
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[16];

static long copy_all(const char *from, const char *to)
{
    errno = 0;
    int in = open(from, O_RDONLY);
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0640);
    long n, total = 0;
    while ((n = read(in, buf, sizeof buf)) > 0)
        total += write(out, buf, n);
    int c = close(in);
    int e = errno;
    close(out);
    printf("copy %s -> %s: %ld last %ld close %d errno %d\n", from, to, total,
           n, c, e);
    return total;
}

static void remove_any(const char *path)
{
    errno = 0;
    if (rmdir(path) != 0) {
        int r = unlink(path);
        printf("remove %s: unlink %d errno %d\n", path, r, errno);
    } else {
        printf("remove %s: rmdir\n", path);
    }
}

static int append_sync(const char *path, const char *text, size_t len)
{
    errno = 0;
    int fd = open(path, O_WRONLY | O_APPEND);
    long n = write(fd, text, len);
    int s = -2;
    if (0 < n)
        s = fsync(fd);
    int e = errno;
    close(fd);
    printf("append %s: %ld sync %d errno %d\n", path, n, s, e);
    return s;
}

static int find(const char *const *names, int count)
{
    int fd = -1, i;
    errno = 0;
    for (i = 0; i < count; i++) {
        if ((fd = open(names[i], O_RDONLY)) >= 0)
            break;
    }
    printf("find: %d at %d errno %d\n", fd >= 0, i, errno);
    return fd >= 0 ? close(fd) : -1;
}

int main(void)
{
    int fd = open("src.txt", O_WRONLY | O_CREAT | O_TRUNC, 0640);
    write(fd, "a line longer than one buffer of sixteen\n", 41);
    close(fd);
    copy_all("src.txt", "dst.txt");
    copy_all("missing.txt", "dst2.txt");
    copy_all("src.txt", "nodir/dst.txt");
    mkdir("d", 0750);
    remove_any("d");
    remove_any("dst2.txt");
    remove_any("missing.txt");
    append_sync("dst.txt", "more\n", 5);
    append_sync("missing.txt", "more\n", 5);
    append_sync("dst.txt", "", 0);
    static const char *const names[] = {"no1", "no2", "src.txt", "dst.txt"};
    find(names, 4);
    find(names, 2);
    find(names + 3, 1);
    return 0;
}
