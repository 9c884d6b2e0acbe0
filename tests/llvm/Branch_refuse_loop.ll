; Negative: while (access(p, F_OK) == 0) unlink(p); getuid();
; The loop body's edge back to the header (the region's entry) is a back
; edge: it ends the region (missed remark), so the batch covers one
; iteration - access, then unlink or getuid - and is issued again at the
; header on the next one.  Nothing is batched across iterations.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function loop block 0:
; PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 access(a0, 0){{ +}}fail=+1 pos=+1
; PLAN-NEXT:   slot 1: call 1 unlink(a0){{ +}}fail=stop zero=stop pos=stop
; PLAN-NEXT:   slot 2: call 2 getuid()
; PLAN:      remark: <unknown>:0:0: branch ends the region: a loop: the edge goes back to the region's entry

; The issue point is in the loop header: one batch per iteration.
; CHECK-LABEL: define void @loop(
; CHECK:     while.cond:
; CHECK:       %sb.active = load i32, i32* @sysbatch_active
; CHECK:       %sb.ran = call i64 @sysbatch_run(
; CHECK:     while.body:
; CHECK:       call i32 @unlink(
; CHECK:       br label %while.cond

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @loop(i8* %p) {
entry:
  %p.addr = alloca i8*, align 8
  store i8* %p, i8** %p.addr, align 8
  br label %while.cond

while.cond:
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 @access(i8* %0, i32 0)
  %cmp = icmp eq i32 %call, 0
  br i1 %cmp, label %while.body, label %while.end

while.body:
  %1 = load i8*, i8** %p.addr, align 8
  %call1 = call i32 @unlink(i8* %1)
  br label %while.cond

while.end:
  %call2 = call i32 @getuid()
  ret void
}

declare i32 @access(i8*, i32)
declare i32 @getuid()
declare i32 @unlink(i8*)
