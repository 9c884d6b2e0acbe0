; target=tock on RV32 (ilp32): 16-byte structs come back through sret as on
; Thumb, but memop_return_t (8 bytes) comes back in registers, which clang
; types as [2 x i32] (Tock_memop_i64.ll and Tock_memop_pair.ll: the i64 and
; { i32, i32 } forms).  Its sysbatch_tock_take
; then writes a fresh 16-byte-aligned private slot of at least 16 bytes and
; the call's own return type is loaded from it in place of the call.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -S %s | %FileCheck %s
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>' -pass-remarks=sysbatch -disable-output %s 2>&1 \
; RUN:   | %FileCheck %s --check-prefix=REMARK
; REMARK: remark: <unknown>:0:0: batched 2 calls (command, memop) into 2 slots with 0 chains
; REMARK-NOT:     remark

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%struct.syscall_return_t = type { i32, [3 x i32] }
%struct.memop_return_t = type { i32, i32 }

; CHECK-LABEL: define i32 @array_form()
; CHECK:       %sb.frames = alloca [10 x i32], align 4
; CHECK-NOT:   sb.result.tmp
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base, i32 2, i32 0)
; CHECK-NEXT:  %sb.result = getelementptr inbounds [10 x i32], [10 x i32]* %sb.frames, i64 0, i64 1
; The register-returned memop_return_t is loaded from its frame's words 1..2.
; CHECK-NEXT:  %sb.result1 = getelementptr inbounds [10 x i32], [10 x i32]* %sb.frames, i64 0, i64 6
; CHECK-NEXT:  [[P:%[0-9]+]] = bitcast i32* %sb.result1 to [2 x i32]*
; CHECK-NEXT:  %mr = load [2 x i32], [2 x i32]* [[P]], align 4
; CHECK-NEXT:  %m.words = bitcast
; CHECK-NEXT:  store [2 x i32] %mr, [2 x i32]* %m.words, align 4
; The command's struct, in an alloca only the call wrote and read later in
; its block, is read from its frame: no copy into %c.
; CHECK-NOT:   llvm.memcpy
; CHECK:       %t = load i32, i32* %sb.result, align 4
; CHECK-NOT:   call {{.*}} @{{command|memop}}(
; CHECK-NOT:   phi
; CHECK:       ret i32
define i32 @array_form() {
entry:
  %c = alloca %struct.syscall_return_t, align 4
  %m = alloca %struct.memop_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %c, i32 2, i32 1, i32 0, i32 0)
  %mr = call [2 x i32] @memop(i32 10, i32 0)
  %m.words = bitcast %struct.memop_return_t* %m to [2 x i32]*
  store [2 x i32] %mr, [2 x i32]* %m.words, align 4
  %st = getelementptr inbounds %struct.memop_return_t, %struct.memop_return_t* %m, i32 0, i32 0
  %v = load i32, i32* %st, align 4
  %ty = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %c, i32 0, i32 0
  %t = load i32, i32* %ty, align 4
  %sum = add i32 %v, %t
  ret i32 %sum
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare [2 x i32] @memop(i32, i32)
