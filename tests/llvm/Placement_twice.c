// A function or call site a look has decided is never planned again:
// running the pass a second time over its own output changes nothing and
// says nothing more - on IR where the wrappers are already inlined (what
// the late look sees) and on IR before inlining (what the early look sees).
// Without the marks the second run would re-plan the batch call itself and
// the original calls kept beside each batch, and say so.
// REQUIRES: llvm
// RUN: %clang_bin -O2 -S -emit-llvm %S/../gcc/Inline_wrappers.c -o %t.late.ll
// RUN: %opt_bin -load-pass-plugin=%sbplugin -passes=sysbatch -pass-remarks=sysbatch -pass-remarks-missed=sysbatch %t.late.ll -S -o %t.once.ll 2> %t.once.remarks
// RUN: %opt_bin -load-pass-plugin=%sbplugin -passes='sysbatch,sysbatch' -pass-remarks=sysbatch -pass-remarks-missed=sysbatch %t.late.ll -S -o %t.twice.ll 2> %t.twice.remarks
// RUN: cmp %t.once.ll %t.twice.ll
// RUN: cmp %t.once.remarks %t.twice.remarks
// RUN: %FileCheck %s --check-prefix=ONCE < %t.once.ll
// RUN: %FileCheck %s --check-prefix=SAID < %t.once.remarks
// ONCE: call i64 @sysbatch_run({{.*}}!sysbatch.batched
// ONCE: "sysbatch-decided"
// SAID: remark: {{.*}}batched 4 calls
// SAID-NOT: sysbatch_run not batched
// RUN: %clang_bin -O2 -Xclang -disable-llvm-passes -S -emit-llvm %S/../gcc/Inline_wrappers.c -o %t.early.ll
// RUN: %opt_bin -load-pass-plugin=%sbplugin -passes=sysbatch -pass-remarks-missed=sysbatch %t.early.ll -S -o %t.once-early.ll 2> %t.once-early.remarks
// RUN: %opt_bin -load-pass-plugin=%sbplugin -passes='sysbatch,sysbatch' -pass-remarks-missed=sysbatch %t.early.ll -S -o %t.twice-early.ll 2> %t.twice-early.remarks
// RUN: cmp %t.once-early.ll %t.twice-early.ll
// RUN: cmp %t.once-early.remarks %t.twice-early.remarks
