/* Predicated slots run (tests/e2e/Inputs/predicated.c): built unplugged and
 * with the GCC plugin at -O0 and -O2, run with and without BATCH_EMUL=1,
 * once with every flag set and once with none, so both arms of every
 * predicated branch are taken; same stdout, exit code and files.
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t.on %S/../e2e/Inputs/predicated.c "%gcc" "%sbgcc" %sbruntime 1 | %FileCheck %s
 * RUN: sh %S/Inputs/exec-compare.sh %t.off %S/../e2e/Inputs/predicated.c "%gcc" "%sbgcc" %sbruntime 0 | %FileCheck %s
 * RUN: sh %S/Inputs/exec-compare.sh %t.tmpl %S/../e2e/Inputs/predicated.c "%gcc" "%sbgcc -fplugin-arg-sysbatch-fill=template" %sbruntime 0 | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 *
 * The plans and remarks, as the LLVM pass gives them
 * (tests/llvm/Predicated_exec.c):
 * RUN: %sbgcc -O0 -fchecking -c %S/../e2e/Inputs/predicated.c -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=REMARKS
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %S/../e2e/Inputs/predicated.c -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=REMARKS
 * REMARKS-DAG: predicated.c:35:14: optimized: sysbatch: batched 3 calls (access, unlink, mkdir) into 3 slots with 0 chains over 3 blocks (branchy)
 * REMARKS-DAG: predicated.c:48:14: optimized: sysbatch: batched 3 calls (getuid, rmdir, mkdir) into 3 slots with 0 chains over 3 blocks (branchy)
 * REMARKS-DAG: predicated.c:61:14: optimized: sysbatch: batched 4 calls (open, fchmod, write, close) into 7 slots with 3 chains over 3 blocks (branchy)
 * REMARKS-DAG: predicated.c:80:14: optimized: sysbatch: batched 4 calls (access, mkdir, rmdir, getpid) into 4 slots with 0 chains over 4 blocks (branchy)
 * REMARKS-DAG: predicated.c:102:14: optimized: sysbatch: batched 4 calls (access, rmdir, unlink, mkdir) into 4 slots with 0 chains over 4 blocks (branchy)
 * REMARKS-DAG: predicated.c:104:{{[0-9]+}}: missed: sysbatch: branch ends the region: {{.*}}it reads memory the region may write before the branch (a call to puts)
 * REMARKS-DAG: predicated.c:123:{{[0-9]+}}: missed: sysbatch: branch ends the region: the branch's condition is not available where the batch is issued: it is computed in the region
 * REMARKS-DAG: predicated.c:124:13: optimized: sysbatch: batched 2 calls (rmdir, mkdir) into 2 slots with 0 chains over 2 blocks
 */
