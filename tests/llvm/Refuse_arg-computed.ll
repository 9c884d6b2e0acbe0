; Bail-out "arg-computed": an argument computed from an earlier result by code other than a value-preserving cast (here fd + 1).
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @f(i8* %p)
; CHECK-NOT:   sysbatch_run
; CHECK:       %fd1 = add i32 %fd, 1
; CHECK-NEXT:  %c = call i32 @close(i32 %fd1)
; REMARK: remark: <unknown>:0:0: open not batched: below-min-batch
; REMARK: remark: <unknown>:0:0: close not batched: arg-computed (an argument is computed by code after the batch would start)
define i32 @f(i8* %p) {
entry:
  %fd = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
  %fd1 = add i32 %fd, 1
  %c = call i32 @close(i32 %fd1)
  ret i32 %c
}

declare i32 @open(i8*, i32, ...)
declare i32 @close(i32)
