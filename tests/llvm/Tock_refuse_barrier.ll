; Tock: a call to anything else between two libtock-c calls is a barrier
; (it may allow, subscribe or touch any memory), and so is a volatile store
; (a device register, or memory the kernel shares).  No series forms.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; REMARK:      remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: barrier: call to helper stands between it and the next call, command)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: barrier (code between the calls may touch anything (unknown call, volatile or atomic access): call to helper)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: barrier: volatile store stands between it and the next call, command)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: barrier (code between the calls may touch anything (unknown call, volatile or atomic access): volatile store)
; REMARK-NOT:  remark

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }

; CHECK-LABEL: define void @unknown_call()
; CHECK-NOT:   sysbatch_tock_series
; CHECK:       ret void
define void @unknown_call() {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  call void @helper()
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  ret void
}

; CHECK-LABEL: define void @volatile_local()
; CHECK-NOT:   sysbatch_tock_series
; CHECK:       ret void
define void @volatile_local() {
entry:
  %v = alloca i32, align 4
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  store volatile i32 1, i32* %v, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare void @helper()
