/* glibc's negative-fd precheck passes for an fd the code checked before
 * the call, also through a phi of a result and a constant (fts-style
 * fd = name ? open(name, O_RDONLY) : 0; if (fd < 0) return; fstat(fd)):
 * fstat, read and the close under `if (name)` (a predicated slot) batch;
 * an fd not checked on the way stays refused with the reason.  Run plugged
 * and unplugged, with and without BATCH_EMUL=1, on a file, none, stdin.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=OPT
 * OPT-DAG: Exec_checked_fd.c:[[@LINE+22]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (fstat, read, close){{.*}}(branchy)
 * OPT-DAG: Exec_checked_fd.c:[[@LINE+31]]:{{[0-9]+}}: missed: sysbatch: fstat not batched: libc-precheck ({{.*}}the fd is not a non-negative constant, chained from this batch, checked by a branch before the call or taken by an earlier call of the batch that fails on a negative fd)
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime < /dev/null | %FileCheck %s
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

static char buf[64];

static long size_of(const char *name)
{
    struct stat st;
    int fd = name ? open(name, O_RDONLY) : 0;
    if (fd < 0)
        return -1000 - errno;
    int r = fstat(fd, &st);
    long n = read(fd, buf, 16);
    if (name)
        close(fd);
    return r < 0 ? -2000 - errno : (long)st.st_size * 100 + n;
}

static long unchecked(int fd)
{
    struct stat st;
    int r = fstat(fd, &st);
    long n = read(fd, buf, 16);
    return r * 100 + n + errno;
}

int main(void)
{
    FILE *f = fopen("in.txt", "w");
    fputs("twelve bytes", f);
    fclose(f);
    printf("file %ld\n", size_of("in.txt"));
    printf("missing %ld\n", size_of("missing.txt"));
    printf("stdin %ld\n", size_of(NULL) >= -1 ? 1L : 0L);
    errno = 0;
    printf("unchecked bad %ld\n", unchecked(-1));
    return 0;
}
