; Bail-out "libc-precheck": glibc answers fstat on a negative fd itself, so an fd that is neither a constant >= 0 nor chained cannot be batched.
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @f(i32 %fd, i8* %st)
; CHECK-NOT:   sysbatch_run
; REMARK: remark: <unknown>:0:0: fstat not batched: libc-precheck
define i32 @f(i32 %fd, i8* %st) {
entry:
  %a = call i32 @getuid()
  %c = call i32 @fstat(i32 %fd, i8* %st)
  ret i32 %c
}

declare i32 @getuid()
declare i32 @fstat(i32, i8*)
