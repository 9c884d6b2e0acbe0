// libc code between batched calls (core/libc.c), run plugged and unplugged
// with and without BATCH_EMUL=1: the program is the GCC suite's
// Exec_libc_code.c (strlen, strtol setting ERANGE between two calls' own
// errno values, snprintf, memcmp, isdigit, a strcpy that must stay before
// the read that overwrites its buffer; input present and missing).
// REQUIRES: llvm
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %S/../gcc/Exec_libc_code.c %t '%clang' '%sbclang' %sbruntime | %FileCheck %s
// CHECK: same: 4 runs
// CHECK: in.txt: open 1/0 strtol 123/0/3 read 17/0 close 0/0
// CHECK: in.txt: open 1/0 strtol 9223372036854775807/34/23 read 17/34 close 0/34
// CHECK: missing.txt: open 0/2 strtol -7/2/2 read -1/9 close -1/9
// CHECK: overwrite 4 42 ire-read
// CHECK: overwrite -1 before-read
