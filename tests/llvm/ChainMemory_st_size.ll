; A word a batched call wrote feeds a later argument: read(fd, buf,
; st.st_size) after fstat(fd, &st).  The load of st.st_size (offset 48 of
; fstat's output buffer, nothing writing it in between) is a MEMORY operand:
; a word copy from &st + 48 into read's size argument, after fstat ran.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -S %s 2>%t.plan | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.plan

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.stat = type { i64, i64, i64, i32, i32, i32, i32, i64, i64, i64, i64, [2 x i64], [2 x i64], [2 x i64], [3 x i64] }

; PLAN:      function slurp block 0:
; PLAN-NEXT: batch 0: calls 0..2, 6 slots, 3 chains
; PLAN:        slot 4: copy {{.*}}48{{.*}} -> slot 5 arg 2

; CHECK-LABEL: define i64 @slurp(i8* %p, i8* %buf)
; CHECK:     sb.issue:
; fstat's buffer argument, then the copy's source &st + 48:
; CHECK:       ptrtoint %struct.stat* %st to i64
; CHECK:       [[ST:%[0-9]+]] = ptrtoint %struct.stat* %st to i64
; CHECK-NEXT:  [[SIZE:%[0-9]+]] = add i64 [[ST]], 48
; Slot 4 (word 32) is the copy: arg 1 (word 35) is &st.st_size.
; CHECK:       [[G:%[0-9]+]] = getelementptr inbounds [48 x i64], [48 x i64]* %sb.slots, i64 0, i64 35
; CHECK-NEXT:  store i64 [[SIZE]], i64* [[G]], align 8
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 6, i64 7)
; CHECK:       %n.orig = call i64 @read(i32 %fd, i8* %buf, i64 %size)
define i64 @slurp(i8* %p, i8* %buf) {
entry:
  %st = alloca %struct.stat, align 8
  %fd = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
  %r = call i32 @fstat(i32 %fd, %struct.stat* %st)
  %size.addr = getelementptr inbounds %struct.stat, %struct.stat* %st, i32 0, i32 8
  %size = load i64, i64* %size.addr, align 8
  %n = call i64 @read(i32 %fd, i8* %buf, i64 %size)
  ret i64 %n
}

; A store to the word between fstat and the load: not the word fstat wrote.
; (read sees fd as both paths of the batch leave it: %fd.sb.merge)
; CHECK-LABEL: define i64 @overwritten(i8* %p, i8* %buf)
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 3, i64 7)
; CHECK:       %n = call i64 @read(i32 %fd.sb.merge, i8* %buf, i64 %size)
define i64 @overwritten(i8* %p, i8* %buf) {
entry:
  %st = alloca %struct.stat, align 8
  %fd = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
  %r = call i32 @fstat(i32 %fd, %struct.stat* %st)
  %size.addr = getelementptr inbounds %struct.stat, %struct.stat* %st, i32 0, i32 8
  store i64 16, i64* %size.addr, align 8
  %size = load i64, i64* %size.addr, align 8
  %n = call i64 @read(i32 %fd, i8* %buf, i64 %size)
  ret i64 %n
}

; A later batched call that may rewrite the word (a second fstat into the same
; buffer) would run before the copy: the batch ends at the second fstat (the
; load of st.st_size reads what it writes) and read keeps its ordinary load.
; CHECK-LABEL: define i64 @rewritten(i8* %p, i8* %buf, i32 %fd2)
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 3, i64 7)
; CHECK:       %n = call i64 @read(i32 %fd.sb.merge, i8* %buf, i64 %size)
define i64 @rewritten(i8* %p, i8* %buf, i32 %fd2) {
entry:
  %st = alloca %struct.stat, align 8
  %fd = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
  %r = call i32 @fstat(i32 %fd, %struct.stat* %st)
  %size.addr = getelementptr inbounds %struct.stat, %struct.stat* %st, i32 0, i32 8
  %size = load i64, i64* %size.addr, align 8
  %r2 = call i32 @fstat(i32 3, %struct.stat* %st)
  %n = call i64 @read(i32 %fd, i8* %buf, i64 %size)
  ret i64 %n
}

declare i32 @open(i8*, i32, ...)
declare i32 @fstat(i32, %struct.stat*)
declare i64 @read(i32, i8*, i64)
