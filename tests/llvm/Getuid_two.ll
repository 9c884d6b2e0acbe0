; Two getuid() calls in one block become one batch of two slots, issued where
; the first call was behind one branch on @sysbatch_active.  Then one test
; that the batch ran to its last slot (sb_rt_all_ran_test: straight-line,
; no skips): on that common path both results come from rets with no test
; per call (sb.all); otherwise each call site takes rets[slot] when its slot
; ran and the original call when not (sb.calls).  Both meet in sb.after.
; getuid never fails, so the raw result is used as is (no errno helper).
; RUN: %sbopt -passes=sysbatch,verify -S %s | %FileCheck %s
; RUN: %sbopt -passes=sysbatch -pass-remarks=sysbatch -disable-output %s 2>&1 | %FileCheck %s --check-prefix=REMARK
; REMARK: remark: <unknown>:0:0: batched 2 calls (getuid, getuid) into 2 slots with 0 chains
; REMARK-NOT: remark

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @two()
; CHECK:       %sb.rets = alloca [2 x i64], align 8
; CHECK-NEXT:  %sb.slots = alloca [16 x i64], align 8
; CHECK:       %sb.active = load i32, i32* @sysbatch_active
; CHECK-NEXT:  %sb.on = icmp ne i32 %sb.active, 0
; CHECK-NEXT:  br i1 %sb.on, label %sb.issue, label %sb.join
; CHECK:     sb.issue:
; Slot 0 header: nr 102 (getuid), all jumps 0; then argc 0.
; CHECK:       store i64 102, i64* [[S0:%[0-9]+]], align 8
; CHECK:       store i64 0, i64* [[S1:%[0-9]+]], align 8
; CHECK:       store i64 102, i64* [[S8:%[0-9]+]], align 8
; CHECK:       %sb.ran = call i64 @sysbatch_run(i64* %{{[0-9]+}}, i64* %{{[0-9]+}}, i64 2, i64 1)
; CHECK:     sb.join:
; CHECK-NEXT:  %sb.last = phi i64 [ -1, %entry ], [ %sb.ran, %sb.issue ]
; CHECK-NEXT:  %sb.all.ran = icmp eq i64 %sb.last, 1
; CHECK-NEXT:  br i1 %sb.all.ran, label %sb.all, label %sb.calls, !prof
; CHECK:     sb.calls:
; CHECK-NEXT:  %sb.slot.ran = icmp sle i64 0, %sb.last
; CHECK:     sb.result:
; CHECK:       %sb.raw = load i64, i64* %{{[0-9]+}}, align 8
; CHECK-NEXT:  [[A:%[0-9]+]] = trunc i64 %sb.raw to i32
; CHECK:     sb.call:
; CHECK-NEXT:  %a.orig = call i32 @getuid()
; CHECK:       %a = phi i32 [ [[A]], %sb.result ], [ %a.orig, %sb.call ]
; CHECK-NEXT:  %sb.slot.ran{{[0-9]+}} = icmp sle i64 1, %sb.last
; CHECK:       %b.orig = call i32 @getuid()
; CHECK:       %b = phi i32
; CHECK-NEXT:  br label %sb.after
; CHECK:     sb.all:
; CHECK-NEXT:  getelementptr inbounds [2 x i64], [2 x i64]* %sb.rets, i64 0, i64 0
; CHECK-NEXT:  [[RAW0:%sb.raw[0-9]+]] = load i64
; CHECK-NEXT:  [[FA:%[0-9]+]] = trunc i64 [[RAW0]] to i32
; CHECK-NEXT:  getelementptr inbounds [2 x i64], [2 x i64]* %sb.rets, i64 0, i64 1
; CHECK-NEXT:  [[RAW1:%sb.raw[0-9]+]] = load i64
; CHECK-NEXT:  [[FB:%[0-9]+]] = trunc i64 [[RAW1]] to i32
; CHECK-NEXT:  br label %sb.after
; CHECK:     sb.after:
; CHECK-NEXT:  %a.sb.merge = phi i32 [ %a, %sb.next{{[0-9]*}} ], [ [[FA]], %sb.all ]
; CHECK-NEXT:  %b.sb.merge = phi i32 [ %b, %sb.next{{[0-9]*}} ], [ [[FB]], %sb.all ]
; CHECK-NEXT:  %s = add i32 %a.sb.merge, %b.sb.merge
; CHECK-NOT:   @sysbatch_ret_errno
define i32 @two() {
entry:
  %a = call i32 @getuid()
  %b = call i32 @getuid()
  %s = add i32 %a, %b
  ret i32 %s
}

; A function without candidates is left exactly as it was.
; CHECK-LABEL: define i32 @none(i32 %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:  %y = add i32 %x, 1
; CHECK-NEXT:  ret i32 %y
define i32 @none(i32 %x) {
entry:
  %y = add i32 %x, 1
  ret i32 %y
}

declare i32 @getuid()
; CHECK: declare i64 @sysbatch_run(i64*, i64*, i64, i64) [[NOUNWIND:#[0-9]+]]
; CHECK: attributes [[NOUNWIND]] = { nounwind }
