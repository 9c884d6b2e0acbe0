/* A batch of exactly SYSBATCH_MAX_SLOTS slots is accepted and runs every
 * slot; results land in the right entries (alternating getpid / getppid,
 * with a word copy every 64th slot feeding the next slot's argument). */
#include "sbtest.h"

static struct sysbatch_slot s[SYSBATCH_MAX_SLOTS];
static long rets[SYSBATCH_MAX_SLOTS];

int main(void)
{
    long i, last, bad = 0, fd;
    static long src = 2; /* stderr */

    sbt_begin("max_batch");
    for (i = 0; i < SYSBATCH_MAX_SLOTS; i++) {
        if (i % 64 == 62) {
            s[i] = sbt_copy(&s[i + 1].arg[0], &src);
        } else if (i % 64 == 63) {
            s[i] = sbt_slot(SYS_fcntl, 2, -1, F_GETFD, 0, 0, 0, 0);
        } else {
            s[i] = sbt_slot(i % 2 ? SYS_getppid : SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
        }
    }
    sbt_fill_rets(rets, SYSBATCH_MAX_SLOTS);
    last = sysbatch_run(rets, s, SYSBATCH_MAX_SLOTS, 0);
    SBT_EQ("last", last, SYSBATCH_MAX_SLOTS - 1);
    fd = fcntl(2, F_GETFD);
    for (i = 0; i < SYSBATCH_MAX_SLOTS; i++) {
        long want = i % 64 == 62 ? 0 : i % 64 == 63 ? fd : i % 2 ? getppid() : getpid();
        if (rets[i] != want) {
            if (bad++ < 5) {
                sbt_fail("rets[%ld] = %ld, want %ld", i, rets[i], want);
            }
        }
    }
    SBT_EQ("wrong results", bad, 0);
    return sbt_end();
}
