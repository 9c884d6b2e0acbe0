; Bail-out "below-min-batch": one call alone does not pay for a crossing (and min-batch=3 makes two too few).
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; RUN: %sbopt -passes='sysbatch<min-batch=3>' -pass-remarks-missed=sysbatch -S %s 2>&1 >/dev/null | %FileCheck %s --check-prefix=MIN3

; CHECK-LABEL: define i32 @one()
; CHECK-NOT:   sysbatch_run
; CHECK:       %a = call i32 @getuid()
; CHECK-NEXT:  ret i32 %a
; REMARK: remark: <unknown>:0:0: getuid not batched: below-min-batch (too few calls in a row to pay for a batch: only-call: no other system call in the function)
define i32 @one() {
entry:
  %a = call i32 @getuid()
  ret i32 %a
}

; CHECK-LABEL: define i32 @two()
; CHECK:       call i64 @sysbatch_run
; MIN3-COUNT-3: getuid not batched: below-min-batch
; MIN3-NOT:     not batched
define i32 @two() {
entry:
  %a = call i32 @getuid()
  %b = call i32 @getuid()
  %s = add i32 %a, %b
  ret i32 %s
}

declare i32 @getuid()
