/* The plan goes to the pass's dump file (<src>.*t.sysbatch, written by
 * -fdump-tree-all, since GCC 12 does not accept -fdump-tree-<plugin pass>),
 * under the same per-function, per-block header as the LLVM pass prints,
 * followed by the rewritten function: one test of sysbatch_active, the
 * slots filled and sysbatch_run called, one test that every slot ran
 * (then each result straight from rets), and otherwise each call site
 * choosing between the batch's result and its original call.
 *
 * REQUIRES: gcc-host
 * RUN: rm -rf %t && mkdir -p %t && cd %t
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o %t/x.o -fdump-tree-all -dumpdir %t/
 * RUN: cat %t/*.sysbatch | %FileCheck %s
 */
#include <unistd.h>

void nothing(void) {}

int two_blocks(int flag, int fd)
{
    if (flag) {
        close(fd);
        return 0;
    }
    uid_t u = getuid();
    gid_t g = getgid();
    return (int)(u + g);
}

// CHECK-NOT: function nothing
// CHECK:      function two_blocks block 0:
// CHECK-NEXT: refused call 0 (close): below-min-batch: too few calls in a row to pay for a batch
// CHECK-NEXT: function two_blocks block 1:
// CHECK-NEXT: batch 0: calls 0..1, 2 slots, 0 chains
// CHECK-NEXT:   slot 0: call 0 getuid()
// CHECK-NEXT:   slot 1: call 1 getgid()
// CHECK:      _[[ACT:[0-9]+]] = sysbatch_active;
// CHECK-NEXT: if (_[[ACT]] != 0)
// CHECK:      sysbatch_slots{{.*}}[0].nr = 102;
// CHECK:      sysbatch_slots{{.*}}[1].nr = 104;
// CHECK:      _[[RES:[0-9]+]] = sysbatch_run (&sysbatch_rets{{.*}}[0], &sysbatch_slots{{.*}}[0], 2, 1);
// The common path: one test that both slots ran, then both results from
// rets without a test or a call each.
// CHECK:      # _[[LAST:[0-9]+]] = PHI <_[[RES]]({{[0-9]+}}), -1({{[0-9]+}})>
// CHECK-NEXT: if (_[[LAST]] == 1)
// CHECK:      sysbatch_rets{{.*}}[0];
// CHECK-NOT:  if (
// CHECK:      sysbatch_rets{{.*}}[1];
// CHECK-NEXT: (unsigned int)
// CHECK-NEXT: g_{{[0-9]+}} = _{{[0-9]+}};
// CHECK-NEXT: goto
// Otherwise each call site tests its slot.
// CHECK:      if (_[[LAST]] >= 0)
// CHECK:      u_{{[0-9]+}} = getuid ();
// CHECK:      if (_[[LAST]] >= 1)
// CHECK:      g_{{[0-9]+}} = getgid ();
