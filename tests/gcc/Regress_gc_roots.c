/* The runtime's declarations (sysbatch_rt) are built once per unit and
 * used by every later function, so they are GC roots: with the collector
 * run at every opportunity, a unit of two ordinary functions compiles and
 * both batch (before the roots were registered this died in the rewrite of
 * the second function, at -O0 and -O2).
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 --param ggc-min-expand=0 --param ggc-min-heapsize=0 -c %s -o %t0.o -fopt-info-optimized 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 --param ggc-min-expand=0 --param ggc-min-heapsize=0 -c %s -o %t2.o -fopt-info-optimized 2>&1 | %FileCheck %s
 * RUN: test -s %t0.o && test -s %t2.o
 * CHECK: [[@LINE+8]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (open, read, close)
 * CHECK: [[@LINE+15]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (open, read, close)
 */
#include <fcntl.h>
#include <unistd.h>

long first(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY);
    long n = read(fd, buf, 64);
    close(fd);
    return n;
}

long second(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY);
    long n = read(fd, buf, 64);
    close(fd);
    return n;
}
