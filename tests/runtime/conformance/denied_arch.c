/* Calls that change the thread's architectural or signal-stack state are
 * denied too (arch_prctl, iopl, ioperm, modify_ldt, sigaltstack): -ENOSYS in
 * the slot, nothing changed, the batch goes on.  Each would succeed if it
 * ran (arch_prctl(ARCH_GET_FS) would also fill `fs`; modify_ldt(0, ..)
 * reads).  Kept apart from denied.c because this part of the deny list is
 * our choice, not the published module's; a kernel module with a different
 * list fails here alone. */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <asm/prctl.h>
#include <signal.h>

int main(void)
{
    struct sysbatch_slot s[6];
    long rets[6], last;
    char ldt[16];
    unsigned long fs = 0x1234;
    stack_t old;

    sbt_begin("denied_arch");
    memset(&old, 0x5b, sizeof old);
    sbt_fill_rets(rets, 6);
    s[0] = sbt_slot(SYS_arch_prctl, 2, ARCH_GET_FS, (long)&fs, 0, 0, 0, 0);
    s[1] = sbt_slot(SYS_iopl, 1, 0, 0, 0, 0, 0, 0);
    s[2] = sbt_slot(SYS_ioperm, 3, 0, 0, 0, 0, 0, 0);
    s[3] = sbt_slot(SYS_sigaltstack, 2, 0, (long)&old, 0, 0, 0, 0);
    s[4] = sbt_slot(SYS_modify_ldt, 3, 0, (long)ldt, sizeof ldt, 0, 0, 0); /* read */
    s[5] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    last = sysbatch_run(rets, s, 6, 0);
    SBT_EQ("last", last, 5);
    SBT_EQ("arch_prctl", rets[0], -ENOSYS);
    SBT_EQ("arch_prctl left its output alone", fs, 0x1234);
    SBT_EQ("iopl", rets[1], -ENOSYS);
    SBT_EQ("ioperm", rets[2], -ENOSYS);
    SBT_EQ("sigaltstack", rets[3], -ENOSYS);
    SBT_EQ("sigaltstack left its output alone", ((unsigned char *)&old)[0], 0x5b);
    SBT_EQ("modify_ldt", rets[4], -ENOSYS);
    SBT_EQ("getpid after denied calls", rets[5], getpid());
    return sbt_end();
}
