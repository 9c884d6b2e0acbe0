/* Calls to libc functions of the core's table (core/libc.c) are code with
 * known accesses, not barriers: strlen of the path, snprintf with a plain
 * format into a local, isdigit, strtol (which sets errno) between calls
 * commute with them.  The same functions conflict when they touch a buffer
 * a later call writes, and stay barriers (with the reason) when the format
 * is not constant or has %n.
 *
 * Compiled by tests/gcc/Libc_code.test and tests/llvm/Libc_code.test, which
 * check the remarks below against each compiler's output: both front ends
 * must give the same verdict and reason for every call.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long commute(const char *path, const char *num)
{
    char buf[64], line[32];
    char *end;
    // CHECK-DAG: libc_code.c:[[@LINE+1]]:{{[0-9]+}}: {{(optimized: sysbatch|remark)}}: batched 3 calls (open, read, close) into 5 slots with 2 chains
    int fd = open(path, O_RDONLY);
    size_t len = strlen(path);
    long v = strtol(num, &end, 10);
    long n = read(fd, buf, sizeof buf);
    snprintf(line, sizeof line, "%s:%d", "x", (int)len);
    close(fd);
    return n + v + isdigit((unsigned char)line[0]) + (end != num);
}

long conflict(char *buf)
{
    int fd = open("in.txt", O_RDONLY);
    // CHECK-DAG: libc_code.c:[[@LINE-1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: open not batched: below-min-batch
    size_t len = strlen(buf);
    long n = read(fd, buf, 16);
    // CHECK-DAG: libc_code.c:[[@LINE-1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: read not batched: code-conflict ({{.*}}: a call to strlen that may alias a buffer of read)
    return n + (long)len;
}

long formats(char *buf, const char *fmt)
{
    long a = getuid();
    snprintf(buf, 10, fmt, 1);
    long b = getgid();
    // CHECK-DAG: libc_code.c:[[@LINE-1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: getgid not batched: barrier ({{.*}}: call to snprintf (the format is not a constant string))
    sprintf(buf, "%n", (int *)buf);
    long c = getpid();
    // CHECK-DAG: libc_code.c:[[@LINE-1]]:{{[0-9]+}}: {{(missed: sysbatch|remark)}}: getpid not batched: barrier ({{.*}}: call to sprintf (%n in the format))
    return a + b + c;
}
