/* With no-blocking, calls that may sleep (read, close) are left alone and
 * say so; the ones that never block still batch.  max-slots caps a batch.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized-missed -fplugin-arg-sysbatch-no-blocking 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=DEFAULT
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan -fplugin-arg-sysbatch-max-slots=2 2>&1 | %FileCheck %s --check-prefix=SLOTS
 */
#include <unistd.h>

long blocking(int fd, char *buf)
{
    long a = getuid();
    // CHECK-DAG: Refuse_may-block.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (getuid, getgid)
    // DEFAULT: Refuse_may-block.c:[[@LINE-2]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (getuid, getgid, read)
    long b = getgid();
    long n = read(fd, buf, 16);
    // CHECK-DAG: Refuse_may-block.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: read not batched: may-block (the call may block and blocking calls are not batched for this target)
    return a + b + n;
}
// SLOTS:      batch 0: calls 0..1, 2 slots, 0 chains
// SLOTS:        ended before call 2 (read): batch-full
