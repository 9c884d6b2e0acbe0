// Identity calls with a failing close(-1) in the middle of the batch: every
// call site sees the same value and errno with and without the pass, on the
// batch path (BATCH_EMUL=1) and on the versioned fallback path.
// REQUIRES: llvm
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t '%clang' '%sbclang' %sbruntime | %FileCheck %s
// CHECK: same: 4 runs
// CHECK: close(-1) = -1 errno 9
// CHECK: exit status 0
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    errno = 0;
    int uid = getuid();
    int e0 = errno;
    int bad = close(-1);
    int e1 = errno;
    int gid = getgid();
    int e2 = errno;
    int pid = getpid();
    int e3 = errno;

    printf("getuid() = %d errno %d\n", uid, e0);
    printf("close(-1) = %d errno %d\n", bad, e1);
    printf("getgid() = %d errno %d\n", gid, e2);
    printf("getpid() > 0: %d errno %d\n", pid > 0, e3);
    return 0;
}
