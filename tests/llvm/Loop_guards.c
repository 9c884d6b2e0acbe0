// Loop batching under a guard the inspector repeats (issue #12), from
// clang at -O0 and -O2: the call runs only in iterations whose condition
// holds; the inspector evaluates the same condition for each later
// iteration and fills slots only for those that hold, looking at up to
// 4 iterations per slot.  A condition on code it cannot repeat, or one that
// does not alone decide whether the call runs, is refused as loop-guard.
// REQUIRES: llvm
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | awk '/^function /{if (b) print b; b = $0; next} {sub(/^ +/, ""); b = b " | " $0} END{if (b) print b}' | %FileCheck %s --check-prefix=CHECK
// RUN: %sbclang -O0 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | awk '/^function /{if (b) print b; b = $0; next} {sub(/^ +/, ""); b = b " | " $0} END{if (b) print b}' | %FileCheck %s --check-prefix=CHECK
// RUN: %sbclang -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %sbclang -O2 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
#include <stdio.h>
#include <unistd.h>

#define MAXN 64
int fds[MAXN];
static const char *const names[MAXN] = {"a", ".b", "c", "d"};

// CHECK-DAG: function close_open loop 0: | loop call close: 16 iterations per batch | slot: close(a0) | guard repeated: up to 64 iterations looked at per batch
void close_open(int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    // REMARK: Loop_guards.c:[[@LINE-1]]:13: remark: batched loop call close: 16 iterations per batch [-Rpass=sysbatch]
}

// CHECK-DAG: function unlink_visible loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) | guard repeated: up to 64 iterations looked at per batch
void unlink_visible(void)
{
    for (int i = 0; i < 4; i++)
        if (names[i][0] != '.')
            unlink(names[i]);
}

// An invariant flag.
// CHECK-DAG: function unlink_flag loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) | guard repeated: up to 64 iterations looked at per batch
void unlink_flag(int flags, int n)
{
    for (int i = 0; i < n; i++)
        if (flags & 4)
            unlink(names[i]);
}

// Two conditions, both the call's way (a && b).
// CHECK-DAG: function close_both loop 0: | loop call close: 16 iterations per batch | slot: close(a0) | guard repeated: up to 64 iterations looked at per batch
int close_both(int n, int lim)
{
    int failed = 0;
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0 && fds[i] < lim)
            if (close(fds[i]) != 0)
                failed++;
    return failed;
}

// A diagnostic on failure may write fds (perror is an unknown callee), so
// the next iteration's guard and argument cannot be computed ahead.
// CHECK-DAG: function close_loud loop 0: | loop call close: refused: loop-arg-unrepeatable: {{.*}}: a load of memory the loop writes (a call to perror)
void close_loud(int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            if (close(fds[i]) != 0)
                perror("close");
}

// A guard on a flag the loop sets: not repeatable.
// CHECK-DAG: function close_until loop 0: | loop call close: refused: loop-guard: {{.*}}: the call runs under a condition on a {{.*}}
void close_until(int n)
{
    int done = 0;
    for (int i = 0; i < n; i++) {
        if (!done)
            close(fds[i]);
        // REMARK: Loop_guards.c:[[@LINE-1]]:13: remark: close not batched in its loop: loop-guard ({{.*}}) [-Rpass-missed=sysbatch]
        if (fds[i] == 0)
            done = 1;
    }
}
