/* The fd from open feeds read, fstat and close through word copies; the
 * batch is reported at open's line at every -O level, and the plan is the
 * core's worked example plus fstat.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O1 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O3 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -Os -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

long cat_one(const char *path, char *buf)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    // OPT: Batch_chain.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 4 calls (open, read, fstat, close) into 7 slots with 3 chains
    long n = read(fd, buf, 4096);
    fstat(fd, &st);
    close(fd);
    return n + st.st_size;
}

// PLAN:      function cat_one block 0:
// PLAN-NEXT: batch 0: calls 0..3, 7 slots, 3 chains
// PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}fail=stop
// PLAN-NEXT:   slot 1: copy ret[0] -> slot 2 arg 0
// PLAN-NEXT:   slot 2: call 1 read(ret0, a1, 4096)
// PLAN-NEXT:   slot 3: copy ret[0] -> slot 4 arg 0
// PLAN-NEXT:   slot 4: call 2 newfstatat(ret0, "", a1, 4096)
// PLAN-NEXT:   slot 5: copy ret[0] -> slot 6 arg 0
// PLAN-NEXT:   slot 6: call 3 close(ret0)
