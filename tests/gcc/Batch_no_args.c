/* Calls without arguments (and without chains) form one batch; the
 * rewritten function still passes GCC's checking at -O0 and -O3.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O3 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s
 */
#include <unistd.h>

int ids(void)
{
    uid_t u = getuid();
    // CHECK: Batch_no_args.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 4 calls (getuid, geteuid, getgid, getpid) into 4 slots with 0 chains
    uid_t e = geteuid();
    gid_t g = getgid();
    pid_t p = getpid();
    return (int)(u + e + g) + p;
}
