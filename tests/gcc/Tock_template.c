/* Tock with fill=template: the words known at compile time go into one
 * static const byte template per series (runtime/include/sysbatch_tock.h,
 * COMPACT encoding: count, policy 0 = stop, number of patches, encoding 2,
 * the patched word indexes, then per frame one byte class | k << 4 and its
 * first k argument words, one byte each, 0xff and four bytes little-endian
 * for a word above 0xfe; trailing zeros and patched words dropped), 4-byte
 * aligned; the call site stores only the patches, right after the frames,
 * and calls sysbatch_tock_run_template, or, for a series of commands and
 * yields only (leds), sysbatch_tock_run_template_commands: their results
 * need no conversion.  Call sites are as with stores: reads of their
 * frames (nothing here: the results are unused).
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: rm -rf %t && mkdir -p %t/arm %t/rv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -fplugin-arg-sysbatch-fill=template -O2 -fchecking -S %s -o %t/arm.s -fdump-tree-all -dumpdir %t/arm/
 * RUN: cat %t/arm/*.sysbatch | %FileCheck %s
 * RUN: %FileCheck %s --check-prefix=BYTES < %t/arm.s
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -fplugin-arg-sysbatch-fill=template -O0 -fchecking -S %s -o %t/rv.s -fdump-tree-all -dumpdir %t/rv/
 * RUN: cat %t/rv/*.sysbatch | %FileCheck %s
 * RUN: %FileCheck %s --check-prefix=BYTES < %t/rv.s
 */
#include "tock.h"

void leds(int n)
{
    command(2, 1, 0, 0);
    command(0x40001, 3, n, 0);
    yield();
}
// CHECK-LABEL: void leds (int n)
// CHECK:       sysbatch_frames.[[F:[0-9]+]][16];
// CHECK:       [[N:_[0-9]+]] = (long unsigned int) n_{{[0-9]+}}(D);
// CHECK-NEXT:  sysbatch_frames.[[F]][15] = [[N]];
// CHECK-NEXT:  sysbatch_tock_run_template_commands (&sysbatch_frames.[[F]][0], &sysbatch_tock_template.[[T:[0-9]+]]);
// CHECK-NOT:   {{command|yield|sysbatch_tock}} (
// CHECK:       return

// BYTES:      .section .rodata
// BYTES-NEXT: .align 2
// BYTES-NOT:  .section
// BYTES:      sysbatch_tock_template.{{[0-9]+}}:
// Header: 3 frames, stop, 1 patch, COMPACT; the patch is word 8 (frame 1, r2).
// BYTES-NEXT: .byte 3
// BYTES-NEXT: .byte 0
// BYTES-NEXT: .byte 1
// BYTES-NEXT: .byte 2
// BYTES-NEXT: .byte 8
// command(2, 1, 0, 0): class 2 | 2 << 4, r0 and r1 (the zeros dropped)
// BYTES-NEXT: .byte 34
// BYTES-NEXT: .byte 2
// BYTES-NEXT: .byte 1
// command(0x40001, 3, patch, 0): the driver number escaped; the patched r2
// and the 0 after it dropped
// BYTES-NEXT: .byte 34
// BYTES-NEXT: .byte -1
// BYTES-NEXT: .byte 1
// BYTES-NEXT: .byte 0
// BYTES-NEXT: .byte 4
// BYTES-NEXT: .byte 0
// BYTES-NEXT: .byte 3
// yield: wait (class 0 | 1 << 4, r0 = 1)
// BYTES-NEXT: .byte 16
// BYTES-NEXT: .byte 1
// BYTES-NOT:  .byte
