; Bail-out "never-batch": fork (and exit, exec, vDSO calls) are never batched; the batch before it is closed.
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @f()
; CHECK-NOT:   sysbatch_run
; REMARK: remark: <unknown>:0:0: getpid not batched: below-min-batch
; REMARK: remark: <unknown>:0:0: fork not batched: never-batch (this call is never batched: {{.+}})
; REMARK: remark: <unknown>:0:0: getpid not batched: below-min-batch
define i32 @f() {
entry:
  %a = call i32 @getpid()
  %p = call i32 @fork()
  %b = call i32 @getpid()
  %s = add i32 %a, %b
  ret i32 %s
}

declare i32 @getpid()
declare i32 @fork()
