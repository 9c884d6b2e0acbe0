/* sbk_trace: nobody loses sight of a call.  Inner calls of a batch bypass
 * ptrace syscall stops and the syscall tracepoints, so a task that is
 * traced gets -EPERM for the whole batch (nothing runs) and libsysbatch
 * then runs that batch as its original calls, which the tracer sees one by
 * one.  Linked with the runtime; run with SYSBATCH_MIN_BATCH=1 so every
 * batch is meant for the kernel.
 *
 *   ptrace      a child picks the kernel path at start-up, runs one batch
 *               untraced (in the kernel), then becomes traced
 *               (PTRACE_TRACEME + SIGSTOP, the parent a PTRACE_SYSCALL
 *               tracer, as strace is): its next sysbatch_run() gives the
 *               right results and the tracer sees 183 and then each of the
 *               batch's calls in order; a raw batch is refused (-EPERM,
 *               rets untouched)
 *   tracepoint  with raw_syscalls:sys_enter enabled in tracefs (what perf
 *               trace does), every task is refused and falls back the same
 *               way; disabled again, batches run in the kernel again
 *
 *     sbk_trace threshold   (SYSBATCH_MIN_BATCH unset)
 *               the cost model: the runtime took the break-even batch size
 *               m from the module's info query; a batch of m - 1 slots runs
 *               as its original calls, one of m slots in the kernel; the
 *               module's min_batch parameter changes what the query says
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbk.h"

/* getppid, getuid, getgid: distinct numbers, so the tracer can tell them
 * apart, and results the test can check. */
static const long batch_calls[3] = { SYS_getppid, SYS_getuid, SYS_getgid };

/* The three results, taken once before any tracing, so that no check
 * after a batch makes those calls again (the tracer must see them come
 * from the batch itself). */
static long want[3];

/* Runs the three calls through sysbatch_run; 1 when every result is right. */
static int run_batch_through_runtime(void)
{
    long rets[3];
    struct sysbatch_slot s[3];
    for (int i = 0; i < 3; i++)
        s[i] = SBK0(batch_calls[i]);
    long last = sysbatch_run(rets, s, 3, 0);
    return last == 2 && rets[0] == want[0] && rets[1] == want[1] && rets[2] == want[2];
}

static unsigned long batches(enum sysbatch_path p)
{
    struct sysbatch_stats st;
    sysbatch_get_stats(&st);
    return st.batches[p];
}

/* The traced child's whole life; its exit status is the verdict (the
 * failed checks are listed on stderr). */
static int traced_child(void)
{
    int bad = 0;
    want[0] = getppid();     /* this child's own, untraced */
    want[1] = getuid();
    want[2] = getgid();
    if (sysbatch_path() != SYSBATCH_PATH_KERNEL)
        return 10;
    bad |= !run_batch_through_runtime() << 0;
    bad |= (batches(SYSBATCH_PATH_KERNEL) != 1) << 1;        /* untraced: the kernel ran it */
    if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
        return 11;
    raise(SIGSTOP);                                          /* the tracer takes over here */
    bad |= !run_batch_through_runtime() << 2;
    bad |= (batches(SYSBATCH_PATH_KERNEL) != 1) << 3;        /* refused ... */
    bad |= (batches(SYSBATCH_PATH_EMUL) != 1) << 4;          /* ... and run as the calls */
    long rets[1] = { SBK_UNTOUCHED };
    struct sysbatch_slot s[1] = { SBK0(SYS_getpid) };
    bad |= (sbk_batch(rets, s, 1, 0, 0) != -EPERM) << 5;
    bad |= (rets[0] != SBK_UNTOUCHED) << 6;
    bad |= (sbk_batch(0, 0, 0, 0, 0) != -EPERM) << 7;        /* the probe too */
    static const char *what[8] = {
        "untraced batch results", "untraced batch not run by the kernel",
        "traced batch results", "traced batch run by the kernel",
        "traced batch not run as its calls", "raw traced batch not refused with EPERM",
        "refused raw batch wrote rets", "probe not refused while traced" };
    for (int k = 0; k < 8; k++)
        if (bad & (1 << k))
            fprintf(stderr, "traced child: FAIL: %s\n", what[k]);
    return bad ? 20 : 0;
}

static void ptrace_part(void)
{
    pid_t child = fork();
    if (child == 0)
        _exit(traced_child());
    int status;
    SBK_EXPECT(waitpid(child, &status, 0) == child && WIFSTOPPED(status) &&
               WSTOPSIG(status) == SIGSTOP, "child did not stop for the tracer: %#x", status);
    SBK_EXPECT(ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACESYSGOOD) == 0, "SETOPTIONS");
    long seen[256];
    int nseen = 0, in_call = 0, sig = 0;
    for (;;) {
        if (ptrace(PTRACE_SYSCALL, child, 0, sig) != 0)
            break;
        sig = 0;
        if (waitpid(child, &status, 0) != child || WIFEXITED(status) || WIFSIGNALED(status))
            break;
        if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
            in_call = !in_call;
            if (in_call && nseen < 256) {
                struct user_regs_struct regs;
                if (ptrace(PTRACE_GETREGS, child, 0, &regs) == 0)
                    seen[nseen++] = (long)regs.orig_rax;
            }
        } else {
            sig = WSTOPSIG(status);                         /* pass other signals on */
        }
    }
    SBK_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
               "traced child: status %#x (10: not on the kernel path, 11: no "
               "PTRACE_TRACEME, 20: checks failed, listed above)", status);
    /* the refused batch call, then its three calls one by one */
    int found = 0;
    for (int i = 0; i + 3 < nseen && !found; i++)
        found = seen[i] == SYSBATCH_NR_BATCH && seen[i + 1] == batch_calls[0] &&
                seen[i + 2] == batch_calls[1] && seen[i + 3] == batch_calls[2];
    SBK_EXPECT(found, "tracer did not see 183, %ld, %ld, %ld in a row (%d calls seen)",
               batch_calls[0], batch_calls[1], batch_calls[2], nseen);
    int refused_raw = 0;
    for (int i = 0; i < nseen; i++)
        refused_raw += seen[i] == SYSBATCH_NR_BATCH;
    SBK_EXPECT(refused_raw == 3, "tracer saw %d sys_batch calls, want 3", refused_raw);
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t len = (ssize_t)strlen(text), got = write(fd, text, len);
    close(fd);
    return got == len ? 0 : -1;
}

