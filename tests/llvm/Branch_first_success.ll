; First that succeeds: if ((fd = open(a)) < 0 && (fd = open(b)) < 0 &&
; (fd = open(c)) < 0) return -1.  A failure falls through to the next open;
; success stops the batch, where the search ends in the original too.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function first_success block 0:
; PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0){{ +}}zero=stop pos=stop
; PLAN-NEXT:   slot 1: call 1 openat(-100, a0, 0, 0){{ +}}zero=stop pos=stop
; PLAN-NEXT:   slot 2: call 2 openat(-100, a0, 0, 0)
; PLAN-NEXT: remark: <unknown>:0:0: batched 3 calls (open, open, open) into 3 slots with 0 chains over 3 blocks (branchy)

; The paths b and c are loaded after the issue point: re-loaded there.
; CHECK-LABEL: define i32 @first_success(
; CHECK:     sb.issue:
; CHECK:       load i8*, i8** %b.addr
; CHECK:       load i8*, i8** %c.addr
; CHECK:       %sb.ran = call i64 @sysbatch_run(i64* %{{.*}}, i64* %{{.*}}, i64 3, i64 7)
; CHECK:       %call.orig = call i32 (i8*, i32, ...) @open(
; CHECK:     land.lhs.true:
; CHECK:       %sb.batch.ran{{[0-9]+}} = icmp sge i64 %sb.last, 0
; CHECK:       %call1.orig = call i32 (i8*, i32, ...) @open(
; CHECK:       %call4.orig = call i32 (i8*, i32, ...) @open(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @first_success(i8* %a, i8* %b, i8* %c) {
entry:
  %retval = alloca i32, align 4
  %a.addr = alloca i8*, align 8
  %b.addr = alloca i8*, align 8
  %c.addr = alloca i8*, align 8
  %fd = alloca i32, align 4
  store i8* %a, i8** %a.addr, align 8
  store i8* %b, i8** %b.addr, align 8
  store i8* %c, i8** %c.addr, align 8
  %0 = load i8*, i8** %a.addr, align 8
  %call = call i32 (i8*, i32, ...) @open(i8* %0, i32 0)
  store i32 %call, i32* %fd, align 4
  %cmp = icmp slt i32 %call, 0
  br i1 %cmp, label %land.lhs.true, label %if.end

land.lhs.true:
  %1 = load i8*, i8** %b.addr, align 8
  %call1 = call i32 (i8*, i32, ...) @open(i8* %1, i32 0)
  store i32 %call1, i32* %fd, align 4
  %cmp2 = icmp slt i32 %call1, 0
  br i1 %cmp2, label %land.lhs.true3, label %if.end

land.lhs.true3:
  %2 = load i8*, i8** %c.addr, align 8
  %call4 = call i32 (i8*, i32, ...) @open(i8* %2, i32 0)
  store i32 %call4, i32* %fd, align 4
  %cmp5 = icmp slt i32 %call4, 0
  br i1 %cmp5, label %if.then, label %if.end

if.then:
  store i32 -1, i32* %retval, align 4
  br label %return

if.end:
  %3 = load i32, i32* %fd, align 4
  store i32 %3, i32* %retval, align 4
  br label %return

return:
  %4 = load i32, i32* %retval, align 4
  ret i32 %4
}

declare i32 @open(i8*, i32, ...)
