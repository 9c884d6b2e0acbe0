; -O0 keeps every variable in a stack slot.  Arguments the batched calls load
; after the issue point still batch when the slot is not written in between
; (the load is repeated at the issue point), and a load whose slot was written
; in the region forwards the stored value.
; RUN: %sbopt -passes=sysbatch,verify -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @reload(i8* %a, i8* %b)
; CHECK:     sb.issue:
; %p.addr is not written between the issue point and the load: re-loaded.
; CHECK:       %x1.sb = load i8*, i8** %p.addr, align 8
; CHECK:       ptrtoint i8* %x1.sb to i64
; %q.addr was written with %b after the issue point: %b itself.
; CHECK:       ptrtoint i8* %b to i64
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 3, i64 1)
; CHECK:       call i32 @access(i8* %x1, i32 0)
; CHECK:       call i32 @access(i8* %x2, i32 0)
define i32 @reload(i8* %a, i8* %b) {
entry:
  %p.addr = alloca i8*, align 8
  %q.addr = alloca i8*, align 8
  store i8* %a, i8** %p.addr, align 8
  %u = call i32 @getuid()
  store i8* %b, i8** %q.addr, align 8
  %x1 = load i8*, i8** %p.addr, align 8
  %r1 = call i32 @access(i8* %x1, i32 0)
  %x2 = load i8*, i8** %q.addr, align 8
  %r2 = call i32 @access(i8* %x2, i32 0)
  %s = add i32 %r1, %r2
  ret i32 %s
}

; A slot written, after the issue point, with a value loaded from memory a
; batched call may write (read's buffer may be *%pp) cannot be used:
; access is refused with arg-computed, and the batch is getuid + read.
; CHECK-LABEL: define i32 @written(i8* %buf, i8** %pp)
; CHECK:       call i64 @sysbatch_run({{.*}}, i64 2, i64 5)
; CHECK-NOT:   sysbatch_run
; CHECK:       %r2 = call i32 @access(i8* %x2, i32 0)
; CHECK-NEXT:  ret i32 %r2
; REMARK: remark: <unknown>:0:0: access not batched: arg-computed
define i32 @written(i8* %buf, i8** %pp) {
entry:
  %p.addr = alloca i8*, align 8
  %u = call i32 @getuid()
  %n = call i64 @read(i32 0, i8* %buf, i64 8)
  %v = load i8*, i8** %pp, align 8
  store i8* %v, i8** %p.addr, align 8
  %x2 = load i8*, i8** %p.addr, align 8
  %r2 = call i32 @access(i8* %x2, i32 0)
  ret i32 %r2
}

declare i32 @getuid()
declare i32 @access(i8*, i32)
declare i64 @read(i32, i8*, i64)
