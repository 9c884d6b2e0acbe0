; Bail-out "front-end": the IR does not fit the catalogue row (an argument that is neither an integer nor a pointer).
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @f()
; CHECK-NOT:   sysbatch_run
; REMARK: remark: <unknown>:0:0: close not batched: front-end (the compiler front end refused it: argument 0 is neither an integer nor a pointer)
define i32 @f() {
entry:
  %a = call i32 @getuid()
  %c = call i32 @close(double 1.0)
  ret i32 %c
}

declare i32 @getuid()
; A prototype that does not match libc's close(int).
declare i32 @close(double)
