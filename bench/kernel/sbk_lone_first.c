/* sbk_lone_first: what a planned batch costs when only its first call can
 * run, against that call made plainly - the shape a predicated fill gives
 * when the flag guarding the later calls is off (tar -xf without
 * --overwrite: `openat, fstat, close` planned, `openat` alone runs).
 *
 *     sbk_lone_first <iterations>
 *
 * Prints "lone-first plain ns <N>", "lone-first batch ns <N>" and the
 * runtime's path for the batches ("lone-first kernel-batches <K>").  The
 * batch is the one the plugins build: three slots, SYSBATCH_RUN_PLANNED
 * with its jumps flag, slot 0 stopping or jumping to the end on every
 * outcome.  Under qemu -icount shift=0 the nanoseconds are guest
 * instructions (bench/kernel/lone_first.sh runs it with
 * SYSBATCH_MIN_BATCH=1, every batch through sys_batch as before the
 * break-even rule, and with the module's break-even). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sysbatch.h"

static long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void set_slot(struct sysbatch_slot *s, long nr, int argc, long a0)
{
    s->nr = (short)nr;
    s->jump_fail = s->jump_zero = s->jump_pos = 0;
    s->argc = (char)argc;
    for (int k = 0; k < 6; k++) {
        s->arg[k] = 0;
    }
    s->arg[0] = a0;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, i, t0, plain, batch;
    struct sysbatch_stats before, after;
    struct sysbatch_slot s[3];
    long rets[3];

    if (n <= 0) {
        fprintf(stderr, "sbk_lone_first: iterations must be positive\n");
        return 2;
    }
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        if (syscall(SYS_getppid) < 0) {
            return 1;
        }
    }
    plain = now_ns() - t0;

    sysbatch_get_stats(&before);
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        /* refilled every time, as a compiled call site does */
        set_slot(&s[0], SYS_getppid, 0, 0);
        s[0].jump_fail = -1;
        s[0].jump_zero = -1;
        s[0].jump_pos = 2; /* to the end: the guarded calls are skipped */
        set_slot(&s[1], SYS_fstat, 2, -1);
        set_slot(&s[2], SYS_close, 1, -1);
        if (sysbatch_run(rets, s, 3, SYSBATCH_RUN_PLANNED | SYSBATCH_RUN_JUMPS) != 0 ||
            rets[0] <= 0 || rets[1] != SYSBATCH_NOT_RUN) {
            fprintf(stderr, "sbk_lone_first: wrong batch result\n");
            return 1;
        }
    }
    batch = now_ns() - t0;
    sysbatch_get_stats(&after);
    printf("lone-first plain ns %ld\n", plain);
    printf("lone-first batch ns %ld\n", batch);
    printf("lone-first kernel-batches %lu\n",
           after.batches[SYSBATCH_PATH_KERNEL] - before.batches[SYSBATCH_PATH_KERNEL]);
    return 0;
}
