; Tock memory rule for results: a call whose struct goes straight into
; memory the kernel or an upcall may see (its sret pointer is not a private
; slot: a pointer argument here, a global next) stores there when it
; returns, so that store cannot move below the later calls (code-conflict,
; as the GCC plugin reports `*p = command (...)`).  clang's usual
; `g = command (...)` - a temporary, then memcpy into g - conflicts through
; the memcpy, which is that assignment's store and is named so (as GCC,
; which sees the assignment, does).
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; REMARK:      remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: conflict: a store that may touch memory shared with the kernel or an upcall may not move across the next call, command)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: conflict: a store that may touch memory shared with the kernel or an upcall may not move across the next call, command)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: code-conflict (code between the calls may not be moved across this call: a store that may touch memory shared with the kernel or an upcall)
; REMARK-NOT:  remark

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.syscall_return_t = type { i32, [3 x i32] }

@g = global %struct.syscall_return_t zeroinitializer, align 4

; CHECK-LABEL: define void @through(%struct.syscall_return_t* %p)
; CHECK-NOT:   sysbatch_tock_series
; CHECK:       ret void
define void @through(%struct.syscall_return_t* %p) {
entry:
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %p, i32 2, i32 1, i32 0, i32 0)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  ret void
}

; CHECK-LABEL: define void @global_copy()
; CHECK-NOT:   sysbatch_tock_series
; CHECK:       ret void
define void @global_copy() {
entry:
  %t = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %t, i32 2, i32 1, i32 0, i32 0)
  %src = bitcast %struct.syscall_return_t* %t to i8*
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* align 4 bitcast (%struct.syscall_return_t* @g to i8*), i8* align 4 %src, i32 16, i1 false)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare void @llvm.memcpy.p0i8.p0i8.i32(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i32, i1 immarg)
