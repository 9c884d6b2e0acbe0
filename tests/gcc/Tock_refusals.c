/* Tock: every reason a libtock-c call stays out of a series, as opt-info
 * at the call (both cross compilers, -O0 and -Os), and the plan.  The
 * memory rule: code between two calls that touches memory other than the
 * function's private locals - a global, a buffer allowed to the kernel, a
 * result stored straight to a global - conflicts with every later call
 * (the kernel may use an allowed buffer at any call, and yield runs
 * upcalls); private locals, the calls' own result structs included, do
 * not.  An unknown call is a barrier, yield_no_wait is never batched, a
 * yield ends its series, and a word of one call's result feeding a later
 * call cannot be handed on inside a series.
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --implicit-check-not=sysbatch:
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -Os -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --implicit-check-not=sysbatch:
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --implicit-check-not=sysbatch:
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -Os -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --implicit-check-not=sysbatch:
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#include "tock.h"

int counter;
syscall_return_t last_result;
void helper(void);

int global_store(void)
{
    command(2, 1, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    counter = 5;
    command(2, 1, 1, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
    return 0;
}
// PLAN-LABEL: function global_store block 0:
// PLAN-NEXT:  refused call 0 (command): below-min-batch: too few calls in a row to pay for a batch
// PLAN-NEXT:  refused call 1 (command): code-conflict: code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall

int global_load(void)
{
    command(2, 1, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    int seen = counter; /* an upcall or the kernel may have changed it */
    command(2, 1, 1, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: code-conflict (code between the calls may not be moved across this call: a load that may touch memory shared with the kernel or an upcall)
    return seen;
}

int allowed_buffer(void)
{
    char buf[4] = "abc";
    allow_readonly(1, 1, buf, 4);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: allow_readonly not batched: below-min-batch
    buf[0] = 'x'; /* the kernel reads it at the command */
    command(1, 1, 4, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
    return 0;
}

int result_to_global(void)
{
    last_result = command(2, 1, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    command(1, 1, 4, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
    return 0;
}

int private_locals(void)
{
    int scratch[2];
    syscall_return_t a = command(2, 1, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (command, command) into 2 slots with 0 chains
    scratch[0] = (int)a.type; /* the result struct and a local: private */
    scratch[1] = 1;
    syscall_return_t b = command(2, 1, 1, 0);
    return scratch[0] + scratch[1] + (int)b.type;
}

int barrier(void)
{
    command(2, 1, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    helper();
    command(2, 1, 1, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: barrier (code between the calls may touch anything (unknown call, volatile or atomic access): call to helper)
    return 0;
}

int no_wait(void)
{
    command(2, 1, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    int ran = yield_no_wait();
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: yield_no_wait not batched: never-batch (this call is never batched: {{.*}})
    command(2, 1, 1, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    return ran;
}

int after_yield(void)
{
    command(1, 1, 4, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (command, yield) into 2 slots with 0 chains
    yield();
    command(2, 1, 1, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not in the series before it: series-ended (the batch ended at a yield, which may only be the last call of a Tock series)
    // CHECK-DAG: Tock_refusals.c:[[@LINE-2]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (command, command) into 2 slots with 0 chains
    command(2, 1, 2, 0);
    return 0;
}
// PLAN-LABEL: function after_yield block 0:
// PLAN-NEXT:  batch 0: calls 0..1, 2 slots, 0 chains
// PLAN-NEXT:    slot 0: call 0 command(1, 1, 4, 0)                fail=stop
// PLAN-NEXT:    slot 1: call 1 yield(1)                           fail=stop
// PLAN-NEXT:    ended before call 2 (command): series-ended
// PLAN-NEXT:  batch 1: calls 2..3, 2 slots, 0 chains

int chained(void)
{
    syscall_return_t count = command(2, 0, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    command(2, 1, (int)count.data[0], 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: no-chaining (an argument is the result of an earlier call in the batch and this target cannot chain results)
    return 0;
}
// PLAN-LABEL: function chained block 0:
// PLAN-NEXT:  refused call 0 (command): below-min-batch: too few calls in a row to pay for a batch
// PLAN-NEXT:  refused call 1 (command): no-chaining: an argument is the result of an earlier call in the batch and this target cannot chain results

/* A word of an earlier series' result is no chain: it is loaded again
 * where the next series is issued. */
int from_earlier_series(void)
{
    syscall_return_t count = command(2, 0, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: below-min-batch
    helper();
    command(2, 1, 0, 0);
    // CHECK-DAG: Tock_refusals.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (command, command) into 2 slots with 0 chains
    syscall_return_t r = command(2, 1, (int)count.data[0], 0);
    return (int)r.type;
}
// PLAN-LABEL: function from_earlier_series block 0:
// PLAN-NEXT:  refused call 0 (command): below-min-batch: too few calls in a row to pay for a batch
// PLAN-NEXT:  batch 0: calls 1..2, 2 slots, 0 chains
// PLAN-NEXT:    slot 0: call 1 command(2, 1, 0, 0)                fail=stop
// PLAN-NEXT:    slot 1: call 2 command(2, 1, a2, 0)               fail=stop
