/* Helper for the env-var lit tests: runs three batches with a known number
 * of executed slots (getpid and getppid results are always > 0) (4 + 2 + 1 = 7) and one refused batch, then prints which
 * path ran them, in the words BATCH_VERBOSE uses. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysbatch.h"

int main(void)
{
    struct sysbatch_slot s[5] = {
        SYSBATCH_SLOT0(SYS_getpid), SYSBATCH_SLOT0(SYS_getppid), SYSBATCH_SLOT0(SYS_getpid),
        SYSBATCH_SLOT0(SYS_getppid), SYSBATCH_SLOT0(SYS_getpid),
    };
    long rets[5];
    long a = sysbatch_run(rets, s, 4, 0); /* 4 slots */
    long b, c, d;
    s[0].jump_pos = 2;                    /* 0 -> 3, then 3 -> 4 = n */
    s[3].jump_pos = 1;
    b = sysbatch_run(rets, s, 5, 0);      /* 2 slots */
    c = sysbatch_run(rets, s, 3, 0);      /* 1 slot: 0 -> 3 = n */
    s[0].jump_pos = 5;
    d = sysbatch_run(rets, s, 5, 0);      /* refused */
    printf("last=%ld,%ld,%ld,%ld\n", a, b, c, d);
    printf("active=%d path=%s\n", sysbatch_active,
           sysbatch_path() == SYSBATCH_PATH_KERNEL ? "Real" : "Emulated");
    fflush(stdout); /* before the SYSBATCH_STATS line printed at exit */
    return 0;
}
