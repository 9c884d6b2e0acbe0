; fill=template: the constant words of every slot come from one private
; constant copied with memcpy; only words known at run time are stored.
; (The default, fill=stores, writes the meaningful words one by one; see
; docs/llvm.md for the measurement behind the default.)
; RUN: %sbopt -passes='sysbatch<fill=template>,verify' -S %s | %FileCheck %s
; Flags (for clang -mllvm) need the plugin loaded with -load too:
; RUN: %sbopt -load=%sbplugin -sysbatch-fill=template -passes=sysbatch -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Slot 0 getuid (102, argc 0), slot 1 access (21, argc 2: path patched, 4).
; CHECK: @sb.template = private unnamed_addr constant [16 x i64] [i64 102, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 21, i64 2, i64 0, i64 4, i64 0, i64 0, i64 0, i64 0], align 8
; CHECK-LABEL: define i32 @f(i8* %p)
; CHECK:     sb.issue:
; CHECK:       call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 %{{[0-9]+}}, i8* align 8 bitcast ([16 x i64]* @sb.template to i8*), i64 128, i1 false)
; CHECK-NEXT:  [[G:%[0-9]+]] = getelementptr inbounds [16 x i64], [16 x i64]* %sb.slots, i64 0, i64 10
; CHECK-NEXT:  store i64 %{{[0-9]+}}, i64* [[G]], align 8
; CHECK-NEXT:  getelementptr
; CHECK-NEXT:  getelementptr
; CHECK-NEXT:  %sb.ran = call i64 @sysbatch_run
define i32 @f(i8* %p) {
entry:
  %u = call i32 @getuid()
  %a = call i32 @access(i8* %p, i32 4)
  %s = add i32 %u, %a
  ret i32 %s
}

declare i32 @getuid()
declare i32 @access(i8*, i32)
