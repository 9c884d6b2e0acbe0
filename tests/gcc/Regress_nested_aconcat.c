/* Regression: the plugin crashed (segfault in describe_gap) when a call
 * between batched calls conflicted with a later call: the remark text was
 * built with GCC's ACONCAT nested inside another ACONCAT, which shares one
 * global buffer.  A first-that-succeeds pair, then memset of the buffer
 * read() fills, then read.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static char buf[64];

int search(void)
{
    int fd;
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (open, open) into 2 slots with 0 chains over 2 blocks (branchy)
    if ((fd = open("a", O_RDONLY)) < 0 && (fd = open("b", O_RDONLY)) < 0)
        return -1;
    memset(buf, 0, sizeof buf);
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: missed: sysbatch: read not batched: below-min-batch
    read(fd, buf, sizeof buf - 1);
    return fd;
}
// PLAN: refused call 2 (read): {{.*}}a call to memset that may alias a buffer of read
