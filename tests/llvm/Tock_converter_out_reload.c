// clang, target=tock: a private stack slot a converter wrote before the
// series (libtock_alarm_command_read (&now)) and nothing writes from the
// series' first call on is AVAILABLE - the issue point loads it - and so is
// a division by a constant that cannot trap (clang sinks libtock-c's alarm
// ticks, (uint64_t)ms * frequency / 1000, below the subscribe): the
// subscribe and the set command form one series.  A converter writing the
// slot in between keeps the command out (arg-computed), and so does a
// division by a variable after the subscribe (it may trap).  (A store to
// the slot in between clang forwards at -O2; the GCC test has one.)  GCC plans the same
// (tests/gcc/Tock_converter_out_reload.c); tests/tock/samples-* run it.
// REQUIRES: llvm
// RUN: %tock_sbclang --target=thumbv7m-none-eabi -O2 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %tock_sbclang --target=riscv32-unknown-elf -O2 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
#include <tock.h>

void cb(int, int, int, void *);

int set_alarm(uint32_t ms, uint32_t frequency)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    uint32_t ticks = (uint32_t)(((uint64_t)ms * frequency) / 1000);
    // CHECK: Tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 2 calls (subscribe, command)
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)ticks));
}

int set_alarm_rewritten(uint32_t dt)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    // CHECK: Tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 2 calls (subscribe, command)
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    // CHECK: Tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: arg-computed
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)dt));
}

int set_alarm_divided(uint32_t ms, uint32_t frequency, uint32_t scale)
{
    uint32_t now;
    int rc = tock_command_return_u32_to_returncode(command(0, 2, 0, 0), &now);
    if (rc != 0)
        return rc;
    // CHECK: Tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: remark: subscribe not batched
    rc = tock_subscribe_return_to_returncode(subscribe(0, 0, cb, 0));
    if (rc != 0)
        return rc;
    uint32_t ticks = (uint32_t)(((uint64_t)ms * frequency) / scale);
    // CHECK: Tock_converter_out_reload.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: arg-computed
    return tock_command_return_novalue_to_returncode(command(0, 6, (int)now, (int)ticks));
}
