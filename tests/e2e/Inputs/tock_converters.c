/* libtock-c's converters (tock_*_return_to_returncode, core/tock.c's
 * table) are known functions of their argument: between two series calls
 * they are code (their pointer arguments under the Tock memory rule; an
 * address passed only to a converter does not escape), and a test of an
 * allow's or subscribe's converter result against RETURNCODE_SUCCESS is an
 * exact stop test that chains the calls; a command converter's test is
 * never exact (EBADRVAL on both sides of the stop condition) and ends the
 * run with that reason, as does an inexact test of an allow converter.
 *
 * Compiled by tests/gcc/Tock_converters.test and
 * tests/llvm/Tock_converters.test: both compilers must give the remarks
 * below on both ISAs.
 */
#include "tock.h"

static char buf[16];
static void cb(int a, int b, int c, void *d) { (void)a; (void)b; (void)c; (void)d; }

/* libtock_console_write after inlining: each result through its converter,
 * tested against RETURNCODE_SUCCESS. */
int console_write(uint32_t len)
{
    subscribe_return_t s = subscribe(1, 1, cb, 0);
    // CHECK-DAG: tock_converters.c:[[@LINE-1]]:{{[0-9]+}}: {{(optimized: sysbatch|remark)}}: batched 3 calls (subscribe, allow_readonly, command) into 3 slots with 0 chains over 3 blocks
    int rc = tock_subscribe_return_to_returncode(s);
    if (rc != RETURNCODE_SUCCESS)
        return rc;
    allow_ro_return_t a = allow_readonly(1, 1, buf, len);
    rc = tock_allow_ro_return_to_returncode(a);
    if (rc != RETURNCODE_SUCCESS)
        return rc;
    syscall_return_t c = command(1, 1, (int)len, 0);
    return tock_command_return_novalue_to_returncode(c);
}

/* A command converter between two calls of one block is code. */
int straight(void)
{
    syscall_return_t c = command(2, 1, 0, 0);
    int rc = tock_command_return_novalue_to_returncode(c);
    // CHECK-DAG: tock_converters.c:[[@LINE-2]]:{{[0-9]+}}: {{(optimized: sysbatch|remark)}}: batched 2 calls (command, command) into 2 slots
    syscall_return_t d = command(2, 2, 0, 0);
    return rc + tock_command_return_novalue_to_returncode(d) + tock_status_to_returncode(TOCK_STATUSCODE_BUSY);
}

/* A command converter's result is no exact test: the run ends there. */
int novalue_test(void)
{
    syscall_return_t c = command(2, 1, 1, 0);
    int rc = tock_command_return_novalue_to_returncode(c);
    if (rc != RETURNCODE_SUCCESS)
    // CHECK-DAG: tock_converters.c:[[@LINE-1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: branch ends the run: tock_command_return_novalue_to_returncode returns RETURNCODE_EBADRVAL both for a Failure with values (the series stops) and for a Success variant other than 128 (it goes on), so no test of its result is the series' stop condition
        return rc;
    syscall_return_t d = command(2, 3, 1, 0);
    return tock_command_return_novalue_to_returncode(d);
}

/* rc < -3 is not rc's success test. */
int inexact_allow(uint32_t len)
{
    allow_rw_return_t a = allow_readwrite(1, 1, buf, len);
    int rc = tock_allow_rw_return_to_returncode(a);
    if (rc < RETURNCODE_EALREADY)
    // CHECK-DAG: tock_converters.c:[[@LINE-1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: branch ends the run: the branch does not test the converter's result exactly
        return rc;
    syscall_return_t c = command(1, 2, (int)len, 0);
    return tock_command_return_novalue_to_returncode(c);
}

/* A converter storing through its pointer into a private local touches
 * memory only this function sees: the series forms. */
uint32_t value_out(void)
{
    uint32_t v = 0;
    syscall_return_t c = command(2, 4, 0, 0);
    // CHECK-DAG: tock_converters.c:[[@LINE-1]]:{{[0-9]+}}: {{(optimized: sysbatch|remark)}}: batched 2 calls (command, command) into 2 slots
    int rc = tock_command_return_u32_to_returncode(c, &v);
    syscall_return_t d = command(2, 1, 0, 0);
    return v + (uint32_t)rc + d.type;
}

/* Into a global, which an upcall may read: the run ends there. */
uint32_t seen;
uint32_t value_global(void)
{
    syscall_return_t c = command(2, 4, 0, 0);
    int rc = tock_command_return_u32_to_returncode(c, &seen);
    syscall_return_t d = command(2, 1, 0, 0);
    // CHECK-DAG: tock_converters.c:[[@LINE-1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: command not batched: code-conflict ({{.*}}a call to tock_command_return_u32_to_returncode that may touch memory shared with the kernel or an upcall)
    return (uint32_t)rc + d.type;
}
