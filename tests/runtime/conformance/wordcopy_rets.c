/* Word copies that read a result from rets: open -> read -> close with the
 * fd chained into later slots; a copy reached by a jump (not by fall-through)
 * behaves the same; a copy's own result is 0; copies between plain memory
 * words.  Placeholders are wrong on purpose (fd -1), so a copy that did not
 * happen shows as -EBADF. */
#include "sbtest.h"

static const char L[] = "XY";

int main(void)
{
    const char *dir, *path;
    struct sysbatch_slot s[8];
    long rets[8], last;
    char buf[64];
    struct sbt_trace t;

    sbt_begin("wordcopy_rets");
    dir = sbt_tempdir();
    path = sbt_path_in(dir, "in");
    sbt_write_file(path, "hello, batch", 12);
    t = sbt_trace_open();

    /* open -> copy fd -> read -> copy fd -> close */
    memset(buf, 0, sizeof buf);
    sbt_fill_rets(rets, 5);
    s[0] = sbt_jumps(sbt_slot(SYS_openat, 3, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0),
                     -1, 0, 0);
    s[1] = sbt_copy(&s[2].arg[0], &rets[0]);
    s[2] = sbt_slot(SYS_read, 3, -1, (long)buf, sizeof buf, 0, 0, 0);
    s[3] = sbt_copy(&s[4].arg[0], &rets[0]);
    s[4] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);
    last = sysbatch_run(rets, s, 5, 0);
    SBT_EQ("chain: last", last, 4);
    SBT_TRUE("chain: open gave an fd", rets[0] >= 0);
    SBT_EQ("chain: copy result", rets[1], 0);
    SBT_EQ("chain: read through copied fd", rets[2], 12);
    SBT_TRUE("chain: bytes read", memcmp(buf, "hello, batch", 12) == 0);
    SBT_EQ("chain: second copy result", rets[3], 0);
    SBT_EQ("chain: close through copied fd", rets[4], 0);
    if (rets[0] >= 0) {
        SBT_TRUE("chain: fd closed afterwards", fcntl((int)rets[0], F_GETFD) == -1 && errno == EBADF);
    }

    /* The same batch on a missing file stops at slot 0; nothing else runs. */
    memset(buf, 0, sizeof buf);
    sbt_fill_rets(rets, 5);
    s[0] = sbt_jumps(sbt_slot(SYS_openat, 3, AT_FDCWD, (long)sbt_path_in(dir, "missing"),
                              O_RDONLY | O_CLOEXEC, 0, 0, 0), -1, 0, 0);
    s[1] = sbt_copy(&s[2].arg[0], &rets[0]);
    s[2] = sbt_slot(SYS_read, 3, -1, (long)buf, sizeof buf, 0, 0, 0);
    s[3] = sbt_copy(&s[4].arg[0], &rets[0]);
    s[4] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);
    last = sysbatch_run(rets, s, 5, 0);
    SBT_EQ("missing: last", last, 0);
    SBT_EQ("missing: open", rets[0], -ENOENT);
    SBT_EQ("missing: read buffer untouched", buf[0], 0);

    /* A copy reached by jump_pos from the slot before the skipped one: the
     * copy still falls through to the next slot (the published module would
     * carry the +1 over and skip the read). */
    memset(buf, 0, sizeof buf);
    sbt_fill_rets(rets, 6);
    s[0] = sbt_jumps(sbt_slot(SYS_openat, 3, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0),
                     -1, 0, 1);
    s[1] = sbt_mark(t, &L[0], 1);
    s[2] = sbt_copy(&s[3].arg[0], &rets[0]);
    s[3] = sbt_slot(SYS_read, 3, -1, (long)buf, sizeof buf, 0, 0, 0);
    s[4] = sbt_copy(&s[5].arg[0], &rets[0]);
    s[5] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);
    last = sysbatch_run(rets, s, 6, 0);
    SBT_EQ("copy after jump_pos: last", last, 5);
    SBT_STREQ("copy after jump_pos: skipped marker", sbt_trace_read(t), "");
    SBT_EQ("copy after jump_pos: read", rets[3], 12);
    SBT_EQ("copy after jump_pos: close", rets[5], 0);

    /* ... and reached by jump_fail and by jump_zero. */
    {
        long x = 0, y = 77, z = 0;
        sbt_fill_rets(rets, 6);
        s[0] = sbt_jumps(sbt_mark_fail(&L[0]), 1, 0, 0);
        s[1] = sbt_mark(t, &L[0], 1);
        s[2] = sbt_copy(&x, &y);
        s[3] = sbt_mark(t, &L[1], 1);
        s[4] = sbt_jumps(sbt_mark(t, &L[1], 0), 0, 1, 0);
        s[5] = sbt_mark(t, &L[0], 1);
        last = sysbatch_run(rets, s, 6, 0);
        SBT_EQ("copy after jump_fail: last", last, 4);
        SBT_EQ("copy after jump_fail: copied", x, 77);
        SBT_STREQ("copy after jump_fail: trace", sbt_trace_read(t), "Y");

        sbt_fill_rets(rets, 4);
        s[0] = sbt_jumps(sbt_mark(t, &L[0], 0), 0, 1, 0);
        s[1] = sbt_mark(t, &L[0], 1);
        s[2] = sbt_copy(&z, &y);
        s[3] = sbt_mark(t, &L[1], 1);
        last = sysbatch_run(rets, s, 4, 0);
        SBT_EQ("copy after jump_zero: last", last, 3);
        SBT_EQ("copy after jump_zero: copied", z, 77);
        SBT_EQ("copy after jump_zero: copy result", rets[2], 0);
        SBT_STREQ("copy after jump_zero: trace", sbt_trace_read(t), "Y");
    }

    /* Copies as the first and the last slot, memory to memory. */
    {
        long a = 0, b = -5, c = 0, d = 0x123456789abcdefL;
        sbt_fill_rets(rets, 3);
        s[0] = sbt_copy(&a, &b);
        s[1] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
        s[2] = sbt_copy(&c, &d);
        last = sysbatch_run(rets, s, 3, 0);
        SBT_EQ("memory copies: last", last, 2);
        SBT_EQ("memory copy first slot", a, -5);
        SBT_EQ("memory copy last slot", c, 0x123456789abcdefL);
        SBT_EQ("memory copies: getpid between", rets[1], getpid());
        SBT_EQ("memory copies: source unchanged", d, 0x123456789abcdefL);
    }
    return sbt_end();
}
