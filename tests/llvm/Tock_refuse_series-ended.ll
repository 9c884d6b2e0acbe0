; Tock: a yield may only be the LAST frame of a series (PR #3077: its upcall
; runs after every other call), so the series ends after it and the calls
; behind it start the next one (series-ended, reported where that next
; series starts).  A yield with no batchable call before it is a series of
; one, below the minimum.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield;print-plan>,verify' -pass-remarks=sysbatch \
; RUN:   -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; REMARK:      function f block 0:
; REMARK-NEXT: batch 0: calls 0..2, 3 slots, 0 chains
; REMARK-NEXT:   slot 0: call 0 subscribe(144, 0, a2, 0)           fail=stop
; REMARK-NEXT:   slot 1: call 1 command(144, 1, 5, 0)              fail=stop
; REMARK-NEXT:   slot 2: call 2 yield(1)                           fail=stop
; REMARK-NEXT:   ended before call 3 (command): series-ended
; REMARK-NEXT: batch 1: calls 3..4, 2 slots, 0 chains
; REMARK-NEXT:   slot 0: call 3 command(2, 1, 0, 0)                fail=stop
; REMARK-NEXT:   slot 1: call 4 command(2, 1, 1, 0)                fail=stop
; REMARK-NEXT:   ended before call 5 (yield): code-conflict: a store that may touch memory shared with the kernel or an upcall
; REMARK-NEXT: refused call 5 (yield): code-conflict: code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall
; REMARK-NEXT: refused call 6 (yield): below-min-batch: too few calls in a row to pay for a batch: last-call: no system call follows it on any path
; REMARK-NEXT: remark: <unknown>:0:0: command not in the series before it: series-ended (the batch ended at a yield, which may only be the last call of a Tock series)
; REMARK-NEXT: remark: <unknown>:0:0: batched 3 calls (subscribe, command, yield) into 3 slots with 0 chains
; REMARK-NEXT: remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains
; REMARK-NEXT: remark: <unknown>:0:0: yield not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
; REMARK-NEXT: remark: <unknown>:0:0: yield not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
; REMARK-NOT:  remark

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.syscall_return_t = type { i32, [3 x i32] }
%struct.subscribe_return_t = type { i8, void (i32, i32, i32, i8*)*, i8*, i32 }

@flag = global i32 0, align 4

; Two series: the first ends with the yield, the second starts right after.
; CHECK-LABEL: define void @f()
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base{{[0-9]*}}, i32 3, i32 0)
; The yield's site, last of the first series: nothing left of it.
; CHECK-NOT:   call void @yield()
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base{{[0-9]*}}, i32 2, i32 0)
; CHECK-NEXT:  store i32 1, i32* @flag
; CHECK-NEXT:  call void @yield()
; CHECK-NEXT:  call void @yield()
; CHECK-NEXT:  ret void
define void @f() {
entry:
  %s = alloca %struct.subscribe_return_t, align 4
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  %c = alloca %struct.syscall_return_t, align 4
  call void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4 %s, i32 144, i32 0, void (i32, i32, i32, i8*)* @cb, i8* null)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 144, i32 1, i32 5, i32 0)
  call void @yield()
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 0, i32 0)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %c, i32 2, i32 1, i32 1, i32 0)
  store i32 1, i32* @flag, align 4
  call void @yield()
  call void @yield()
  ret void
}

define internal void @cb(i32 %0, i32 %1, i32 %2, i8* %3) {
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4, i32, i32, void (i32, i32, i32, i8*)*, i8*)
declare void @yield()
