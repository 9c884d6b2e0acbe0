// Predicated slots run (tests/e2e/Inputs/predicated.c): built unplugged and
// with the pass at -O0 and -O2, run with and without BATCH_EMUL=1 (the
// batches really run through libsysbatch, skipped slots and all), once with
// every flag set and once with none, so both arms of every predicated
// branch are taken.  Same stdout, exit status and files in every run.
// REQUIRES: llvm
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %S/../e2e/Inputs/predicated.c %t/on '%clang' '%sbclang' %sbruntime 'true' 1 | %FileCheck %s --check-prefix=ON
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %S/../e2e/Inputs/predicated.c %t/off '%clang' '%sbclang' %sbruntime 'true' 0 | %FileCheck %s --check-prefix=OFF
// ON: same: 4 runs
// ON: flag_param unlink 0
// ON: flag_param mkdir 0
// ON: global_flag rmdir -1
// ON: preserve fchmod 0
// ON: written rmdir -2
// OFF: same: 4 runs
// OFF: flag_param unlink 0
// OFF: flag_param mkdir -1
// OFF: flag_param errno 17
// OFF: global_flag rmdir -2
// OFF: preserve fchmod -2
// OFF: written rmdir 0
//
// The plans: every predicated branch but the written one is followed (at
// -O2 the early look's plans: after inlining, main holds the functions).
// RUN: %sbclang -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %S/../e2e/Inputs/predicated.c -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARKS
// RUN: %sbclang -O2 -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-placement=early -c -Rpass=sysbatch -Rpass-missed=sysbatch %S/../e2e/Inputs/predicated.c -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARKS
// REMARKS-DAG: predicated.c:35:14: remark: batched 3 calls (access, unlink, mkdir) into 3 slots with 0 chains over 3 blocks (branchy)
// REMARKS-DAG: predicated.c:48:14: remark: batched 3 calls (getuid, rmdir, mkdir) into 3 slots with 0 chains over 3 blocks (branchy)
// REMARKS-DAG: predicated.c:61:14: remark: batched 4 calls (open, fchmod, write, close) into 7 slots with 3 chains over 3 blocks (branchy)
// REMARKS-DAG: predicated.c:80:14: remark: batched 4 calls (access, mkdir, rmdir, getpid) into 4 slots with 0 chains over 4 blocks (branchy)
// REMARKS-DAG: predicated.c:102:14: remark: batched 4 calls (access, rmdir, unlink, mkdir) into 4 slots with 0 chains over 4 blocks (branchy)
// REMARKS-DAG: predicated.c:104:9: remark: branch ends the region: {{.*}}it reads memory the region may write before the branch (a call to puts)
// REMARKS-DAG: predicated.c:123:9: remark: branch ends the region: the branch's condition is not available where the batch is issued: it reads memory the region may write before the branch (a store)
// REMARKS-DAG: predicated.c:124:13: remark: batched 2 calls (rmdir, mkdir) into 2 slots with 0 chains over 2 blocks
//
// The jumps are chosen where the batch is filled: access's slot header is
// a select on the flag between nr 21 with jumps 0 (21) and nr 21 with
// fail/zero/pos jumping over unlink (0x0001000100010015 = 281479271743509),
// stored as slot word 0 before the batch runs.
// RUN: %sbclang -O2 -S -emit-llvm %S/../e2e/Inputs/predicated.c -o - | %FileCheck %s --check-prefix=IR
// IR: define {{.*}} @flag_param(
// IR: [[J:%[0-9a-z.]+]] = select i1 %{{[0-9a-z.]+}}, i64 {{281479271743509, i64 21|21, i64 281479271743509}}
// IR: store i64 [[J]], {{i64\*|ptr}} [[W0:%[0-9a-z.]+]]
// Flags 3 (PLANNED | JUMPS): the header chosen when the flag is false has
// no jumps, the other one has; the flags hold for both.
// IR: call i64 @sysbatch_run({{.*}}, {{.*}}[[W0]], i64 3, i64 3)
