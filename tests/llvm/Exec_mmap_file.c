// open, fstat, mmap(NULL, st.st_size, ...), close as one batch with clang:
// the program is the GCC suite's Exec_mmap_file.c (a file, an empty file -
// mmap fails with EINVAL inside the batch -, a missing one, a directory),
// plugged and unplugged, with and without BATCH_EMUL=1.
// REQUIRES: llvm
// RUN: %sbclang -O0 -c %S/../gcc/Exec_mmap_file.c -o /dev/null -Rpass=sysbatch 2>&1 | %FileCheck %s --check-prefix=BATCH
// RUN: %sbclang -O2 -c %S/../gcc/Exec_mmap_file.c -o /dev/null -Rpass=sysbatch 2>&1 | %FileCheck %s --check-prefix=BATCH
// BATCH: Exec_mmap_file.c:32:{{[0-9]+}}: remark: batched 4 calls (open, fstat, mmap, close)
// RUN: %sbclang -O2 -c %S/../gcc/Exec_mmap_file.c -o /dev/null -Rpass-missed=sysbatch 2>&1 | %FileCheck %s --check-prefix=LEFT
// LEFT: Exec_mmap_file.c:36:{{[0-9]+}}: remark: close left out of the batch at line 32: not-reached ({{.*}}: the batch stops when the call before this arm fails: {{.*}})
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %S/../gcc/Exec_mmap_file.c %t '%clang' '%sbclang' %sbruntime | %FileCheck %s
// CHECK: same: 4 runs
// CHECK: data.txt: 1551 size 16 errno 0
// CHECK: empty.txt: -322 size 0 errno 22
// CHECK: missing.txt: -102 size -1 errno 2
// CHECK: dir: -319 size 4096 errno 19
