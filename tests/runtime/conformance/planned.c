/* SYSBATCH_RUN_PLANNED, the flag the plugins pass for a batch they built:
 * on the kernel path the runtime skips its own check and trusts the two
 * facts the flags tell (jumps, cancellation points).  This program checks
 * that nothing else changes:
 *   - a malformed batch is still refused with nothing run, flagged or not
 *     (without the flag by the runtime; with it by the runtime on the
 *     user-space path and by the kernel module on the kernel path);
 *   - flag values the header does not define, or the two facts without
 *     SYSBATCH_RUN_PLANNED, are -SYSBATCH_EINVAL with nothing run;
 *   - a well-formed batch gives the same results flagged and not, skipped
 *     slots read SYSBATCH_NOT_RUN, and the stats count it the same;
 *   - SYSBATCH_RUN_CANCEL makes the batch a cancellation point, a planned
 *     batch without it is none. */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <pthread.h>

#define N 4
#define PLANNED SYSBATCH_RUN_PLANNED
#define PLANNED_JUMPS (SYSBATCH_RUN_PLANNED | SYSBATCH_RUN_JUMPS)

static const char *marker_file;
static struct sbt_trace t;
static struct sysbatch_slot s[N];
static long rets[N];

/* Create the file, mark, getpid, getppid: every slot leaves a trace. */
static void good_batch(void)
{
    s[0] = sbt_slot(SYS_openat, 4, AT_FDCWD, (long)marker_file,
                    O_CREAT | O_WRONLY | O_CLOEXEC, 0600, 0, 0);
    s[1] = sbt_mark(t, "M", 1);
    s[2] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[3] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
}

/* Refused with `want` and nothing run.  rets may have been marked
 * NOT_RUN (a flagged batch with jumps is marked before it goes to the
 * kernel), never written with a result. */
static void expect_refused(const char *what, long *r, long flags, long want)
{
    struct sysbatch_stats before, after;
    char label[160];
    long k;

    sbt_fill_rets(rets, N);
    sysbatch_get_stats(&before);
    snprintf(label, sizeof label, "%s: sysbatch_run", what);
    SBT_EQ(label, sysbatch_run(r, s, N, flags), want);
    sysbatch_get_stats(&after);
    snprintf(label, sizeof label, "%s: file created by slot 0", what);
    SBT_TRUE(label, !sbt_exists(marker_file));
    snprintf(label, sizeof label, "%s: marker slot ran", what);
    SBT_STREQ(label, sbt_trace_read(t), "");
    for (k = 0; k < N; k++) {
        snprintf(label, sizeof label, "%s: rets[%ld] holds a result", what, k);
        SBT_TRUE(label, rets[k] == SBT_UNSET || rets[k] == SYSBATCH_NOT_RUN);
    }
    snprintf(label, sizeof label, "%s: refused counter", what);
    SBT_EQ(label, after.refused, before.refused + 1);
    snprintf(label, sizeof label, "%s: slots counted", what);
    SBT_EQ(label, after.slots[1] + after.slots[2], before.slots[1] + before.slots[2]);
    unlink(marker_file);
}

static volatile int reached_after_plain, reached_after_cancel_point;

