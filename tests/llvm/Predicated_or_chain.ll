; cpio's rtapelib.c or-chain (tests/e2e/Inputs/or_chain.c, clang -O2):
;   if (dup2(to[n][0], 20) < 0 || (to[n][0] != 20 && close(to[n][0]) != 0)
;       || (to[n][1] != 20 && close(to[n][1]) != 0) || dup2(from[n][1], 21) < 0
;       || close(from[n][0]) != 0 || close(from[n][1]) != 0) fail();
; dup2's slot has two predicates (blocks 1 and 3: to[n][0] == 20, then
; to[n][1] == 20): its header word is chosen by two selects on the
; conditions recomputed where the batch is issued (to[n][1] may be loaded
; there: to[n][0] before the batch proves n in 0..3).  The first close's
; slot has one.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function redirect block 0:
; PLAN-NEXT: batch 0: calls 0..5, 6 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 dup2(a0, 20)                       b1 true b3 true: fail=stop zero=+2 pos=+2; b1 false b3 true: fail=stop; b1 true b3 false: fail=stop zero=+1 pos=+1; b1 false b3 false: fail=stop
; PLAN-NEXT:   slot 1: call 1 close(a0)                          b3 true: fail=stop zero=+1 pos=stop; false: fail=stop pos=stop
; PLAN-NEXT:   slot 2: call 2 close(a0)                          fail=stop pos=stop
; PLAN-NEXT:   slot 3: call 3 dup2(a0, 21)                       fail=stop
; PLAN-NEXT:   slot 4: call 4 close(a0)                          fail=stop pos=stop
; PLAN-NEXT:   slot 5: call 5 close(a0)
; PLAN-NEXT: remark: <unknown>:0:0: batched 6 calls (dup2, close, close, dup2, close, close) into 6 slots with 0 chains over 6 blocks (branchy)
; PLAN-NOT:  branch ends the region

; Here the IR tests `to[n][0] == 20` (true: skip the close).  Slot 0's
; header word (nr 33, fail -1, zero and pos as planned): b1 and b3 both
; hold -> +2 +2 (0x0002_0002_ffff_0021), b1 holds and b3 not -> +1 +1
; (0x0001_0001_ffff_0021), b1 false -> 0 0 whatever b3 (0x0000_0000_ffff_0021):
; one select on b3, then one on b1.  Both conditions are the compares
; recomputed at the issue point, to[n][1] loaded there.
; CHECK-LABEL: define void @redirect(
; CHECK:       sb.issue:
; CHECK-NEXT:  [[A:%.*]] = load i32, {{i32\*|ptr}} %3, align 8
; CHECK-NEXT:  [[CA:%.*]] = icmp eq i32 [[A]], 20
; CHECK-NEXT:  [[P:%.*]] = getelementptr inbounds [4 x [2 x i32]], {{.*}}@to_remote, i64 0, i64 %2, i64 1
; CHECK-NEXT:  [[B:%.*]] = load i32, {{i32\*|ptr}} [[P]], align 4
; CHECK-NEXT:  [[CB:%.*]] = icmp eq i32 [[B]], 20
; CHECK-NEXT:  [[J:%.*]] = select i1 [[CB]], i64 562962838257697, i64 281483566579745
; CHECK-NEXT:  [[J0:%.*]] = select i1 [[CA]], i64 [[J]], i64 4294901793
; CHECK:       store i64 [[J0]], {{i64\*|ptr}} {{%.*}}, align 8
; CHECK:       call i64 @sysbatch_run(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@to_remote = internal global [4 x [2 x i32]] zeroinitializer, align 16
@from_remote = internal global [4 x [2 x i32]] zeroinitializer, align 16

define void @redirect(i32 %0) {
  %2 = zext i32 %0 to i64
  %3 = getelementptr inbounds [4 x [2 x i32]], [4 x [2 x i32]]* @to_remote, i64 0, i64 %2, i64 0
  %4 = load i32, i32* %3, align 8
  %5 = tail call i32 @dup2(i32 %4, i32 20)
  %6 = icmp slt i32 %5, 0
  br i1 %6, label %failed, label %7

7:                                                ; preds = %1
  %8 = load i32, i32* %3, align 8
  %9 = icmp eq i32 %8, 20
  br i1 %9, label %13, label %10

10:                                               ; preds = %7
  %11 = tail call i32 @close(i32 %8)
  %12 = icmp eq i32 %11, 0
  br i1 %12, label %13, label %failed

13:                                               ; preds = %10, %7
  %14 = getelementptr inbounds [4 x [2 x i32]], [4 x [2 x i32]]* @to_remote, i64 0, i64 %2, i64 1
  %15 = load i32, i32* %14, align 4
  %16 = icmp eq i32 %15, 20
  br i1 %16, label %20, label %17

17:                                               ; preds = %13
  %18 = tail call i32 @close(i32 %15)
  %19 = icmp eq i32 %18, 0
  br i1 %19, label %20, label %failed

20:                                               ; preds = %17, %13
  %21 = getelementptr inbounds [4 x [2 x i32]], [4 x [2 x i32]]* @from_remote, i64 0, i64 %2, i64 1
  %22 = load i32, i32* %21, align 4
  %23 = tail call i32 @dup2(i32 %22, i32 21)
  %24 = icmp slt i32 %23, 0
  br i1 %24, label %failed, label %25

25:                                               ; preds = %20
  %26 = getelementptr inbounds [4 x [2 x i32]], [4 x [2 x i32]]* @from_remote, i64 0, i64 %2, i64 0
  %27 = load i32, i32* %26, align 8
  %28 = tail call i32 @close(i32 %27)
  %29 = icmp eq i32 %28, 0
  br i1 %29, label %30, label %failed

30:                                               ; preds = %25
  %31 = load i32, i32* %21, align 4
  %32 = tail call i32 @close(i32 %31)
  %33 = icmp eq i32 %32, 0
  br i1 %33, label %done, label %failed

failed:
  call void @fail()
  br label %out

done:
  call void @done()
  br label %out

out:
  ret void
}

declare i32 @dup2(i32, i32)
declare i32 @close(i32)
declare void @fail()
declare void @done()
