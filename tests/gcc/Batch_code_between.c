/* Code between the calls that commutes with the later calls stays in place
 * and does not end the batch: register arithmetic, a store to a local
 * nobody passes to a call, a store into a buffer no later call touches,
 * and errno reads (errno is set at each call site, never by the kernel).
 * (A store to a global would end the batch: `dir` might point into it.)
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int between(const char *dir, char *buf)
{
    char scratch[16];
    int fd = open(dir, O_RDONLY);
    // CHECK: Batch_code_between.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 4 calls (open, read, access, close) into 6 slots with 2 chains
    int e1 = errno;
    int twice = e1 * 2 + 1;
    long n = read(fd, buf, 32);
    scratch[0] = (char)n;
    int a = access(dir, F_OK);
    int e2 = errno;
    int c = close(fd);
    return twice + scratch[0] + a + c + e2;
}
// CHECK-NOT: sysbatch: {{.*}} not batched
