; One test "every slot ran" (sb_rt_all_ran_test) replaces the per-call tests
; on the common path only where it is a sound summary and the stretch can be
; copied: a straight-line batch whose calls share one block.  Its "stop"
; offsets (open fails: read and close do not run) only end the batch, so
; last == nslots - 1 still means every slot ran; the per-slot path stays for
; a batch that stopped early.  A batch with forward skips (branchy), one
; whose calls span blocks, and verify mode keep only the per-slot tests.
; RUN: %sbopt -passes=sysbatch,verify -S %s | %FileCheck %s
; RUN: %sbopt -passes='sysbatch<verify>,verify' -S %s | %FileCheck %s --check-prefix=VERIFY
; VERIFY-LABEL: define i64 @stop_in_one_block(
; VERIFY-NOT:   sb.all.ran
; VERIFY:       call void @sysbatch_verify_slot(
; VERIFY-NOT:   sb.all.ran
; VERIFY-LABEL: define i32 @stop_across_blocks(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Slot 0 (openat) stops the batch when it fails: header 257 | 0xffff << 16.
; CHECK-LABEL: define i64 @stop_in_one_block(
; CHECK:       store i64 4294902017, {{.*}}
; CHECK:       %sb.ran = call i64 @sysbatch_run({{.*}}, i64 5, i64 7)
; CHECK:       %sb.all.ran = icmp eq i64 %sb.last, 4
; CHECK-NEXT:  br i1 %sb.all.ran, label %sb.all, label %sb.calls
; The per-slot path: each call site tests its slot.
; CHECK:     sb.calls:
; CHECK-NEXT:  icmp sle i64 0, %sb.last
; CHECK:       call i32 (i8*, i32, ...) @open(
; CHECK:       icmp sle i64 2, %sb.last
; CHECK:       call i64 @read(
; CHECK:       icmp sle i64 4, %sb.last
; CHECK:       call i32 @close(
; The common path: three results (errno set for a failing one), the code
; between the calls once more, no call, no test.
; CHECK:     sb.all:
; CHECK-NOT:   icmp
; CHECK-NOT:   call i{{.*}} @open
; CHECK:       call i64 @sysbatch_ret_errno(
; CHECK:       %twice{{[0-9]+}} = mul i32
; CHECK:       call i64 @sysbatch_ret_errno(
; CHECK:       call i64 @sysbatch_ret_errno(
; CHECK-NOT:   call
; CHECK:       br label %sb.after
; CHECK:     sb.after:
; CHECK-DAG:   %twice.sb.merge = phi i32 [ %twice, %sb.next{{[0-9]*}} ], [ %twice{{[0-9]+}}, %sb.all ]
; CHECK-DAG:   %call1.sb.merge = phi i64 [ %call1, %sb.next{{[0-9]*}} ], [ %{{[0-9]+}}, %sb.all ]
; CHECK:       ret i64
define i64 @stop_in_one_block(i8* %p, i8* %buf) {
entry:
  %call = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
  %twice = mul i32 %call, 2
  %call1 = call i64 @read(i32 %call, i8* %buf, i64 64)
  %call2 = call i32 @close(i32 %call)
  %w = sext i32 %twice to i64
  %s = add i64 %call1, %w
  ret i64 %s
}

; open's stop is the `fd < 0` arm, so the calls sit in two blocks: no copy.
; CHECK-LABEL: define i32 @stop_across_blocks(
; CHECK:       %sb.ran = call i64 @sysbatch_run({{.*}}, i64 5, i64 7)
; CHECK-NOT:   sb.all.ran
; CHECK:       icmp sle i64 0, %sb.last
; CHECK:       icmp sle i64 3, %sb.last
; CHECK-LABEL: define void @branchy(
define i32 @stop_across_blocks(i8* %p, i8* %buf) {
entry:
  %call = call i32 (i8*, i32, ...) @open(i8* %p, i32 0)
  %cmp = icmp slt i32 %call, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:
  ret i32 -1

if.end:
  %call1 = call i64 @read(i32 %call, i8* %buf, i64 64)
  %call2 = call i32 @close(i32 %call)
  %r = trunc i64 %call1 to i32
  ret i32 %r
}

; Forward skips (access decides between unlink and mkdir): slots may be
; skipped in the middle, so last == nslots - 1 says nothing about them.
; CHECK:       %sb.ran = call i64 @sysbatch_run({{.*}}, i64 4, i64 3)
; CHECK-NOT:   sb.all.ran
; CHECK:       sb.check
; CHECK-LABEL: declare
define void @branchy(i8* %p) {
entry:
  %call = call i32 @access(i8* %p, i32 0)
  %cmp = icmp eq i32 %call, 0
  br i1 %cmp, label %if.then, label %if.else

if.then:
  %call1 = call i32 @unlink(i8* %p)
  br label %if.end

if.else:
  %call2 = call i32 @mkdir(i8* %p, i32 493)
  br label %if.end

if.end:
  %call3 = call i32 @getuid()
  ret void
}

declare i32 @open(i8*, i32, ...)
declare i64 @read(i32, i8*, i64)
declare i32 @close(i32)
declare i32 @access(i8*, i32)
declare i32 @unlink(i8*)
declare i32 @mkdir(i8*, i32)
declare i32 @getuid()
