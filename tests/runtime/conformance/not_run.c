/* Slots a batch jumps over, and slots after a stop, hold SYSBATCH_NOT_RUN;
 * slots that ran hold their raw result; a refused batch leaves rets alone.
 * Code rewritten for batches with forward jumps relies on exactly this to
 * know which of its calls ran. */
#include "sbtest.h"

int main(void)
{
    long rets[5];
    struct sysbatch_slot s[5];

    sbt_begin("not_run");
    s[0] = sbt_slot(SYS_getuid, 0, 0, 0, 0, 0, 0, 0);            /* runs */
    s[1] = sbt_jumps(sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0),  /* -EBADF: */
                     1, 0, 0);                                    /* skip 2 */
    s[2] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);            /* skipped */
    s[3] = sbt_jumps(sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0),  /* stops */
                     -1, 0, 0);
    s[4] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);           /* not run */
    for (int i = 0; i < 5; i++)
        rets[i] = SBT_UNSET;
    SBT_EQ("last slot run", sysbatch_run(rets, s, 5, 0), 3);
    SBT_TRUE("getuid ran", rets[0] >= 0 && rets[0] != SYSBATCH_NOT_RUN);
    SBT_EQ("close(-1) ran", rets[1], -EBADF);
    SBT_EQ("jumped over", rets[2], SYSBATCH_NOT_RUN);
    SBT_EQ("stopping close ran", rets[3], -EBADF);
    SBT_EQ("after the stop", rets[4], SYSBATCH_NOT_RUN);

    /* Refused before running (a jump past the end): rets untouched. */
    s[0] = sbt_jumps(s[0], 0, 0, 9);
    for (int i = 0; i < 5; i++)
        rets[i] = SBT_UNSET;
    SBT_EQ("refused", sysbatch_run(rets, s, 5, 0), -SYSBATCH_EINVAL);
    for (int i = 0; i < 5; i++)
        SBT_EQ("refused batch leaves rets", rets[i], SBT_UNSET);
    return sbt_end();
}
