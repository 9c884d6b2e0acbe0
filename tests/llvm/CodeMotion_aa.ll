; Code between calls stays where it is; only the kernel side of later calls
; moves up, so that code must commute with them.  Alias analysis proves it
; here: the stores go to %err and %n, which the stats neither read nor write;
; errno accesses commute because errno is set at each call site in program
; order; the load of %st0 after the first stat reads what that stat wrote,
; which is already there when the batch has run.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -S %s 2>%t.plan | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.plan

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.stat = type { i64, i64, i64, i32, i32, i32, i32, i64, i64, i64, i64, [2 x i64], [2 x i64], [2 x i64], [3 x i64] }

@.a = private unnamed_addr constant [6 x i8] c"a.txt\00", align 1
@.b = private unnamed_addr constant [6 x i8] c"b.txt\00", align 1

; PLAN:      function moves block 0:
; PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains

; CHECK-LABEL: define i32 @moves()
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 2, i64 1)
; The code in between is still between the two call sites, unchanged.
; CHECK:       %rc0 = phi i32
; CHECK-NEXT:  %e0 = call i32* @__errno_location()
; CHECK-NEXT:  %ev0 = load i32, i32* %e0
; CHECK-NEXT:  %slot0 = getelementptr inbounds [2 x i32], [2 x i32]* %err, i64 0, i64 0
; CHECK-NEXT:  store i32 %ev0, i32* %slot0
; CHECK-NEXT:  %size = getelementptr inbounds %struct.stat, %struct.stat* %st0, i32 0, i32 8
; CHECK-NEXT:  %sz = load i64, i64* %size
; CHECK-NEXT:  store i64 %sz, i64* %n
; CHECK:       %rc1.orig = call i32 @stat(
define i32 @moves() {
entry:
  %st0 = alloca %struct.stat, align 8
  %st1 = alloca %struct.stat, align 8
  %err = alloca [2 x i32], align 4
  %n = alloca i64, align 8
  %rc0 = call i32 @stat(i8* getelementptr inbounds ([6 x i8], [6 x i8]* @.a, i64 0, i64 0), %struct.stat* %st0)
  %e0 = call i32* @__errno_location()
  %ev0 = load i32, i32* %e0, align 4
  %slot0 = getelementptr inbounds [2 x i32], [2 x i32]* %err, i64 0, i64 0
  store i32 %ev0, i32* %slot0, align 4
  %size = getelementptr inbounds %struct.stat, %struct.stat* %st0, i32 0, i32 8
  %sz = load i64, i64* %size, align 8
  store i64 %sz, i64* %n, align 8
  %rc1 = call i32 @stat(i8* getelementptr inbounds ([6 x i8], [6 x i8]* @.b, i64 0, i64 0), %struct.stat* %st1)
  %r = add i32 %rc0, %rc1
  ret i32 %r
}

declare i32 @stat(i8*, %struct.stat*)
declare i32* @__errno_location() readnone nounwind
