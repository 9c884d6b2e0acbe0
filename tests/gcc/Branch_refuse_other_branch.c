/* A branch on something other than the last call's result ends the region
 * there unless its condition is available where the batch is issued (a
 * predicated branch): here a byte read() wrote (written in between), or a
 * result that went through arithmetic.  A flag parameter, by contrast, is
 * available: the close under it is a predicated slot.
 * (unlink(a) + 1 == 0 would not do: GCC folds it to unlink(a) == -1.)
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -Os -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <unistd.h>

static char buf[64];

long other(const char *p)
{
    int fd = open(p, O_RDONLY);
    long n = read(fd, buf, 64);
    if (buf[0])
        // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: branch ends the region: the branch is not the result of read (the block's last call) compared with a constant; the branch's condition is not available where the batch is issued: it reads memory the region may write before the branch (a call to read)
        close(fd);
        // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched: below-min-batch
    return n;
}

long flagged(const char *p, int flag)
{
    int fd = open(p, O_RDONLY);
    // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (open, read, close) into 5 slots with 2 chains over 2 blocks (branchy)
    long n = read(fd, buf, 64);
    if (flag)
        close(fd);
    return n;
}

int arithmetic(const char *a, const char *b)
{
    if ((unlink(a) & 4) == 0)
        // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: branch ends the region: the branch is not the result of unlink (the block's last call) compared with a constant
        // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-2]]:{{[0-9]+}}: missed: sysbatch: unlink not batched: below-min-batch
        return unlink(b);
        // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: unlink not batched: below-min-batch
    return 0;
}
