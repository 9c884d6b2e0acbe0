; posix_fadvise returns the error number and leaves errno alone: its call
; sites convert with sysbatch_ret_positive_error.
; RUN: %sbopt -passes=sysbatch,verify -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @advise(i32 %fd)
; nr 221 (fadvise64), argc 4, POSIX_FADV_SEQUENTIAL (2) then WILLNEED (3)
; CHECK:       store i64 221, i64*
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 2, i64 1)
; CHECK:       [[E:%.*]] = call i32 @sysbatch_ret_positive_error(i64 %sb.raw)
; CHECK-NOT:   trunc
; CHECK:       %a = phi i32 [ [[E]], %sb.result ], [ %a.orig, %sb.call ]
; CHECK:       call i32 @sysbatch_ret_positive_error(i64
; CHECK-NOT:   @sysbatch_ret_errno(
; CHECK:       declare i32 @sysbatch_ret_positive_error(i64)
define i32 @advise(i32 %fd) {
entry:
  %a = call i32 @posix_fadvise(i32 %fd, i64 0, i64 0, i32 2)
  %b = call i32 @posix_fadvise(i32 %fd, i64 0, i64 0, i32 3)
  %s = or i32 %a, %b
  ret i32 %s
}

declare i32 @posix_fadvise(i32, i64, i64, i32)
