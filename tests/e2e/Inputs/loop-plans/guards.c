/* Loop batching under a guard the inspector repeats (issue #12), compiled
 * by tests/llvm/Loop_guards.test and tests/gcc/Loop_guards.test at -O0 and
 * -O2: both compilers must print the PLAN lines below (each function's plan
 * joined on one line); a plan the compilers legitimately differ on is
 * checked in each test.  The call runs only in iterations whose condition
 * holds (fd[i] >= 0, names[i][0] != '.' of a table of literals, an
 * invariant flag, a && b); the inspector evaluates the same conditions for
 * each later iteration and fills slots only for those that hold, looking
 * at up to 4 iterations per slot.  A condition on a flag the loop sets, one
 * that does not alone decide whether the call runs (a || b, which clang -O2
 * folds into one condition), and an exit test under the guard are refused
 * as loop-guard.  The remark / opt-info checks of each test name lines of
 * this file: keep them in step. */
#include <stdio.h>
#include <unistd.h>

int fds[64];
static const char *const names[4] = {"a", ".b", "c", "d"};

// PLAN-DAG: function close_open loop 0: | loop call close: 16 iterations per batch | slot: close(a0) | guard repeated: up to 64 iterations looked at per batch{{$}}
void close_open(int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

// PLAN-DAG: function unlink_visible loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) | guard repeated: up to 64 iterations looked at per batch{{$}}
void unlink_visible(int *skipped)
{
    for (int i = 0; i < 4; i++) {
        if (names[i][0] != '.')
            unlink(names[i]);
        else
            ++*skipped;
    }
}

// An invariant flag.
// PLAN-DAG: function unlink_flag loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) | guard repeated: up to 64 iterations looked at per batch{{$}}
void unlink_flag(int flags, int n)
{
    for (int i = 0; i < n; i++)
        if (flags & 4)
            unlink(names[i & 3]);
}

// Two conditions, both the call's way (a && b).
// PLAN-DAG: function close_both loop 0: | loop call close: 16 iterations per batch | slot: close(a0) | guard repeated: up to 64 iterations looked at per batch{{$}}
int close_both(int n, int lim)
{
    int failed = 0;
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0 && fds[i] < lim)
            if (close(fds[i]) != 0)
                failed++;
    return failed;
}

// Either condition (a || b): two branches, neither alone decides.
void close_either(int n, int lim)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0 || i > lim)
            close(fds[i]);
}

// A guard on a flag the loop sets: not repeatable.
// PLAN-DAG: function close_until loop 0: | loop call close: refused: loop-guard: {{.*}}
void close_until(int n)
{
    int done = 0;
    for (int i = 0; i < n; i++) {
        if (!done)
            close(fds[i]);
        if (fds[i] == 0)
            done = 1;
    }
}

// The loop's exit test under the call's condition.
// PLAN-DAG: function close_stop_inside loop 0: | loop call close: refused: loop-guard: {{.*}}
void close_stop_inside(int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] != 0) {
            if (fds[i] < 0)
                break;
            close(fds[i]);
        }
}

// A diagnostic on failure may write fds (perror is an unknown callee), so
// the next iteration's guard and argument cannot be computed ahead.
// PLAN-DAG: function close_loud loop 0: | loop call close: refused: loop-arg-unrepeatable: {{.*}}
void close_loud(int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            if (close(fds[i]) != 0)
                perror("close");
}
