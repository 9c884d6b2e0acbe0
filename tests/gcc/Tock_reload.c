/* Tock: a word of an earlier call's result used by a call of a later
 * series is loaded again where that series is issued (the result struct
 * is private and nothing names it as an lhs in between, so the word is
 * the same there); a conversion between 32-bit types is no frame word of
 * its own.  GIMPLE for both cross compilers.
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: rm -rf %t && mkdir -p %t/arm %t/rv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O0 -fchecking -c %s -o /dev/null -fdump-tree-all -dumpdir %t/arm/
 * RUN: cat %t/arm/*.sysbatch | %FileCheck %s
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O2 -fchecking -c %s -o /dev/null -fdump-tree-all -dumpdir %t/rv/
 * RUN: cat %t/rv/*.sysbatch | %FileCheck %s
 */
#include "tock.h"

void helper(void);

int reload(void)
{
    syscall_return_t n = command(2, 0, 0, 0);
    helper();
    command(2, 1, 0, 0);
    syscall_return_t r = command(2, 1, (int)n.data[0], 0);
    return (int)r.type;
}
// CHECK-LABEL: function reload block 0:
// CHECK-NEXT:  refused call 0 (command): below-min-batch: too few calls in a row to pay for a batch
// CHECK-NEXT:  batch 0: calls 1..2, 2 slots, 0 chains
// CHECK-NEXT:    slot 0: call 1 command(2, 1, 0, 0)                fail=stop
// CHECK-NEXT:    slot 1: call 2 command(2, 1, a2, 0)               fail=stop
// CHECK-LABEL: int reload ()
// CHECK:       n = command (2, 0, 0, 0); [return slot optimization]
// CHECK-NEXT:  helper ();
// CHECK-NEXT:  [[WORD:_[0-9]+]] = n.data[0];
// CHECK-NEXT:  sysbatch_frames.[[F:[0-9]+]][0] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][1] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][2] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][3] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][4] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][5] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][6] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][7] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][8] = [[WORD]];
// CHECK-NEXT:  sysbatch_frames.[[F]][9] = 0;
// CHECK-NEXT:  sysbatch_tock_run_commands (&sysbatch_frames.[[F]][0], 2, 0);
// The original load stays where it was (its value no longer has a user:
// the frame holds the argument).
// CHECK-NEXT:  _{{[0-9]+}} = n.data[0];
// CHECK:       r = MEM[{{.*}}&sysbatch_frames.[[F]] + 24B];
// CHECK-NOT:   command (
// CHECK:       return
