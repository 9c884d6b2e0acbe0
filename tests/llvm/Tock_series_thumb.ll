; target=tock on Cortex-M (thumbv7m): allow, subscribe, command, memop and a
; final yield become ONE series call.  Every frame is filled by stores at
; the first call ({class, r0..r3}; memop r2 = r3 = 0, yield r0 = 1), the
; series runs with the stop policy (0), and call site k then becomes one
; call of sysbatch_tock_take(out, frames, k, ran) (ran = n - left): it
; writes the struct libtock-c returns into the call's sret slot, running
; frame k itself first when k >= ran.  yield returns nothing: out = null.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -S %s | %FileCheck %s
; RUN: %sbopt -load=%sbplugin -sysbatch-target=tock -sysbatch-tock-yield -passes='sysbatch,verify' -S %s | %FileCheck %s
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield;print-plan>' -pass-remarks=sysbatch \
; RUN:   -pass-remarks-missed=sysbatch -disable-output %s 2>&1 | %FileCheck %s --check-prefix=PLAN
; PLAN:      function f block 0:
; PLAN-NEXT: batch 0: calls 0..4, 5 slots, 0 chains
; PLAN-NEXT:   slot 0: call 0 allow_readwrite(144, 0, a2, 32)    fail=stop
; PLAN-NEXT:   slot 1: call 1 subscribe(144, 0, a2, 0)           fail=stop
; PLAN-NEXT:   slot 2: call 2 command(144, 1, a2, 0)             fail=stop
; PLAN-NEXT:   slot 3: call 3 memop(1, 0)                        fail=stop
; PLAN-NEXT:   slot 4: call 4 yield(1)                           fail=stop
; PLAN-NEXT: remark: <unknown>:0:0: batched 5 calls (allow_readwrite, subscribe, command, memop, yield) into 5 slots with 0 chains
; PLAN-NOT:  remark

target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "thumbv7m-none-unknown-eabi"

%struct.allow_rw_return_t = type { i8, i8*, i32, i32 }
%struct.subscribe_return_t = type { i8, void (i32, i32, i32, i8*)*, i8*, i32 }
%struct.syscall_return_t = type { i32, [3 x i32] }
%struct.memop_return_t = type { i32, i32 }

@buf = internal global [32 x i8] zeroinitializer, align 1

