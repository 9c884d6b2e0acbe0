// Calls hidden in small wrappers batch where the wrappers are inlined: the
// program is the GCC suite's Inline_wrappers.c.  At -O2 the late look
// (placement=both, the default) batches main's close with the open, fstat
// and close of the inlined size_of/xopen/xfstat/xclose; the early look
// alone (placement=early) and -O0 see each of those calls alone.  Then
// plugged and unplugged runs, with and without BATCH_EMUL=1, compared.
// REQUIRES: llvm
// RUN: %sbclang -O2 -c %S/../gcc/Inline_wrappers.c -o /dev/null -Rpass=sysbatch -Rpass-missed=sysbatch 2>&1 | %FileCheck %s --check-prefix=LATE
// LATE-DAG: Inline_wrappers.c:103:{{[0-9]+}}: remark: batched 4 calls (close, open, fstat, close) into 6 slots with 2 chains over 3 blocks (branchy)
// LATE-DAG: Inline_wrappers.c:55:{{[0-9]+}}: remark: batched loop call close: 16 iterations per batch
// LATE-NOT: sysbatch_run not batched
// RUN: %sbclang -O2 -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-placement=early -c %S/../gcc/Inline_wrappers.c -o /dev/null -Rpass=sysbatch -Rpass-missed=sysbatch 2>&1 | %FileCheck %s --check-prefix=EARLY
// RUN: %sbclang -O0 -c %S/../gcc/Inline_wrappers.c -o /dev/null -Rpass=sysbatch -Rpass-missed=sysbatch 2>&1 | %FileCheck %s --check-prefix=EARLY
// EARLY-DAG: Inline_wrappers.c:103:{{[0-9]+}}: remark: close not batched: below-min-batch
// EARLY-DAG: Inline_wrappers.c:36:{{[0-9]+}}: remark: open not batched: below-min-batch
// EARLY-NOT: batched 4 calls
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %S/../gcc/Inline_wrappers.c %t '%clang' '%sbclang' %sbruntime | %FileCheck %s
// CHECK: same: 4 runs
// CHECK: size 9
// CHECK: file 9
// CHECK: missing -1002
// CHECK: close failures 2
