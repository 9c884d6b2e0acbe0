// glibc's negative-fd precheck passes for an fd checked before the call,
// also through a phi (fd = name ? open(name, O_RDONLY) : 0; if (fd < 0)
// return): the program is the GCC suite's Exec_checked_fd.c, planned by
// clang and run plugged and unplugged, with and without BATCH_EMUL=1.
// REQUIRES: llvm
// RUN: %sbclang -O0 -c %S/../gcc/Exec_checked_fd.c -o /dev/null -Rpass=sysbatch -Rpass-missed=sysbatch 2>&1 | %FileCheck %s --check-prefix=OPT
// RUN: %sbclang -O2 -c %S/../gcc/Exec_checked_fd.c -o /dev/null -Rpass=sysbatch -Rpass-missed=sysbatch 2>&1 | %FileCheck %s --check-prefix=OPT
// OPT-DAG: Exec_checked_fd.c:33:{{[0-9]+}}: remark: batched 3 calls (fstat, read, close){{.*}}(branchy)
// OPT-DAG: Exec_checked_fd.c:43:{{[0-9]+}}: remark: fstat not batched: libc-precheck ({{.*}}the fd is not a non-negative constant, chained from this batch, checked by a branch before the call or taken by an earlier call of the batch that fails on a negative fd)
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %S/../gcc/Exec_checked_fd.c %t '%clang' '%sbclang' %sbruntime < /dev/null | %FileCheck %s
// CHECK: same: 4 runs
// CHECK: file 1212
// CHECK: missing -1002
// CHECK: stdin 1
// CHECK: unchecked bad -92
