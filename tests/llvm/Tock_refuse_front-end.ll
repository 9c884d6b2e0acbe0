; Tock: the pass refuses a libtock-c name whose IR does not look like
; libtock-c's call (front-end, with what is wrong): an sret slot smaller
; or larger than the struct the converter writes, a register return of the wrong
; size, a missing argument, an argument wider than a frame word, and a
; yield that returns a value.  None of them joins a series.
; RUN: %sbopt -passes='sysbatch<target=tock;tock-yield>,verify' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch \
; RUN:   -S %s 2>%t.remarks | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
; REMARK:      remark: <unknown>:0:0: command not batched: front-end (the compiler front end refused it: the sret slot of command is smaller than libtock-c's 16-byte result)
; REMARK:      remark: <unknown>:0:0: subscribe not batched: front-end (the compiler front end refused it: subscribe is called with 3 arguments, libtock-c's takes 4)
; REMARK:      remark: <unknown>:0:0: memop not batched: front-end (the compiler front end refused it: memop returns a 4-byte value in registers, libtock-c's result has 8 bytes)
; REMARK:      remark: <unknown>:0:0: allow_readonly not batched: front-end (the compiler front end refused it: argument 3 does not fit a 32-bit frame word)
; REMARK:      remark: <unknown>:0:0: allow_readwrite not batched: front-end (the compiler front end refused it: allow_readwrite returns a 20-byte value, libtock-c's result has 16 bytes)
; REMARK:      remark: <unknown>:0:0: yield not batched: front-end (the compiler front end refused it: yield returns a value, libtock-c's returns nothing)
; REMARK-NOT:  remark: {{.*}}front-end

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%small = type { i32, i32 }
%struct.subscribe_return_t = type { i8, void (i32, i32, i32, i8*)*, i8*, i32 }
%struct.allow_ro_return_t = type { i8, i8*, i32, i32 }
%big = type { [5 x i32] }

; CHECK-LABEL: define void @f(i8* %p)
; CHECK-NOT:   sysbatch_tock_series
; CHECK:       ret void
define void @f(i8* %p) {
entry:
  %c = alloca %small, align 4
  %s = alloca %struct.subscribe_return_t, align 4
  %a = alloca %struct.allow_ro_return_t, align 4
  %b = alloca %big, align 4
  call void @command(%small* sret(%small) align 4 %c, i32 2, i32 1, i32 0, i32 0)
  call void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4 %s, i32 1, i32 1, void (i32, i32, i32, i8*)* null)
  %m = call i32 @memop(i32 1, i32 0)
  call void @allow_readonly(%struct.allow_ro_return_t* sret(%struct.allow_ro_return_t) align 4 %a, i32 1, i32 1, i8* %p, i64 4)
  call void @allow_readwrite(%big* sret(%big) align 4 %b, i32 1, i32 1, i8* null, i32 0)
  %y = call i32 @yield()
  ret void
}

declare void @command(%small* sret(%small) align 4, i32, i32, i32, i32)
declare void @subscribe(%struct.subscribe_return_t* sret(%struct.subscribe_return_t) align 4, i32, i32, void (i32, i32, i32, i8*)*)
declare i32 @memop(i32, i32)
declare void @allow_readonly(%struct.allow_ro_return_t* sret(%struct.allow_ro_return_t) align 4, i32, i32, i8*, i64)
declare void @allow_readwrite(%big* sret(%big) align 4, i32, i32, i8*, i32)
declare i32 @yield()
