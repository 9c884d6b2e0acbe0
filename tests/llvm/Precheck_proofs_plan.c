// The plans behind tests/e2e/Precheck_proofs.test, from clang: the call
// that proves a later fd (the same fd, fd0-fails-negative) stops the batch
// when it fails - fchmod in xz's io_copy_attrs shape (branchy) and in a
// straight-line run - and utimensat's path passes when known non-NULL
// (rsync's do_utimensat_at: bname = slash + 1 after a NULL check).  The
// GCC suite's Precheck_proofs_plan.c checks the same plans.
// REQUIRES: llvm
// RUN: %sbclang -O0 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %S/../e2e/Inputs/precheck_proofs.c -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %S/../e2e/Inputs/precheck_proofs.c -o /dev/null 2>&1 | %FileCheck %s
// CHECK:      batch 0: calls 0..1, 2 slots, 0 chains, branchy
// CHECK-NEXT:   slot 0: call 0 fchmod(a0, a1)                     fail=stop
// CHECK-NEXT:   slot 1: call 1 utimensat(a0, 0, a1, 0)
// CHECK:      function attrs_in_a_row block 0:
// CHECK-NEXT: batch 0: calls 0..2, 3 slots, 0 chains
// CHECK-NEXT:   slot 0: call 0 fchown(a0, -1, -1)
// CHECK-NEXT:   slot 1: call 1 fchmod(a0, 416)                    fail=stop
// CHECK-NEXT:   slot 2: call 2 utimensat(a0, 0, a1, 0)
// CHECK:      slot 3: call 1 utimensat(ret0, a1, a2, 256)
