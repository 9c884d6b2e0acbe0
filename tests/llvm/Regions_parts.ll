; A block with more than 64 candidate calls (the core's region limit) is
; described as several regions; the later ones print "part P" and batch on
; their own.  66 getuid() calls: a batch of 64 and one of 2.
; RUN: %python %S/Inputs/many-calls.py 66 > %t.ll
; RUN: %sbopt -passes='sysbatch<print-plan>,verify' -S %t.ll 2>%t.plan | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=PLAN < %t.plan
; PLAN:      function many block 0:
; PLAN-NEXT: batch 0: calls 0..63, 64 slots, 0 chains
; PLAN:      function many block 0 part 1:
; PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains
; CHECK: call i64 @sysbatch_run({{.*}}, i64 64, i64 1)
; CHECK: call i64 @sysbatch_run({{.*}}, i64 2, i64 1)
