// The IR clang emits for libtock-c code, rewritten (-O0, before any other
// pass): frames at the issue point, one sysbatch_tock_run call, which
// leaves each call's libtock-c struct in its frame's words 1..4; on
// Cortex-M every result struct - memop_return_t included - comes back
// through an sret slot, which gets a copy of those words; on RV32 (ilp32)
// memop_return_t is 8 bytes and comes back in registers as [2 x i32],
// loaded from them.  No runtime call per site, no copy of the original
// call, no sysbatch_active probe.
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
// RV-NOT:      sb.result.tmp
// CHECK-NOT:   sysbatch_active
// TYPED:       store i32 3, i32* %{{[0-9]+}}, align 4
// TYPED:       store i32 ptrtoint (i32* @cell to i32), i32*
// TYPED:       call void @sysbatch_tock_run_masked(i32* %sb.base, i32 3, i32 0)
// TYPED-NEXT:  [[W:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], [15 x i32]* %sb.frames, i64 0, i64 1
// TYPED-NEXT:  [[RW:%[0-9]+]] = bitcast %struct.allow_rw_return_t* %rw to i8*
// TYPED-NEXT:  [[F:%[0-9]+]] = bitcast i32* [[W]] to i8*
// TYPED-NEXT:  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 [[RW]], i8* align 4 [[F]], i64 16, i1 false)
// TYPED-NEXT:  [[W:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], [15 x i32]* %sb.frames, i64 0, i64 6
// TYPED-NEXT:  [[ADD:%[0-9]+]] = bitcast %struct.syscall_return_t* %add to i8*
// TYPED-NEXT:  [[F:%[0-9]+]] = bitcast i32* [[W]] to i8*
// TYPED-NEXT:  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 [[ADD]], i8* align 4 [[F]], i64 16, i1 false)
// TYPED-NEXT:  [[W:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], [15 x i32]* %sb.frames, i64 0, i64 11
// ARM-TYPED-NEXT: [[HINT:%[0-9]+]] = bitcast %struct.memop_return_t* %hint to i8*
// ARM-TYPED-NEXT: [[F:%[0-9]+]] = bitcast i32* [[W]] to i8*
// ARM-TYPED-NEXT: call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 [[HINT]], i8* align 4 [[F]], i64 8, i1 false)
// RV-TYPED-NEXT:  [[P:%[0-9]+]] = bitcast i32* [[W]] to [2 x i32]*
// RV-TYPED-NEXT:  %call = load [2 x i32], [2 x i32]* [[P]], align 4
// Opaque pointers (clang 15 and later): the same, without bitcasts.
// OPAQUE:      store i32 3, ptr %{{[0-9]+}}, align 4
// OPAQUE:      store i32 ptrtoint (ptr @cell to i32), ptr
// OPAQUE:      call void @sysbatch_tock_run_masked(ptr %sb.base, i32 3, i32 0)
// OPAQUE-NEXT: [[W:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], ptr %sb.frames, i64 0, i64 1
// OPAQUE-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %rw, ptr align 4 [[W]], i64 16, i1 false)
// OPAQUE-NEXT: [[W:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], ptr %sb.frames, i64 0, i64 6
// OPAQUE-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %add, ptr align 4 [[W]], i64 16, i1 false)
// OPAQUE-NEXT: [[W:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], ptr %sb.frames, i64 0, i64 11
// ARM-OPAQUE-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %hint, ptr align 4 [[W]], i64 8, i1 false)
// RV-OPAQUE-NEXT:  %call = load [2 x i32], ptr [[W]], align 4
// CHECK-NOT:   @sysbatch_tock_{{run|take|series}}
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
