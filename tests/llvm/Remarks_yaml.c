// Both kinds of remark land in -fsave-optimization-record's YAML, with the
// batch's numbers and the refusal reason as separate arguments.
// REQUIRES: llvm
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sbclang -O2 -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-placement=early -c -fsave-optimization-record -foptimization-record-file=%t/r.yaml %s -o %t/r.o
// RUN: %FileCheck %s < %t/r.yaml
#include <unistd.h>

int f(const char *p)
{
    int a = getuid();
    int b = getgid();
    int c = access(p, R_OK);
    return a + b + c;
}

int g(void)
{
    return getpid();
}

// CHECK:      --- !Passed
// CHECK-NEXT: Pass:            sysbatch
// CHECK-NEXT: Name:            Batched
// CHECK-NEXT: DebugLoc:        { File: '{{.*}}Remarks_yaml.c', Line: 11,
// CHECK:      Function:        f
// CHECK-NEXT: Args:
// CHECK-NEXT:   - String:          'batched '
// CHECK-NEXT:   - Calls:           '3'
// CHECK-NEXT:   - String:          ' calls ('
// CHECK-NEXT:   - Callees:         getuid, getgid, access
// CHECK-NEXT:   - String:          ') into '
// CHECK-NEXT:   - Slots:           '3'
// CHECK-NEXT:   - String:          ' slots with '
// CHECK-NEXT:   - Chains:          '0'
// CHECK:      --- !Missed
// CHECK-NEXT: Pass:            sysbatch
// CHECK-NEXT: Name:            NotBatched
// CHECK-NEXT: DebugLoc:        { File: '{{.*}}Remarks_yaml.c', Line: 19,
// CHECK:      Function:        g
// CHECK-NEXT: Args:
// CHECK-NEXT:   - Callee:          getpid
// CHECK:        - Reason:          below-min-batch
