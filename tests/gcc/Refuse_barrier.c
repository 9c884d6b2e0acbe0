/* Unknown calls, inline asm and volatile accesses between calls are
 * barriers: nothing moves across them.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 */
#include <stdio.h>
#include <unistd.h>

volatile int flag;

long barriers(void)
{
    long a = getuid();
    puts("between");
    long b = getgid();
    // CHECK-DAG: Refuse_barrier.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getgid not batched: barrier (code between the calls may touch anything (unknown call, volatile or atomic access): call to puts)
    __asm__ volatile("" ::: "memory");
    long c = getpid();
    // CHECK-DAG: Refuse_barrier.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getpid not batched: barrier ({{.*}}: inline asm)
    flag = 1;
    long d = getppid();
    // CHECK-DAG: Refuse_barrier.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getppid not batched: barrier ({{.*}}: volatile store)
    return a + b + c + d;
}
