/* Loop batching under a guard the inspector repeats (issue #12), from gcc
 * at -O0 and -O2: the call runs only in iterations whose condition holds
 * (fd[i] >= 0, names[i][0] != '.' of a table of literals, an invariant
 * flag, a && b); the inspector evaluates the same conditions for each
 * later iteration and fills slots only for those that hold, looking at up
 * to 4 iterations per slot.  A condition on a flag the loop sets, one that
 * does not alone decide whether the call runs (a || b), and an exit test
 * under the guard are refused as loop-guard.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=OPT
 */
#include <unistd.h>

int fds[64];
static const char *const names[4] = {"a", ".b", "c", "d"};

void close_open(int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    // OPT: Loop_guards.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched loop call close: 16 iterations per batch
}

void unlink_visible(int *skipped)
{
    for (int i = 0; i < 4; i++) {
        if (names[i][0] != '.')
            unlink(names[i]);
        // OPT: Loop_guards.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched loop call unlink: 16 iterations per batch
        else
            ++*skipped;
    }
}

void unlink_flag(int flags, int n)
{
    for (int i = 0; i < n; i++)
        if (flags & 4)
            unlink(names[i & 3]);
}

int close_both(int n, int lim)
{
    int failed = 0;
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0 && fds[i] < lim)
            if (close(fds[i]) != 0)
                failed++;
    return failed;
}

void close_either(int n, int lim)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0 || i > lim)
            close(fds[i]);
    // OPT: Loop_guards.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched in its loop: loop-guard ({{.*}}: the code before the call branches in a way the inspector does not repeat)
}

void close_until(int n)
{
    int done = 0;
    for (int i = 0; i < n; i++) {
        if (!done)
            close(fds[i]);
        // OPT: Loop_guards.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched in its loop: loop-guard ({{.*}}: the call runs under a condition on {{.*}})
        if (fds[i] == 0)
            done = 1;
    }
}

void close_stop_inside(int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] != 0) {
            if (fds[i] < 0)
                break;
            close(fds[i]);
            // OPT: Loop_guards.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: close not batched in its loop: loop-guard ({{.*}}: the loop's exit test is under the call's condition)
        }
}

// CHECK:      function close_open loop 0:
// CHECK-NEXT: loop call close: 16 iterations per batch
// CHECK-NEXT:   slot: close(a0)
// CHECK-NEXT:   guard repeated: up to 64 iterations looked at per batch
// CHECK:      function unlink_visible loop 0:
// CHECK-NEXT: loop call unlink: 16 iterations per batch
// CHECK-NEXT:   slot: unlink(a0)
// CHECK-NEXT:   guard repeated: up to 64 iterations looked at per batch
// CHECK:      function unlink_flag loop 0:
// CHECK-NEXT: loop call unlink: 16 iterations per batch
// CHECK-NEXT:   slot: unlink(a0)
// CHECK-NEXT:   guard repeated: up to 64 iterations looked at per batch
// CHECK:      function close_both loop 0:
// CHECK-NEXT: loop call close: 16 iterations per batch
// CHECK-NEXT:   slot: close(a0)
// CHECK-NEXT:   guard repeated: up to 64 iterations looked at per batch
// CHECK:      function close_either loop 0:
// CHECK-NEXT: loop call close: refused: loop-guard: {{.*}}
// CHECK:      function close_until loop 0:
// CHECK-NEXT: loop call close: refused: loop-guard: {{.*}}
// CHECK:      function close_stop_inside loop 0:
// CHECK-NEXT: loop call close: refused: loop-guard: {{.*}}
