; fill=template on Tock: the frames come from the core's COMPACT template
; (sb_tock_template; runtime/include/sysbatch_tock.h has the layout) and
; the call site stores only the words that vary, after the frames.  Here:
; words 2 2 1 %led 0 | 2 2 300 0 0, one patch (word 3); header {count 2,
; policy stop (not read by the runtime: no class word is marked, so it
; continues), 1 patch, COMPACT}, the patch index 3, then per
; frame class | k << 4 and its first k argument words: 0x22 2 1 (the
; patched r2 and the 0 after it dropped), 0x22 2 300 (300 escaped as 0xff +
; 4 bytes).  Commands only: the entries without conversion,
; sysbatch_tock_run_template_commands, and with the default fill=stores
; (every word stored, no template) sysbatch_tock_run_commands with the
; mask of checked frames (none).
; RUN: %sbopt -passes='sysbatch<target=tock;fill=template>' -S %s | %FileCheck %s
; RUN: %sbopt -passes='sysbatch<target=tock>' -S %s | %FileCheck %s --check-prefix=STORES
; CHECK: @sb.tock.template = private unnamed_addr constant [15 x i8] c"\02\00\01\02\03\22\02\01\22\02\FF,\01\00\00", align 4
; CHECK-LABEL: define void @two(
; CHECK:       %sb.frames = alloca [11 x i32], align 4
; CHECK:       [[P:%.*]] = getelementptr inbounds [11 x i32], {{.*}}%sb.frames, i{{32|64}} 0, i{{32|64}} 10
; CHECK-NEXT:  store i32 %led, {{.*}}[[P]], align 4
; CHECK-NEXT:  %sb.base = getelementptr inbounds [11 x i32], {{.*}}%sb.frames, i{{32|64}} 0, i{{32|64}} 0
; CHECK-NEXT:  call void @sysbatch_tock_run_template_commands({{.*}}%sb.base, {{.*}}@sb.tock.template
; CHECK-NOT:   store
; CHECK-NOT:   sysbatch_tock_take
; CHECK:       ret void
; STORES-NOT:  sb.tock.template
; STORES:      %sb.frames = alloca [10 x i32], align 4
; STORES:      call void @sysbatch_tock_run_commands({{.*}}%sb.base, i32 2, i32 0)

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.syscall_return_t = type { i32, [3 x i32] }

define void @two(i32 %led) {
entry:
  %a = alloca %struct.syscall_return_t, align 4
  %b = alloca %struct.syscall_return_t, align 4
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %a, i32 2, i32 1, i32 %led, i32 0)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %b, i32 2, i32 300, i32 0, i32 0)
  ret void
}

declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