static void *victim(void *arg)
{
    struct sysbatch_slot v[2];
    long r[2];
    (void)arg;
    pthread_cancel(pthread_self()); /* deferred: pending until a cancellation point */
    v[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    v[1] = sbt_slot(SYS_lseek, 3, t.rd, 0, SEEK_CUR, 0, 0, 0);
    if (sysbatch_run(r, v, 2, PLANNED) == 1 && r[0] == getpid()) {
        reached_after_plain = 1;
    }
    v[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    v[1] = sbt_mark(t, "X", 1);
    sysbatch_run(r, v, 2, PLANNED | SYSBATCH_RUN_CANCEL); /* cancelled here */
    reached_after_cancel_point = 1;
    return NULL;
}

int main(void)
{
    struct sysbatch_stats before, after;
    long plain[N], last;
    pthread_t th;
    void *ret = NULL;
    int k;

    sbt_begin("planned");
    marker_file = sbt_path_in(sbt_tempdir(), "created-by-slot-0");
    t = sbt_trace_open();

    /* Malformed, each without the flag and with it. */
    good_batch();
    s[2].argc = 7;
    expect_refused("argc 7", rets, 0, -SYSBATCH_EINVAL);
    expect_refused("argc 7, planned", rets, PLANNED, -SYSBATCH_EINVAL);
    good_batch();
    s[3].argc = -1;
    expect_refused("argc -1, planned", rets, PLANNED, -SYSBATCH_EINVAL);
    good_batch();
    s[2] = sbt_jumps(s[2], 2, 0, 0); /* 2 + 1 + 2 = 5 > 4 */
    expect_refused("jump past n", rets, 0, -SYSBATCH_EINVAL);
    expect_refused("jump past n, planned", rets, PLANNED_JUMPS, -SYSBATCH_EINVAL);
    good_batch();
    s[3] = sbt_jumps(s[3], -1, -1, 1);
    expect_refused("last slot jumps past n, planned", rets, PLANNED_JUMPS, -SYSBATCH_EINVAL);
    good_batch();
    expect_refused("NULL rets, planned", NULL, PLANNED, -SYSBATCH_EFAULT);

    /* Flags the header does not define. */
    good_batch();
    expect_refused("flags = 16", rets, 16, -SYSBATCH_EINVAL);
    expect_refused("flags = 1 << 40", rets, PLANNED | (1L << 40), -SYSBATCH_EINVAL);
    expect_refused("JUMPS without PLANNED", rets, SYSBATCH_RUN_JUMPS, -SYSBATCH_EINVAL);
    expect_refused("CANCEL without PLANNED", rets, SYSBATCH_RUN_CANCEL, -SYSBATCH_EINVAL);
    expect_refused("flags = -1", rets, -1, -SYSBATCH_EINVAL);

    /* Well-formed: the same results with and without the flag.  getpid's
     * jump_pos skips getppid, so that slot reads NOT_RUN. */
    good_batch();
    s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[2] = sbt_jumps(sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0), 0, 0, 1);
    sbt_fill_rets(plain, N);
    SBT_EQ("unflagged: last", sysbatch_run(plain, s, N, 0), 2);
    SBT_STREQ("unflagged: trace", sbt_trace_read(t), "M");
    sbt_fill_rets(rets, N);
    sysbatch_get_stats(&before);
    last = sysbatch_run(rets, s, N, PLANNED_JUMPS);
    sysbatch_get_stats(&after);
    SBT_EQ("planned: last", last, 2);
    SBT_STREQ("planned: trace", sbt_trace_read(t), "M");
    for (k = 0; k < N; k++) {
        char label[64];
        snprintf(label, sizeof label, "planned: rets[%d] as unflagged", k);
        SBT_EQ(label, rets[k], plain[k]);
    }
    SBT_EQ("planned: skipped slot", rets[3], SYSBATCH_NOT_RUN);
    SBT_EQ("planned: batches counted", after.batches[1] + after.batches[2],
           before.batches[1] + before.batches[2] + 1);
    SBT_EQ("planned: slots counted", after.slots[1] + after.slots[2],
           before.slots[1] + before.slots[2] + 3);

    /* Jump-free and flagged as such: every slot runs. */
    good_batch();
    s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    sbt_fill_rets(rets, N);
    SBT_EQ("planned, no jumps: last", sysbatch_run(rets, s, N, PLANNED), N - 1);
    SBT_STREQ("planned, no jumps: trace", sbt_trace_read(t), "M");
    SBT_EQ("planned, no jumps: getppid", rets[3], getppid());

    /* Cancellation: only the batch flagged CANCEL acts on it. */
    if (pthread_create(&th, NULL, victim, NULL) != 0) {
        perror("pthread_create");
        return 1;
    }
    pthread_join(th, &ret);
    SBT_TRUE("victim was cancelled", ret == PTHREAD_CANCELED);
    SBT_EQ("planned batch without CANCEL ran and returned", reached_after_plain, 1);
    SBT_EQ("returned from the batch flagged CANCEL", reached_after_cancel_point, 0);
    SBT_STREQ("slots of the cancelled batch that ran", sbt_trace_read(t), "");
    return sbt_end();
}
