; Bail-out "nr-not-constant": syscall() whose number is computed.
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i64 @f(i64 %nr)
; CHECK-NOT:   sysbatch_run
; REMARK: remark: <unknown>:0:0: syscall not batched: nr-not-constant
define i64 @f(i64 %nr) {
entry:
  %a = call i64 (i64, ...) @syscall(i64 %nr)
  %b = call i64 (i64, ...) @syscall(i64 %nr)
  %s = add i64 %a, %b
  ret i64 %s
}

declare i64 @syscall(i64, ...)
