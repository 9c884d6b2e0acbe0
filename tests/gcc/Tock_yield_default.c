/* A yield closes a Tock series by default: libtock-c's yield() has been
 * the bare trap since June 2025 (before, it ran a task queued with
 * tock_enqueue instead of trapping, which a series frame cannot do).  With
 * -fplugin-arg-sysbatch-no-tock-yield (an older libtock-c) the two commands
 * are a series and the yield stays a call of its own, with the reason.
 * Both cross compilers.
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-no-tock-yield -Os -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=DEFAULT --implicit-check-not=sysbatch:
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-no-tock-yield -O0 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=DEFAULT --implicit-check-not=sysbatch:
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -O0 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=YIELD --implicit-check-not=sysbatch:
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -Os -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=YIELD --implicit-check-not=sysbatch:
 * RUN: %not %sbgcc_arm -ffreestanding -c %s -o /dev/null -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield=1 2>&1 | %FileCheck %s --check-prefix=VALUE
 * VALUE: error: sysbatch: {{.}}tock-yield{{.}} takes no value
 */
#include "tock.h"

void blink_and_wait(void)
{
    command(2, 1, 0, 0);
    // DEFAULT: Tock_yield_default.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (command, command) into 2 slots with 0 chains
    // YIELD: Tock_yield_default.c:[[@LINE-2]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (command, command, yield) into 3 slots with 0 chains
    command(2, 1, 1, 0);
    yield();
    // DEFAULT: Tock_yield_default.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: yield not batched: never-batch (this call is never batched: no-tock-yield: the app's yield() may not be the bare trap (libtock-c before June 2025 ran a task queued with tock_enqueue instead of trapping), which a series frame cannot do)
}
