; A yield closes a Tock series by default: libtock-c's yield() has been the
; bare trap since June 2025 (before, it ran a task queued with tock_enqueue
; instead of trapping, which a series frame cannot do).  With no-tock-yield
; (pass parameter, or -sysbatch-no-tock-yield) the two commands are a
; series and the yield stays a call of its own, with the reason.
; RUN: %sbopt -passes='sysbatch<target=tock;no-tock-yield>' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -disable-output %s 2>&1 | %FileCheck %s --check-prefix=DEFAULT
; RUN: %sbopt -load=%sbplugin -sysbatch-target=tock -sysbatch-no-tock-yield -passes=sysbatch -pass-remarks=sysbatch \
; RUN:   -pass-remarks-missed=sysbatch -disable-output %s 2>&1 | %FileCheck %s --check-prefix=DEFAULT
; RUN: %sbopt -passes='sysbatch<target=tock>' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -disable-output %s 2>&1 | %FileCheck %s --check-prefix=YIELD
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -disable-output %s 2>&1 | %FileCheck %s --check-prefix=YIELD
; RUN: %sbopt -load=%sbplugin -sysbatch-target=tock -sysbatch-tock-yield -passes=sysbatch -pass-remarks=sysbatch \
; RUN:   -disable-output %s 2>&1 | %FileCheck %s --check-prefix=YIELD
; DEFAULT:      remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains
; DEFAULT-NEXT: remark: <unknown>:0:0: yield not batched: never-batch (this call is never batched: no-tock-yield: the app's yield() may not be the bare trap (libtock-c before June 2025 ran a task queued with tock_enqueue instead of trapping), which a series frame cannot do)
; DEFAULT-NOT:  remark
; YIELD:        remark: <unknown>:0:0: batched 3 calls (command, command, yield) into 3 slots with 0 chains
; YIELD-NOT:    remark

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.syscall_return_t = type { i32, [3 x i32] }

define void @blink_and_wait() {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  call void @yield()
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare void @yield()
