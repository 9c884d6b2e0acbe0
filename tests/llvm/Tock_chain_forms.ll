; Checked chains (tock-chains, opt-in): a block whose branch tests its last
; call's result EXACTLY as the series' stop condition - failing edge iff the
; return variant is a Failure* - joins the block its success edge leads to
; (if only that block enters it), and the run is planned as one series.
; Exact: command `r.type` against 128 (< 128, <= 127, >= 128, > 127; signed
; or unsigned; constant on either side; negated), allow/subscribe
; `r.success` (tested as a bool or == 0 / != 0).  Not exact, the run ends
; at the branch (ChainEnd remark): `r.type != 128`, `r.type < 4`, a test of
; data[0], a memop status, a load made before the block's last call.  A
; success block with another predecessor does
; not join.  With no-tock-chains every block is planned alone.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield;tock-chains>,verify' -pass-remarks=sysbatch \
; RUN:   -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; The default forms the same chains.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -disable-output %s 2>&1 | %FileCheck %s --check-prefix=REMARK
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield;no-tock-chains>' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -disable-output %s 2>&1 | %FileCheck %s --check-prefix=OFF
; OFF:     command not batched: below-min-batch
; OFF-NOT: remark: <unknown>:0:0: batched
; OFF-NOT: ends the run
; REMARK: remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains over 2 blocks
; REMARK: remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains over 2 blocks
; REMARK: remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains over 2 blocks
; REMARK: remark: <unknown>:0:0: batched 2 calls (command, command) into 2 slots with 0 chains over 2 blocks
; REMARK: remark: <unknown>:0:0: batched 2 calls (allow_readonly, command) into 2 slots with 0 chains over 2 blocks
; REMARK: remark: <unknown>:0:0: batched 2 calls (allow_readonly, command) into 2 slots with 0 chains over 2 blocks
; REMARK: remark: <unknown>:0:0: branch ends the run: the branch does not test the call's success exactly (command: r.type < 128 or >= 128; allow, subscribe: r.success)
; REMARK: remark: <unknown>:0:0: branch ends the run: the branch does not test the call's success exactly (command: r.type < 128 or >= 128; allow, subscribe: r.success)
; REMARK: remark: <unknown>:0:0: branch ends the run: the branch does not test the call's success exactly (command: r.type < 128 or >= 128; allow, subscribe: r.success)
; REMARK: remark: <unknown>:0:0: branch ends the run: the branch does not test the call's success exactly (command: r.type < 128 or >= 128; allow, subscribe: r.success)
; REMARK: remark: <unknown>:0:0: command not batched: below-min-batch
; REMARK: remark: <unknown>:0:0: command not batched: below-min-batch
; REMARK: remark: <unknown>:0:0: branch ends the run: the branch does not test the call's success exactly
; REMARK-NOT: remark: <unknown>:0:0: batched

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%r = type { i32, [3 x i32] }
%a = type { i8, i8*, i32, i32 }

