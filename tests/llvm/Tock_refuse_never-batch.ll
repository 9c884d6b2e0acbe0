; Tock: yield_no_wait, yield_for and tock_exit are never put into a series
; (never-batch, with the catalogue's reason); the calls around them are not
; batched across them either.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; REMARK:      remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: next-refused: the next call, yield_no_wait, is not batched (never-batch))
; REMARK-NEXT: remark: <unknown>:0:0: yield_no_wait not batched: never-batch (this call is never batched: yield-no-wait reports through a flag the kernel writes into app memory; sysbatch puts only yield-wait and Yield-WaitFor into a series)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: next-refused: the next call, tock_exit, is not batched (never-batch))
; REMARK-NEXT: remark: <unknown>:0:0: tock_exit not batched: never-batch (this call is never batched: ends the process: nothing after it may be moved before it)
; REMARK-NOT:  remark

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.syscall_return_t = type { i32, [3 x i32] }

; CHECK-LABEL: define i32 @no_wait()
; CHECK-NOT:   sysbatch_tock_series
; CHECK:       ret i32
define i32 @no_wait() {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  %ran = call i32 @yield_no_wait()
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  ret i32 %ran
}

; CHECK-LABEL: define void @exits()
; CHECK-NOT:   sysbatch_tock_series
; CHECK:       unreachable
define void @exits() {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  call void @tock_exit(i32 0)
  unreachable
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare i32 @yield_no_wait()
declare void @tock_exit(i32) noreturn
