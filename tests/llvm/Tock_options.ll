; The target is a plugin option; the triple alone is not enough.
;  - no target on a Cortex-M or RV32 triple: nothing is rewritten
;  - target=tock on x86_64 (no series call there) and target=linux on
;    Thumb (no sys_batch there) are errors, said once per module
;  - an unknown target value is an error, as a pass parameter and as a flag
; RUN: %sbopt -passes='sysbatch,verify' -S %s | %FileCheck %s --check-prefix=OFF
; RUN: %sbopt -mtriple=riscv32-unknown-elf -passes='sysbatch,verify' -S %s | %FileCheck %s --check-prefix=OFF
; OFF-NOT: sysbatch_tock_run
; OFF:     call void @command
; OFF-NEXT: call void @command
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>' -S %s | %FileCheck %s --check-prefix=ON
; RUN: %sbopt -load=%sbplugin -sysbatch-target=tock -sysbatch-tock-yield -passes=sysbatch -S %s | %FileCheck %s --check-prefix=ON
; ON:      @sysbatch_tock_run
; RUN: %not %sbopt -mtriple=x86_64-unknown-linux-gnu -passes='sysbatch<target=tock;tock-yield>' -disable-output %s 2>&1 \
; RUN:   | %FileCheck %s --check-prefix=X86
; X86:      error: sysbatch: target=tock needs a Thumb or riscv32 target, where the series call exists, not 'x86_64-unknown-linux-gnu'
; X86-NOT:  error
; RUN: %not %sbopt -passes='sysbatch<target=linux>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=LINUX
; LINUX:     error: sysbatch: target=linux needs an x86_64 Linux target (the only sys_batch ABI), not 'thumbv7m-none-unknown-eabi'
; LINUX-NOT: error
; RUN: %not %sbopt -passes='sysbatch<target=zephyr>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=PARAM
; PARAM: sysbatch: bad value 'zephyr' for 'target': expected 'linux' or 'tock'
; RUN: %not %sbopt -load=%sbplugin -sysbatch-target=zephyr -passes=sysbatch -disable-output %s 2>&1 \
; RUN:   | %FileCheck %s --check-prefix=FLAG
; FLAG: error: sysbatch: bad value 'zephyr' for 'target': expected 'linux' or 'tock'

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.syscall_return_t = type { i32, [3 x i32] }

define void @f() {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  ret void
}

define void @g() {
entry:
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
