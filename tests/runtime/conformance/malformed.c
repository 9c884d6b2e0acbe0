/* Every malformed batch is refused before anything runs, with the error the
 * header documents.  Each batch starts with a slot that would create a file
 * and a marker write, and carries one defect further on; after the refusal
 * the file must not exist, the marker must not be in the trace and rets must
 * be untouched.  A final control run of a correct batch shows the detection
 * works (the file does appear). */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <limits.h>

#define N 4

static const char *dir, *marker_file;
static struct sbt_trace t;
static struct sysbatch_slot s[N];
static long rets[N + 1];
static struct sysbatch_slot big[SYSBATCH_MAX_SLOTS + 1];

/* A correct 4-slot batch: create the file, mark, getpid, getppid. */
static void good_batch(struct sysbatch_slot *slots)
{
    slots[0] = sbt_slot(SYS_openat, 4, AT_FDCWD, (long)marker_file,
                        O_CREAT | O_WRONLY | O_CLOEXEC, 0600, 0, 0);
    slots[1] = sbt_mark(t, "M", 1);
    slots[2] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    slots[3] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
}

static void expect_refused(const char *what, long *r, struct sysbatch_slot *slots, long n,
                           long flags, long want)
{
    struct sysbatch_stats before, after;
    char label[160];
    long got, k;

    sbt_fill_rets(rets, N + 1);
    sysbatch_get_stats(&before);
    got = sysbatch_run(r, slots, n, flags);
    sysbatch_get_stats(&after);
    snprintf(label, sizeof label, "%s: sysbatch_run", what);
    SBT_EQ(label, got, want);
    if (flags == 0) {
        snprintf(label, sizeof label, "%s: sysbatch_check", what);
        SBT_EQ(label, sysbatch_check(r, slots, n), want);
    }
    snprintf(label, sizeof label, "%s: file created by slot 0", what);
    SBT_TRUE(label, !sbt_exists(marker_file));
    snprintf(label, sizeof label, "%s: marker slot ran", what);
    SBT_STREQ(label, sbt_trace_read(t), "");
    for (k = 0; k < N + 1; k++) {
        snprintf(label, sizeof label, "%s: rets[%ld] written", what, k);
        SBT_EQ(label, rets[k], SBT_UNSET);
    }
    snprintf(label, sizeof label, "%s: refused counter", what);
    SBT_EQ(label, after.refused, before.refused + 1);
    snprintf(label, sizeof label, "%s: slots counted", what);
    SBT_EQ(label, after.slots[1] + after.slots[2], before.slots[1] + before.slots[2]);
    unlink(marker_file);
}

