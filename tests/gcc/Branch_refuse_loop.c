/* Loops: the loop header has a predecessor inside the loop (the back
 * edge), so it never joins a region entered before the loop - open and the
 * first read are not batched together.  The header itself may start a
 * region: read and the close after the loop batch once per iteration,
 * while the body (reached by going back to the header) is not part of it.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -Os -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <unistd.h>

static char buf[64];

long copy_all(const char *p)
{
    int fd = open(p, O_RDONLY);
    // CHECK-DAG: Branch_refuse_loop.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: open not batched: below-min-batch
    long n, total = 0;
    while ((n = read(fd, buf, 64)) > 0)
        // CHECK-DAG: Branch_refuse_loop.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (read, close) into 2 slots with 0 chains over 2 blocks (branchy)
        total += write(1, buf, n);
        // CHECK-DAG: Branch_refuse_loop.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: write not batched: below-min-batch
    close(fd);
    return total;
}
