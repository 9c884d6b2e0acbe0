; fstat(fd, &st) is newfstatat(fd, "", &st, AT_EMPTY_PATH) in the kernel: the
; "" is the runtime's @sysbatch_empty_string, a link-time constant word.
; RUN: %sbopt -passes=sysbatch,verify -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.stat = type { [144 x i8] }

; glibc answers fstat on a negative fd itself (EBADF without a system call),
; so fstat batches only on a constant fd >= 0 or an fd chained from open.
; CHECK: @sysbatch_empty_string = external global [1 x i8]
; CHECK-LABEL: define i32 @open_fstat(i8* %p, %struct.stat* %st)
; CHECK:     sb.issue:
; Slot 2 (word 16): nr 262, argc 4, arg 0 chained (not stored), arg 1 = "",
; arg 3 = AT_EMPTY_PATH (0x1000).
; CHECK:       [[G:%[0-9]+]] = getelementptr inbounds [24 x i64], [24 x i64]* %sb.slots, i64 0, i64 16
; CHECK-NEXT:  store i64 262, i64* [[G]]
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [24 x i64], [24 x i64]* %sb.slots, i64 0, i64 17
; CHECK-NEXT:  store i64 4, i64* [[G]]
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [24 x i64], [24 x i64]* %sb.slots, i64 0, i64 19
; CHECK-NEXT:  store i64 ptrtoint ([1 x i8]* @sysbatch_empty_string to i64), i64* [[G]]
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [24 x i64], [24 x i64]* %sb.slots, i64 0, i64 21
; CHECK-NEXT:  store i64 4096, i64* [[G]]
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 3, i64 7)
; CHECK:       call i64 @sysbatch_ret_errno(
; CHECK:       %fd.orig = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
; CHECK:       call i64 @sysbatch_ret_errno(
; CHECK:       %r.orig = call i32 @fstat(i32 %fd, %struct.stat* %st)
define i32 @open_fstat(i8* %p, %struct.stat* %st) {
entry:
  %fd = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
  %r = call i32 @fstat(i32 %fd, %struct.stat* %st)
  ret i32 %r
}

declare i32 @open(i8*, i32, ...)
declare i32 @fstat(i32, %struct.stat*)
