// The IR clang emits for libtock-c code, rewritten (-O0, before any other
// pass): on Cortex-M every result struct - memop_return_t included - comes
// back through an sret slot, which sysbatch_tock_take writes; on RV32
// (ilp32) memop_return_t is 8 bytes and comes back in registers as
// [2 x i32], so sysbatch_tock_take writes a private 16-byte slot and the
// value is loaded from it.  Both: frames at the issue point, one series
// call with the stop policy, one runtime call per site and no copy of the
// original call, no sysbatch_active probe.
// REQUIRES: llvm
// RUN: %tock_sbclang --target=thumbv7m-none-eabi -O0 -fno-discard-value-names -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,%ptrs,ARM-%ptrs
// RUN: %tock_sbclang --target=riscv32-unknown-elf -O0 -fno-discard-value-names -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,RV,%ptrs,RV-%ptrs
// Without target=tock nothing happens on these triples:
// RUN: %sbclang -ffreestanding -I%srcroot/runtime/tock/libtock --target=riscv32-unknown-elf -O0 -S -emit-llvm %s -o - \
// RUN:   | %FileCheck %s --check-prefix=OFF
// OFF-NOT: sysbatch_tock
// OFF:     call void @allow_readwrite(
// OFF-NOT: sysbatch_tock
#include <tock.h>

static uint32_t cell;

// CHECK-LABEL: define{{.*}} i32 @probe(
// CHECK:       %sb.frames = alloca [15 x i32], align 4
// RV-NEXT:     %sb.result.tmp = alloca [16 x i8], align 16
// CHECK-NOT:   sysbatch_active
// TYPED:       store i32 3, i32* %{{[0-9]+}}, align 4
// TYPED:       store i32 ptrtoint (i32* @cell to i32), i32*
// TYPED:       %sb.left = call i32 @sysbatch_tock_series(i32* %sb.base, i32 3, i32 0)
// TYPED-NEXT:  %sb.ran = sub i32 3, %sb.left
// TYPED-NEXT:  [[RW:%[0-9]+]] = bitcast %struct.allow_rw_return_t* %rw to i8*
// TYPED-NEXT:  call void @sysbatch_tock_take(i8* [[RW]], i32* %sb.base, i32 0, i32 %sb.ran)
// TYPED-NEXT:  [[ADD:%[0-9]+]] = bitcast %struct.syscall_return_t* %add to i8*
// TYPED-NEXT:  call void @sysbatch_tock_take(i8* [[ADD]], i32* %sb.base, i32 1, i32 %sb.ran)
// ARM-TYPED-NEXT: [[HINT:%[0-9]+]] = bitcast %struct.memop_return_t* %hint to i8*
// ARM-TYPED-NEXT: call void @sysbatch_tock_take(i8* [[HINT]], i32* %sb.base, i32 2, i32 %sb.ran)
// RV-TYPED-NEXT:  [[TMP:%[0-9]+]] = bitcast [16 x i8]* %sb.result.tmp to i8*
// RV-TYPED-NEXT:  call void @sysbatch_tock_take(i8* [[TMP]], i32* %sb.base, i32 2, i32 %sb.ran)
// RV-TYPED-NEXT:  [[P:%[0-9]+]] = bitcast [16 x i8]* %sb.result.tmp to [2 x i32]*
// RV-TYPED-NEXT:  %call = load [2 x i32], [2 x i32]* [[P]], align 16
// Opaque pointers (clang 15 and later): the same calls, without bitcasts.
// OPAQUE:      store i32 3, ptr %{{[0-9]+}}, align 4
// OPAQUE:      store i32 ptrtoint (ptr @cell to i32), ptr
// OPAQUE:      %sb.left = call i32 @sysbatch_tock_series(ptr %sb.base, i32 3, i32 0)
// OPAQUE-NEXT: %sb.ran = sub i32 3, %sb.left
// OPAQUE-NEXT: call void @sysbatch_tock_take(ptr %rw, ptr %sb.base, i32 0, i32 %sb.ran)
// OPAQUE-NEXT: call void @sysbatch_tock_take(ptr %add, ptr %sb.base, i32 1, i32 %sb.ran)
// ARM-OPAQUE-NEXT: call void @sysbatch_tock_take(ptr %hint, ptr %sb.base, i32 2, i32 %sb.ran)
// RV-OPAQUE-NEXT:  call void @sysbatch_tock_take(ptr %sb.result.tmp, ptr %sb.base, i32 2, i32 %sb.ran)
// RV-OPAQUE-NEXT:  %call = load [2 x i32], ptr %sb.result.tmp, align 16
// CHECK-NOT:   @sysbatch_tock_series
// CHECK-NOT:   call {{.*}}@{{allow_readwrite|command|memop}}(
// CHECK-NOT:   br
// CHECK:       ret i32
int probe(void)
{
    allow_rw_return_t rw = allow_readwrite(0x90, 0, &cell, sizeof cell);
    syscall_return_t add = command(0x90, 1, 5, 0);
    memop_return_t hint = memop(10, 0);
    return rw.success + (int)add.type + (int)hint.status;
}
