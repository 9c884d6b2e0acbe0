; read(fd, buf, 16); if (flag) close(fd); getuid();
; The branch tests a parameter (through its -O0 stack slot, stored before
; the region): available where the batch is issued, so it is a predicated
; branch.  read's slot takes one of two jump sets when the batch is filled:
; into close when the flag holds, over it to getuid when not.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      function other_value block 0:
; PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
; PLAN-NEXT:   slot 0: call 0 read(a0, a1, 16)                   b0 true: next; false: fail=+1 zero=+1 pos=+1
; PLAN-NEXT:   slot 1: call 1 close(a0)
; PLAN-NEXT:   slot 2: call 2 getuid()
; PLAN-NEXT: remark: <unknown>:0:0: batched 3 calls (read, close, getuid) into 3 slots with 0 chains over 3 blocks (branchy)
; PLAN-NOT:  branch ends the region

; The header word of slot 0 is chosen on the reloaded flag at the issue
; point: nr 0 with jumps 0 (0) or with +1 +1 +1 (0x0001000100010000).
; CHECK-LABEL: define i32 @other_value(
; CHECK:       sb.issue:
; CHECK:       [[F:%.*]] = load i32, {{i32\*|ptr}} %flag.addr
; CHECK:       [[C:%.*]] = icmp ne i32 [[F]], 0
; CHECK:       %sb.jumps = select i1 [[C]], i64 0, i64 281479271743488
; CHECK:       call i64 @sysbatch_run(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @other_value(i32 %fd, i32 %flag, i8* %buf) {
entry:
  %fd.addr = alloca i32, align 4
  %flag.addr = alloca i32, align 4
  %buf.addr = alloca i8*, align 8
  store i32 %fd, i32* %fd.addr, align 4
  store i32 %flag, i32* %flag.addr, align 4
  store i8* %buf, i8** %buf.addr, align 8
  %0 = load i32, i32* %fd.addr, align 4
  %1 = load i8*, i8** %buf.addr, align 8
  %call = call i64 @read(i32 %0, i8* %1, i64 16)
  %2 = load i32, i32* %flag.addr, align 4
  %tobool = icmp ne i32 %2, 0
  br i1 %tobool, label %if.then, label %if.end

if.then:
  %3 = load i32, i32* %fd.addr, align 4
  %call1 = call i32 @close(i32 %3)
  br label %if.end

if.end:
  %call2 = call i32 @getuid()
  ret i32 %call2
}

declare i32 @close(i32)
declare i32 @getuid()
declare i64 @read(i32, i8*, i64)
