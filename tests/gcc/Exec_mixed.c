/* A wider mix of rows in one run: creat/write/lseek/pread/fstat/ftruncate/
 * dup/dup2/umask/getpid/unlink/stat/chmod/link/rename/readlink/symlink,
 * with results chained and deliberate failures, compared with the
 * unplugged build.  SYSBATCH_STATS proves batches ran.
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 *
 * The other -O levels:
 * RUN: env SB_OPTS="O1 O3 Os" sh %S/Inputs/exec-compare.sh %t.more %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s --check-prefix=MORE
 * MORE: sb-O1-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * MORE: sb-O3-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * MORE: sb-Os-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * MORE-NOT: DIFFERENT
 * MORE: 6 runs compared, 0 different
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char data[] = "0123456789abcdef";
static char back[32];
static char link_text[64];

int main(void)
{
    struct stat st1, st2;
    errno = 0;
    mode_t old = umask(022);
    int fd = creat("f.txt", 0666);
    long w = write(fd, data, 16);
    long off = lseek(fd, 4, SEEK_SET);
    long r = pread(fd, back, 8, 2);            /* EBADF: creat is write-only */
    int er = errno;
    int fs = fstat(fd, &st1);
    int tr = ftruncate(fd, 10);
    int fd2 = dup(fd);
    int d2 = dup2(fd, 40);
    int c1 = close(fd);
    int c2 = close(fd2);
    int c3 = close(d2);
    int c4 = close(fd);                        /* EBADF */
    int e4 = errno;
    printf("umask %o creat %d write %ld lseek %ld pread %ld/%d fstat %d size %ld "
           "ftruncate %d dup %d dup2 %d close %d %d %d %d/%d\n",
           (unsigned)old, fd >= 0, w, off, r, er, fs, (long)st1.st_size, tr,
           fd2 > fd, d2, c1, c2, c3, c4, e4);

    errno = 0;
    int s = stat("f.txt", &st2);
    int ch = chmod("f.txt", 0600);
    int ln = link("f.txt", "g.txt");
    int sy = symlink("g.txt", "h.lnk");
    long rl = readlink("h.lnk", link_text, sizeof link_text - 1);
    int rn = rename("g.txt", "i.txt");
    int rn2 = rename("g.txt", "j.txt");        /* ENOENT */
    int e5 = errno;
    int ul = unlink("h.lnk");
    int pid_ok = getpid() > 0;
    printf("stat %d size %ld chmod %d link %d symlink %d readlink %ld %s "
           "rename %d %d/%d unlink %d pid %d\n",
           s, (long)st2.st_size, ch, ln, sy, rl, rl > 0 ? link_text : "-", rn, rn2,
           e5, ul, pid_ok);
    return 0;
}
