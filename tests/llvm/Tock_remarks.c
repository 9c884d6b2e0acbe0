// clang with -mllvm -sysbatch-target=tock, for Cortex-M3 and RV32, at -O0
// and -Os: the batch remark names the series' calls at its first call;
// every candidate left out gets a missed remark with the core's reason -
// the store to shared memory (code-conflict), the unknown call (barrier),
// yield_no_wait (never-batch), the command after a yield (series-ended) and
// a result feeding a later call (no-chaining).
// REQUIRES: llvm
// RUN: %tock_sbclang --target=thumbv7m-none-eabi -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %tock_sbclang --target=thumbv7m-none-eabi -Os -mllvm -sysbatch-placement=early -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %tock_sbclang --target=riscv32-unknown-elf -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %tock_sbclang --target=riscv32-unknown-elf -Os -mllvm -sysbatch-placement=early -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// The plan, as the GCC plugin prints it too:
// RUN: %tock_sbclang --target=riscv32-unknown-elf -O0 -c -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAN
#include <tock.h>

static char buf[16];
int counter;
void helper(void);
static void cb(int a, int b, int c, void *d) { (void)a; (void)b; (void)c; (void)d; counter++; }

int setup(void)
{
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 4 calls (allow_readonly, subscribe, command, yield) into 4 slots with 0 chains
    allow_ro_return_t a = allow_readonly(1, 1, buf, sizeof buf);
    subscribe_return_t s = subscribe(1, 1, cb, NULL);
    syscall_return_t c = command(1, 1, sizeof buf, 0);
    yield();
    return a.success + s.success + (int)c.type;
}
// PLAN:      function setup block 0:
// PLAN-NEXT: batch 0: calls 0..3, 4 slots, 0 chains
// PLAN-NEXT:   slot 0: call 0 allow_readonly(1, 1, a2, 16)       fail=stop
// PLAN-NEXT:   slot 1: call 1 subscribe(1, 1, a2, 0)             fail=stop
// PLAN-NEXT:   slot 2: call 2 command(1, 1, 16, 0)               fail=stop
// PLAN-NEXT:   slot 3: call 3 yield(1)                           fail=stop

int conflict(void)
{
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: below-min-batch
    command(2, 1, 0, 0);
    counter = 5;
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
    command(2, 1, 1, 0);
    return 0;
}

int barrier(void)
{
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: below-min-batch
    command(2, 1, 0, 0);
    helper();
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: barrier ({{.*}}: call to helper)
    command(2, 1, 1, 0);
    return 0;
}

int no_wait(void)
{
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: below-min-batch
    command(2, 1, 0, 0);
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: yield_no_wait not batched: never-batch
    int ran = yield_no_wait();
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: below-min-batch
    command(2, 1, 1, 0);
    return ran;
}

int after_yield(void)
{
    // CHECK: Tock_remarks.c:[[@LINE+5]]:{{[0-9]+}}: remark: command not in the series before it: series-ended
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 2 calls (command, yield) into 2 slots with 0 chains
    command(1, 1, 4, 0);
    yield();
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 2 calls (command, command) into 2 slots with 0 chains
    command(2, 1, 1, 0);
    command(2, 1, 2, 0);
    return 0;
}

int chained(void)
{
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: below-min-batch
    syscall_return_t count = command(2, 0, 0, 0);
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: command not batched: no-chaining
    command(2, 1, (int)count.data[0], 0);
    return 0;
}

int memops(void)
{
    // CHECK: Tock_remarks.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 2 calls (memop, memop) into 2 slots with 0 chains
    memop_return_t a = memop(10, 0);
    memop_return_t b = memop(11, 0);
    return (int)(a.data + b.data);
}
// CHECK-NOT: remark
