/* A batch stops at the slot limit (64): open + 31 chained reads use 63
 * slots, the next read would need two more, so it opens a second batch in
 * which the fd is an ordinary value (its producer already ran).
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <unistd.h>

#define R8 read(fd, b, 1); read(fd, b, 1); read(fd, b, 1); read(fd, b, 1); \
           read(fd, b, 1); read(fd, b, 1); read(fd, b, 1); read(fd, b, 1);

int many(char *b)
{
    int fd = open("x", O_RDONLY);
    R8 R8 R8 R8 R8
    return close(fd);
}
// CHECK:      function many block 0:
// CHECK-NEXT: batch 0: calls 0..31, 63 slots, 31 chains
// CHECK:        ended before call 32 (read): batch-full
// CHECK-NEXT: batch 1: calls 32..41, 10 slots, 0 chains
// CHECK-NEXT:   slot 0: call 32 read(a0, a1, 1)
