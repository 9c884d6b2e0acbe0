/* n = 0 is a valid, empty batch: it returns 0, runs nothing, touches no
 * result, and is accepted even with NULL arrays (the probe form). */
#include "sbtest.h"

int main(void)
{
    long rets[2] = { SBT_UNSET, SBT_UNSET };
    struct sysbatch_slot slots[1];
    struct sysbatch_stats before, after;

    sbt_begin("empty_batch");
    slots[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    sysbatch_get_stats(&before);
    SBT_EQ("run(rets, slots, 0)", sysbatch_run(rets, slots, 0, 0), 0);
    SBT_EQ("run(NULL, NULL, 0)", sysbatch_run(NULL, NULL, 0, 0), 0);
    SBT_EQ("check(NULL, NULL, 0)", sysbatch_check(NULL, NULL, 0), 0);
    SBT_EQ("rets[0] untouched", rets[0], SBT_UNSET);
    SBT_EQ("rets[1] untouched", rets[1], SBT_UNSET);
    sysbatch_get_stats(&after);
    SBT_EQ("slots counted for n=0", after.slots[SYSBATCH_PATH_KERNEL] + after.slots[SYSBATCH_PATH_EMUL],
           before.slots[SYSBATCH_PATH_KERNEL] + before.slots[SYSBATCH_PATH_EMUL]);
    SBT_EQ("refused for n=0", after.refused, before.refused);
    return sbt_end();
}
