; Tock: the series call has no word copy, so a result of one call that feeds
; an argument of a later one ends the series there (no-chaining): here the
; LED count that command 0 returns (data[0] of its struct, read from its
; sret slot), and a field of the memop_return_t RV32 returns in registers
; (read from the slot clang stores it to).
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; REMARK:      remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: next-cannot-join: the next call, command, cannot join it (no-chaining))
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: no-chaining (an argument is the result of an earlier call in the batch and this target cannot chain results)
; REMARK-NEXT: remark: <unknown>:0:0: memop not batched: below-min-batch (too few calls in a row to pay for a batch: next-cannot-join: the next call, command, cannot join it (no-chaining))
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: no-chaining (an argument is the result of an earlier call in the batch and this target cannot chain results)
; REMARK-NEXT: remark: <unknown>:0:0: memop not batched: below-min-batch (too few calls in a row to pay for a batch: next-cannot-join: the next call, command, cannot join it (no-chaining))
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: no-chaining (an argument is the result of an earlier call in the batch and this target cannot chain results)
; REMARK-NEXT: remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: below-min-batch (too few calls in a row to pay for a batch: barrier: call to helper stands between it and the next call, command)
; REMARK-NEXT: remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains
; REMARK-NEXT: remark: <unknown>:0:0: command not batched: arg-computed (an argument is computed by code after the batch would start)
; REMARK-NOT:  remark

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }
%struct.memop_return_t = type { i32, i32 }

; CHECK-LABEL: define void @sret_field()
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @sret_field() {
entry:
  %r = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %r, i32 2, i32 0, i32 0, i32 0)
  %d = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %r, i32 0, i32 1, i32 0
  %n = load i32, i32* %d, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 %n, i32 0)
  ret void
}

; CHECK-LABEL: define void @register_field()
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @register_field() {
entry:
  %m = alloca %struct.memop_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  %mr = call [2 x i32] @memop(i32 1, i32 0)
  %w = bitcast %struct.memop_return_t* %m to [2 x i32]*
  store [2 x i32] %mr, [2 x i32]* %w, align 4
  %d = getelementptr inbounds %struct.memop_return_t, %struct.memop_return_t* %m, i32 0, i32 1
  %n = load i32, i32* %d, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 %n, i32 0)
  ret void
}

; Optimised IR: the register-returned struct's field taken directly.
; CHECK-LABEL: define void @extracted_field()
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @extracted_field() {
entry:
  %b = alloca %struct.syscall_return_t, align 4
  %mr = call [2 x i32] @memop(i32 1, i32 0)
  %n = extractvalue [2 x i32] %mr, 1
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 %n, i32 0)
  ret void
}

; A field of an earlier series' (here: a refused call's) result is no
; chain: the slot is private, so the unknown call in between cannot change
; it, and the field is loaded again where the next series is issued.
; CHECK-LABEL: define i32 @from_earlier()
; CHECK:       call void @helper()
; CHECK:       %d.sb = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %count, i32 0, i32 1, i32 0
; CHECK-NEXT:  %n.sb = load i32, i32* %d.sb, align 4
; CHECK:       store i32 %n.sb, i32*
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base{{[0-9]*}}, i32 2, i32 0)
define i32 @from_earlier() {
entry:
  %count = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  %r = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %count, i32 2, i32 0, i32 0, i32 0)
  call void @helper()
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 0, i32 0)
  %d = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %count, i32 0, i32 1, i32 0
  %n = load i32, i32* %d, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %r, i32 2, i32 1, i32 %n, i32 0)
  %t.p = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %r, i32 0, i32 0
  %t = load i32, i32* %t.p, align 4
  ret i32 %t
}

; The field is overwritten after the call (r.data[0] = 7): what the third
; command reads is then computed code, not the first call's result, and
; must not be re-read at the issue point (arg-computed).
; CHECK-LABEL: define void @overwritten()
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base{{[0-9]*}}, i32 2, i32 0)
; CHECK:       store i32 7, i32* %d, align 4
; CHECK-NEXT:  %n = load i32, i32* %d, align 4
; CHECK-NEXT:  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %c, i32 2, i32 1, i32 %n, i32 0)
define void @overwritten() {
entry:
  %r = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  %c = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %r, i32 2, i32 0, i32 0, i32 0)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 0, i32 0)
  %d = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %r, i32 0, i32 1, i32 0
  store i32 7, i32* %d, align 4
  %n = load i32, i32* %d, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %c, i32 2, i32 1, i32 %n, i32 0)
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare [2 x i32] @memop(i32, i32)
declare void @helper()
