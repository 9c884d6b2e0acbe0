// Runtime statistics prove the batch really ran (not just that the IR
// changed): 6 identity calls are one batch of 6 slots under BATCH_EMUL, at
// -O0 and -O2; without it (no sys_batch on this kernel) no batch runs and
// the original calls do, with the same output.
// REQUIRES: llvm
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sbclang -O0 %s %sbruntime -o %t/o0
// RUN: %sbclang -O2 %s %sbruntime -o %t/o2
// RUN: env BATCH_EMUL=1 SYSBATCH_STATS=1 %t/o0 2>&1 | %FileCheck %s --check-prefix=EMUL
// RUN: env BATCH_EMUL=1 SYSBATCH_STATS=1 %t/o2 2>&1 | %FileCheck %s --check-prefix=EMUL
// RUN: env SYSBATCH_STATS=1 %t/o2 2>&1 | %FileCheck %s --check-prefix=PLAIN
// EMUL-DAG: ids ok
// EMUL-DAG: emulated 1 batches 6 slots
// PLAIN-DAG: ids ok
// PLAIN-DAG: kernel 0 batches 0 slots; emulated 0 batches 0 slots
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    int uid = getuid(), euid = geteuid();
    int gid = getgid(), egid = getegid();
    int pid = getpid(), ppid = getppid();
    if (uid < 0 || euid < 0 || gid < 0 || egid < 0 || pid <= 0 || ppid <= 0)
        return 1;
    printf("ids ok\n");
    return 0;
}
