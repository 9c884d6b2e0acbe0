; Negative: read(fd, buf, 16); if (buf[0]) close(fd); getuid();
; The branch tests something other than the block's last call, and not a
; value available where the batch is issued (a load through a pointer
; parameter, which the issue point might not be allowed to make): it ends the
; region, with both reasons as a missed remark.  (A flag would be a
; predicated branch: Predicated_flag.ll.)
; RUN: %sbopt -passes='sysbatch<print-plan;no-join-split>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      remark: <unknown>:0:0: branch ends the region: the branch is not the result of read (the block's last call) compared with a constant; the branch's condition is not available where the batch is issued: it loads through a pointer that may not be valid there
; PLAN-NEXT: function other_value block 0:
; PLAN-NEXT: refused call 0 (read): below-min-batch: {{.*}}
; PLAN-NOT:  remark: {{.*}}: batched

; CHECK-LABEL: define i32 @other_value(
; CHECK-NOT:   call i64 @sysbatch_run

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @other_value(i32 %fd, i32 %flag, i8* %buf) {
entry:
  %fd.addr = alloca i32, align 4
  %flag.addr = alloca i32, align 4
  %buf.addr = alloca i8*, align 8
  store i32 %fd, i32* %fd.addr, align 4
  store i32 %flag, i32* %flag.addr, align 4
  store i8* %buf, i8** %buf.addr, align 8
  %0 = load i32, i32* %fd.addr, align 4
  %1 = load i8*, i8** %buf.addr, align 8
  %call = call i64 @read(i32 %0, i8* %1, i64 16)
  %2 = load i8, i8* %1, align 1
  %tobool = icmp ne i8 %2, 0
  br i1 %tobool, label %if.then, label %if.end

if.then:
  %3 = load i32, i32* %fd.addr, align 4
  %call1 = call i32 @close(i32 %3)
  br label %if.end

if.end:
  %call2 = call i32 @getuid()
  ret i32 %call2
}

declare i32 @close(i32)
declare i32 @getuid()
declare i64 @read(i32, i8*, i64)
