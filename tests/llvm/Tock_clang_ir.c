// The IR clang emits for libtock-c code, rewritten (-O0, before any other
// pass): frames at the issue point, one sysbatch_tock_run call, which
// leaves each call's libtock-c struct in its frame's words 1..4; on
// Cortex-M every result struct - memop_return_t included - comes back
// through an sret slot, which only the call writes and which is read only
// later in the call's block, so those reads read the frame (no copy into
// the slot); on RV32 (ilp32)
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
// TYPED-NEXT:  [[RW:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], [15 x i32]* %sb.frames, i64 0, i64 1
// TYPED-NEXT:  [[ADD:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], [15 x i32]* %sb.frames, i64 0, i64 6
// TYPED-NEXT:  [[HINT:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], [15 x i32]* %sb.frames, i64 0, i64 11
// RV-TYPED-NEXT:  [[P:%[0-9]+]] = bitcast i32* [[HINT]] to [2 x i32]*
// RV-TYPED-NEXT:  %call = load [2 x i32], [2 x i32]* [[P]], align 4
// CHECK-NOT:   llvm.memcpy
// TYPED:       [[B:%[0-9]+]] = bitcast i32* [[RW]] to i8*
// TYPED-NEXT:  load i8, i8* [[B]], align 4
// TYPED:       load i32, i32* [[ADD]], align 4
// ARM-TYPED:   load i32, i32* [[HINT]], align 4
// Opaque pointers (clang 15 and later): the same, without bitcasts.
// OPAQUE:      store i32 3, ptr %{{[0-9]+}}, align 4
// OPAQUE:      store i32 ptrtoint (ptr @cell to i32), ptr
// OPAQUE:      call void @sysbatch_tock_run_masked(ptr %sb.base, i32 3, i32 0)
// OPAQUE-NEXT: [[RW:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], ptr %sb.frames, i64 0, i64 1
// OPAQUE-NEXT: [[ADD:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], ptr %sb.frames, i64 0, i64 6
// OPAQUE-NEXT: [[HINT:%sb.result[0-9]*]] = getelementptr inbounds [15 x i32], ptr %sb.frames, i64 0, i64 11
// RV-OPAQUE-NEXT:  %call = load [2 x i32], ptr [[HINT]], align 4
// OPAQUE:      load i8, ptr [[RW]], align 4
// OPAQUE:      load i32, ptr [[ADD]], align 4
// ARM-OPAQUE:  load i32, ptr [[HINT]], align 4
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
