; Negative: n = read(fd, buf, 16); if (n == 5) close(fd); getuid();
; The sign class of read's result does not decide n == 5, so the branch ends
; the region (missed remark with the reason) and each block is planned
; straight-line: one call each, below the minimum.
; RUN: %sbopt -passes='sysbatch<print-plan;no-join-split>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch -S %s 2>%t.err | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.err

; PLAN:      remark: <unknown>:0:0: branch ends the region: the sign of read's result does not decide the compare
; PLAN-NEXT: function undecided block 0:
; PLAN-NEXT: refused call 0 (read): below-min-batch: {{.*}}
; PLAN:      function undecided block 1:
; PLAN-NEXT: refused call 0 (close): below-min-batch: {{.*}}
; PLAN:      function undecided block 2:
; PLAN-NEXT: refused call 0 (getuid): below-min-batch: {{.*}}
; PLAN-NOT:  remark: {{.*}}: batched

; CHECK-LABEL: define i32 @undecided(
; CHECK-NOT:   call i64 @sysbatch_run

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @undecided(i32 %fd, i8* %buf) {
entry:
  %fd.addr = alloca i32, align 4
  %buf.addr = alloca i8*, align 8
  %n = alloca i64, align 8
  store i32 %fd, i32* %fd.addr, align 4
  store i8* %buf, i8** %buf.addr, align 8
  %0 = load i32, i32* %fd.addr, align 4
  %1 = load i8*, i8** %buf.addr, align 8
  %call = call i64 @read(i32 %0, i8* %1, i64 16)
  store i64 %call, i64* %n, align 8
  %2 = load i64, i64* %n, align 8
  %cmp = icmp eq i64 %2, 5
  br i1 %cmp, label %if.then, label %if.end

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
