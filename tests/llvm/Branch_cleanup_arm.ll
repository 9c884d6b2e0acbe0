; Branchy region, the worked example of core.h: open; if (fd < 0) { perror;
; return -1; } if (fstat(fd, st) < 0) { close(fd); return -1; }  The error
; arm that cleans up (close) is in the batch; the perror arm leaves it.
; fstat's fd is open's result through the stack slot %fd, forwarded from the
; entry block into if.end and if.then3 (a dominating block, no store on any
; path in between).  The batch is branchy: every call site tests
; `last >= 0 && rets[slot] != SYSBATCH_NOT_RUN`.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; PLAN:      function cleanup_arm block 0:
; PLAN-NEXT: batch 0: calls 0..2, 5 slots, 2 chains, branchy
; PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0){{ +}}fail=stop
; PLAN-NEXT:   slot 1: copy ret[0] -> slot 3 arg 0
; PLAN-NEXT:   slot 2: copy ret[0] -> slot 4 arg 0
; PLAN-NEXT:   slot 3: call 1 newfstatat(ret0, "", a1, 4096){{ +}}zero=stop pos=stop
; PLAN-NEXT:   slot 4: call 2 close(ret0)
; PLAN-NEXT: remark: <unknown>:0:0: batched 3 calls (open, fstat, close) into 5 slots with 2 chains over 3 blocks (branchy)
; PLAN-NOT:  not batched

; CHECK-LABEL: define i32 @cleanup_arm(
; CHECK:       %sb.rets = alloca [5 x i64]
; CHECK:       %sb.active = load i32, i32* @sysbatch_active
; CHECK:     sb.issue:
; fstat's buffer is loaded from %st.addr after the issue point: re-loaded.
; CHECK:       %{{.*}}.sb = load %struct.stat*, %struct.stat** %st.addr
; CHECK:       %sb.ran = call i64 @sysbatch_run(i64* %{{.*}}, i64* %{{.*}}, i64 5, i64 7)
; CHECK:     sb.join:
; CHECK-NEXT:  %sb.last = phi i64 [ -1, %entry ], [ %sb.ran, %sb.issue ]
; Each call site: did the batch run at all, then did this slot run.
; CHECK:       %sb.batch.ran = icmp sge i64 %sb.last, 0
; CHECK-NEXT:  br i1 %sb.batch.ran, label %sb.check, label %sb.call
; CHECK:     sb.check:
; CHECK-NEXT:  [[P0:%.*]] = getelementptr inbounds [5 x i64], [5 x i64]* %sb.rets, i64 0, i64 0
; CHECK-NEXT:  %sb.raw = load i64, i64* [[P0]], align 8
; CHECK-NEXT:  %sb.slot.ran = icmp ne i64 %sb.raw, -9223372036854775808
; CHECK-NEXT:  br i1 %sb.slot.ran, label %sb.result, label %sb.call
; CHECK:     sb.result:
; CHECK-NEXT:  [[E0:%.*]] = call i64 @sysbatch_ret_errno(i64 %sb.raw)
; CHECK-NEXT:  [[T0:%.*]] = trunc i64 [[E0]] to i32
; CHECK-NEXT:  br label %sb.next
; CHECK:     sb.call:
; CHECK-NEXT:  %call.orig = call i32 (i8*, i32, ...) @open(i8* %0, i32 0)
; CHECK:     sb.next:
; CHECK-NEXT:  %call = phi i32 [ [[T0]], %sb.result ], [ %call.orig, %sb.call ]
; CHECK-NEXT:  store i32 %call, i32* %fd
; The original control flow is unchanged: the same compare on the result.
; CHECK:       %cmp = icmp slt i32 %{{[0-9]+}}, 0
; CHECK-NEXT:  br i1 %cmp, label %if.then, label %if.end
; CHECK:     if.then:
; CHECK:       call void @perror(
; fstat's slot is 3, close's 4, in their own blocks.
; CHECK:       getelementptr inbounds [5 x i64], [5 x i64]* %sb.rets, i64 0, i64 3
; CHECK:       %call1.orig = call i32 @fstat(
; CHECK:       %call1 = phi i32
; CHECK:       %cmp2 = icmp slt i32 %call1, 0
; CHECK:       getelementptr inbounds [5 x i64], [5 x i64]* %sb.rets, i64 0, i64 4
; CHECK:       %call4.orig = call i32 @close(
; CHECK-NOT:   call i64 @sysbatch_run

%struct.stat = type { i64, i64, i64, i32, i32, i32, i32, i64, i64, i64, i64, %struct.timespec, %struct.timespec, %struct.timespec, [3 x i64] }
%struct.timespec = type { i64, i64 }

define i32 @cleanup_arm(i8* %p, %struct.stat* %st) {
entry:
  %retval = alloca i32, align 4
  %p.addr = alloca i8*, align 8
  %st.addr = alloca %struct.stat*, align 8
  %fd = alloca i32, align 4
  store i8* %p, i8** %p.addr, align 8
  store %struct.stat* %st, %struct.stat** %st.addr, align 8
  %0 = load i8*, i8** %p.addr, align 8
  %call = call i32 (i8*, i32, ...) @open(i8* %0, i32 0)
  store i32 %call, i32* %fd, align 4
  %1 = load i32, i32* %fd, align 4
  %cmp = icmp slt i32 %1, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %2 = load i8*, i8** %p.addr, align 8
  call void @perror(i8* %2)
  store i32 -1, i32* %retval, align 4
  br label %return

if.end:
  %3 = load i32, i32* %fd, align 4
  %4 = load %struct.stat*, %struct.stat** %st.addr, align 8
  %call1 = call i32 @fstat(i32 %3, %struct.stat* %4)
  %cmp2 = icmp slt i32 %call1, 0
  br i1 %cmp2, label %if.then3, label %if.end5

if.then3:
  %5 = load i32, i32* %fd, align 4
  %call4 = call i32 @close(i32 %5)
  store i32 -1, i32* %retval, align 4
  br label %return

if.end5:
  %6 = load i32, i32* %fd, align 4
  store i32 %6, i32* %retval, align 4
  br label %return

return:
  %7 = load i32, i32* %retval, align 4
  ret i32 %7
}

declare i32 @close(i32)
declare i32 @fstat(i32, %struct.stat*)
declare i32 @open(i8*, i32, ...)
declare void @perror(i8*)
