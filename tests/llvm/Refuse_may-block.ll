; Bail-out "may-block": calls that may sleep (read) are refused when blocking calls are switched off (the no-blocking parameter; Linux >= 6.9 with the c-blake module runs batches in a kretprobe).
; RUN: %sbopt -passes='sysbatch<no-blocking>,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i64 @f(i8* %buf)
; CHECK-NOT:   sysbatch_run
; REMARK: remark: <unknown>:0:0: read not batched: may-block
; REMARK: remark: <unknown>:0:0: read not batched: may-block
define i64 @f(i8* %buf) {
entry:
  %a = call i64 @read(i32 0, i8* %buf, i64 4)
  %b = call i64 @read(i32 0, i8* %buf, i64 4)
  %s = add i64 %a, %b
  ret i64 %s
}

declare i64 @read(i32, i8*, i64)
