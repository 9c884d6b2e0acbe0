/* Loop batching, results ignored: close over an array of descriptors and
 * a descending descriptor (the increment works on a copy of the induction
 * variable, which SCEV does not follow; the plugin reads that form
 * itself).  The same plan at -O0 and -O2, and the remark at the call.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-no-loops -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=OFF
 */
#include <unistd.h>

int fds[64];

void close_array(int n)
{
    for (int i = 0; i < n; i++)
        close(fds[i]);
    // OPT: Loop_results_ignored.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched loop call close: 16 iterations per batch
}

void close_down(int fd)
{
    while (fd > 2)
        close(fd--);
    // OPT: Loop_results_ignored.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched loop call close: 16 iterations per batch
}

// CHECK:      function close_array loop 0:
// CHECK-NEXT: loop call close: 16 iterations per batch
// CHECK-NEXT:   slot: close(a0)
// CHECK-NOT:  function close_array block
// CHECK:      function close_down loop 0:
// CHECK-NEXT: loop call close: 16 iterations per batch
// CHECK-NEXT:   slot: close(a0)
// CHECK-NOT:  function close_down block
// OFF-NOT: loop call
// OFF: function close_array block 0:
