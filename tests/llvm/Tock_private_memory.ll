; Tock memory rule, the other side: code between the calls that touches only
; private stack slots commutes with the kernel and with upcalls - locals
; whose address never escapes, and the calls' own result temporaries (the
; sret slots, and the slot clang stores a register-returned memop into).
; Here a local counter, a struct copy between two result temporaries and a
; read of the first call's result all stay between the calls, and the four
; calls are still one series.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield;print-plan>,verify' -pass-remarks-missed=sysbatch \
; RUN:   -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err
; PLAN:      function f block 0:
; PLAN-NEXT: batch 0: calls 0..3, 4 slots, 0 chains
; PLAN-NEXT:   slot 0: call 0 command(2, 1, 0, 0)                fail=stop
; PLAN-NEXT:   slot 1: call 1 command(2, 1, a2, 0)               fail=stop
; PLAN-NEXT:   slot 2: call 2 memop(10, 0)                       fail=stop
; PLAN-NEXT:   slot 3: call 3 command(2, 2, 0, 0)                fail=stop
; PLAN-NOT:  remark

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }
%struct.memop_return_t = type { i32, i32 }

; CHECK-LABEL: define i32 @f()
; The local's value for frame 1 is recomputed at the issue point (n + 1).
; CHECK:       %cur.sb = load i32, i32* %n, align 4
; CHECK-NEXT:  %next.sb = add i32 %cur.sb, 1
; CHECK:       store i32 %next.sb, i32*
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base{{[0-9]*}}, i32 4, i32 0)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret i32
define i32 @f() {
entry:
  %n = alloca i32, align 4
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  %copy = alloca %struct.syscall_return_t, align 4
  %m = alloca %struct.memop_return_t, align 4
  %d = alloca %struct.syscall_return_t, align 4
  store i32 1, i32* %n, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  %ty.p = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %a, i32 0, i32 0
  %ty = load i32, i32* %ty.p, align 4
  %cur = load i32, i32* %n, align 4
  %next = add i32 %cur, 1
  store i32 %next, i32* %n, align 4
  %arg = load i32, i32* %n, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 %arg, i32 0)
  %dst = bitcast %struct.syscall_return_t* %copy to i8*
  %src = bitcast %struct.syscall_return_t* %b to i8*
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* align 4 %dst, i8* align 4 %src, i32 16, i1 false)
  %mr = call [2 x i32] @memop(i32 10, i32 0)
  %m.words = bitcast %struct.memop_return_t* %m to [2 x i32]*
  store [2 x i32] %mr, [2 x i32]* %m.words, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %d, i32 2, i32 2, i32 0, i32 0)
  %c.p = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %copy, i32 0, i32 0
  %c = load i32, i32* %c.p, align 4
  %s = add i32 %ty, %c
  ret i32 %s
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare [2 x i32] @memop(i32, i32)
declare void @llvm.memcpy.p0i8.p0i8.i32(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i32, i1 immarg)
