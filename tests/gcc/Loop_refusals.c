/* Loops that are not batched, each with its remark: a read until end of
 * file, a result that feeds the next iteration, a diagnostic on every
 * path, a guard on a flag the loop writes, two call sites.  Their calls
 * are planned as straight-line code as before.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#include <stdio.h>
#include <unistd.h>

static const char names[4][8] = {"a", "b", "c", "d"};
int fds[4];

long read_all(int fd)
{
    char buf[256];
    long total = 0, n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        // CHECK: Loop_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: read not batched in its loop: loop-carried ({{.*}}(a read until end of file))
        total += n;
    return total;
}

int dup_chain(int fd, int n)
{
    for (int i = 0; i < n; i++)
        fd = dup(fd);
    // CHECK: Loop_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: dup not batched in its loop: loop-carried ({{.*}}: it depends on the call's result in an earlier iteration)
    return fd;
}

void remove_loud(void)
{
    for (int i = 0; i < 4; i++) {
        unlink(names[i]);
        // CHECK: Loop_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: unlink not batched in its loop: loop-always-stops ({{.*}}: call to puts)
        puts("removed");
    }
}

void close_until_one_works(void)
{
    int done = 0;
    for (int i = 0; i < 4; i++)
        if (!done && close(fds[i]) == 0)
            // CHECK: Loop_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched in its loop: loop-guard ({{.*}}: the call runs under a condition on a value the loop carries{{.*}})
            done = 1;
}

void unlink_and_rmdir(void)
{
    for (int i = 0; i < 4; i++) {
        unlink(names[i]);
        // CHECK: Loop_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: unlink not batched in its loop: loop-several-calls
        rmdir(names[i]);
    }
}

// PLAN: function read_all loop 0:
// PLAN-NEXT: loop call read: refused: loop-carried: {{.*}}
// PLAN: function unlink_and_rmdir loop 0:
// PLAN-NEXT: loop call unlink: refused: loop-several-calls: {{.*}}
// PLAN-NEXT: function unlink_and_rmdir block 0:
// Its body is one batch: rmdir's &names[i] is address arithmetic the issue
// point computes again (as the LLVM pass does with the GEP).
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains
