/* An argument computed from an earlier result by code (n + 1) ends the
 * batch before its call; that call then opens the next batch, where the
 * value is already computed.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 */
#include <unistd.h>

long computed(int fd, char *buf)
{
    long a = getuid();
    long n = read(fd, buf, 8);
    long m = write(1, buf, n + 1);
    return a + m + getgid();
}
// CHECK:      function computed block 0:
// CHECK-NEXT: batch 0: calls 0..1, 2 slots, 0 chains
// CHECK:        ended before call 2 (write): arg-computed
// CHECK-NEXT: batch 1: calls 2..3, 2 slots, 0 chains
