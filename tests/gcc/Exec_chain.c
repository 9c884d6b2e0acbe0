/* open -> read -> fstat -> close with the fd chained, then the same with the
 * file missing: open fails inside the batch, the batch stops there, and
 * read/fstat/close run unbatched and fail with EBADF, exactly as unplugged.
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

static void cat(const char *path)
{
    struct stat st;
    errno = 0;
    int fd = open(path, O_RDONLY);
    int e_open = errno;
    long n = read(fd, buf, sizeof buf - 1);
    int e_read = errno;
    int r_stat = fstat(fd, &st);
    int e_stat = errno;
    int r_close = close(fd);
    int e_close = errno;
    printf("%s: open %d/%d read %ld/%d fstat %d/%d size %ld close %d/%d\n",
           path, fd >= 0, e_open, n, e_read, r_stat, e_stat,
           r_stat == 0 ? (long)st.st_size : -1L, r_close, e_close);
    if (n > 0)
        printf("data: %.*s\n", (int)n, buf);
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
    make("present.txt", "hello, batch\n");
    cat("present.txt");
    cat("missing.txt");
    return 0;
}
