; if (access(p, F_OK) == 0) unlink(p); else mkdir(p, 0755); getuid();
; Calls on both arms and after the join: access == 0 falls into unlink, the
; other classes jump over it to mkdir; unlink jumps over mkdir to getuid.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function if_else block 0:
; PLAN-NEXT: batch 0: calls 0..3, 4 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 access(a0, 0){{ +}}fail=+1 pos=+1
; PLAN-NEXT:   slot 1: call 1 unlink(a0){{ +}}fail=+1 zero=+1 pos=+1
; PLAN-NEXT:   slot 2: call 2 mkdir(a0, 493)
; PLAN-NEXT:   slot 3: call 3 getuid()
; PLAN-NEXT: remark: <unknown>:0:0: batched 4 calls (access, unlink, mkdir, getuid) into 4 slots with 0 chains over 4 blocks (branchy)

; Slot words: header nr | fail << 16 | zero << 32 | pos << 48.
; access (21), fail=+1 pos=+1: 21 + 65536 + 281474976710656
; CHECK-LABEL: define void @if_else(
; CHECK:     sb.issue:
; CHECK:       store i64 281474976776213, i64* %{{.*}}, align 8
; CHECK:       %sb.ran = call i64 @sysbatch_run(i64* %{{.*}}, i64* %{{.*}}, i64 4, i64 3)
; CHECK:       %call.orig = call i32 @access(
; CHECK:     if.then:
; CHECK:       getelementptr inbounds [4 x i64], [4 x i64]* %sb.rets, i64 0, i64 1
; CHECK:       call i32 @unlink(
; CHECK:     if.else:
; CHECK:       getelementptr inbounds [4 x i64], [4 x i64]* %sb.rets, i64 0, i64 2
; CHECK:       call i32 @mkdir(
; CHECK:     if.end:
; CHECK:       getelementptr inbounds [4 x i64], [4 x i64]* %sb.rets, i64 0, i64 3
; The raw result of a call that never fails is used as it is.
; CHECK:     sb.result{{[0-9]*}}:
; CHECK-NEXT:  [[U:%.*]] = trunc i64 %sb.raw{{[0-9]*}} to i32
; CHECK:       call i32 @getuid()

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @if_else(i8* %p) {
entry:
  %p.addr = alloca i8*, align 8
  store i8* %p, i8** %p.addr, align 8
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 @access(i8* %0, i32 0)
  %cmp = icmp eq i32 %call, 0
  br i1 %cmp, label %if.then, label %if.else

if.then:
  %1 = load i8*, i8** %p.addr, align 8
  %call1 = call i32 @unlink(i8* %1)
  br label %if.end

if.else:
  %2 = load i8*, i8** %p.addr, align 8
  %call2 = call i32 @mkdir(i8* %2, i32 493)
  br label %if.end

if.end:
  %call3 = call i32 @getuid()
  ret void
}

declare i32 @access(i8*, i32)
declare i32 @getuid()
declare i32 @mkdir(i8*, i32)
declare i32 @unlink(i8*)
