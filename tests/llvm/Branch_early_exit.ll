; Branchy region with an early exit: fd = open(p); if (fd < 0) return -1;
; n = read(fd, buf, 64); close(fd).  The fd < 0 arm is open's own stop (it
; feeds read and close), so the plan needs no other jump: not "branchy", and
; the call sites keep the straight-line test slot <= last.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function early_exit block 0:
; PLAN-NEXT: batch 0: calls 0..2, 5 slots, 2 chains
; PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0){{ +}}fail=stop
; PLAN-NEXT:   slot 1: copy ret[0] -> slot 3 arg 0
; PLAN-NEXT:   slot 2: copy ret[0] -> slot 4 arg 0
; PLAN-NEXT:   slot 3: call 1 read(ret0, a1, 64)
; PLAN-NEXT:   slot 4: call 2 close(ret0)
; PLAN-NEXT: remark: <unknown>:0:0: batched 3 calls (open, read, close) into 5 slots with 2 chains over 2 blocks{{$}}

; CHECK-LABEL: define i32 @early_exit(
; CHECK:       %sb.ran = call i64 @sysbatch_run(i64* %{{.*}}, i64* %{{.*}}, i64 5, i64 7)
; CHECK:       %sb.slot.ran = icmp sle i64 0, %sb.last
; CHECK:       %call.orig = call i32 (i8*, i32, ...) @open(
; CHECK:       br i1 %cmp, label %if.then, label %if.end
; CHECK:     if.end:
; CHECK:       icmp sle i64 3, %sb.last
; CHECK:       %call1.orig = call i64 @read(
; CHECK:       icmp sle i64 4, %sb.last
; CHECK:       %call2.orig = call i32 @close(
; CHECK-NOT:   sb.check

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @early_exit(i8* %p, i8* %buf) {
entry:
  %retval = alloca i32, align 4
  %p.addr = alloca i8*, align 8
  %buf.addr = alloca i8*, align 8
  %fd = alloca i32, align 4
  %n = alloca i64, align 8
  store i8* %p, i8** %p.addr, align 8
  store i8* %buf, i8** %buf.addr, align 8
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 (i8*, i32, ...) @open(i8* %0, i32 0)
  store i32 %call, i32* %fd, align 4
  %1 = load i32, i32* %fd, align 4
  %cmp = icmp slt i32 %1, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  store i32 -1, i32* %retval, align 4
  br label %return

if.end:
  %2 = load i32, i32* %fd, align 4
  %3 = load i8*, i8** %buf.addr, align 8
  %call1 = call i64 @read(i32 %2, i8* %3, i64 64)
  store i64 %call1, i64* %n, align 8
  %4 = load i32, i32* %fd, align 4
  %call2 = call i32 @close(i32 %4)
  %5 = load i64, i64* %n, align 8
  %conv = trunc i64 %5 to i32
  store i32 %conv, i32* %retval, align 4
  br label %return

return:
  %6 = load i32, i32* %retval, align 4
  ret i32 %6
}

declare i32 @close(i32)
declare i32 @open(i8*, i32, ...)
declare i64 @read(i32, i8*, i64)
