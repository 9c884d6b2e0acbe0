/* syscall() with a constant number the catalogue does not describe.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 */
#include <unistd.h>

long nr_unknown(void)
{
    long a = syscall(99999);
    // CHECK: Refuse_nr-unknown.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: syscall not batched: nr-unknown (syscall() with a number the catalogue does not describe)
    long b = syscall(99999);
    return a + b;
}
