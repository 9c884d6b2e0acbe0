; Bail-out "barrier": code between the calls that may touch anything stops
; the batch there - an unknown call (it may read errno, write any buffer,
; exit), inline asm, volatile and atomic accesses, fences.
; RUN: %sbopt -passes='sysbatch,verify' -pass-remarks-missed=sysbatch -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-NOT: sysbatch_run

; REMARK: getuid not batched: below-min-batch
; REMARK-NEXT: getgid not batched: barrier (code between the calls may touch anything (unknown call, volatile or atomic access): call to puts)
define i32 @unknown_call(i8* %s) {
entry:
  %a = call i32 @getuid()
  %p = call i32 @puts(i8* %s)
  %b = call i32 @getgid()
  %r = add i32 %a, %b
  ret i32 %r
}

; REMARK: getuid not batched: below-min-batch
; REMARK-NEXT: getgid not batched: barrier ({{.*}}: inline asm)
define i32 @asm() {
entry:
  %a = call i32 @getuid()
  call void asm sideeffect "nop", ""()
  %b = call i32 @getgid()
  %r = add i32 %a, %b
  ret i32 %r
}

; REMARK: getuid not batched: below-min-batch
; REMARK-NEXT: getgid not batched: barrier ({{.*}}: volatile store)
define i32 @volatile(i32* %x) {
entry:
  %a = call i32 @getuid()
  store volatile i32 1, i32* %x, align 4
  %b = call i32 @getgid()
  %r = add i32 %a, %b
  ret i32 %r
}

; REMARK: getuid not batched: below-min-batch
; REMARK-NEXT: getgid not batched: barrier ({{.*}}: atomic access)
define i32 @atomic(i32* %x) {
entry:
  %a = call i32 @getuid()
  %o = atomicrmw add i32* %x, i32 1 seq_cst
  %b = call i32 @getgid()
  %r = add i32 %a, %b
  ret i32 %r
}

; REMARK: getuid not batched: below-min-batch
; REMARK-NEXT: getgid not batched: barrier ({{.*}}: fence)
define i32 @fence() {
entry:
  %a = call i32 @getuid()
  fence seq_cst
  %b = call i32 @getgid()
  %r = add i32 %a, %b
  ret i32 %r
}

declare i32 @getuid()
declare i32 @getgid()
declare i32 @puts(i8*)
