/* Failing calls in the middle of batches: a bad fd, a missing path, an
 * existing directory, a failed rename.  Each site must see -1 and the
 * right errno at its own place; the calls after it still run.
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
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    errno = 0;
    int a = mkdir("d", 0750);
    int ea = errno;
    int b = mkdir("d", 0750);          /* EEXIST */
    int eb = errno;
    int c = access("nothere", F_OK);   /* ENOENT */
    int ec = errno;
    int d = rename("nothere", "x");    /* ENOENT */
    int ed = errno;
    int e = close(12345);              /* EBADF */
    int ee = errno;
    int f = rmdir("d");
    int ef = errno;
    int g = unlink("d");               /* ENOENT again */
    int eg = errno;
    printf("mkdir %d/%d mkdir %d/%d access %d/%d rename %d/%d close %d/%d "
           "rmdir %d/%d unlink %d/%d\n",
           a, ea, b, eb, c, ec, d, ed, e, ee, f, ef, g, eg);

    errno = 0;
    long r = lseek(-1, 0, SEEK_SET);   /* EBADF */
    int er = errno;
    int fd = dup(0);
    int edup = errno;
    int cl = close(fd);
    int ecl = errno;
    int cl2 = close(fd);               /* EBADF: closed just before */
    int ecl2 = errno;
    printf("lseek %ld/%d dup %d/%d close %d/%d close %d/%d\n",
           r, er, fd >= 0, edup, cl, ecl, cl2, ecl2);
    return a == 0 ? 0 : 3;
}
