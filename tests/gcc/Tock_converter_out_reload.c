/* Tock: a value a converter wrote into a private local before a series
 * (libtock_alarm_command_read (&now)) and loaded after the series' first
 * call is AVAILABLE: nothing may change the local from the region's first
 * call to the load (its address reaches only converters, never the
 * kernel), so the issue point loads it instead and the command joins:
 *
 *     now = ...converter (command (0, 2), &now)...; if (rc) return
 *     subscribe (0, 0, cb, 0); if (rc) return     <- series issued here
 *     command (0, 6, now, dt)                     <- now loaded again there
 *
 * Refused (arg-computed) when a converter of a call in between is given
 * the local's address, or a store to it stands in between.  GIMPLE dumps
 * of both cross compilers at -O2 (the early look plans it); tests/tock/samples-* run it (the alarm).
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: rm -rf %t && mkdir -p %t/arm %t/rv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -O2 -fchecking -c %s -o /dev/null -fdump-tree-all -dumpdir %t/arm/
 * RUN: cat %t/arm/*.sysbatch %t/arm/*.sysbatch_late | %FileCheck %s
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -O2 -fchecking -c %s -o /dev/null -fdump-tree-all -dumpdir %t/rv/
 * RUN: cat %t/rv/*.sysbatch %t/rv/*.sysbatch_late | %FileCheck %s
 */
#include "tock.h"

void cb(int, int, int, void *);

int set_alarm(uint32_t dt)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)dt));
}
// CHECK-LABEL: function set_alarm block 1:
// CHECK-NEXT:  batch 0: calls 0..1, 2 slots, 0 chains
// CHECK-NEXT:    slot 0: call 0 subscribe(0, 0, a2, 0)
// CHECK-NEXT:    slot 1: call 1 command(0, 6, a2, a3)
// CHECK-LABEL: int set_alarm (uint32_t dt)
// CHECK:       = now;
// CHECK-NEXT:  {{.*}}sysbatch_frames{{.*}} =
// CHECK:       sysbatch_tock_run
// CHECK-NOT:   = now;
// CHECK:       return

int set_alarm_rewritten(uint32_t dt)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)dt));
}
// CHECK-LABEL: function set_alarm_rewritten block 1:
// CHECK-NEXT:  batch 0: calls 0..1, 2 slots, 0 chains
// CHECK-NEXT:    slot 0: call 0 subscribe(0, 0, a2, 0)
// CHECK-NEXT:    slot 1: call 1 command(0, 2, 0, 0)
// CHECK:       refused call 2 (command): arg-computed

int set_alarm_stored(uint32_t dt, uint32_t later)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    now += later;
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)dt));
}
// CHECK-LABEL: function set_alarm_stored block 1:
// CHECK-NEXT:  refused call 0 (subscribe): below-min-batch
// CHECK-NEXT:  refused call 1 (command): arg-computed
