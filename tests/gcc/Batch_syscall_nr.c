/* syscall(NR, ...) with a constant NR is batched like the libc wrapper of
 * that number; the call site keeps syscall()'s -1/errno convention.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

long raw(void)
{
    long a = syscall(SYS_getppid);
    // CHECK: Batch_syscall_nr.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (syscall, syscall) into 2 slots with 0 chains
    long b = syscall(SYS_umask, 022);
    return a + b;
}
// PLAN:      function raw block 0:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains
// PLAN-NEXT:   slot 0: call 0 getppid()
// PLAN-NEXT:   slot 1: call 1 umask(18)
