/* Tock checked chains (on by default, as in the LLVM pass): blocks
 * linked by an exact test of the previous block's last call - command's
 * r.type against 128, the allows' and subscribe's r.success - whose
 * success edge leads to a block only it enters are ONE straight-line run,
 * so the calls become one series: the stop policy stops the kernel at the
 * first Failure variant, exactly where the code takes its failing edge.
 * Any other test ends the run there (`r.type != TOCK_SYSCALL_SUCCESS`
 * also leaves on a Success-u32 while the kernel goes on).  Both cross
 * compilers, -O0 and -O2 (GCC folds `r.type < 128` of Arm's one-byte enum
 * into `(signed char) r.type >= 0`); with no-tock-chains every block is
 * planned alone.
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: rm -rf %t && mkdir -p %t/arm %t/rv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -fplugin-arg-sysbatch-tock-chains -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=REMARK
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=REMARK
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -fplugin-arg-sysbatch-tock-chains -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fdump-tree-all -dumpdir %t/arm/
 * RUN: cat %t/arm/*.sysbatch | %FileCheck %s
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -fplugin-arg-sysbatch-tock-chains -O0 -fchecking -c %s -o /dev/null -fdump-tree-all -dumpdir %t/rv/
 * RUN: cat %t/rv/*.sysbatch | %FileCheck %s
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -fplugin-arg-sysbatch-no-tock-chains -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=OFF
 * RUN: %not %sbgcc_arm -ffreestanding -c %s -o /dev/null -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -fplugin-arg-sysbatch-tock-chains=yes 2>&1 | %FileCheck %s --check-prefix=VALUE
 * VALUE: error: sysbatch: {{.}}tock-chains{{.}} takes no value
 */
#include "tock.h"

static char msg[8];

int checked(uint32_t d, uint32_t n)
{
    allow_ro_return_t a = allow_readonly(d, 1, msg, n);
    // REMARK: Tock_chains.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 4 calls (allow_readonly, subscribe, command, yield) into 4 slots with 0 chains over 4 blocks
    if (!a.success)
        return -1;
    subscribe_return_t s = subscribe(d, 1, 0, 0);
    if (s.success == 0)
        return -2;
    syscall_return_t w = command(d, 1, n, 0);
    if (w.type < TOCK_SYSCALL_SUCCESS)
        return -3;
    yield();
    return 0;
}
// The chain is one region, numbered as its first block.
// CHECK-LABEL: function checked block 0:
// CHECK-NEXT:  batch 0: calls 0..3, 4 slots, 0 chains
// CHECK-NEXT:    slot 0: call 0 allow_readonly(a0, 1, a2, a3)      fail=stop
// CHECK-NEXT:    slot 1: call 1 subscribe(a0, 1, 0, 0)             fail=stop
// CHECK-NEXT:    slot 2: call 2 command(a0, 1, a2, 0)              fail=stop
// CHECK-NEXT:    slot 3: call 3 yield(1)                           fail=stop
// CHECK-NOT:   function checked block
// The series where allow_readonly stood.  The first three calls are
// checked (the code leaves the run when one fails): bits 0..2 of the mask
// sysbatch_tock_run_masked takes (the class words 4, 1, 2 unmarked), so
// the runtime stops exactly where the code leaves; the yield, last, is
// not.  Every later site, in its own block behind its test, reads its
// frame.
// CHECK-LABEL: int checked (
// CHECK:       sysbatch_frames.[[F:[0-9]+]][0] = 4;
// CHECK:       sysbatch_frames.[[F]][5] = 1;
// CHECK:       sysbatch_frames.[[F]][10] = 2;
// CHECK:       sysbatch_frames.[[F]][15] = 0;
// CHECK:       sysbatch_tock_run_masked (&sysbatch_frames.[[F]][0], 4, 7);
// CHECK-NEXT:  a = MEM[{{.*}}&sysbatch_frames.[[F]] + 4B];
// CHECK:       if ({{.*}} != 0)
// CHECK-NOT:   sysbatch_tock
// CHECK:       s = MEM[{{.*}}&sysbatch_frames.[[F]] + 24B];
// CHECK:       if ({{.*}} != 0)
// CHECK-NOT:   sysbatch_tock
// CHECK:       w = MEM[{{.*}}&sysbatch_frames.[[F]] + 44B];
// CHECK:       if (
// CHECK-NOT:   sysbatch_tock
// CHECK-NOT:   {{allow_readonly|subscribe|command|yield|sysbatch_tock}} (
// CHECK:       return
// OFF-LABEL:   function checked block 0:
// OFF-NEXT:    refused call 0 (allow_readonly): below-min-batch

int nested(int led)
{
    syscall_return_t a = command(2, 3, 0, 0);
    // REMARK: Tock_chains.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (command, command, command) into 3 slots with 0 chains over 3 blocks
    if (a.type > 127) {
        syscall_return_t b = command(2, 3, led, 0);
        if (b.type >= 128) {
            command(2, 3, 1, 0);
            return 0;
        }
        return 1;
    }
    return 2;
}
// CHECK-LABEL: function nested block 0:
// CHECK-NEXT:  batch 0: calls 0..2, 3 slots, 0 chains

int positive(void)
{
    subscribe_return_t s = subscribe(0x90, 0, 0, 0);
    // REMARK: Tock_chains.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (subscribe, command) into 2 slots with 0 chains over 2 blocks
    if (s.success) {
        command(0x90, 2, 0, 0);
        return 0;
    }
    return 1;
}

int inexact(void)
{
    // The run ends at the branch (reported while the chain is formed),
    // the command is left alone.
    // REMARK: Tock_chains.c:[[@LINE+3]]:{{[0-9]+}}: missed: sysbatch: branch ends the run: the branch does not test the call's success exactly (command: r.type < 128 or >= 128; allow, subscribe: r.success)
    // REMARK: Tock_chains.c:[[@LINE+1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    syscall_return_t n = command(2, 0, 0, 0);
    if (n.type != TOCK_SYSCALL_SUCCESS) {
        command(2, 3, 2, 0);
        command(2, 3, 2, 0);
        return 1;
    }
    return 0;
}
// CHECK-LABEL: function inexact block 0:
// CHECK-NEXT:  refused call 0 (command): below-min-batch
// CHECK-LABEL: function inexact block 1:
// CHECK-NEXT:  batch 0: calls 0..1, 2 slots, 0 chains

/* The success block has a second predecessor: it does not join. */
int merged(int flag)
{
    syscall_return_t a = command(2, 3, 0, 0);
    if (a.type >= 128)
        goto more;
    if (flag)
        goto more;
    return 1;
more:
    command(2, 3, 1, 0);
    return 0;
}
// CHECK-LABEL: function merged block 0:
// CHECK-NEXT:  refused call 0 (command): below-min-batch
// CHECK-LABEL: function merged block 1:
// CHECK-NEXT:  refused call 0 (command): below-min-batch
