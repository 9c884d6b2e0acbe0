/* Tock: a value a converter wrote into a private local before a series
 * (libtock_alarm_command_read (&now)) and loaded after the series' first
 * call is AVAILABLE: nothing may change the local from the region's first
 * call to the load (its address reaches only converters, never the
 * kernel), so the issue point loads it again and the command joins:
 *
 *     now = ...converter (command (0, 2), &now)...; if (rc) return
 *     subscribe (0, 0, cb, 0); if (rc) return     <- series issued here
 *     command (0, 6, now, ticks)                  <- now loaded again there
 *
 * clang sinks libtock-c's tick division, (uint64_t)ms * frequency / 1000,
 * below the subscribe; a division by a non-zero constant cannot trap and is
 * recomputed at the issue point, a division by a variable may trap and
 * keeps the command out.  A converter given the local's address in between
 * keeps it out too (arg-computed).
 *
 * Compiled by tests/gcc/Tock_converter_out_reload.test and
 * tests/llvm/Tock_converter_out_reload.test on both ISAs: CHECK lines are
 * the remarks both compilers give; GCC and CLANG lines differ where the
 * compilers' IR does; GIMPLE lines check where GCC loads the local.
 * tests/tock/samples-* run the alarm app built from the same shape.
 */
#include "tock.h"

void cb(int, int, int, void *);

int set_alarm(uint32_t ms, uint32_t frequency)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    uint32_t ticks = (uint32_t)(((uint64_t)ms * frequency) / 1000);
    // CHECK-DAG: tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: {{(optimized: sysbatch|remark)}}: batched 2 calls (subscribe, command) into 2 slots with 0 chains over 2 blocks
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)ticks));
}
// GIMPLE-LABEL: int set_alarm (uint32_t ms, uint32_t frequency)
// GIMPLE:       = now;
// GIMPLE-NEXT:  {{.*}}sysbatch_frames{{.*}} =
// GIMPLE:       sysbatch_tock_run
// GIMPLE-NOT:   = now;
// GIMPLE:       tock_subscribe_return_to_returncode

int set_alarm_rewritten(uint32_t dt)
// GIMPLE-LABEL: int set_alarm_rewritten (uint32_t dt)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    // CHECK-DAG: tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: {{(optimized: sysbatch|remark)}}: batched 2 calls (subscribe, command) into 2 slots with 0 chains over 2 blocks
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    // CHECK-DAG: tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: command not batched: arg-computed
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)dt));
}

int set_alarm_divided(uint32_t ms, uint32_t frequency, uint32_t scale)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    // CHECK-DAG: tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: subscribe not batched: below-min-batch
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    uint32_t ticks = (uint32_t)(((uint64_t)ms * frequency) / scale);
    // CHECK-DAG: tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: command not batched: arg-computed
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)ticks));
}

/* A store to the local between the calls: GCC keeps it in memory and
 * refuses; clang forwards the stored value (now + later) into a register
 * and the command's argument is the converter's output plus an argument. */
int set_alarm_stored(uint32_t dt, uint32_t later)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    // GCC-DAG: tock_converter_out_reload.c:[[@LINE+2]]:{{[0-9]+}}: missed: sysbatch: subscribe not batched: below-min-batch
    // CLANG-DAG: tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 2 calls (subscribe, command) into 2 slots with 0 chains over 2 blocks
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    now += later;
    // GCC-DAG: tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: missed: sysbatch: command not batched: arg-computed
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)dt));
}
