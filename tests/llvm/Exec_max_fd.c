// An inlined `if (fd < 0) return -1; return fd;` is the result itself
// (sb_max_keeps_result): clang 14 leaves it as
// `select (icmp sgt fd, -1), fd, -1`, newer versions as smax; the fstat on
// it chains from open and passes glibc's fd precheck, while max(fd, 0)
// stays refused.  The program is the GCC suite's Exec_max_fd.c, planned by
// clang and run plugged and unplugged, with and without BATCH_EMUL=1 (at
// -O0 nothing is inlined, so nothing batches there).
// REQUIRES: llvm
// RUN: %sbclang -O2 -c %S/../gcc/Exec_max_fd.c -o /dev/null -Rpass=sysbatch -Rpass-missed=sysbatch 2>&1 | %FileCheck %s --check-prefix=OPT
// OPT-DAG: Exec_max_fd.c:28:{{[0-9]+}}: remark: batched 3 calls (open, fstat, close){{.*}}(branchy)
// OPT-DAG: Exec_max_fd.c:54:{{[0-9]+}}: remark: fstat not batched: libc-precheck
// OPT-DAG: Exec_max_fd.c:70:{{[0-9]+}}: remark: batched 2 calls (getpid, close)
// RUN: sh %S/Inputs/exec-compare.sh %S/../gcc/Exec_max_fd.c %t '%clang' '%sbclang' %sbruntime < /dev/null | %FileCheck %s
// CHECK: same: 4 runs
// CHECK: file 12
// CHECK: missing -1009
// CHECK: zopen file 1
// CHECK: zopen missing -1
// CHECK: note in.txt
// CHECK: after issue file 1
// CHECK: note missing.txt
// CHECK: after issue missing -9 errno 9
