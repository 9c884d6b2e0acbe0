/* A block with more than 64 candidate calls is described in parts of 64
 * (the core's region limit), each planned on its own, under
 * "function <f> block <k> part <p>:" - the LLVM pass's header too.  The
 * rewritten code still passes checking and runs.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 */
#include <unistd.h>

#define U8 s += getuid(); s += getuid(); s += getuid(); s += getuid(); \
           s += getuid(); s += getuid(); s += getuid(); s += getuid();

long many(void)
{
    long s = 0;
    U8 U8 U8 U8 U8 U8 U8 U8 U8
    return s;
}
// CHECK:      function many block 0:
// CHECK-NEXT: batch 0: calls 0..63, 64 slots, 0 chains
// CHECK:      function many block 0 part 1:
// CHECK-NEXT: batch 0: calls 0..7, 8 slots, 0 chains
// OPT: optimized: sysbatch: batched 64 calls (getuid, getuid,
// OPT: optimized: sysbatch: batched 8 calls (getuid, getuid, getuid, getuid, getuid, getuid, getuid, getuid) into 8 slots with 0 chains
