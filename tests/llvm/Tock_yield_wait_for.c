// Yield-WaitFor (libtock-c's yield_wait_for, yield type 2) closes a Tock
// series as its last frame, like yield: it blocks until its upcall
// arrives, which the series call allows only at its end.  A call after it
// starts a new run (series-ended).  Its 12-byte result (an sret struct on
// both ISAs) is read from its frame: the call is gone, and the result
// slot is filled from the frame's words 1-3 (tests/tock/plugged-*.test
// run that under qemu).  Unlike yield it joins under no-tock-yield too:
// it was never anything but the bare trap.  Cortex-M3 and RV32, -O0 and
// -Os.
// REQUIRES: llvm
// RUN: %tock_sbclang --target=thumbv7m-none-eabi -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %tock_sbclang --target=riscv32-unknown-elf -Os -mllvm -sysbatch-placement=early -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %tock_sbclang --target=riscv32-unknown-elf -O0 -mllvm -sysbatch-no-tock-yield -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %tock_sbclang --target=riscv32-unknown-elf -O0 -c -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAN
// RUN: %tock_sbclang --target=thumbv7m-none-eabi -O0 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
#include <tock.h>

static const char msg[] = "hi";

uint32_t write_and_wait(void)
{
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 3 calls (allow_readonly, command, yield_wait_for) into 3 slots with 0 chains
    allow_readonly(1, 1, msg, 2);
    command(1, 1, 2, 0);
    yield_waitfor_return_t r = yield_wait_for(1, 1);
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE+2]]:{{[0-9]+}}: remark: command not in the series before it: series-ended (the batch ended at a yield, which may only be the last call of a Tock series)
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: below-min-batch
    command(2, 1, 0, 0);
    return r.data0 + r.data1;
}
// PLAN-LABEL: function write_and_wait block 0:
// PLAN:        slot 2: call 2 yield_wait_for(2, 1, 1)
// IR-LABEL: define{{.*}} i32 @write_and_wait()
// IR-NOT:   call {{.*}}@yield_wait_for
// IR:       call void @sysbatch_tock_run
// IR-NOT:   call {{.*}}@yield_wait_for
// IR:       ret i32

void wait_unused(void)
{
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 2 calls (command, yield_wait_for) into 2 slots with 0 chains
    command(0x60000, 1, 0, 0);
    yield_wait_for(0x60000, 0);
}
