; if (chdir(p) == -1) return rmdir(p); return mkdir(p, 0700);
; == -1 holds exactly for the failure class: rmdir on < 0, mkdir otherwise.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function eq_minus_one block 0:
; PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 chdir(a0){{ +}}zero=+1 pos=+1
; PLAN-NEXT:   slot 1: call 1 rmdir(a0){{ +}}fail=stop zero=stop pos=stop
; PLAN-NEXT:   slot 2: call 2 mkdir(a0, 448)
; PLAN-NEXT: remark: {{.*}} over 3 blocks (branchy)

; CHECK-LABEL: define i32 @eq_minus_one(
; CHECK:       %cmp = icmp eq i32 %call, -1
; CHECK:       %call1.orig = call i32 @rmdir(
; CHECK:       %call2.orig = call i32 @mkdir(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @eq_minus_one(i8* %p) {
entry:
  %retval = alloca i32, align 4
  %p.addr = alloca i8*, align 8
  store i8* %p, i8** %p.addr, align 8
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 @chdir(i8* %0)
  %cmp = icmp eq i32 %call, -1
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %1 = load i8*, i8** %p.addr, align 8
  %call1 = call i32 @rmdir(i8* %1)
  store i32 %call1, i32* %retval, align 4
  br label %return

if.end:
  %2 = load i8*, i8** %p.addr, align 8
  %call2 = call i32 @mkdir(i8* %2, i32 448)
  store i32 %call2, i32* %retval, align 4
  br label %return

return:
  %3 = load i32, i32* %retval, align 4
  ret i32 %3
}

declare i32 @chdir(i8*)
declare i32 @mkdir(i8*, i32)
declare i32 @rmdir(i8*)
