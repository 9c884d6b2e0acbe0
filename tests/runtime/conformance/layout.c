/* The slot struct is the sys_batch ABI byte for byte (64 bytes: nr, three
 * jumps, argc, padding, six args), and the SYSBATCH_SLOT* / SYSBATCH_COPY
 * initialisers put each value in its field. */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <stddef.h>

int main(void)
{
    static long word;
    struct sysbatch_slot s3 = SYSBATCH_SLOT3(SYS_read, 7, 0x1000, 42);
    struct sysbatch_slot s0 = SYSBATCH_SLOT0(SYS_getpid);
    struct sysbatch_slot s6 = SYSBATCH_SLOT(SYS_mmap, 6, 1, 2, 3, 4, 5, 6);
    struct sysbatch_slot cp = SYSBATCH_COPY(&word, &s3.arg[0]);
    int k;

    sbt_begin("layout");
    SBT_EQ("sizeof slot", sizeof(struct sysbatch_slot), 64);
    SBT_EQ("offsetof nr", offsetof(struct sysbatch_slot, nr), 0);
    SBT_EQ("offsetof jump_fail", offsetof(struct sysbatch_slot, jump_fail), 2);
    SBT_EQ("offsetof jump_zero", offsetof(struct sysbatch_slot, jump_zero), 4);
    SBT_EQ("offsetof jump_pos", offsetof(struct sysbatch_slot, jump_pos), 6);
    SBT_EQ("offsetof argc", offsetof(struct sysbatch_slot, argc), 8);
    SBT_EQ("offsetof arg", offsetof(struct sysbatch_slot, arg), 16);
    SBT_EQ("sizeof arg[0]", sizeof s3.arg[0], 8);

    SBT_EQ("SLOT3 nr", s3.nr, SYS_read);
    SBT_EQ("SLOT3 argc", s3.argc, 3);
    SBT_EQ("SLOT3 arg0", s3.arg[0], 7);
    SBT_EQ("SLOT3 arg1", s3.arg[1], 0x1000);
    SBT_EQ("SLOT3 arg2", s3.arg[2], 42);
    SBT_EQ("SLOT3 arg3", s3.arg[3], 0);
    SBT_EQ("SLOT3 jumps", s3.jump_fail | s3.jump_zero | s3.jump_pos, 0);
    SBT_EQ("SLOT0 nr", s0.nr, SYS_getpid);
    SBT_EQ("SLOT0 argc", s0.argc, 0);
    for (k = 0; k < 6; k++) {
        SBT_EQ("SLOT arg[k]", s6.arg[k], k + 1);
    }
    SBT_EQ("COPY nr", cp.nr, SYSBATCH_NR_WORDCOPY);
    SBT_EQ("COPY nr value", cp.nr, -2);
    SBT_EQ("COPY argc", cp.argc, 2);
    SBT_EQ("COPY dst", cp.arg[0], (long)&word);
    SBT_EQ("COPY src", cp.arg[1], (long)&s3.arg[0]);
    SBT_EQ("batch syscall number", SYSBATCH_NR_BATCH, 183);
    return sbt_end();
}
