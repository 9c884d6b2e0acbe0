; RV32: memop_return_t returned in registers typed as { i32, i32 }
; (Tock_series_riscv.ll has clang's [2 x i32]): loaded as { i32, i32 } from
; its frame's words 1..2.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -S %s | %FileCheck %s

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }

; CHECK-LABEL: define i32 @struct_form()
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base, i32 2, i32 0)
; CHECK-NEXT:  %sb.result = getelementptr inbounds [10 x i32], [10 x i32]* %sb.frames, i64 0, i64 6
; CHECK-NEXT:  [[P:%[0-9]+]] = bitcast i32* %sb.result to { i32, i32 }*
; CHECK-NEXT:  %mr = load { i32, i32 }, { i32, i32 }* [[P]], align 4
; CHECK-NEXT:  %d = extractvalue { i32, i32 } %mr, 1
define i32 @struct_form() {
entry:
  %c = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %c, i32 2, i32 1, i32 2, i32 0)
  %mr = call { i32, i32 } @memop(i32 12, i32 0)
  %d = extractvalue { i32, i32 } %mr, 1
  ret i32 %d
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare { i32, i32 } @memop(i32, i32)
