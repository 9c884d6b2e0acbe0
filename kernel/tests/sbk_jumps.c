/* sbk_jumps: the three-way forward jumps.  After slot i the jump chosen by
 * its result (< 0 fail, == 0 zero, > 0 pos) moves to slot i + 1 + jump; a
 * negative jump stops; landing exactly on n ends the batch.  The batch
 * returns the index of the last slot run, and rets entries of slots that
 * did not run are left as they were.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sbk.h"

enum { N = 6 };

/* Slot kinds with a known outcome: FAIL < 0, ZERO == 0, POS > 0. */
static struct sysbatch_slot fail_slot(void) { return SBK1(SYS_close, -1); }
static int devnull;
static struct sysbatch_slot zero_slot(void) { return SBK3(SYS_lseek, devnull, 0, SEEK_CUR); }
static struct sysbatch_slot pos_slot(void) { return SBK0(SYS_getpid); }

static long run(struct sysbatch_slot *s, long *rets, int n)
{
    sbk_fill_rets(rets, N);
    return sbk_batch(rets, s, n, 0, 0);
}

static void expect_ran(const long *rets, const char *pattern)
{
    for (int i = 0; pattern[i]; i++) {
        int ran = rets[i] != SBK_UNTOUCHED;
        SBK_EXPECT(ran == (pattern[i] == 'x'), "slot %d %s (pattern %s)", i,
                   ran ? "ran" : "did not run", pattern);
    }
}

static void each_outcome_selects_its_jump(void)
{
    struct sysbatch_slot s[N];
    long rets[N];
    struct sysbatch_slot (*make[3])(void) = { fail_slot, zero_slot, pos_slot };
    for (int kind = 0; kind < 3; kind++) {
        for (int i = 0; i < N; i++)
            s[i] = pos_slot();
        s[0] = make[kind]();
        /* the taken jump skips 2 slots; the other two would stop */
        s[0].jump_fail = kind == 0 ? 2 : -1;
        s[0].jump_zero = kind == 1 ? 2 : -1;
        s[0].jump_pos = kind == 2 ? 2 : -1;
        SBK_EXPECT_EQ(run(s, rets, N), N - 1);
        expect_ran(rets, "x--xxx");
        /* same outcome, now the taken jump stops */
        s[0].jump_fail = kind == 0 ? -1 : 2;
        s[0].jump_zero = kind == 1 ? -1 : 2;
        s[0].jump_pos = kind == 2 ? -1 : 2;
        SBK_EXPECT_EQ(run(s, rets, N), 0);
        expect_ran(rets, "x-----");
    }
    SBK_EXPECT_EQ(rets[0], getpid());
}

static void jump_to_exactly_n_ends(void)
{
    struct sysbatch_slot s[N];
    long rets[N];
    for (int i = 0; i < N; i++)
        s[i] = pos_slot();
    s[1].jump_pos = N - 2;   /* 1 + 1 + 4 = 6 = n */
    SBK_EXPECT_EQ(run(s, rets, N), 1);
    expect_ran(rets, "xx----");
    s[1].jump_pos = 0;
    s[N - 1].jump_pos = 0;   /* last slot falls through to n */
    SBK_EXPECT_EQ(run(s, rets, N), N - 1);
    expect_ran(rets, "xxxxxx");
}

/* openat fails -> skip the block that would use the fd; the zero branch of
 * the lseek stops; the most negative jump also stops. */
static void error_block_skipped(void)
{
    struct sysbatch_slot s[N] = {
        SBK3(SYS_openat, -100, "/no/such/file", 0),
        SBK3(SYS_read, -1, 0, 0),
        SBK1(SYS_close, -1),
        zero_slot(),
        pos_slot(),
        pos_slot(),
    };
    long rets[N];
    s[0].jump_fail = 2;
    s[3].jump_zero = -32768;
    SBK_EXPECT_EQ(run(s, rets, N), 3);
    expect_ran(rets, "x--x--");
    SBK_EXPECT_EQ(rets[0], -ENOENT);
    SBK_EXPECT_EQ(rets[3], 0);
}

int main(void)
{
    sbk_require_module();
    devnull = open("/dev/null", O_RDONLY);
    SBK_EXPECT(devnull >= 0, "open /dev/null");
    each_outcome_selects_its_jump();
    jump_to_exactly_n_ends();
    error_block_skipped();
    return sbk_finish("sbk_jumps");
}
