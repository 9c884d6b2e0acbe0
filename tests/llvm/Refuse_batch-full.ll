; Bail-out "batch-full": the batch reached its slot limit (max-slots=2: the third call starts a new batch, alone).
; RUN: %sbopt -passes='sysbatch<max-slots=2>,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @f()
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 2, i64 1)
; CHECK-NOT:   sysbatch_run
; CHECK:       %c = call i32 @getuid()
; REMARK: remark: <unknown>:0:0: getuid not batched: batch-full
define i32 @f() {
entry:
  %a = call i32 @getuid()
  %b = call i32 @getuid()
  %c = call i32 @getuid()
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}

declare i32 @getuid()
