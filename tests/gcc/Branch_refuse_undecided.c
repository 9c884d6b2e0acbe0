/* A compare the sign class of the result does not decide (n == 5 after
 * read: 5 and 6 are both positive) ends the region at the branch: open and
 * read batch straight-line, close stays alone.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -Os -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <unistd.h>

static char buf[64];

int five(const char *p)
{
    int fd = open(p, O_RDONLY);
    // CHECK-DAG: Branch_refuse_undecided.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (open, read) into 3 slots with 1 chains{{$}}
    long n = read(fd, buf, 64);
    if (n == 5)
        // CHECK-DAG: Branch_refuse_undecided.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: branch ends the region: the sign of read's result does not decide the compare
        return close(fd);
        // CHECK-DAG: Branch_refuse_undecided.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched: below-min-batch
    return -1;
}
// CHECK-NOT: blocks (branchy)
