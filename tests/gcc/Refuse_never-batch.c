/* Rows that are never batched keep their call and say why, and they split
 * the calls around them (fork: a half-run batch would be inherited;
 * clock_gettime: served by the vDSO).
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 */
#include <time.h>
#include <unistd.h>

long never(struct timespec *ts)
{
    long a = getuid();
    // CHECK-DAG: Refuse_never-batch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getuid not batched: below-min-batch
    pid_t p = fork();
    // CHECK-DAG: Refuse_never-batch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: fork not batched: never-batch (this call is never batched: creates a process or thread
    long b = getgid();
    // CHECK-DAG: Refuse_never-batch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getgid not batched: below-min-batch
    int c = clock_gettime(CLOCK_MONOTONIC, ts);
    // CHECK-DAG: Refuse_never-batch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: clock_gettime not batched: never-batch (this call is never batched: served by the vDSO
    return a + b + c + p;
}
