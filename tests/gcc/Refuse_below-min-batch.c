/* A lone call is not worth a crossing; min-batch moves the threshold both
 * ways.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=DEFAULT
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fopt-info-optimized-missed -fplugin-arg-sysbatch-min-batch=3 2>&1 | %FileCheck %s --check-prefix=MIN3
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized-missed -fplugin-arg-sysbatch-min-batch=1 2>&1 | %FileCheck %s --check-prefix=MIN1
 */
#include <unistd.h>

long lone(void)
{
    return getuid();
    // DEFAULT: Refuse_below-min-batch.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getuid not batched: below-min-batch (too few calls in a row to pay for a batch: only-call: no other system call in the function)
    // MIN1: Refuse_below-min-batch.c:[[@LINE-2]]:{{[0-9]+}}: optimized: sysbatch: batched 1 calls (getuid) into 1 slots with 0 chains
}

long pair(void)
{
    long a = getuid();
    // DEFAULT: Refuse_below-min-batch.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (getuid, getgid)
    // MIN3: Refuse_below-min-batch.c:[[@LINE-2]]:{{[0-9]+}}: missed: sysbatch: getuid not batched: below-min-batch
    // MIN1: Refuse_below-min-batch.c:[[@LINE-3]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (getuid, getgid)
    long b = getgid();
    return a + b;
}