; CHECK-LABEL: define i32 @f(i32 %n)
; CHECK:       %sb.frames = alloca [25 x i32], align 4
; No probe of sysbatch_active: the backend is chosen at build time.
; CHECK-NOT:   sysbatch_active
; Frame 0: allow_readwrite is class 3, then driver, number, buffer, length.
; CHECK:       store i32 3, i32* [[W0:%[0-9]+]], align 4
; CHECK-NEXT:  [[W1:%[0-9]+]] = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 1
; CHECK-NEXT:  store i32 144, i32* [[W1]], align 4
; CHECK:       store i32 0, i32*
; CHECK:       store i32 ptrtoint ([32 x i8]* @buf to i32), i32*
; CHECK:       store i32 32, i32*
; Frame 1: subscribe (class 1) with the upcall's address and a null userdata.
; CHECK:       store i32 1, i32*
; CHECK:       store i32 144, i32*
; CHECK:       store i32 0, i32*
; CHECK:       store i32 ptrtoint (void (i32, i32, i32, i8*)* @cb to i32), i32*
; CHECK:       store i32 0, i32*
; Frame 2: command (class 2); its third argument is the function's %n.
; CHECK:       store i32 2, i32*
; CHECK:       store i32 144, i32*
; CHECK:       store i32 1, i32*
; CHECK:       store i32 %n, i32*
; CHECK:       store i32 0, i32*
; Frame 3: memop (class 5) with r2 = r3 = 0.
; CHECK:       [[M:%[0-9]+]] = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 15
; CHECK-NEXT:  store i32 5, i32* [[M]], align 4
; CHECK:       store i32 1, i32*
; CHECK:       store i32 0, i32*
; CHECK:       store i32 0, i32*
; CHECK:       store i32 0, i32*
; Frame 4: yield (class 0), r0 = 1 (wait), r1..r3 = 0.
; CHECK:       [[Y:%[0-9]+]] = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 20
; CHECK-NEXT:  store i32 0, i32* [[Y]], align 4
; CHECK-NEXT:  [[Y1:%[0-9]+]] = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 21
; CHECK-NEXT:  store i32 1, i32* [[Y1]], align 4
; CHECK:       %sb.base = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 0
; One runtime call runs the frames; no call is tested, so none is marked
; (class words 3, 1, 2, 5, 0 as stored above).
; CHECK-NEXT:  call void @sysbatch_tock_run_masked(i32* %sb.base, i32 5, i32 0)
; Site k reads its frame's return words (words 5k+1..), which the runtime
; turned into the call's struct: each result lives in an alloca only its
; call wrote, read later in the call's block, so those reads read the
; frame (no copy into the sret slot; on Thumb memop_return_t, 8 bytes,
; comes back through sret as well).  Site 4, yield: nothing to read.  No
; branch, no runtime call, the original call gone.
; CHECK-NEXT:  %sb.result = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 1
; CHECK-NEXT:  %sb.result1 = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 6
; CHECK-NEXT:  %sb.result2 = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 11
; CHECK-NEXT:  %sb.result3 = getelementptr inbounds [25 x i32], [25 x i32]* %sb.frames, i64 0, i64 16
; CHECK-NOT:   llvm.memcpy
; CHECK:       [[A:%[0-9]+]] = bitcast i32* %sb.result to i8*
; CHECK-NEXT:  %a.v = load i8, i8* [[A]], align 4
; CHECK:       [[S:%[0-9]+]] = bitcast i32* %sb.result1 to i8*
; CHECK-NEXT:  %s.v = load i8, i8* [[S]], align 4
; CHECK:       %c.v = load i32, i32* %sb.result2, align 4
; CHECK:       %m.v = load i32, i32* %sb.result3, align 4
; CHECK-NOT:   br
; CHECK-NOT:   call void @{{allow_readwrite|subscribe|command|memop|yield}}(
; CHECK-NOT:   @sysbatch_tock_{{run|take|series}}
; CHECK:       ret i32
; The converters are the runtime's business: not declared here.
; CHECK-NOT:   sysbatch_tock_ret_
; CHECK:       declare void @sysbatch_tock_run_masked(i32*, i32, i32)
; CHECK-NOT:   sysbatch_tock_{{ret_|take}}
; CHECK-NOT:   sysbatch_tock_ret_
define i32 @f(i32 %n) {
entry:
  %a = alloca %struct.allow_rw_return_t, align 4
  %s = alloca %struct.subscribe_return_t, align 4
  %c = alloca %struct.syscall_return_t, align 4
  %m = alloca %struct.memop_return_t, align 4
  call void @allow_readwrite(%struct.allow_rw_return_t* sret(%struct.allow_rw_return_t) align 4 %a, i32 144, i32 0, i8* getelementptr inbounds ([32 x i8], [32 x i8]* @buf, i32 0, i32 0), i32 32)
  call void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4 %s, i32 144, i32 0, void (i32, i32, i32, i8*)* @cb, i8* null)
  call void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4 %c, i32 144, i32 1, i32 %n, i32 0)
  call void @memop(%struct.memop_return_t* sret(%struct.memop_return_t) align 4 %m, i32 1, i32 0)
  call void @yield()
  %a.ok = getelementptr inbounds %struct.allow_rw_return_t, %struct.allow_rw_return_t* %a, i32 0, i32 0
  %a.v = load i8, i8* %a.ok, align 4
  %s.ok = getelementptr inbounds %struct.subscribe_return_t, %struct.subscribe_return_t* %s, i32 0, i32 0
  %s.v = load i8, i8* %s.ok, align 4
  %c.ty = getelementptr inbounds %struct.syscall_return_t, %struct.syscall_return_t* %c, i32 0, i32 0
  %c.v = load i32, i32* %c.ty, align 4
  %m.st = getelementptr inbounds %struct.memop_return_t, %struct.memop_return_t* %m, i32 0, i32 0
  %m.v = load i32, i32* %m.st, align 4
  %x = zext i8 %a.v to i32
  %y = zext i8 %s.v to i32
  %r1 = add i32 %x, %y
  %r2 = add i32 %r1, %c.v
  %r3 = add i32 %r2, %m.v
  ret i32 %r3
}

define internal void @cb(i32 %0, i32 %1, i32 %2, i8* %3) {
  ret void
}

declare void @allow_readwrite(%struct.allow_rw_return_t* sret(%struct.allow_rw_return_t) align 4, i32, i32, i8*, i32)
declare void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4, i32, i32, void (i32, i32, i32, i8*)*, i8*)
declare void @command(%struct.syscall_return_t* sret(%struct.syscall_return_t) align 4, i32, i32, i32, i32)
declare void @memop(%struct.memop_return_t* sret(%struct.memop_return_t) align 4, i32, i32)
declare void @yield()