static void tracepoint_part(void)
{
    static const char *enable = "/sys/kernel/tracing/events/raw_syscalls/sys_enter/enable";
    if (access(enable, W_OK) != 0)
        mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, 0);
    SBK_EXPECT(access(enable, W_OK) == 0, "no %s (tracefs not mountable?)", enable);
    if (write_file(enable, "1") != 0) {
        SBK_EXPECT(0, "cannot enable raw_syscalls:sys_enter: errno %d", errno);
        return;
    }
    long rets[1] = { SBK_UNTOUCHED };
    struct sysbatch_slot s[1] = { SBK0(SYS_getpid) };
    long refused = sbk_batch(rets, s, 1, 0, 0);
    unsigned long emul = batches(SYSBATCH_PATH_EMUL), kern = batches(SYSBATCH_PATH_KERNEL);
    int fell_back = run_batch_through_runtime();
    int counted = batches(SYSBATCH_PATH_EMUL) == emul + 1 && batches(SYSBATCH_PATH_KERNEL) == kern;
    write_file(enable, "0");
    SBK_EXPECT_EQ(refused, -EPERM);
    SBK_EXPECT_EQ(rets[0], SBK_UNTOUCHED);
    SBK_EXPECT(fell_back && counted, "runtime fallback under the tracepoint: results %d, "
               "counted as original calls %d", fell_back, counted);
    /* tracing off: the kernel runs batches again */
    SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), 0);
    SBK_EXPECT_EQ(rets[0], getpid());
    kern = batches(SYSBATCH_PATH_KERNEL);
    SBK_EXPECT(run_batch_through_runtime() && batches(SYSBATCH_PATH_KERNEL) == kern + 1,
               "kernel path not taken again after the tracepoint was disabled");
}

static long query_min_batch(void)
{
    long info[SYSBATCH_INFO_WORDS] = { 0 };
    if (sbk_batch(info, 0, 0, SYSBATCH_QUERY_INFO, 0) != 0)
        return -1;
    return info[SYSBATCH_INFO_MIN_BATCH];
}

static int getpids_through_runtime(long n)
{
    long rets[64];
    struct sysbatch_slot s[64];
    for (long i = 0; i < n; i++)
        s[i] = SBK0(SYS_getpid);
    if (sysbatch_run(rets, s, n, 0) != n - 1)
        return 0;
    for (long i = 0; i < n; i++)
        if (rets[i] != getpid())
            return 0;
    return 1;
}

static int threshold(void)
{
    long m = query_min_batch();
    SBK_EXPECT(m >= 1 && m <= 64, "module reports min_batch %ld", m);
    if (m < 1 || m > 64)
        return sbk_finish("sbk_trace threshold");
    printf("sbk_trace: module break-even batch size %ld\n", m);
    unsigned long kern = batches(SYSBATCH_PATH_KERNEL), emul = batches(SYSBATCH_PATH_EMUL);
    if (m > 1) {
        SBK_EXPECT(getpids_through_runtime(m - 1), "batch of %ld wrong", m - 1);
        SBK_EXPECT(batches(SYSBATCH_PATH_EMUL) == emul + 1 && batches(SYSBATCH_PATH_KERNEL) == kern,
                   "a batch below the break-even went to the kernel");
    }
    SBK_EXPECT(getpids_through_runtime(m), "batch of %ld wrong", m);
    SBK_EXPECT(batches(SYSBATCH_PATH_KERNEL) == kern + 1,
               "a batch at the break-even did not go to the kernel");
    /* the parameter overrides the measured value, 0 brings it back */
    static const char *param = "/sys/module/sysbatch/parameters/min_batch";
    SBK_EXPECT(write_file(param, "7") == 0, "cannot write %s", param);
    SBK_EXPECT_EQ(query_min_batch(), 7);
    SBK_EXPECT(write_file(param, "0") == 0, "cannot write %s", param);
    SBK_EXPECT_EQ(query_min_batch(), m);
    return sbk_finish("sbk_trace threshold");
}

int main(int argc, char **argv)
{
    sbk_require_module();
    if (argc > 1 && strcmp(argv[1], "threshold") == 0) {
        if (getenv("SYSBATCH_MIN_BATCH")) {
            fprintf(stderr, "sbk_trace threshold: run without SYSBATCH_MIN_BATCH\n");
            return 1;
        }
        return threshold();
    }
    const char *min = getenv("SYSBATCH_MIN_BATCH");
    if (!min || strcmp(min, "1") != 0) {
        fprintf(stderr, "sbk_trace: run with SYSBATCH_MIN_BATCH=1\n");
        return 1;
    }
    want[0] = getppid();
    want[1] = getuid();
    want[2] = getgid();
    ptrace_part();
    tracepoint_part();
    return sbk_finish("sbk_trace");
}
