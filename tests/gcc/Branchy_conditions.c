/* Compares the sign class of the result decides, each mapped through
 * sb_cond_classes: == -1, != 0, > 0, <= 0 with the constant on the left,
 * and an unsigned compare on getuid()'s uid_t.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O1 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O3 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -Os -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 */
#include <fcntl.h>
#include <unistd.h>

int eq_minus_one(const char *a, const char *b)
{
    if (unlink(a) == -1)
        // OPT: Branchy_conditions.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (unlink, unlink) into 2 slots with 0 chains over 2 blocks (branchy)
        return unlink(b);
    return 0;
}

int ne_zero(const char *a, const char *b)
{
    if (rmdir(a) != 0)
        // OPT: Branchy_conditions.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (rmdir, rmdir) into 2 slots with 0 chains over 2 blocks (branchy)
        return rmdir(b);
    return 0;
}

int gt_zero(int fd, char *buf)
{
    if (read(fd, buf, 32) > 0)
        // OPT: Branchy_conditions.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (read, close) into 2 slots with 0 chains over 2 blocks (branchy)
        return close(fd);
    return -1;
}

int const_left(int fd, char *buf)
{
    long n = write(fd, buf, 8);
    // OPT: Branchy_conditions.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (write, fsync) into 2 slots with 0 chains over 2 blocks (branchy)
    if (0 < n)
        return fsync(fd);
    return -1;
}

unsigned unsigned_gt(void)
{
    if (getuid() > 0u)
        // OPT: Branchy_conditions.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (getuid, getgid) into 2 slots with 0 chains over 2 blocks (branchy)
        return getgid();
    return 0;
}

// PLAN:      function eq_minus_one block 0:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 unlink(a0) {{ *}}zero=stop pos=stop
// PLAN-NEXT:   slot 1: call 1 unlink(a0){{$}}
// PLAN:      function ne_zero block 0:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 rmdir(a0) {{ *}}zero=stop{{$}}
// PLAN-NEXT:   slot 1: call 1 rmdir(a0){{$}}
// PLAN:      function gt_zero block 0:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 read(a0, a1, 32) {{ *}}fail=stop zero=stop{{$}}
// PLAN-NEXT:   slot 1: call 1 close(a0){{$}}
// PLAN:      function const_left block 0:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 write(a0, a1, 8) {{ *}}fail=stop zero=stop{{$}}
// PLAN-NEXT:   slot 1: call 1 fsync(a0){{$}}
// PLAN:      function unsigned_gt block 0:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 getuid() {{ *}}fail=stop zero=stop{{$}}
// PLAN-NEXT:   slot 1: call 1 getgid(){{$}}
