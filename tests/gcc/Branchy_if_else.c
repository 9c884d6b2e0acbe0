/* if/else with calls on both arms: access() decides between unlink and
 * chmod; the batch runs access and then exactly the arm the original
 * takes (unlink stops after itself, a failed access jumps over it).  When
 * the arm that is listed first is open's failure arm (it does not use the
 * chained fd) and the other one does, open cannot fall into its word
 * copies on success with the failure arm in between: the failure arm
 * leaves the batch (open stops it when it fails, and that arm's access
 * then runs on its own) and open, read, close are one batch.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O1 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O3 -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -Os -fplugin-arg-sysbatch-placement=early -fchecking -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=PLAN
 *
 * Calls of the batch are not reported as refused anywhere, and the access
 * left out says so once, with the reason:
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s --check-prefix=MISSED
 * MISSED-NOT: sysbatch: {{read|close}} not batched
 * MISSED: sysbatch: access left out of the batch at line 41: not-reached
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
    // OPT: Branchy_if_else.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (open, read, close) into 5 slots with 2 chains over 2 blocks{{$}}
    if (fd == -1) {
        return access(path, F_OK);
    } else {
        long n = read(fd, buf, 16);
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
// PLAN-NEXT: batch 0: calls 0..3, 5 slots, 2 chains{{$}}
// PLAN-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}fail=stop
// PLAN-NEXT:   slot 1: copy ret[0] -> slot 3 arg 0
// PLAN-NEXT:   slot 2: copy ret[0] -> slot 4 arg 0
// PLAN-NEXT:   slot 3: call 2 read(ret0, a1, 16)
// PLAN-NEXT:   slot 4: call 3 close(ret0)
// PLAN-NEXT: refused call 1 (access): not-reached: {{.*}}: the batch stops when the call before this arm fails: {{.*}}
// PLAN-NEXT: function chained_else block 1:
// PLAN-NEXT: refused call 0 (access): below-min-batch: {{.*}}
