; if (unlink(p) != 0) rmdir(p); return getuid();
; != 0 holds for the failure and positive classes: rmdir; == 0 jumps over it.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function ne_zero block 0:
; PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 unlink(a0){{ +}}zero=+1
; PLAN-NEXT:   slot 1: call 1 rmdir(a0)
; PLAN-NEXT:   slot 2: call 2 getuid()
; PLAN-NEXT: remark: {{.*}} over 3 blocks (branchy)

; CHECK-LABEL: define i32 @ne_zero(
; CHECK:       %cmp = icmp ne i32 %call, 0
; CHECK:       %call1.orig = call i32 @rmdir(
; CHECK:       %call2.orig = call i32 @getuid()

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @ne_zero(i8* %p) {
entry:
  %p.addr = alloca i8*, align 8
  store i8* %p, i8** %p.addr, align 8
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 @unlink(i8* %0)
  %cmp = icmp ne i32 %call, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %1 = load i8*, i8** %p.addr, align 8
  %call1 = call i32 @rmdir(i8* %1)
  br label %if.end

if.end:
  %call2 = call i32 @getuid()
  ret i32 %call2
}

declare i32 @getuid()
declare i32 @rmdir(i8*)
declare i32 @unlink(i8*)
