// Remarks for branchy regions from clang, at -O0 and -O2: the batch remark
// at the region's first call says over how many blocks and that it jumps;
// a branch that ends a region with calls after it says why; calls cut off
// in a covered block say why.
// REQUIRES: llvm
// RUN: %sbclang -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -O2 -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-placement=early -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int checked(const char *p, struct stat *st)
{
    int fd = open(p, O_RDONLY);
    // CHECK: Branch_remarks.c:[[@LINE-1]]:14: remark: batched 3 calls (open, fstat, close) into 5 slots with 2 chains over 3 blocks (branchy) [-Rpass=sysbatch]
    if (fd < 0)
        return -1;
    if (fstat(fd, st) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

long undecided(int fd, char *buf)
{
    long n = read(fd, buf, 16);
    if (n == 5)
    // CHECK: Branch_remarks.c:[[@LINE-1]]:9: remark: branch ends the region: the sign of read's result does not decide the compare [-Rpass-missed=sysbatch]
        close(fd);
    return n;
}

int cut(const char *p)
{
    if (access(p, F_OK) == 0) {
    // CHECK: Branch_remarks.c:[[@LINE-1]]:9: remark: batched 3 calls (access, unlink, mkdir) into 3 slots with 0 chains over 3 blocks (branchy) [-Rpass=sysbatch]
        unlink(p);
        puts("removed");
        return rmdir(p);
    // CHECK: Branch_remarks.c:[[@LINE-1]]:16: remark: rmdir not batched: barrier (code between the calls may touch anything (unknown call, volatile or atomic access): call to puts) [-Rpass-missed=sysbatch]
    }
    return mkdir(p, 0755);
}
