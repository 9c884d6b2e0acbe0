// A later batch of the same block may read a value of an earlier batch's
// all-ran stretch: at -O0 write's and close's fd is a load of fd0, which the
// pass forwards to open's result stored there, and that result exists on
// both paths of the earlier batch (the one all-ran test's copy and the
// per-slot calls) only through their merge in sb.after.  The IR must
// verify (a first version handed the later batch the per-slot path's value,
// which does not dominate it: garbage fds at run time); compared run: see
// tests/e2e/Difftest_straight.test, whose seed 1 found it.
// RUN: %sbclang -O0 -S -emit-llvm -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o %t.ll 2> %t.plan
// RUN: %opt_bin -disable-output -passes=verify %t.ll
// RUN: %FileCheck %s --check-prefix=PLAN < %t.plan
// PLAN:      batch 0: calls 0..1, 2 slots, 0 chains
// PLAN:      ended before call 2 (lseek): arg-computed
// PLAN:      batch 1: calls 2..4, 3 slots, 0 chains
// PLAN:        slot 1: call 3 write(a0, a1, 5)
#include <errno.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

long later_batch(long *r, int *e)
{
    int fd0 = -1;
    errno = 0;
    r[0] = fd0 = open("f0", O_RDWR | O_CREAT | O_TRUNC, 0644); e[0] = errno;
    r[1] = lseek(99, 0x100000000L, SEEK_SET); e[1] = errno;
    r[2] = lseek(99, (int)r[1], SEEK_SET); e[2] = errno;
    r[3] = write(fd0, "alpha", 5); e[3] = errno;
    r[4] = close(fd0); e[4] = errno;
    return r[3];
}
