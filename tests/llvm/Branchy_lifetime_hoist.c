// A buffer whose lifetime starts in a later block of a branchy region
// (`if (fd >= 0) { struct stat st; fstat(fd, &st) ...`): the start moves up
// to the issue point, before sysbatch_run, and is the function's only one
// (a second start after the batch would make what fstat wrote undefined).
// Every LLVM major: typed pointers start the lifetime of a cast, which the
// rewrite repeats at the issue point; opaque pointers start the alloca's.
// The program (tests/e2e/Inputs/lifetime_scope.c) runs unplugged and with
// the pass at -O0 and -O2, with and without BATCH_EMUL=1.
// REQUIRES: llvm
// RUN: %sbclang -O2 -S -emit-llvm %S/../e2e/Inputs/lifetime_scope.c -o %t.ll
// RUN: %opt_bin -disable-output -passes=verify %t.ll
// RUN: %FileCheck %s < %t.ll
// CHECK-LABEL: define {{.*}}@open_sized(
// CHECK: call void @llvm.lifetime.start
// CHECK-NOT: call void @llvm.lifetime.start
// CHECK: call {{.*}}@sysbatch_run(
// CHECK-NOT: call void @llvm.lifetime.start
// CHECK-LABEL: define {{.*}}@open_flagged(
// CHECK: call void @llvm.lifetime.start
// CHECK-NOT: call void @llvm.lifetime.start
// CHECK: call {{.*}}@sysbatch_run(
// CHECK-NOT: call void @llvm.lifetime.start
// CHECK-LABEL: define {{.*}}@total_size(
// CHECK: call void @llvm.lifetime.start
// CHECK-NOT: call void @llvm.lifetime.start
// CHECK: call {{.*}}@sysbatch_run(
// CHECK-NOT: call void @llvm.lifetime.start
// CHECK-LABEL: define {{.*}}@main(
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %S/../e2e/Inputs/lifetime_scope.c %t/run '%clang' '%sbclang' %sbruntime 'true' | %FileCheck %s --check-prefix=EXEC
// EXEC: same: 4 runs
