/* The checked open/fstat/read/close of issue 5: an early return after
 * perror (a barrier, so that arm has no slot), and an error arm that closes
 * the fd.  One branchy batch over four blocks: fstat jumps over the
 * cleanup close on success, and every call site tests its own slot for
 * SYSBATCH_NOT_RUN.
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
 * RUN: %sbgcc -O0 -fchecking -c %s -o %t/x.o -fdump-tree-all -dumpdir %t/
 * RUN: cat %t/*.sysbatch | %FileCheck %s --check-prefix=GIMPLE
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

long cleanup(const char *path, struct stat *st, char *buf)
{
    int fd = open(path, O_RDONLY);
    // OPT: Branchy_cleanup_arm.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 5 calls (open, fstat, close, read, close) into 9 slots with 4 chains over 4 blocks (branchy)
    if (fd < 0) {
        perror(path);
        return -1;
    }
    if (fstat(fd, st) < 0) {
        close(fd);
        return -1;
    }
    long n = read(fd, buf, 64);
    close(fd);
    return n;
}

// PLAN:      function cleanup block 0:
// PLAN-NEXT: batch 0: calls 0..4, 9 slots, 4 chains, branchy
// PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}fail=stop
// PLAN-NEXT:   slot 1: copy ret[0] -> slot 5 arg 0
// PLAN-NEXT:   slot 2: copy ret[0] -> slot 6 arg 0
// PLAN-NEXT:   slot 3: copy ret[0] -> slot 7 arg 0
// PLAN-NEXT:   slot 4: copy ret[0] -> slot 8 arg 0
// PLAN-NEXT:   slot 5: call 1 newfstatat(ret0, "", a1, 4096) {{ *}}zero=+1 pos=+1
// PLAN-NEXT:   slot 6: call 2 close(ret0) {{ *}}fail=stop zero=stop pos=stop
// PLAN-NEXT:   slot 7: call 3 read(ret0, a1, 64)
// PLAN-NEXT:   slot 8: call 4 close(ret0)
// PLAN-NOT:  function

// One test of last >= 0 and one of the call's own slot per call site.
// GIMPLE:     _[[RES:[0-9]+]] = sysbatch_run (&sysbatch_rets{{.*}}, 9, 7);
// GIMPLE:     # _[[LAST:[0-9]+]] = PHI <_[[RES]]({{[0-9]+}}), -1({{[0-9]+}})>
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R0:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[0];
// GIMPLE-NEXT: if (_[[R0]] != -9223372036854775808)
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R5:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[5];
// GIMPLE-NEXT: if (_[[R5]] != -9223372036854775808)
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R6:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[6];
// GIMPLE-NEXT: if (_[[R6]] != -9223372036854775808)
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R7:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[7];
// GIMPLE-NEXT: if (_[[R7]] != -9223372036854775808)
// GIMPLE:      if (_[[LAST]] >= 0)
// GIMPLE:      _[[R8:[0-9]+]] = sysbatch_rets.{{[0-9]+}}[8];
// GIMPLE-NEXT: if (_[[R8]] != -9223372036854775808)
// GIMPLE-NOT:  if (_[[LAST]] >= {{[1-9]}})