; The series is issued in the entry block; the first call is checked (the
; code leaves the run when it fails), so the runtime stops there: the
; marks go as the runtime call's mask (bit 0; the class word stays 2):
; sysbatch_tock_run_commands for commands only, sysbatch_tock_run_masked
; when a frame needs converting (allow_readonly, below); the test stays
; where it was and reads the result from the frame (the load reads the
; frame itself: the result's alloca is read only there, in the call's
; block).  The second call's site, in the
; success block, is gone (result unused).
; CHECK-LABEL: define void @cmd_ult(
; CHECK:       store i32 2, i32* %0, align 4
; CHECK:       store i32 2, i32* %5, align 4
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base{{[0-9]*}}, i32 2, i32 1)
; CHECK-NEXT:  %sb.result = getelementptr inbounds [10 x i32], [10 x i32]* %sb.frames, i64 0, i64 1
; CHECK-NEXT:  %p = getelementptr
; CHECK-NEXT:  %t = load i32, i32* %sb.result, align 4
; CHECK-NEXT:  %c = icmp ult i32 %t, 128
; CHECK-NEXT:  br i1 %c, label %fail, label %ok
; CHECK:     ok:
; CHECK-NEXT:  ret void
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @cmd_ult(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp ult i32 %t, 128
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @cmd_sle127_left(
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base{{[0-9]*}}, i32 2, i32 1)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @cmd_sle127_left(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp sge i32 127, %t
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @cmd_uge_negated(
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base{{[0-9]*}}, i32 2, i32 1)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @cmd_uge_negated(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp uge i32 %t, 128
  %n = xor i1 %c, true
  br i1 %n, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @cmd_sgt127(
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base{{[0-9]*}}, i32 2, i32 1)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @cmd_sgt127(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp sgt i32 %t, 127
  br i1 %c, label %ok, label %fail
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @allow_bool(
; CHECK:       store i32 4, i32* %0, align 4
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base{{[0-9]*}}, i32 2, i32 1)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @allow_bool(i1 %other) {
entry:
  %x = alloca %a, align 4
  %y = alloca %r, align 4
  call void @allow_readonly(%a* sret(%a) align 4 %x, i32 1, i32 1, i8* null, i32 0)
  %p = getelementptr inbounds %a, %a* %x, i32 0, i32 0
  %b = load i8, i8* %p, align 4
  %c = trunc i8 %b to i1
  br i1 %c, label %ok, label %fail
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @allow_eq0(
; CHECK:       call void @sysbatch_tock_run_masked(i32* %sb.base{{[0-9]*}}, i32 2, i32 1)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @allow_eq0(i1 %other) {
entry:
  %x = alloca %a, align 4
  %y = alloca %r, align 4
  call void @allow_readonly(%a* sret(%a) align 4 %x, i32 1, i32 1, i8* null, i32 0)
  %p = getelementptr inbounds %a, %a* %x, i32 0, i32 0
  %b = load i8, i8* %p, align 4
  %c1 = trunc i8 %b to i1
  %w = zext i1 %c1 to i32
  %c = icmp eq i32 %w, 0
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @cmd_ne128(
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @cmd_ne128(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp ne i32 %t, 128
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @cmd_ult4(
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @cmd_ult4(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp ult i32 %t, 4
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @cmd_data0(
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @cmd_data0(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 1, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp ult i32 %t, 128
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @memop_status(
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @memop_status(i1 %other) {
entry:
  %x = alloca { i32, i32 }, align 4
  %y = alloca %r, align 4
  %mr = call [2 x i32] @memop(i32 1, i32 0)
  %mw = bitcast { i32, i32 }* %x to [2 x i32]*
  store [2 x i32] %mr, [2 x i32]* %mw, align 4
  %p = getelementptr inbounds { i32, i32 }, { i32, i32 }* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp ne i32 %t, 0
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; CHECK-LABEL: define void @two_preds(
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @two_preds(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %c = icmp ult i32 %t, 128
  br i1 %c, label %fail, label %side
side:
  br label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

; The test reads the slot BEFORE the block's last call writes it: it tests
; the first call's result, not the last one's, so the run ends there.
; CHECK-LABEL: define void @stale_load(
; CHECK:       call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
; CHECK:       call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 5, i32 0)
; CHECK-NOT:   sysbatch_tock_run
; CHECK:       ret void
define void @stale_load(i1 %other) {
entry:
  %x = alloca %r, align 4
  %y = alloca %r, align 4
  call void @helper()
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 0, i32 0)
  %p = getelementptr inbounds %r, %r* %x, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  call void @helper()
  call void @command(%r* sret(%r) align 4 %x, i32 2, i32 1, i32 5, i32 0)
  %c = icmp ult i32 %t, 128
  br i1 %c, label %fail, label %ok
ok:
  call void @command(%r* sret(%r) align 4 %y, i32 2, i32 1, i32 1, i32 0)
  ret void
fail:
  ret void
}

declare void @helper()
declare void @command(%r* sret(%r) align 4, i32, i32, i32, i32)
declare void @allow_readonly(%a* sret(%a) align 4, i32, i32, i8*, i32)
declare [2 x i32] @memop(i32, i32)
