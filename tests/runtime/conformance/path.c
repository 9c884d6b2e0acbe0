/* Path selection: the kernel path exactly when the probe (syscall 183 with
 * n = 0) answers 0 and no BATCH_EMUL / SYSBATCH_EMUL forces the emulator;
 * sysbatch_active is 1 on the kernel path or when forced, and 0 otherwise;
 * the choice is stable. */
#include "sbtest.h"

int main(void)
{
    int forced, has_kernel;
    enum sysbatch_path p;

    sbt_begin("path");
    forced = sbt_env_on("BATCH_EMUL") || sbt_env_on("SYSBATCH_EMUL");
    has_kernel = syscall(SYSBATCH_NR_BATCH, 0L, 0L, 0L, 0L, 0L) == 0;
    p = sysbatch_path();
    SBT_EQ("path", p, forced || !has_kernel ? SYSBATCH_PATH_EMUL : SYSBATCH_PATH_KERNEL);
    SBT_EQ("sysbatch_active", sysbatch_active, forced || has_kernel);
    SBT_EQ("path is stable", sysbatch_path(), p);
    return sbt_end();
}
