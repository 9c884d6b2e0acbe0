/* A branch on something other than the last call's result (a parameter,
 * or a result that went through arithmetic) ends the region there.
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

long other(const char *p, int flag)
{
    int fd = open(p, O_RDONLY);
    long n = read(fd, buf, 64);
    if (flag)
        // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: branch ends the region: the branch is not the result of read (the block's last call) compared with a constant
        close(fd);
        // CHECK-DAG: Branch_refuse_other_branch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched: below-min-batch
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
// CHECK-NOT: blocks (branchy)
