/* Below the module's break-even a batch runs as its original calls, on the
 * emulator's loop, also when it was planned with several slots of which
 * only the first can run: every outcome of slot 0 ends the batch.  That is
 * what a predicated fill makes when the flag guarding the later calls is
 * off, and through the kernel such a batch would cost one crossing plus
 * sys_batch's fixed cost for one call.
 *
 * On the kernel path this program runs itself again with
 * SYSBATCH_MIN_BATCH=2 (the ftrace hook's break-even; the VM tier starts
 * every program with 1) and checks which path ran each batch:
 *   slot 0 stops or jumps to the end on every outcome   -> emulated
 *   the same batch without the plugin's flags           -> emulated
 *   slot 0 falls through, or jumps to another slot      -> kernel
 *   one slot                                            -> emulated
 * On either path the results are those of the calls that ran, and the
 * skipped slots read SYSBATCH_NOT_RUN. */
#include "sbtest.h"

#define N 3
#define PLANNED_JUMPS (SYSBATCH_RUN_PLANNED | SYSBATCH_RUN_JUMPS)

static struct sysbatch_slot s[N];
static long rets[N];

static void three_calls(int fail, int zero, int pos)
{
    s[0] = sbt_jumps(sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0), fail, zero, pos);
    s[1] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
    s[2] = sbt_slot(SYS_getuid, 0, 0, 0, 0, 0, 0, 0);
}

/* Runs s[0..n-1] and checks the results, the slots that did not run and
 * which path counted the batch (when `want_path` is not NONE). */
static void expect_run(const char *what, long n, long flags, long want_last, long want_slots,
                       enum sysbatch_path want_path)
{
    struct sysbatch_stats before, after;
    const long want[N] = { getpid(), getppid(), (long)getuid() };
    char label[160];
    long k;

    sbt_fill_rets(rets, N);
    sysbatch_get_stats(&before);
    snprintf(label, sizeof label, "%s: last slot", what);
    SBT_EQ(label, sysbatch_run(rets, s, n, flags), want_last);
    sysbatch_get_stats(&after);
    for (k = 0; k < n; k++) {
        int ran = k == 0 || (want_slots == n) || (k == 2 && want_slots == 2);
        snprintf(label, sizeof label, "%s: rets[%ld]", what, k);
        SBT_EQ(label, rets[k], ran ? want[k] : SYSBATCH_NOT_RUN);
    }
    if (want_path != SYSBATCH_PATH_NONE) {
        enum sysbatch_path other =
            want_path == SYSBATCH_PATH_KERNEL ? SYSBATCH_PATH_EMUL : SYSBATCH_PATH_KERNEL;
        snprintf(label, sizeof label, "%s: batches on the %s path", what,
                 sbt_path_name(want_path));
        SBT_EQ(label, after.batches[want_path] - before.batches[want_path], 1);
        snprintf(label, sizeof label, "%s: slots on the %s path", what, sbt_path_name(want_path));
        SBT_EQ(label, after.slots[want_path] - before.slots[want_path], want_slots);
        snprintf(label, sizeof label, "%s: batches on the %s path", what, sbt_path_name(other));
        SBT_EQ(label, after.batches[other] - before.batches[other], 0);
    }
}

int main(int argc, char **argv)
{
    const char *min = getenv("SYSBATCH_MIN_BATCH");
    int kernel;
    (void)argc;

    sbt_begin("break_even");
    kernel = sysbatch_path() == SYSBATCH_PATH_KERNEL;
    if (kernel && !(min && strcmp(min, "2") == 0)) {
        setenv("SYSBATCH_MIN_BATCH", "2", 1);
        execv("/proc/self/exe", argv);
        execv(argv[0], argv);
        printf("break_even: SKIP: cannot run this program again (%s)\n", strerror(errno));
        return SBT_SKIP;
    }
    /* On the emulator every batch is counted there; only the kernel path
     * has a break-even to test. */
#define ON(path) (kernel ? (path) : SYSBATCH_PATH_EMUL)

    three_calls(-1, -1, 2); /* every outcome of getpid ends the batch */
    expect_run("first slot alone, planned", N, PLANNED_JUMPS, 0, 1, ON(SYSBATCH_PATH_EMUL));
    expect_run("first slot alone, unflagged", N, 0, 0, 1, ON(SYSBATCH_PATH_EMUL));
    three_calls(-1, 0, 2); /* zero falls through (getpid never returns 0) */
    expect_run("zero outcome falls through", N, PLANNED_JUMPS, 0, 1, ON(SYSBATCH_PATH_KERNEL));
    three_calls(-1, -1, 0); /* getpid > 0 falls through: all three run */
    expect_run("first slot falls through", N, PLANNED_JUMPS, 2, 3, ON(SYSBATCH_PATH_KERNEL));
    three_calls(-1, -1, 1); /* getpid > 0 jumps over getppid to getuid */
    expect_run("first slot jumps to slot 2", N, PLANNED_JUMPS, 2, 2, ON(SYSBATCH_PATH_KERNEL));
    three_calls(0, 0, 0);
    expect_run("one slot", 1, SYSBATCH_RUN_PLANNED, 0, 1, ON(SYSBATCH_PATH_EMUL));
    return sbt_end();
}
