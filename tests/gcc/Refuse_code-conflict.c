/* A store between two calls that may touch the buffer a later call reads
 * ends the batch there (the kernel side of write may not move above it);
 * the same store into a local nobody else sees does not.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#include <unistd.h>

char shared[8];

long conflict(char *in)
{
    long n = read(0, in, 8);
    // CHECK-DAG: Refuse_code-conflict.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: read not batched: below-min-batch
    shared[0] = 'x';
    long m = write(1, shared, 8);
    // CHECK-DAG: Refuse_code-conflict.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: write not batched: code-conflict (code between the calls may not be moved across this call: a store that may alias a buffer of write)
    return n + m;
}

long no_conflict(char *in)
{
    char local[8];
    long n = read(0, in, 8);
    // CHECK-DAG: Refuse_code-conflict.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (read, write)
    local[0] = 'x';
    long m = write(1, shared, 8);
    return n + m + local[0];
}
// PLAN:      function conflict block 0:
// PLAN-NEXT: refused call 0 (read): below-min-batch
// PLAN-NEXT: refused call 1 (write): code-conflict: code between the calls may not be moved across this call: a store that may alias a buffer of write
