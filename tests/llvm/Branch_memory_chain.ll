; MEMORY operands across the blocks of a branchy region: read's count is
; st.st_size, loaded in a later block than the fstat that wrote it, with
; nothing writing the word on any path in between - the word fstat wrote,
; as GCC describes it too.  fstat's failure arm (close) sits between
; fstat's copy and read: the core cuts that arm out of the batch (fstat
; stops it when it fails) and keeps the chain, so open, fstat, read and
; close are one batch and the arm's close says why it is not in it.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function sized block 0:
; PLAN-NEXT: batch 0: calls 0..4, 8 slots, 4 chains
; PLAN:        slot 5: copy [slot 4 a1 + 48] -> slot 6 arg 2
; PLAN-NEXT:   slot 6: call 3 read(ret0, a1, [s4.a1+48])
; PLAN:      refused call 2 (close): not-reached: {{.*}}: the batch stops when the call before this arm fails: {{.*}}
; PLAN:      function sized block 2:
; PLAN-NEXT: refused call 0 (close): below-min-batch: {{.*}}

; CHECK-LABEL: define i64 @sized(
; CHECK-COUNT-1: call i64 @sysbatch_run(
; CHECK-NOT: call i64 @sysbatch_run(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.stat = type { i64, i64, i64, i32, i32, i32, i32, i64, i64, i64, i64, %struct.timespec, %struct.timespec, %struct.timespec, [3 x i64] }
%struct.timespec = type { i64, i64 }
@buf = internal global [4096 x i8] zeroinitializer, align 16


define i64 @sized(i8* %p) {
entry:
  %retval = alloca i64, align 8
  %p.addr = alloca i8*, align 8
  %st = alloca %struct.stat, align 8
  %fd = alloca i32, align 4
  %n = alloca i64, align 8
  store i8* %p, i8** %p.addr, align 8
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 (i8*, i32, ...) @open(i8* %0, i32 0)
  store i32 %call, i32* %fd, align 4
  %1 = load i32, i32* %fd, align 4
  %cmp = icmp slt i32 %1, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  store i64 -1, i64* %retval, align 8
  br label %return

if.end:
  %2 = load i32, i32* %fd, align 4
  %call1 = call i32 @fstat(i32 %2, %struct.stat* %st)
  %cmp2 = icmp slt i32 %call1, 0
  br i1 %cmp2, label %if.then3, label %if.end5

if.then3:
  %3 = load i32, i32* %fd, align 4
  %call4 = call i32 @close(i32 %3)
  store i64 -1, i64* %retval, align 8
  br label %return

if.end5:
  %4 = load i32, i32* %fd, align 4
  %st_size = getelementptr inbounds %struct.stat, %struct.stat* %st, i32 0, i32 8
  %5 = load i64, i64* %st_size, align 8
  %call6 = call i64 @read(i32 %4, i8* getelementptr inbounds ([4096 x i8], [4096 x i8]* @buf, i64 0, i64 0), i64 %5)
  store i64 %call6, i64* %n, align 8
  %6 = load i32, i32* %fd, align 4
  %call7 = call i32 @close(i32 %6)
  %7 = load i64, i64* %n, align 8
  store i64 %7, i64* %retval, align 8
  br label %return

return:
  %8 = load i64, i64* %retval, align 8
  ret i64 %8
}


declare i32 @open(i8*, i32, ...)
declare i32 @fstat(i32, %struct.stat*)
declare i32 @close(i32)
declare i64 @read(i32, i8*, i64)
