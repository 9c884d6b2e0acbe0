/* A call left alone says what kept its neighbour out (below-min-batch's
 * detail, decided in core/plan-alone.c from what the plugin reports about
 * the code after the call): the unknown call or the conflicting code in
 * between, the next call itself, no other call in the function, a loop's
 * back edge or exit, a branch, a jump to a join, no call on any path, a
 * barrier after the call.  The LLVM pass says the same:
 * tests/llvm/Lone_calls.test runs clang over this file with these checks.
 * placement=early, so the checks are those of the look before inlining at
 * both levels.
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

extern void note(const char *what);

int only_call(void) { return getpid(); }
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}getpid not batched: below-min-batch (too few calls in a row to pay for a batch: only-call: no other system call in the function)

void unknown_between(int fd, struct stat *st)
{
    close(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}close not batched: below-min-batch (too few calls in a row to pay for a batch: barrier: call to note stands between it and the next call, fstat)
    note("closed");
    fstat(0, st);
}

void store_between(int fd, char *buf)
{
    fsync(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}fsync not batched: below-min-batch (too few calls in a row to pay for a batch: conflict: {{.*}} may not move across the next call, write)
    buf[0] = 1;
    write(fd, buf, 8);
}

void then_exit(void)
{
    getppid();
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}getppid not batched: below-min-batch (too few calls in a row to pay for a batch: next-refused: the next call, exit, is not batched (never-batch))
    exit(1);
}

void cannot_join(const char *path)
{
    int fd = open(path, O_RDONLY);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}open not batched: below-min-batch (too few calls in a row to pay for a batch: next-cannot-join: the next call, lseek, cannot join it (arg-computed))
    lseek(fd * 2, 0, SEEK_SET);
}

void loop_edges(int fd, char *b)
{
    for (;;) {
        if (read(fd, b, 1) <= 0)
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}read not batched: below-min-batch (too few calls in a row to pay for a batch: loop-exit: the path to the next call leaves the loop)
            break;
        note(b);
        write(1, b, 1);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}write not batched: below-min-batch (too few calls in a row to pay for a batch: loop-back-edge: a loop's back edge comes before the next call (the next call is the next iteration's))
    }
    note("done");
    close(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}close not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
}

void branch(int fd, int verbose)
{
    fsync(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}fsync not batched: below-min-batch (too few calls in a row to pay for a batch: branch: its block ends in a branch the batch does not follow: the next call after it, close, cannot join it (barrier: call to note))
    if (verbose)
        note("synced");
    else
        note("quiet");
    close(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}close not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
}

/* The store before the join's close keeps the join whole (no join split:
 * tests/gcc/Join_split.c), so fsync's block ends in a jump to a join. */
int closes;

void block_end(int fd, int sync_first)
{
    if (sync_first)
        fsync(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}fsync not batched: below-min-batch (too few calls in a row to pay for a batch: block-end: its block ends in a jump to a block other paths enter too)
    else
        note("no sync");
    closes++;
    close(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}close not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
}

int last_call(int fd, int c)
{
    if (c)
        return getpid();
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}getpid not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
    note("closing");
    return close(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}close not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
}

void barrier_after(int fd, int c)
{
    close(fd);
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}close not batched: below-min-batch (too few calls in a row to pay for a batch: barrier: call to note follows it in its block)
    note("closed");
    if (c)
        getpid();
    // CHECK-DAG: Lone_calls.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}getpid not batched: below-min-batch (too few calls in a row to pay for a batch: last-call: no system call follows it on any path)
}

/* cpio's rtapelib.c: the second close's descriptor is a load on its own
 * path, which the issue point may not make (it might fault there): the
 * branchy region batches nothing past the first close, and says why. */
int branch_next_cannot_join(int (*fds)[2], int n)
{
    if (close(fds[n][0]) != 0 || close(fds[n][1]) != 0)
        return -1;
    // CHECK-DAG: Lone_calls.c:[[@LINE-2]]:{{[0-9]+}}: {{.*}}close not batched: below-min-batch (too few calls in a row to pay for a batch: branch: its block ends in a branch the batch does not follow: the next call after it, close, cannot join it (arg-computed: an argument is computed by code after the batch would start))
    return 0;
}
