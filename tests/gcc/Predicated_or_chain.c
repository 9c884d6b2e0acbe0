/* Several predicates decide one slot's jumps, with the GCC plugin
 * (tests/e2e/Inputs/or_chain.c: rtapelib's dup2/close or-chain; the exec
 * comparison and the LLVM pass's plan are in tests/e2e/Or_chain.test).
 * The same plan at -O0, -O2 and -Os: dup2's slot takes one of four sets of
 * jumps (blocks 1 and 3, to[n][0] != 20 and to[n][1] != 20), the first
 * close's one of two; the loads of to[n][1] and from[n][*] on later paths
 * are safe at the issue point because to[n][0] is read before it.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %S/../e2e/Inputs/or_chain.c -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %S/../e2e/Inputs/or_chain.c -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -Os -fchecking -c %S/../e2e/Inputs/or_chain.c -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * CHECK:      function redirect block 0:
 * CHECK-NEXT: batch 0: calls 0..5, 6 slots, 0 chains, branchy
 * CHECK-NEXT:   slot 0: call 0 dup2(a0, 20)                       b1 true b3 true: fail=stop; b1 false b3 true: fail=stop zero=+1 pos=+1; b1 true b3 false: fail=stop; b1 false b3 false: fail=stop zero=+2 pos=+2
 * CHECK-NEXT:   slot 1: call 1 close(a0)                          b3 true: fail=stop pos=stop; false: fail=stop zero=+1 pos=stop
 * CHECK-NEXT:   slot 2: call 2 close(a0)                          fail=stop pos=stop
 * CHECK-NEXT:   slot 3: call 3 dup2(a0, 21)                       fail=stop
 * CHECK-NEXT:   slot 4: call 4 close(a0)                          fail=stop pos=stop
 * CHECK-NEXT:   slot 5: call 5 close(a0)
 *
 * The jumps chosen at run time in the template fill too (the slots start
 * as a static template and only the run-time words are stored), plugged
 * vs unplugged, with and without BATCH_EMUL=1:
 * RUN: sh %S/Inputs/exec-compare.sh %t.tmpl %S/../e2e/Inputs/or_chain.c "%gcc" "%sbgcc -fplugin-arg-sysbatch-fill=template" %sbruntime | %FileCheck %s --check-prefix=SAME
 * SAME: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * SAME-NOT: DIFFERENT
 * SAME: 4 runs compared, 0 different
 *
 * RUN: %sbgcc -O2 -fchecking -c %S/../e2e/Inputs/or_chain.c -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=REMARKS
 * REMARKS:     or_chain.c:47:9: optimized: sysbatch: batched 6 calls (dup2, close, close, dup2, close, close) into 6 slots with 0 chains over 6 blocks (branchy)
 * REMARKS-NOT: or_chain.c:{{4[7-9]|5[0-2]}}:{{[0-9]+}}: missed: sysbatch:
 */
