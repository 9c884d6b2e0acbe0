/* Yield-WaitFor (libtock-c's yield_wait_for, yield type 2) closes a Tock
 * series as its last frame, like yield: it blocks until its upcall
 * arrives, which the series call allows only at its end.  A call after it
 * starts a new run (series-ended).  Its 12-byte result is read from its
 * frame (tests/tock/plugged-*.test run that under qemu); an unused result
 * reads nothing.  Unlike yield it joins under no-tock-yield too: it was
 * never anything but the bare trap.  Both cross compilers, -O0 and -Os.
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -Os -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --implicit-check-not=sysbatch:
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -O0 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --implicit-check-not=sysbatch:
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-no-tock-yield -Os -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --implicit-check-not=sysbatch:
 * The series' last frame is {0, 2, driver, subscribe, 0} and its result
 * the frame's words 1-3 (the plan both front ends print):
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -O0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#include "tock.h"

static const char msg[] = "hi";

uint32_t write_and_wait(void)
{
    allow_readonly(1, 1, msg, 2);
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (allow_readonly, command, yield_wait_for) into 3 slots with 0 chains
    command(1, 1, 2, 0);
    yield_waitfor_return_t r = yield_wait_for(1, 1);
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE+2]]:{{[0-9]+}}: missed: sysbatch: command not in the series before it: series-ended (the batch ended at a yield, which may only be the last call of a Tock series)
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE+1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    command(2, 1, 0, 0);
    return r.data0 + r.data1;
}
// PLAN-LABEL: function write_and_wait block 0:
// PLAN:        slot 2: call 2 yield_wait_for(2, 1, 1)

void wait_unused(void)
{
    command(0x60000, 1, 0, 0);
    // CHECK-DAG: Tock_yield_wait_for.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (command, yield_wait_for) into 2 slots with 0 chains
    yield_wait_for(0x60000, 0);
}
