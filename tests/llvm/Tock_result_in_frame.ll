; target=tock: a call site whose sret result lives in an alloca that only
; the call writes and that is read only later in the call's block (loads,
; the source of a memcpy: libtock-c's wrapper passing the struct to its
; converter) reads its frame directly; the copy into the alloca is not
; made, and its lifetime markers go.  Anything else keeps the copy: a read
; in another block (a loop could run the series again before it), a store
; into the alloca, its address escaping.
; RUN: %sbopt -passes='sysbatch<target=tock>,verify' -S %s | %FileCheck %s

target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
target triple = "riscv32-unknown-unknown-elf"

%r = type { i32, [3 x i32] }

; CHECK-LABEL: define i32 @same_block(
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base, i32 2, i32 0)
; CHECK-NEXT:  %sb.result = getelementptr inbounds [10 x i32], [10 x i32]* %sb.frames, i64 0, i64 1
; CHECK-NOT:   llvm.memcpy.p0i8.p0i8.i64(i8* align 4 %
; CHECK-NOT:   llvm.lifetime
; CHECK:       [[F:%[0-9]+]] = bitcast i32* %sb.result to i8*
; CHECK-NEXT:  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %tmp8, i8* [[F]], i32 16, i1 false)
; CHECK:       %t = load i32, i32* %sb.result{{[0-9]+}}, align 4
; CHECK:       ret i32
define i32 @same_block() {
entry:
  %a = alloca %r, align 4
  %b = alloca %r, align 4
  %tmp = alloca %r, align 4
  %a8 = bitcast %r* %a to i8*
  call void @llvm.lifetime.start.p0i8(i64 16, i8* %a8)
  call void @command(%r* sret(%r) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  call void @command(%r* sret(%r) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  %tmp8 = bitcast %r* %tmp to i8*
  call void @llvm.memcpy.p0i8.p0i8.i32(i8* %tmp8, i8* %a8, i32 16, i1 false)
  %x = call i32 @convert(%r* %tmp)
  call void @llvm.lifetime.end.p0i8(i64 16, i8* %a8)
  %p = getelementptr inbounds %r, %r* %b, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  %s = add i32 %x, %t
  ret i32 %s
}

; CHECK-LABEL: define i32 @other_block(
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base, i32 2, i32 0)
; CHECK:       call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 {{%[0-9]+}}, i8* align 4 {{%[0-9]+}}, i64 16, i1 false)
; CHECK:       next:
; CHECK-NEXT:  %p = getelementptr inbounds %r, %r* %a, i32 0, i32 0
; CHECK-NEXT:  %t = load i32, i32* %p, align 4
define i32 @other_block() {
entry:
  %a = alloca %r, align 4
  %b = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  call void @command(%r* sret(%r) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  br label %next
next:
  %p = getelementptr inbounds %r, %r* %a, i32 0, i32 0
  %t = load i32, i32* %p, align 4
  ret i32 %t
}

; CHECK-LABEL: define i32 @stored(
; CHECK:       call void @sysbatch_tock_run_commands(i32* %sb.base, i32 2, i32 0)
; CHECK:       call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 4 {{%[0-9]+}}, i8* align 4 {{%[0-9]+}}, i64 16, i1 false)
; CHECK:       store i32 128, i32* %p, align 4
; CHECK-NEXT:  %t = load i32, i32* %p, align 4
define i32 @stored() {
entry:
  %a = alloca %r, align 4
  %b = alloca %r, align 4
  call void @command(%r* sret(%r) align 4 %a, i32 2, i32 1, i32 0, i32 0)
  call void @command(%r* sret(%r) align 4 %b, i32 2, i32 1, i32 1, i32 0)
  %p = getelementptr inbounds %r, %r* %a, i32 0, i32 0
  store i32 128, i32* %p, align 4
  %t = load i32, i32* %p, align 4
  ret i32 %t
}

declare void @command(%r* sret(%r) align 4, i32, i32, i32, i32)
declare i32 @convert(%r*)
declare void @llvm.memcpy.p0i8.p0i8.i32(i8*, i8*, i32, i1)
declare void @llvm.lifetime.start.p0i8(i64, i8*)
declare void @llvm.lifetime.end.p0i8(i64, i8*)
