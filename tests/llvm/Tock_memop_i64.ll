; RV32: memop_return_t returned in registers typed as one i64 (Tock_series_riscv.ll
; has clang's [2 x i32]): loaded as i64 from its frame's words 1..2.
; The command's result is never read, so its site reads nothing.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -S %s | %FileCheck %s

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }

; CHECK-LABEL: define i64 @i64_form()
; CHECK-NOT:   alloca [16 x i8]
; Nothing reads command's result (its sret slot): its site is gone.
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base, i32 2, i32 0)
; CHECK-NEXT:  %sb.result = getelementptr inbounds [10 x i32], [10 x i32]* %sb.frames, i64 0, i64 6
; CHECK-NEXT:  [[P:%[0-9]+]] = bitcast i32* %sb.result to i64*
; CHECK-NEXT:  %mr = load i64, i64* [[P]], align 4
; CHECK-NEXT:  ret i64 %mr
define i64 @i64_form() {
entry:
  %c = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %c, i32 2, i32 1, i32 1, i32 0)
  %mr = call i64 @memop(i32 11, i32 0)
  ret i64 %mr
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare i64 @memop(i32, i32)