int main(void)
{
    int k;

    sbt_begin("malformed");
    dir = sbt_tempdir();
    marker_file = sbt_path_in(dir, "created-by-slot-0");
    t = sbt_trace_open();

    good_batch(s);
    expect_refused("n = -1", rets, s, -1, 0, -SYSBATCH_EINVAL);
    expect_refused("n = LONG_MIN", rets, s, LONG_MIN, 0, -SYSBATCH_EINVAL);

    for (k = 0; k < SYSBATCH_MAX_SLOTS + 1; k++) {
        big[k] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    }
    good_batch(big);
    {
        static long big_rets[SYSBATCH_MAX_SLOTS + 1];
        expect_refused("n = SYSBATCH_MAX_SLOTS + 1", big_rets, big, SYSBATCH_MAX_SLOTS + 1, 0,
                       -SYSBATCH_EINVAL);
    }

    good_batch(s);
    s[2].argc = 7;
    expect_refused("argc 7", rets, s, N, 0, -SYSBATCH_EINVAL);
    good_batch(s);
    s[3].argc = -1;
    expect_refused("argc -1", rets, s, N, 0, -SYSBATCH_EINVAL);
    good_batch(s);
    s[2].argc = 127;
    expect_refused("argc 127", rets, s, N, 0, -SYSBATCH_EINVAL);

    good_batch(s);
    s[2] = sbt_jumps(s[2], 2, 0, 0); /* 2 + 1 + 2 = 5 > 4 */
    expect_refused("jump_fail past n", rets, s, N, 0, -SYSBATCH_EINVAL);
    good_batch(s);
    s[2] = sbt_jumps(s[2], 0, 2, 0);
    expect_refused("jump_zero past n", rets, s, N, 0, -SYSBATCH_EINVAL);
    good_batch(s);
    s[2] = sbt_jumps(s[2], 0, 0, 2);
    expect_refused("jump_pos past n", rets, s, N, 0, -SYSBATCH_EINVAL);
    good_batch(s);
    s[3] = sbt_jumps(s[3], -1, -1, 1); /* from the last slot, +1 lands on n + 1 */
    expect_refused("last slot jumps one past n", rets, s, N, 0, -SYSBATCH_EINVAL);
    good_batch(s);
    s[1] = sbt_jumps(s[1], 32767, 0, 0);
    expect_refused("jump 32767", rets, s, N, 0, -SYSBATCH_EINVAL);

    {
        long word = 0, src = 5;
        good_batch(s);
        s[2] = sbt_copy(&word, &src);
        s[2].argc = 3;
        expect_refused("word copy with argc 3", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2].argc = 1;
        expect_refused("word copy with argc 1", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_jumps(sbt_copy(&word, &src), 0, 0, 1);
        expect_refused("word copy with a jump", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_jumps(sbt_copy(&word, &src), -1, 0, 0);
        expect_refused("word copy with a stop", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_copy(&rets[1], &src);
        expect_refused("word copy into rets", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_copy(&word, &s[0].arg[1]);
        expect_refused("word copy from the slot array", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_copy(&s[3].nr, &src);
        expect_refused("word copy into a later nr", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_copy(&s[3].jump_fail, &src);
        expect_refused("word copy into a later jump", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_copy((char *)&s[3].arg[0] + 4, &src);
        expect_refused("word copy into a later arg, misaligned", rets, s, N, 0,
                       -SYSBATCH_EINVAL);
        s[2] = sbt_copy(&s[0].arg[0], &src);
        expect_refused("word copy into an earlier slot", rets, s, N, 0, -SYSBATCH_EINVAL);
        s[2] = sbt_copy(&s[2].arg[1], &src);
        expect_refused("word copy into its own slot", rets, s, N, 0, -SYSBATCH_EINVAL);
    }

    good_batch(s);
    expect_refused("NULL rets", NULL, s, N, 0, -SYSBATCH_EFAULT);
    expect_refused("NULL slots", rets, NULL, N, 0, -SYSBATCH_EFAULT);
    expect_refused("flags = 16 (undefined)", rets, s, N, 16, -SYSBATCH_EINVAL);
    expect_refused("flags = JUMPS without PLANNED", rets, s, N, SYSBATCH_RUN_JUMPS,
                   -SYSBATCH_EINVAL);
    expect_refused("rets inside the slot array", (long *)&s[1], s, N, 0, -SYSBATCH_EINVAL);
    expect_refused("slots inside rets", rets, (struct sysbatch_slot *)rets, 1, 0,
                   -SYSBATCH_EINVAL);

    /* Control: the same batch without a defect runs, creates the file and
     * writes the marker, so the checks above could have failed. */
    good_batch(s);
    sbt_fill_rets(rets, N + 1);
    SBT_EQ("control: last", sysbatch_run(rets, s, N, 0), N - 1);
    SBT_TRUE("control: file created", sbt_exists(marker_file));
    SBT_STREQ("control: marker", sbt_trace_read(t), "M");
    SBT_EQ("control: getpid", rets[2], getpid());
    if (rets[0] >= 0) {
        close((int)rets[0]);
    }
    {
        /* And a copy into a later slot's arg is fine. */
        long fd_src;
        good_batch(s);
        fd_src = 1;
        s[2] = sbt_copy(&s[3].arg[0], &fd_src);
        s[3] = sbt_slot(SYS_fcntl, 2, -1, F_GETFD, 0, 0, 0, 0);
        unlink(marker_file);
        sbt_fill_rets(rets, N + 1);
        SBT_EQ("control copy: last", sysbatch_run(rets, s, N, 0), N - 1);
        SBT_EQ("control copy: fcntl(1, F_GETFD)", rets[3], fcntl(1, F_GETFD));
        SBT_STREQ("control copy: marker", sbt_trace_read(t), "M");
        if (rets[0] >= 0) {
            close((int)rets[0]);
        }
    }
    return sbt_end();
}
