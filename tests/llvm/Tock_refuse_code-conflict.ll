; Tock memory rule: the kernel may read or write a buffer allowed earlier at
; ANY later call, and a yield runs upcalls, so code between two calls that
; touches memory other than the function's private stack slots conflicts
; with every later Tock call (code-conflict).  A store to a global, a load
; of a global and a store through a pointer argument each split the run;
; on RV32 too (second RUN line).
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %sbopt -mtriple=riscv32-unknown-elf -passes='sysbatch<target=tock;tock-yield>' -pass-remarks=sysbatch \
; RUN:   -pass-remarks-missed=sysbatch -disable-output %s 2>&1 | %FileCheck %s --check-prefix=REMARK
; REMARK:      remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: conflict: a store that may touch memory shared with the kernel or an upcall may not move across the next call, command)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
; REMARK-NEXT: remark: <unknown>:0:0: batched 2 calls (allow_readwrite, command) into 2 slots with 0 chains
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: code-conflict (code between the calls may not be moved across this call: a load that may touch memory shared with the kernel or an upcall)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: conflict: a store that may touch memory shared with the kernel or an upcall may not move across the next call, subscribe)
; REMARK-NEXT: remark: <unknown>:0:0: subscribe not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
; REMARK-NOT:  remark

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.syscall_return_t = type { i32, [3 x i32] }
%struct.allow_rw_return_t = type { i8, i8*, i32, i32 }
%struct.subscribe_return_t = type { i8, void (i32, i32, i32, i8*)*, i8*, i32 }

@counter = global i32 0, align 4
@cell = global i32 0, align 4

; CHECK-LABEL: define void @store_global()
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @store_global() {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  store i32 5, i32* @counter, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  ret void
}

; The kernel writes @cell at the first command: the load after it must see
; that value and not the second command's, so the series holds the allow
; and the first command only, and the second command stays where it is.
; CHECK-LABEL: define i32 @load_allowed()
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base{{[0-9]*}}, i32 2, i32 0)
; CHECK:       %seen = load i32, i32* @cell, align 4
; CHECK-NEXT:  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 144, i32 1, i32 7, i32 0)
; CHECK-NEXT:  ret i32 %seen
define i32 @load_allowed() {
entry:
  %rw = alloca %struct.allow_rw_return_t, align 4
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @allow_readwrite(%struct.allow_rw_return_t* sret(%struct.allow_rw_return_t) align 4 %rw, i32 144, i32 0, i8* bitcast (i32* @cell to i8*), i32 4)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 144, i32 1, i32 5, i32 0)
  %seen = load i32, i32* @cell, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 144, i32 1, i32 7, i32 0)
  ret i32 %seen
}

; CHECK-LABEL: define void @store_through(i32* %p)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @store_through(i32* %p) {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  %s = alloca %struct.subscribe_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  store i32 1, i32* %p, align 4
  call void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4 %s, i32 1, i32 1, void (i32, i32, i32, i8*)* null, i8* null)
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare void @allow_readwrite(%struct.allow_rw_return_t* sret(%struct.allow_rw_return_t) align 4, i32, i32, i8*, i32)
declare void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4, i32, i32, void (i32, i32, i32, i8*)*, i8*)
