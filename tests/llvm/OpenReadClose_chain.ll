; open/read/close with the fd chained through word copies, on the -O0 IR
; clang emits (the fd travels through the stack slot %fd: store-to-load
; forwarding finds that read's and close's operand is open's result).
; open stops the batch when it fails (jump_fail = -1), so read and close then
; run as their original calls with the -1 libc returned.
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -S %s 2>%t.plan | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.plan

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; PLAN:      function cat block 0:
; PLAN-NEXT: batch 0: calls 0..2, 5 slots, 2 chains
; PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0){{ +}}fail=stop
; PLAN-NEXT:   slot 1: copy ret[0] -> slot 2 arg 0
; PLAN-NEXT:   slot 2: call 1 read(ret0, a1, 64)
; PLAN-NEXT:   slot 3: copy ret[0] -> slot 4 arg 0
; PLAN-NEXT:   slot 4: call 2 close(ret0)

; CHECK-LABEL: define i64 @cat(i8* %path)
; CHECK:       %sb.rets = alloca [5 x i64]
; CHECK:       %sb.slots = alloca [40 x i64]
; CHECK:     sb.issue:
; CHECK-NEXT:  %{{[0-9]+}} = ptrtoint i8* %0 to i64
; CHECK-NEXT:  [[DSTP:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 18
; CHECK-NEXT:  %{{[0-9]+}} = ptrtoint i64* [[DSTP]] to i64
; CHECK-NEXT:  [[SRCP:%[0-9]+]] = getelementptr inbounds [5 x i64], [5 x i64]* %sb.rets, i64 0, i64 0
; CHECK-NEXT:  %{{[0-9]+}} = ptrtoint i64* [[SRCP]] to i64
; The buffer's address is computed after open: recomputed here.
; CHECK:       %arraydecay.sb = getelementptr inbounds [64 x i8], [64 x i8]* %buf, i64 0, i64 0
; Constant words first.  Slot 0: openat (257) with jump_fail -1 (0xffff0101),
; argc 4, AT_FDCWD, (path later), O_RDONLY, mode 0.
; CHECK:       [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 0
; CHECK-NEXT:  store i64 4294902017, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 1
; CHECK-NEXT:  store i64 4, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 2
; CHECK-NEXT:  store i64 -100, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 4
; CHECK-NEXT:  store i64 0, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 5
; CHECK-NEXT:  store i64 0, i64* [[G]], align 8
; Slot 1 (word 8): word copy (-2 = 65534), argc 2; its addresses come later.
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 8
; CHECK-NEXT:  store i64 65534, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 9
; CHECK-NEXT:  store i64 2, i64* [[G]], align 8
; Slot 2 (word 16): read (0), argc 3, fd chained (not stored), 64.
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 16
; CHECK-NEXT:  store i64 0, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 17
; CHECK-NEXT:  store i64 3, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 20
; CHECK-NEXT:  store i64 64, i64* [[G]], align 8
; CHECK:       [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 32
; CHECK-NEXT:  store i64 3, i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 33
; CHECK-NEXT:  store i64 1, i64* [[G]], align 8
; Then the run-time words: the path, the copy's two addresses
; (&slot 2 arg 0 = word 18, &rets[0]), the buffer.
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 3
; CHECK-NEXT:  store i64 [[PATH:%[0-9]+]], i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 10
; CHECK-NEXT:  store i64 [[DST:%[0-9]+]], i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 11
; CHECK-NEXT:  store i64 [[SRC:%[0-9]+]], i64* [[G]], align 8
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [40 x i64], [40 x i64]* %sb.slots, i64 0, i64 19
; CHECK-NEXT:  store i64 [[BUF:%[0-9]+]], i64* [[G]], align 8
; CHECK:       %sb.ran = call i64 @sysbatch_run({{.*}}, i64 5, i64 7)
; open's site: slot 0, -1/errno convention, narrowed to int.
; CHECK:       icmp sle i64 0, %sb.last
; CHECK:       [[R0:%.*]] = call i64 @sysbatch_ret_errno(i64 %sb.raw)
; CHECK-NEXT:  trunc i64 [[R0]] to i32
; CHECK:       %call.orig = call i32 (i8*, i32, ...) @open(i8* %0, i32 0)
; CHECK:       %call = phi i32
; CHECK:       store i32 %call, i32* %fd
; read's site: slot 2, ssize_t needs no narrowing.
; CHECK:       icmp sle i64 2, %sb.last
; CHECK:       [[R2:%.*]] = call i64 @sysbatch_ret_errno(i64 %sb.raw{{[0-9]+}})
; CHECK:       %call1.orig = call i64 @read(i32 %{{[0-9]+}}, i8* %arraydecay, i64 64)
; CHECK:       %call1 = phi i64 [ [[R2]], %sb.result{{[0-9]*}} ], [ %call1.orig, %sb.call{{[0-9]*}} ]
; CHECK:       icmp sle i64 4, %sb.last
; CHECK:       %call2.orig = call i32 @close(i32 %{{[0-9]+}})
define i64 @cat(i8* %path) {
entry:
  %path.addr = alloca i8*, align 8
  %fd = alloca i32, align 4
  %buf = alloca [64 x i8], align 16
  %n = alloca i64, align 8
  store i8* %path, i8** %path.addr, align 8
  %0 = load i8*, i8** %path.addr, align 8
  %call = call i32 (i8*, i32, ...) @open(i8* %0, i32 0)
  store i32 %call, i32* %fd, align 4
  %1 = load i32, i32* %fd, align 4
  %arraydecay = getelementptr inbounds [64 x i8], [64 x i8]* %buf, i64 0, i64 0
  %call1 = call i64 @read(i32 %1, i8* %arraydecay, i64 64)
  store i64 %call1, i64* %n, align 8
  %2 = load i32, i32* %fd, align 4
  %call2 = call i32 @close(i32 %2)
  %3 = load i64, i64* %n, align 8
  ret i64 %3
}

declare i32 @open(i8*, i32, ...)
declare i64 @read(i32, i8*, i64)
declare i32 @close(i32)
