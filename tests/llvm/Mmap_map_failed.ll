; mmap reports failure as MAP_FAILED with errno: its call sites convert the
; raw result with sysbatch_ret_mmap.  Its address argument (ADDR) means no
; load or store may cross it, but two mmaps in a row batch.
; RUN: %sbopt -passes=sysbatch,verify -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i8* @two_maps(i32 %fd)
; nr 9 (mmap), argc 6
; CHECK:       store i64 9, i64*
; CHECK-NEXT:  getelementptr
; CHECK-NEXT:  store i64 6, i64*
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 2, i64 1)
; CHECK:       [[M:%.*]] = call i8* @sysbatch_ret_mmap(i64 %sb.raw)
; CHECK:       %a = phi i8* [ [[M]], %sb.result ], [ %a.orig, %sb.call ]
; CHECK:       call i8* @sysbatch_ret_mmap(i64
; CHECK-NOT:   @sysbatch_ret_errno
; CHECK:       declare i8* @sysbatch_ret_mmap(i64)
define i8* @two_maps(i32 %fd) {
entry:
  %a = call i8* @mmap(i8* null, i64 4096, i32 1, i32 2, i32 %fd, i64 0)
  %b = call i8* @mmap(i8* null, i64 8192, i32 1, i32 2, i32 %fd, i64 0)
  %c = icmp eq i8* %a, %b
  %r = select i1 %c, i8* null, i8* %b
  ret i8* %r
}

declare i8* @mmap(i8*, i64, i32, i32, i32, i64)
