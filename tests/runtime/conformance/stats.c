/* sysbatch_get_stats counts batches and the slots actually executed (not n)
 * on the path that ran them, refused batches separately, and nothing on the
 * other path. */
#include "sbtest.h"

int main(void)
{
    struct sysbatch_stats a, b;
    struct sysbatch_slot s[6];
    long rets[6];
    enum sysbatch_path p, other;
    long dummy = 0, one = 1;

    sbt_begin("stats");
    p = sysbatch_path();
    other = p == SYSBATCH_PATH_KERNEL ? SYSBATCH_PATH_EMUL : SYSBATCH_PATH_KERNEL;
    sysbatch_get_stats(&a);

    /* 6 slots, 6 run. */
    s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[1] = sbt_copy(&dummy, &one);
    s[2] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
    s[3] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);
    s[4] = sbt_slot(SYS_getuid, 0, 0, 0, 0, 0, 0, 0);
    s[5] = sbt_slot(SYS_getgid, 0, 0, 0, 0, 0, 0, 0);
    SBT_EQ("batch 1", sysbatch_run(rets, s, 6, 0), 5);
    /* 6 slots, 3 run: 0 -> 2 (pos +1), 2 -> 3, 3 fails and stops. */
    s[0] = sbt_jumps(s[0], -1, -1, 1);
    s[3] = sbt_jumps(s[3], -1, 0, 0);
    SBT_EQ("batch 2", sysbatch_run(rets, s, 6, 0), 3);
    /* 6 slots, 1 run: slot 0 jumps to n. */
    s[0] = sbt_jumps(s[0], -1, -1, 5);
    SBT_EQ("batch 3", sysbatch_run(rets, s, 6, 0), 0);
    /* refused twice, and an empty batch */
    s[0] = sbt_jumps(s[0], -1, -1, 6);
    SBT_EQ("refused", sysbatch_run(rets, s, 6, 0), -SYSBATCH_EINVAL);
    SBT_EQ("refused NULL", sysbatch_run(NULL, s, 6, 0), -SYSBATCH_EFAULT);
    SBT_EQ("empty", sysbatch_run(rets, s, 0, 0), 0);

    sysbatch_get_stats(&b);
    SBT_EQ("batches on this path", b.batches[p] - a.batches[p], 3);
    SBT_EQ("slots executed on this path", b.slots[p] - a.slots[p], 6 + 3 + 1);
    SBT_EQ("batches on the other path", b.batches[other] - a.batches[other], 0);
    SBT_EQ("slots on the other path", b.slots[other] - a.slots[other], 0);
    SBT_EQ("refused", b.refused - a.refused, 2);
    SBT_EQ("path NONE unused", b.batches[SYSBATCH_PATH_NONE] + b.slots[SYSBATCH_PATH_NONE], 0);
    return sbt_end();
}
