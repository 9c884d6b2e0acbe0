/* The plans behind tests/e2e/Precheck_proofs.test: the call that proves a
 * later fd (the same fd, fd0-fails-negative) stops the batch when it fails
 * - fchmod in xz's io_copy_attrs shape (branchy) and in a straight-line
 * run - and utimensat's path passes when known non-NULL (rsync's
 * do_utimensat_at: bname = slash + 1 after a NULL check).
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fplugin-arg-sysbatch-print-plan -c %S/../e2e/Inputs/precheck_proofs.c -o /dev/null 2> %t.O0
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-print-plan -c %S/../e2e/Inputs/precheck_proofs.c -o /dev/null 2> %t.O2
 * RUN: for o in O0 O2; do %FileCheck %s --check-prefix=COPY < %t.$o && %FileCheck %s --check-prefix=ROW < %t.$o && %FileCheck %s --check-prefix=DIR < %t.$o || exit 1; done
 * COPY:      function copy_attrs block 1:
 * COPY-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
 * COPY-NEXT:   slot 0: call 0 fchmod(a0, a1)                     fail=stop
 * COPY-NEXT:   slot 1: call 1 utimensat(a0, 0, a1, 0)
 * ROW:      function attrs_in_a_row block 0:
 * ROW-NEXT: batch 0: calls 0..2, 3 slots, 0 chains
 * ROW-NEXT:   slot 0: call 0 fchown(a0, {{.*}})
 * ROW-NEXT:   slot 1: call 1 fchmod(a0, 416)                    fail=stop
 * ROW-NEXT:   slot 2: call 2 utimensat(a0, 0, a1, 0)
 * DIR:      slot 3: call 1 utimensat(ret0, a1, a2, 256)
 */
