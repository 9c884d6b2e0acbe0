// Loop batching remarks from clang at -O0 and -O2: `batched loop call X:
// N iterations per batch` at a batched call, `X not batched in its loop:
// <reason> (<text>: <detail>)` at a refused one, in the style of the
// region remarks.
// REQUIRES: llvm
// RUN: %sbclang -O0 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %sbclang -O2 -c -Rpass=sysbatch -Rpass-missed=sysbatch %s -o /dev/null 2>&1 | %FileCheck %s
#include <stdio.h>
#include <unistd.h>

void close_array(int *fd, int n)
{
    for (int i = 0; i < n; i++)
        close(fd[i]);
    // CHECK: Loop_remarks.c:[[@LINE-1]]:9: remark: batched loop call close: 16 iterations per batch [-Rpass=sysbatch]
}

long read_to_eof(int fd, char *buf)
{
    long n, t = 0;
    while ((n = read(fd, buf, 64)) > 0)
    // CHECK: Loop_remarks.c:[[@LINE-1]]:17: remark: read not batched in its loop: loop-carried (an argument depends on the call's result in an earlier iteration of the loop: each call reads from where the previous one stopped on the same descriptor, and the loop goes on only on what it returned (a read until end of file)) [-Rpass-missed=sysbatch]
        t += n;
    return t;
}

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
