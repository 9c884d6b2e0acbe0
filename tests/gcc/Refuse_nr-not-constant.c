/* syscall() with a computed number: refused at its line, and the calls
 * after it still batch.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 */
#include <unistd.h>

long nr_param(long nr)
{
    long a = syscall(nr);
    // CHECK-DAG: Refuse_nr-not-constant.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: syscall not batched: nr-not-constant (syscall() with a number that is not a compile-time constant)
    long b = getuid();
    // CHECK-DAG: Refuse_nr-not-constant.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (getuid, getgid)
    long c = getgid();
    return a + b + c;
}
