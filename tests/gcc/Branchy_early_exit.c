/* Early exit on error: `if (fd < 0) return -1;` leaves the region, the
 * fall-through goes on to fstat and close in the next block.  open feeds
 * both, so it stops the batch on failure anyway: no other jump is needed,
 * the plan is not branchy, and the call sites keep the `slot <= last` test.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O1 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O3 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -Os -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %sbgcc -O2 -fchecking -c %s -o %t/x.o -fdump-tree-all -dumpdir %t/
 * RUN: cat %t/*.sysbatch | %FileCheck %s --check-prefix=GIMPLE
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

long early_exit(const char *path, struct stat *st)
{
    int fd = open(path, O_RDONLY);
    // OPT: Branchy_early_exit.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (open, fstat, close) into 5 slots with 2 chains over 2 blocks{{$}}
    if (fd < 0)
        return -1;
    int r = fstat(fd, st);
    close(fd);
    return r < 0 ? -1 : (long)st->st_size;
}

// PLAN:      function early_exit block 0:
// PLAN-NEXT: batch 0: calls 0..2, 5 slots, 2 chains{{$}}
// PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}fail=stop
// PLAN-NEXT:   slot 1: copy ret[0] -> slot 3 arg 0
// PLAN-NEXT:   slot 2: copy ret[0] -> slot 4 arg 0
// PLAN-NEXT:   slot 3: call 1 newfstatat(ret0, "", a1, 4096)
// PLAN-NEXT:   slot 4: call 2 close(ret0)
// PLAN-NOT:  function

// GIMPLE:     _[[RES:[0-9]+]] = sysbatch_run (&sysbatch_rets{{.*}}, 5, 7);
// GIMPLE:     # _[[LAST:[0-9]+]] = PHI <_[[RES]]({{[0-9]+}}), -1({{[0-9]+}})>
// GIMPLE:     if (_[[LAST]] >= 0)
// GIMPLE:     if (_[[LAST]] >= 3)
// GIMPLE:     if (_[[LAST]] >= 4)
// GIMPLE-NOT: -9223372036854775808
