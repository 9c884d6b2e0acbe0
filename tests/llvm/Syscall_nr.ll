; syscall(NR, ...) with a constant NR batches like the libc call of that NR:
; its operands after NR are the raw arguments, and its result follows
; syscall()'s own -1/errno convention whatever NR's row says (getpid never
; fails, but syscall() still goes through sysbatch_ret_errno).
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -S %s 2>%t.plan | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.plan

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; PLAN:      function raw block 0:
; PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains
; PLAN-NEXT:   slot 0: call 0 getpid()
; PLAN-NEXT:   slot 1: call 1 close(a1)

; CHECK-LABEL: define i64 @raw(i32 %fd)
; CHECK:       [[FD:%.*]] = sext i32 %fd to i64
; CHECK:       store i64 39, i64*
; CHECK:       store i64 3, i64*
; CHECK:       store i64 [[FD]], i64*
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 2, i64 5)
; CHECK:       [[A:%.*]] = call i64 @sysbatch_ret_errno(i64 %sb.raw)
; CHECK:       %a = phi i64 [ [[A]], %sb.result ], [ %a.orig, %sb.call ]
; CHECK:       %b.orig = call i64 (i64, ...) @syscall(i64 3, i32 %fd)
define i64 @raw(i32 %fd) {
entry:
  %a = call i64 (i64, ...) @syscall(i64 39)
  %b = call i64 (i64, ...) @syscall(i64 3, i32 %fd)
  %s = add i64 %a, %b
  ret i64 %s
}

declare i64 @syscall(i64, ...)
