; RV32: memop_return_t returned in registers typed as one i64 (Tock_series_riscv.ll
; has clang's [2 x i32]): converted into a 16-byte private slot, loaded as i64.
; The command's result is never read, so its site converts nothing (null).
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -S %s | %FileCheck %s

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }

; CHECK-LABEL: define i64 @i64_form()
; CHECK:       %sb.result.tmp = alloca [16 x i8], align 16
; Nothing reads command's result (its sret slot): its site passes null.
; CHECK:       %sb.ran = sub i32 2, %sb.left
; CHECK-NEXT:  call void @sysbatch_tock_take(i8* null, i32* %sb.base, i32 0, i32 %sb.ran)
; CHECK-NEXT:  [[T:%[0-9]+]] = bitcast [16 x i8]* %sb.result.tmp to i8*
; CHECK-NEXT:  call void @sysbatch_tock_take(i8* [[T]], i32* %sb.base, i32 1, i32 %sb.ran)
; CHECK-NEXT:  [[P:%[0-9]+]] = bitcast [16 x i8]* %sb.result.tmp to i64*
; CHECK-NEXT:  %mr = load i64, i64* [[P]], align 16
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
