// Loop batching remarks from clang at -O0 and -O2 for a loop over a
// parameter's array of names (the remarks of the shapes every compiler
// sees are in Loop_plans.test, on tests/e2e/Inputs/loop-plans/plans.c):
// `X not batched in its loop: <reason> (<text>: <detail>)` at the call.
// REQUIRES: llvm
// RUN: %sbclang -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -O2 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
#include <stdio.h>
#include <unistd.h>

// names[i] is a parameter's array: puts (any callee) may write it.
void unlink_loud(char **names, int n)
{
    for (int i = 0; i < n; i++)
        if (unlink(names[i]) < 0)
        // CHECK: Loop_remarks.c:[[@LINE-1]]:13: remark: unlink not batched in its loop: loop-arg-unrepeatable ({{.*}}: a load of memory the loop writes (a call to puts)) [-Rpass-missed=sysbatch]
            perror(names[i]);
        else
            puts(names[i]);
}
