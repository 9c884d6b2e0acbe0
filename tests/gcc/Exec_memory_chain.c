/* fstat's st_size chained into read's count inside one batch, with the
 * file present, empty, and missing (open fails: everything after it runs
 * unbatched and fails as unplugged).
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 * RUN: sh %S/Inputs/exec-compare.sh %t.tmpl %s "%gcc" "%sbgcc -fplugin-arg-sysbatch-fill=template" %sbruntime | %FileCheck %s
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[256];

static void slurp(const char *path)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    memset(buf, 0, sizeof buf);
    errno = 0;
    int fd = open(path, O_RDONLY);
    int e0 = errno;
    int rs = fstat(fd, &st);
    int e1 = errno;
    long n = read(fd, buf, st.st_size);
    int e2 = errno;
    int rc = close(fd);
    int e3 = errno;
    printf("%s: open %d/%d fstat %d/%d size %ld read %ld/%d close %d/%d data '%s'\n",
           path, fd >= 0, e0, rs, e1, (long)st.st_size, n, e2, rc, e3, buf);
}

int main(void)
{
    int fd = open("full.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    write(fd, "sized by fstat\n", 15);
    close(fd);
    close(open("empty.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644));
    slurp("full.txt");
    slurp("empty.txt");
    slurp("missing.txt");
    return 0;
}
