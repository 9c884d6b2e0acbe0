/* Tock: a raw call's struct passed by value to its converter right after
 * the call (libtock-c's syscall wrappers) is passed from the series frame
 * itself, not from the local the call site reads it into: both back ends
 * would store the words into the local's stack slot and load them again.
 * Only in the read's block, up to a statement that writes the local, and
 * only for a local whose address is never taken; any other use still
 * reads the local (the read stays).  Both cross compilers, -O2 and -Os.
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: rm -rf %t && mkdir -p %t/arm %t/rv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -O2 -fchecking -c %s -o %t/arm.o -fdump-tree-optimized -dumpdir %t/arm/
 * RUN: %FileCheck %s < %t/arm/*.optimized
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -Os -fchecking -c %s -o %t/rv.o -fdump-tree-optimized -dumpdir %t/rv/
 * RUN: %FileCheck %s < %t/rv/*.optimized
 */
#include "tock.h"

int two(int *out)
{
    syscall_return_t a = command(2, 1, 0, 0);
    int x = tock_command_return_novalue_to_returncode(a);
    syscall_return_t b = command(2, 1, 1, 0);
    *out = tock_command_return_novalue_to_returncode(b);
    return x;
}
// CHECK-LABEL: two (
// CHECK:       sysbatch_tock_run_commands (&sysbatch_frames.[[F:[0-9]+]][0], 2, 0);
// CHECK-NEXT:  {{.*}} = tock_command_return_novalue_to_returncode (MEM[{{.*}}&sysbatch_frames.[[F]] + 4B]);
// CHECK-NEXT:  {{.*}} = tock_command_return_novalue_to_returncode (MEM[{{.*}}&sysbatch_frames.[[F]] + 24B]);
// CHECK-NOT:   syscall_return_t
// CHECK:       return

/* `a` is written between the read and the converter: from there on the
 * local is passed. */
int rewritten(void)
{
    syscall_return_t a = command(2, 1, 0, 0);
    syscall_return_t b = command(2, 1, 1, 0);
    int y = tock_command_return_novalue_to_returncode(b);
    a.type = 128;
    return y + tock_command_return_novalue_to_returncode(a);
}
// CHECK-LABEL: rewritten (
// CHECK:       sysbatch_tock_run_commands (&sysbatch_frames.[[H:[0-9]+]][0], 2, 0);
// CHECK:       tock_command_return_novalue_to_returncode (MEM[{{.*}}&sysbatch_frames.[[H]] + 24B]);
// CHECK:       a.type = 128;
// CHECK-NEXT:  {{.*}} = tock_command_return_novalue_to_returncode (a);
// CHECK:       return
