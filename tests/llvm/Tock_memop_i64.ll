; RV32: memop_return_t returned in registers typed as one i64 (Tock_series_riscv.ll
; has clang's [2 x i32]): converted into a 16-byte private slot, loaded as i64.
; The command's result is never read, so its site only re-issues the call.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -S %s | %FileCheck %s

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }

; CHECK-LABEL: define i64 @i64_form()
; CHECK:       %sb.result.tmp = alloca [16 x i8], align 16
; Nothing reads command's result (its sret slot): no conversion, only the
; call when its frame did not run.
; CHECK:       %sb.frame.skipped = icmp uge i32 0, %sb.ran
; CHECK-NOT:   @sysbatch_tock_ret_command
; CHECK:       call void @sysbatch_tock_ret_memop(i8* %{{[0-9]+}}, i32* %sb.frame)
; CHECK-NEXT:  [[P:%[0-9]+]] = bitcast [16 x i8]* %sb.result.tmp to i64*
; CHECK-NEXT:  %sb.result.value = load i64, i64* [[P]], align 16
; CHECK:       %mr = phi i64 [ %sb.result.value, %sb.result{{[0-9]*}} ], [ %mr.orig, %sb.call{{[0-9]*}} ]
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
