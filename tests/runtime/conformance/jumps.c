/* Every jump outcome.  Marker slots write one letter to a pipe, so the trace
 * shows which slots ran and in what order (independently of rets):
 * write(pipe, "X", 1) -> 1 (jump_pos), write(pipe, "", 0) -> 0 (jump_zero),
 * write(-1, ..) -> -EBADF (jump_fail). */
#include "sbtest.h"

static const char L[] = "ABCDEFGHIJ";

static struct sbt_trace t;

/* Run a batch and compare the last index and the trace. */
static void expect(const char *what, struct sysbatch_slot *s, long n, long want_last,
                   const char *want_trace, long *rets)
{
    long last;
    char label[160];
    sbt_fill_rets(rets, n);
    last = sysbatch_run(rets, s, n, 0);
    snprintf(label, sizeof label, "%s: last slot", what);
    SBT_EQ(label, last, want_last);
    snprintf(label, sizeof label, "%s: slots that ran", what);
    SBT_STREQ(label, sbt_trace_read(t), want_trace);
}

int main(void)
{
    struct sysbatch_slot s[10];
    long rets[10];

    sbt_begin("jumps");
    t = sbt_trace_open();

    /* Fall-through: all offsets 0. */
    s[0] = sbt_mark(t, &L[0], 1);
    s[1] = sbt_mark(t, &L[1], 1);
    s[2] = sbt_mark(t, &L[2], 1);
    expect("fall-through", s, 3, 2, "ABC", rets);
    SBT_EQ("fall-through rets[0]", rets[0], 1);
    SBT_EQ("fall-through rets[2]", rets[2], 1);

    /* jump_pos forward by 1 skips one slot. */
    s[0] = sbt_jumps(sbt_mark(t, &L[0], 1), -1, -1, 1);
    s[1] = sbt_mark(t, &L[1], 1);
    s[2] = sbt_mark(t, &L[2], 1);
    expect("jump_pos +1", s, 3, 2, "AC", rets);

    /* jump_fail forward by 2. */
    s[0] = sbt_jumps(sbt_mark_fail(&L[0]), 2, -1, -1);
    s[1] = sbt_mark(t, &L[1], 1);
    s[2] = sbt_mark(t, &L[2], 1);
    s[3] = sbt_mark(t, &L[3], 1);
    expect("jump_fail +2", s, 4, 3, "D", rets);
    SBT_EQ("jump_fail rets[0]", rets[0], -EBADF);
    SBT_EQ("jump_fail rets[3]", rets[3], 1);

    /* jump_zero forward by 1. */
    s[0] = sbt_jumps(sbt_mark(t, &L[0], 0), -1, 1, -1);
    s[1] = sbt_mark(t, &L[1], 1);
    s[2] = sbt_mark(t, &L[2], 1);
    expect("jump_zero +1", s, 3, 2, "C", rets);
    SBT_EQ("jump_zero rets[0]", rets[0], 0);

    /* Only the offset of the outcome that happened counts. */
    s[0] = sbt_jumps(sbt_mark(t, &L[0], 1), 2, 2, 0);
    s[1] = sbt_mark(t, &L[1], 1);
    s[2] = sbt_mark(t, &L[2], 1);
    expect("pos result ignores fail/zero offsets", s, 3, 2, "ABC", rets);
    s[0] = sbt_jumps(sbt_mark_fail(&L[0]), 0, 2, 2);
    expect("fail result ignores zero/pos offsets", s, 3, 2, "BC", rets);
    s[0] = sbt_jumps(sbt_mark(t, &L[0], 0), 2, 0, 2);
    expect("zero result ignores fail/pos offsets", s, 3, 2, "BC", rets);

    /* A negative offset stops the batch: the last slot is the one that ran. */
    s[0] = sbt_mark(t, &L[0], 1);
    s[1] = sbt_jumps(sbt_mark(t, &L[1], 1), 0, 0, -1);
    s[2] = sbt_mark(t, &L[2], 1);
    expect("stop on pos", s, 3, 1, "AB", rets);
    SBT_EQ("stop on pos rets[1]", rets[1], 1);
    s[1] = sbt_jumps(sbt_mark_fail(&L[1]), -1, 0, 0);
    expect("stop on fail", s, 3, 1, "A", rets);
    SBT_EQ("stop on fail rets[1]", rets[1], -EBADF);
    s[1] = sbt_jumps(sbt_mark(t, &L[1], 0), 0, -32768, 0);
    expect("stop on zero (offset -32768)", s, 3, 1, "A", rets);
    s[0] = sbt_jumps(sbt_mark_fail(&L[0]), -1, 0, 0);
    expect("stop at slot 0", s, 3, 0, "", rets);
    SBT_EQ("stop at slot 0 rets[0]", rets[0], -EBADF);

    /* A jump landing exactly on n ends the batch normally. */
    s[0] = sbt_jumps(sbt_mark(t, &L[0], 1), 0, 0, 2);
    s[1] = sbt_mark(t, &L[1], 1);
    s[2] = sbt_mark(t, &L[2], 1);
    expect("jump to n from slot 0", s, 3, 0, "A", rets);
    s[0] = sbt_mark(t, &L[0], 1);
    s[1] = sbt_jumps(sbt_mark(t, &L[1], 1), 0, 0, 1);
    expect("jump to n from slot 1", s, 3, 1, "AB", rets);

    /* All three outcomes in one batch, ending with a stop. */
    s[0] = sbt_jumps(sbt_mark(t, &L[0], 1), -1, -1, 1); /* pos  -> 2 */
    s[1] = sbt_mark(t, &L[1], 1);
    s[2] = sbt_jumps(sbt_mark_fail(&L[2]), 1, -1, -1);  /* fail -> 4 */
    s[3] = sbt_mark(t, &L[3], 1);
    s[4] = sbt_jumps(sbt_mark(t, &L[4], 0), -1, 1, -1); /* zero -> 6 */
    s[5] = sbt_mark(t, &L[5], 1);
    s[6] = sbt_jumps(sbt_mark(t, &L[6], 1), -1, -1, -1); /* stop */
    s[7] = sbt_mark(t, &L[7], 1);
    expect("three outcomes", s, 8, 6, "AG", rets);
    SBT_EQ("three outcomes rets[0]", rets[0], 1);
    SBT_EQ("three outcomes rets[2]", rets[2], -EBADF);
    SBT_EQ("three outcomes rets[4]", rets[4], 0);
    SBT_EQ("three outcomes rets[6]", rets[6], 1);

    /* A long forward jump over most of a full-size batch. */
    {
        static struct sysbatch_slot big[SYSBATCH_MAX_SLOTS];
        static long big_rets[SYSBATCH_MAX_SLOTS];
        int i;
        for (i = 0; i < SYSBATCH_MAX_SLOTS; i++) {
            big[i] = sbt_mark(t, &L[1], 1);
        }
        big[0] = sbt_jumps(sbt_mark(t, &L[0], 1), -1, -1, SYSBATCH_MAX_SLOTS - 3);
        big[SYSBATCH_MAX_SLOTS - 1] = sbt_mark(t, &L[2], 1);
        expect("jump over 1021 slots", big, SYSBATCH_MAX_SLOTS, SYSBATCH_MAX_SLOTS - 1,
               "ABC", big_rets);
    }
    return sbt_end();
}
