// -Rpass=sysbatch names each batch at its first call's line; -Rpass-missed
// names every candidate left out, with the core's reason.  At every -O level
// (the pass is registered at pipeline start and required).
// REQUIRES: llvm
// RUN: %sbclang -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -O1 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -O2 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -O3 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -Os -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// Flags through -mllvm need the plugin loaded early with -Xclang -load:
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-min-batch=3 \
// RUN:   -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MIN3
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan \
// RUN:   %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAN
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int ids(void)
{
    // CHECK: Remarks_clang.c:[[@LINE+2]]:{{[0-9]+}}: remark: batched 3 calls (getuid, getgid, getpid) into 3 slots with 0 chains [-Rpass=sysbatch]
    // MIN3: Remarks_clang.c:[[@LINE+1]]:{{[0-9]+}}: remark: batched 3 calls
    int a = getuid();
    int b = getgid();
    int c = getpid();
    return a + b + c;
}

int two(void)
{
    // CHECK: Remarks_clang.c:[[@LINE+2]]:{{[0-9]+}}: remark: batched 2 calls (geteuid, getegid) into 2 slots with 0 chains
    // MIN3: Remarks_clang.c:[[@LINE+1]]:{{[0-9]+}}: remark: geteuid not batched: below-min-batch
    int a = geteuid();
    int b = getegid();
    return a + b;
}

int alone(const char *p)
{
    // CHECK: Remarks_clang.c:[[@LINE+1]]:{{[0-9]+}}: remark: access not batched: below-min-batch (too few calls in a row to pay for a batch: barrier: call to puts stands between it and the next call, access) [-Rpass-missed=sysbatch]
    int r = access(p, R_OK);
    puts("between");
    // CHECK: Remarks_clang.c:[[@LINE+1]]:{{[0-9]+}}: remark: access not batched: barrier ({{.*}}: call to puts) [-Rpass-missed=sysbatch]
    return r + access(p, W_OK);
}

// PLAN: function ids block 0:
// PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains
// PLAN: function two block 0:
// PLAN: function alone block 0:
// PLAN-NEXT: refused call 0 (access): below-min-batch
