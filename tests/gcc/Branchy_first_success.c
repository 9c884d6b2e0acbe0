/* "First that succeeds": a path search with &&.  A failed open falls
 * through to the next candidate, a successful one stops the batch, which
 * is where the search ends in the original too; each call site then tests
 * its own slot against SYSBATCH_NOT_RUN (LONG_MIN).
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

int first_that_succeeds(const char *a, const char *b, const char *c)
{
    int fd;
    if ((fd = open(a, O_RDONLY)) < 0 && (fd = open(b, O_RDONLY)) < 0 &&
        // OPT: Branchy_first_success.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (open, open, open) into 3 slots with 0 chains over 3 blocks (branchy)
        (fd = open(c, O_RDONLY)) < 0)
        return -1;
    return fd;
}

// PLAN:      function first_that_succeeds block 0:
// PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}zero=stop pos=stop
// PLAN-NEXT:   slot 1: call 1 openat(-100, a0, 0, 0) {{ *}}zero=stop pos=stop
// PLAN-NEXT:   slot 2: call 2 openat(-100, a0, 0, 0){{$}}
// PLAN-NOT:  function

// GIMPLE:      sysbatch_slots{{.*}}[0].jump_zero = -1;
// GIMPLE:      _[[RES:[0-9]+]] = sysbatch_run (&sysbatch_rets{{.*}}, 3, 7);
// GIMPLE:      # _[[LAST:[0-9]+]] = PHI <_[[RES]]({{[0-9]+}}), -1({{[0-9]+}})>
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R0:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[0];
// GIMPLE-NEXT: if (_[[R0]] != -9223372036854775808)
// GIMPLE:      fd_{{[0-9]+}} = open (a_
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R1:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[1];
// GIMPLE-NEXT: if (_[[R1]] != -9223372036854775808)
// GIMPLE:      fd_{{[0-9]+}} = open (b_
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R2:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[2];
// GIMPLE-NEXT: if (_[[R2]] != -9223372036854775808)
// GIMPLE:      fd_{{[0-9]+}} = open (c_
