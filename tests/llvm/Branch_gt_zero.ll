; long n = read(fd, buf, 16); if (n > 0) n = write(1, buf, 16); n += getpid();
; The compare reads the stack slot %n, forwarded to read's result.  > 0 is
; the positive class only: write; failure and zero jump over it.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function gt_zero block 0:
; PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 read(a0, a1, 16){{ +}}fail=+1 zero=+1
; PLAN-NEXT:   slot 1: call 1 write(1, a1, 16)
; PLAN-NEXT:   slot 2: call 2 getpid()
; PLAN-NEXT: remark: {{.*}} over 3 blocks (branchy)

; CHECK-LABEL: define i64 @gt_zero(
; CHECK:       store i64 %call, i64* %n
; CHECK:       %cmp = icmp sgt i64 %{{[0-9]+}}, 0
; CHECK:       %call1.orig = call i64 @write(
; CHECK:       %call2.orig = call i32 @getpid()

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @gt_zero(i32 %fd, i8* %buf) {
entry:
  %fd.addr = alloca i32, align 4
  %buf.addr = alloca i8*, align 8
  %n = alloca i64, align 8
  store i32 %fd, i32* %fd.addr, align 4
  store i8* %buf, i8** %buf.addr, align 8
  %0 = load i32, i32* %fd.addr, align 4
  %1 = load i8*, i8** %buf.addr, align 8
  %call = call i64 @read(i32 %0, i8* %1, i64 16)
  store i64 %call, i64* %n, align 8
  %2 = load i64, i64* %n, align 8
  %cmp = icmp sgt i64 %2, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %3 = load i8*, i8** %buf.addr, align 8
  %call1 = call i64 @write(i32 1, i8* %3, i64 16)
  store i64 %call1, i64* %n, align 8
  br label %if.end

if.end:
  %4 = load i64, i64* %n, align 8
  %call2 = call i32 @getpid()
  %conv = sext i32 %call2 to i64
  %add = add nsw i64 %4, %conv
  ret i64 %add
}

declare i32 @getpid()
declare i64 @read(i32, i8*, i64)
declare i64 @write(i32, i8*, i64)
