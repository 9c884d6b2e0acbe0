/* glibc answers fstat with a negative fd itself (EBADF, no system call), so
 * an fd that is neither a non-negative constant nor chained from the batch
 * keeps fstat out of it; chained from open it is fine.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int unknown_fd(int fd, struct stat *st)
{
    int r = fstat(fd, st);
    // CHECK-DAG: Refuse_libc-precheck.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: fstat not batched: libc-precheck ({{.*}}glibc returns EBADF for a negative fd without entering the kernel
    return r + getuid() + getgid();
}

int chained_fd(const char *p, struct stat *st)
{
    int fd = open(p, O_RDONLY);
    // CHECK-DAG: Refuse_libc-precheck.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (open, fstat) into 3 slots with 1 chains
    return fstat(fd, st);
}
