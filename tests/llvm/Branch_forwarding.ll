; Stack-slot forwarding across the blocks of a branchy region.
; @dominating: fd is stored in the entry block and loaded in if.end; the
; entry dominates it and no path in between stores %fd, so read's and
; close's fd is open's result: word copies.
; @one_arm: fd is stored with `other` in the entry and with open's result
; in if.then only; close in if.end sees different stores on different paths,
; so its fd is computed (arg-computed), and close is planned again on its own.
; RUN: %sbopt -passes='sysbatch<print-plan;no-join-split>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function dominating block 0:
; PLAN-NEXT: batch 0: calls 0..2, 5 slots, 2 chains
; PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0){{ +}}fail=stop
; PLAN-NEXT:   slot 1: copy ret[0] -> slot 3 arg 0
; PLAN-NEXT:   slot 2: copy ret[0] -> slot 4 arg 0
; PLAN-NEXT:   slot 3: call 1 read(ret0, a1, 8)
; PLAN-NEXT:   slot 4: call 2 close(ret0)
; PLAN-NEXT: remark: {{.*}} over 2 blocks{{$}}
; PLAN-NEXT: function one_arm block 0:
; PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 access(a0, 0){{ +}}fail=stop pos=stop
; PLAN-NEXT:   slot 1: call 1 openat(-100, a0, 0, 0)
; PLAN-NEXT: refused call 2 (close): arg-computed: {{.*}}
; PLAN-NEXT: remark: {{.*}}: batched 2 calls (access, open) into 2 slots with 0 chains over 2 blocks (branchy)
; PLAN-NEXT: function one_arm block 2:
; PLAN-NEXT: refused call 0 (close): below-min-batch: {{.*}}

; CHECK-LABEL: define i32 @dominating(
; CHECK:       %sb.ran = call i64 @sysbatch_run(i64* %{{.*}}, i64* %{{.*}}, i64 5, i64 7)
; CHECK-LABEL: define i32 @one_arm(
; CHECK:       %sb.ran = call i64 @sysbatch_run(i64* %{{.*}}, i64* %{{.*}}, i64 2, i64 7)
; CHECK:     if.end:
; CHECK-NEXT:  %{{[0-9]+}} = load i32, i32* %fd
; CHECK-NEXT:  %call2 = call i32 @close(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @dominating(i8* %p, i8* %buf) {
entry:
  %retval = alloca i32, align 4
  %p.addr = alloca i8*, align 8
  %buf.addr = alloca i8*, align 8
  %fd = alloca i32, align 4
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
  %call1 = call i64 @read(i32 %2, i8* %3, i64 8)
  %4 = load i32, i32* %fd, align 4
  %call2 = call i32 @close(i32 %4)
  store i32 %call2, i32* %retval, align 4
  br label %return

return:
  %5 = load i32, i32* %retval, align 4
  ret i32 %5
}


define i32 @one_arm(i8* %p, i32 %other) {
entry:
  %p.addr = alloca i8*, align 8
  %other.addr = alloca i32, align 4
  %fd = alloca i32, align 4
  store i8* %p, i8** %p.addr, align 8
  store i32 %other, i32* %other.addr, align 4
  %0 = load i32, i32* %other.addr, align 4
  store i32 %0, i32* %fd, align 4
  %1 = load i8*, i8** %p.addr, align 8
  %call = call i32 @access(i8* %1, i32 0)
  %cmp = icmp eq i32 %call, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %2 = load i8*, i8** %p.addr, align 8
  %call1 = call i32 (i8*, i32, ...) @open(i8* %2, i32 0)
  store i32 %call1, i32* %fd, align 4
  br label %if.end

if.end:
  %3 = load i32, i32* %fd, align 4
  %call2 = call i32 @close(i32 %3)
  ret i32 %call2
}


declare i32 @open(i8*, i32, ...)
declare i64 @read(i32, i8*, i64)
declare i32 @close(i32)
declare i32 @access(i8*, i32)
