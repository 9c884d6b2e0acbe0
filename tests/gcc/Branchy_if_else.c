/* if/else with calls on both arms: access() decides between unlink and
 * chmod; the batch runs access and then exactly the arm the original
 * takes (unlink stops after itself, a failed access jumps over it).  When the arm that is listed first (the then-arm) does not use a
 * chained fd but the other one does, the producer cannot fall into its
 * word copies on both of its outcomes, and the chained read is refused
 * (arg-computed); the else-arm is then planned on its own.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O1 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O3 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -Os -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 *
 * The refused read and close of chained_else's region are reported only
 * where their own block is planned (and batched), not twice:
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s --check-prefix=MISSED --allow-empty
 * MISSED-NOT: sysbatch: {{read|close}} not batched
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

void both_arms(const char *path)
{
    if (access(path, W_OK) == 0)
        // OPT: Branchy_if_else.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (access, unlink, chmod) into 3 slots with 0 chains over 3 blocks (branchy)
        unlink(path);
    else
        chmod(path, 0600);
}

int chained_else(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY);
    // OPT: Branchy_if_else.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (open, access) into 2 slots with 0 chains over 2 blocks (branchy)
    if (fd == -1) {
        return access(path, F_OK);
    } else {
        long n = read(fd, buf, 16);
        // OPT: Branchy_if_else.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (read, close) into 2 slots with 0 chains{{$}}
        close(fd);
        return (int)n;
    }
}

// PLAN:      function both_arms block 0:
// PLAN-NEXT: batch 0: calls 0..2, 3 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 access(a0, 2) {{ *}}fail=+1 pos=+1
// PLAN-NEXT:   slot 1: call 1 unlink(a0) {{ *}}fail=stop zero=stop pos=stop
// PLAN-NEXT:   slot 2: call 2 chmod(a0, 384){{$}}
// PLAN:      function chained_else block 0:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains, branchy
// PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}zero=stop pos=stop
// PLAN-NEXT:   slot 1: call 1 access(a0, 0)
// PLAN-NEXT: refused call 2 (read): arg-computed: {{.*}}chained from a call whose zero and positive results do not both continue at the slot after its word copies
// PLAN-NEXT: refused call 3 (close): not-reached:
// PLAN-NEXT: function chained_else block 2:
// PLAN-NEXT: batch 0: calls 0..1, 2 slots, 0 chains{{$}}
