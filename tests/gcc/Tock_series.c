/* Tock: a straight run of libtock-c raw calls becomes one series call
 * (target=tock, both cross compilers, -O0 and -O2).  At the first call:
 * five frame words per call ({class, r0..r3}: memop's r2 and r3 and
 * yield's r1..r3 are 0, yield's r0 is 1 = wait), one
 * sysbatch_tock_run_masked call whose third argument, the mask of checked
 * frames, is 0: no call is tested.  Call
 * site k becomes a read of frame k's return words (the runtime left the
 * call's libtock-c struct there); no branch, no runtime call, and the
 * original call is gone.  An unused result (leds_on) and yield read
 * nothing; yield is the last frame.  A series of commands and yields only
 * (leds_on) calls sysbatch_tock_run_commands instead: their results need
 * no conversion.
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: rm -rf %t && mkdir -p %t/arm0 %t/arm2 %t/rv0 %t/rvs
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O0 -fchecking -c %s -o %t/arm0.o -fdump-tree-all -dumpdir %t/arm0/
 * RUN: cat %t/arm0/*.sysbatch | %FileCheck %s
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O2 -fchecking -c %s -o %t/arm2.o -fdump-tree-all -dumpdir %t/arm2/
 * RUN: cat %t/arm2/*.sysbatch | %FileCheck %s
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O0 -fchecking -c %s -o %t/rv0.o -fdump-tree-all -dumpdir %t/rv0/
 * RUN: cat %t/rv0/*.sysbatch | %FileCheck %s
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -Os -fchecking -c %s -o %t/rvs.o -fdump-tree-all -dumpdir %t/rvs/
 * RUN: cat %t/rvs/*.sysbatch | %FileCheck %s
 * The objects call the runtime, not the calls the series made (nm sorts
 * by name: any libtock-c call left would sit before or between these).
 * RUN: arm-none-eabi-nm %t/arm2.o | %FileCheck %s --check-prefix=SYMS
 * RUN: riscv64-unknown-elf-nm %t/rvs.o | %FileCheck %s --check-prefix=SYMS
 * SYMS-NOT: {{ U }}
 * SYMS: U sysbatch_tock_run_commands
 * SYMS-NEXT: U sysbatch_tock_run_masked
 * SYMS-NOT: {{ U }}
 */
#include "tock.h"

static int done_count;

static void done(int n, int unused1, int unused2, void *ud)
{
    (void)n;
    (void)unused1;
    (void)unused2;
    (void)ud;
    done_count++;
}

int console_write(const char *buf, uint32_t len)
{
    allow_ro_return_t a = allow_readonly(1, 1, buf, len);
    subscribe_return_t s = subscribe(1, 1, done, (void *)0);
    syscall_return_t c = command(1, 1, (int)len, 0);
    yield();
    return a.success + s.success + (int)c.type;
}
// CHECK-LABEL: function console_write block 0:
// CHECK-NEXT:  batch 0: calls 0..3, 4 slots, 0 chains
// CHECK-NEXT:    slot 0: call 0 allow_readonly(1, 1, a2, a3)       fail=stop
// CHECK-NEXT:    slot 1: call 1 subscribe(1, 1, a2, 0)             fail=stop
// CHECK-NEXT:    slot 2: call 2 command(1, 1, a2, 0)               fail=stop
// CHECK-NEXT:    slot 3: call 3 yield(1)                           fail=stop
// CHECK-LABEL: int console_write (
// CHECK:       sysbatch_frames.[[F:[0-9]+]][20];
// The frames, filled where allow_readonly stood:
// CHECK:       [[BUF:_[0-9]+]] = ({{.*}}unsigned int) buf_{{[0-9]+}}(D);
// CHECK-NEXT:  [[CB:_[0-9]+]] = ({{.*}}unsigned int) done;
// CHECK-NEXT:  sysbatch_frames.[[F]][0] = 4;
// CHECK-NEXT:  sysbatch_frames.[[F]][1] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][2] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][3] = [[BUF]];
// CHECK-NEXT:  sysbatch_frames.[[F]][4] = [[LEN:len_[0-9]+\(D\)]];
// CHECK-NEXT:  sysbatch_frames.[[F]][5] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][6] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][7] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][8] = [[CB]];
// CHECK-NEXT:  sysbatch_frames.[[F]][9] = 0;
// The (int) len conversion GCC placed before command changes no bit.
// CHECK-NEXT:  sysbatch_frames.[[F]][10] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][11] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][12] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][13] = [[LEN]];
// CHECK-NEXT:  sysbatch_frames.[[F]][14] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][15] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][16] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][17] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][18] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][19] = 0;
// CHECK-NEXT:  sysbatch_tock_run_masked (&sysbatch_frames.[[F]][0], 4, 0);
// CHECK-NEXT:  a = MEM[{{.*}}&sysbatch_frames.[[F]] + 4B];
// CHECK-NEXT:  s = MEM[{{.*}}&sysbatch_frames.[[F]] + 24B];
// The code between the calls stays where it was.
// CHECK-NEXT:  len.{{[0-9]+}}_{{[0-9]+}} = (int) [[LEN]];
// CHECK-NEXT:  c = MEM[{{.*}}&sysbatch_frames.[[F]] + 44B];
// CHECK-NOT:   {{allow_readonly|subscribe|command|yield|sysbatch_tock| if }}
// CHECK:       return

void leds_on(void)
{
    command(2, 1, 0, 0);
    command(2, 1, 1, 0);
}
// CHECK-LABEL: function leds_on block 0:
// CHECK-NEXT:  batch 0: calls 0..1, 2 slots, 0 chains
// CHECK-LABEL: void leds_on ()
// CHECK:       sysbatch_frames.[[F:[0-9]+]][0] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][1] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][2] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][3] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][4] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][5] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][6] = 2;
// CHECK-NEXT:  sysbatch_frames.[[F]][7] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][8] = 1;
// CHECK-NEXT:  sysbatch_frames.[[F]][9] = 0;
// CHECK-NEXT:  sysbatch_tock_run_commands (&sysbatch_frames.[[F]][0], 2, 0);
// CHECK-NOT:   {{command|sysbatch_tock| if }}
// CHECK:       return;

uint32_t brk_hint(void)
{
    memop_return_t a = memop(10, 0);
    memop_return_t b = memop(11, 0);
    return a.data + b.data;
}
// CHECK-LABEL: function brk_hint block 0:
// CHECK-NEXT:  batch 0: calls 0..1, 2 slots, 0 chains
// CHECK-NEXT:    slot 0: call 0 memop(10, 0)                       fail=stop
// CHECK-NEXT:    slot 1: call 1 memop(11, 0)                       fail=stop
// CHECK-LABEL: brk_hint ()
// CHECK:       sysbatch_frames.[[F:[0-9]+]][0] = 5;
// CHECK-NEXT:  sysbatch_frames.[[F]][1] = 10;
// CHECK-NEXT:  sysbatch_frames.[[F]][2] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][3] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][4] = 0;
// CHECK-NEXT:  sysbatch_frames.[[F]][5] = 5;
// CHECK-NEXT:  sysbatch_frames.[[F]][6] = 11;
// CHECK:       sysbatch_tock_run_masked (&sysbatch_frames.[[F]][0], 2, 0);
// CHECK-NEXT:  a = MEM[{{.*}}&sysbatch_frames.[[F]] + 4B];
// CHECK-NEXT:  b = MEM[{{.*}}&sysbatch_frames.[[F]] + 24B];
// CHECK-NOT:   memop
// CHECK:       return
