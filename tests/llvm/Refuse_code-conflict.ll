; Bail-out "code-conflict": code between the calls writes the buffer the next call reads.
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i64 @f(i8* %buf)
; CHECK-NOT:   sysbatch_run
; REMARK: remark: <unknown>:0:0: write not batched: code-conflict (code between the calls may not be moved across this call: a store that may alias a buffer of write)
define i64 @f(i8* %buf) {
entry:
  %u = call i32 @getuid()
  store i8 65, i8* %buf, align 1
  %w = call i64 @write(i32 1, i8* %buf, i64 1)
  ret i64 %w
}

declare i32 @getuid()
declare i64 @write(i32, i8*, i64)
