; Negatives of branchy regions that the pass decides, not the core.
; @zext: long t = getuid(); if (t == 0) ...  The compared value is getuid's
; unsigned result zero-extended into a signed variable: not looked through
; (GCC does not either), so the branch ends the region (missed remark).
; @later_load: if (access(p) == 0) return unlink(g_path); return rmdir(p);
; g_path is loaded in the then-block only, but it is a global: loading it at
; the issue point cannot fault on the other path, and nothing in the region
; writes it, so the load is made there and all three calls are batched
; (a later-path load that might fault stays arg-computed:
; e2e/Failure_chains.test, close_row).
; RUN: %sbopt -passes='sysbatch<print-plan;no-join-split>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      remark: <unknown>:0:0: branch ends the region: the branch is not the result of getuid (the block's last call) compared with a constant
; PLAN-NEXT: function zext block 0:
; PLAN-NEXT: refused call 0 (getuid): below-min-batch: {{.*}}
; PLAN:      function later_load block 0:
; PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 access(a0, 0){{ +}}fail=+1 pos=+1
; PLAN-NEXT:   slot 1: call 1 unlink(a0){{ +}}fail=stop zero=stop pos=stop
; PLAN-NEXT:   slot 2: call 2 rmdir(a0)

; CHECK-LABEL: define i64 @zext(
; CHECK-NOT:   call i64 @sysbatch_run
; CHECK-LABEL: define i32 @later_load(
; CHECK:     sb.issue:
; CHECK:       load {{.*}}@g_path
; CHECK:       %sb.ran = call i64 @sysbatch_run(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g_path = external global i8*, align 8

define i64 @zext(i8* %p) {
entry:
  %p.addr = alloca i8*, align 8
  %t = alloca i64, align 8
  store i8* %p, i8** %p.addr, align 8
  %call = call i32 @getuid()
  %conv = zext i32 %call to i64
  store i64 %conv, i64* %t, align 8
  %0 = load i64, i64* %t, align 8
  %cmp = icmp eq i64 %0, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %1 = load i8*, i8** %p.addr, align 8
  %call2 = call i32 @unlink(i8* %1)
  br label %if.end

if.end:
  %call3 = call i32 @getpid()
  %conv4 = sext i32 %call3 to i64
  ret i64 %conv4
}


define i32 @later_load(i8* %p) {
entry:
  %retval = alloca i32, align 4
  %p.addr = alloca i8*, align 8
  store i8* %p, i8** %p.addr, align 8
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 @access(i8* %0, i32 0)
  %cmp = icmp eq i32 %call, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %1 = load i8*, i8** @g_path, align 8
  %call1 = call i32 @unlink(i8* %1)
  store i32 %call1, i32* %retval, align 4
  br label %return

if.end:
  %2 = load i8*, i8** %p.addr, align 8
  %call2 = call i32 @rmdir(i8* %2)
  store i32 %call2, i32* %retval, align 4
  br label %return

return:
  %3 = load i32, i32* %retval, align 4
  ret i32 %3
}


declare i32 @getuid()
declare i32 @unlink(i8*)
declare i32 @getpid()
declare i32 @access(i8*, i32)
declare i32 @rmdir(i8*)
