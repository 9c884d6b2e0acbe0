/* sbk_probe: is sys_batch on syscall 183, and does the hook leave every
 * other unimplemented syscall alone?
 *     sbk_probe present   module loaded: probe 0, flags/size checked,
 *                         tiny batch runs, other ENOSYS numbers unchanged
 *     sbk_probe absent    module unloaded (after rmmod): 183 is -ENOSYS
 *                         again and runs nothing
 *     sbk_probe busy <module.ko> [params]
 *                         unloading while a batch is blocked inside the
 *                         module: 183 is -ENOSYS for new calls at once, the
 *                         unload waits (the module stays listed) until the
 *                         blocked batch has finished with correct results,
 *                         then completes; the module is loaded again from
 *                         <module.ko> with [params] and answers the probe
 *     sbk_probe hook ftrace|kprobe
 *                         the info query names that hook and a break-even
 *                         batch size of at least 1
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbk.h"

static void expect_other_numbers_unchanged(void)
{
    /* 184 (tuxcall) is another unimplemented slot next to ours; 1000 is out
     * of range.  Both end in the probed __x64_sys_ni_syscall. */
    SBK_EXPECT_EQ(sbk_raw6(184, 0, 0, 0, 0, 0, 0), -ENOSYS);
    SBK_EXPECT_EQ(sbk_raw6(1000, 0, 0, 0, 0, 0, 0), -ENOSYS);
    SBK_EXPECT_EQ(sbk_raw6(SYS_getpid, 0, 0, 0, 0, 0, 0), getpid());
}

static int module_listed(void)
{
    char line[256];
    int found = 0;
    FILE *f = fopen("/proc/modules", "r");
    while (f && fgets(line, sizeof line, f))
        found |= strncmp(line, "sysbatch ", 9) == 0;
    if (f)
        fclose(f);
    return found;
}

/* The first child's batch tells us it is running (slot 0 writes to
 * `running`), then blocks in slot 1 until we write to `release`.  A second
 * child unloads the module meanwhile. */
static void unload_while_busy(const char *module_path, const char *params)
{
    int running[2], release[2];
    char c;
    SBK_EXPECT(pipe(running) == 0 && pipe(release) == 0, "pipe");
    pid_t batcher = fork();
    if (batcher == 0) {
        long rets[2];
        struct sysbatch_slot s[2] = { SBK3(SYS_write, running[1], "r", 1),
                                      SBK3(SYS_read, release[0], &c, 1) };
        long r = sbk_batch(rets, s, 2, 0, 0);
        _exit(r == 1 && rets[0] == 1 && rets[1] == 1 && c == 'x' ? 0 : 1);
    }
    SBK_EXPECT(read(running[0], &c, 1) == 1, "child batch never started");
    pid_t unloader = fork();
    if (unloader == 0)
        _exit(syscall(SYS_delete_module, "sysbatch", O_NONBLOCK) == 0 ? 0 : 1);
    /* The hook goes first: new batches get -ENOSYS while the old one is
     * still blocked (the VM's per-test timeout ends a hang here). */
    while (sbk_batch(0, 0, 0, 0, 0) == 0)
        sched_yield();
    SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 0), -ENOSYS);
    int status = -1;
    SBK_EXPECT(waitpid(unloader, &status, WNOHANG) == 0, "unload finished under a running batch");
    SBK_EXPECT(module_listed(), "module gone while a batch is inside it");
    SBK_EXPECT(write(release[1], "x", 1) == 1, "write");
    SBK_EXPECT(waitpid(batcher, &status, 0) == batcher && status == 0, "batch status %#x", status);
    SBK_EXPECT(waitpid(unloader, &status, 0) == unloader && status == 0,
               "delete_module status %#x", status);
    SBK_EXPECT(!module_listed(), "module still listed after the unload");

    int fd = open(module_path, O_RDONLY | O_CLOEXEC);
    SBK_EXPECT(fd >= 0, "open %s", module_path);
    SBK_EXPECT(syscall(SYS_finit_module, fd, params, 0) == 0, "reload %s %s: errno %d",
               module_path, params, errno);
    close(fd);
    SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 0), 0);   /* loaded again */
}

/* The info query: version 1, the hook, a break-even batch size. */
static void expect_hook(const char *want)
{
    long info[SYSBATCH_INFO_WORDS + 1];
    for (int i = 0; i <= SYSBATCH_INFO_WORDS; i++)
        info[i] = SBK_UNTOUCHED;
    SBK_EXPECT_EQ(sbk_batch(info, 0, 0, SYSBATCH_QUERY_INFO, 0), 0);
    SBK_EXPECT_EQ(info[SYSBATCH_INFO_VERSION], 1);
    long hook = strcmp(want, "ftrace") == 0 ? SYSBATCH_HOOK_FTRACE : SYSBATCH_HOOK_KPROBE;
    SBK_EXPECT(info[SYSBATCH_INFO_HOOK] == hook, "hook %ld, want %ld (%s)",
               info[SYSBATCH_INFO_HOOK], hook, want);
    SBK_EXPECT(info[SYSBATCH_INFO_MIN_BATCH] >= 1 && info[SYSBATCH_INFO_MIN_BATCH] <= 64,
               "min_batch %ld", info[SYSBATCH_INFO_MIN_BATCH]);
    SBK_EXPECT_EQ(info[SYSBATCH_INFO_WORDS], SBK_UNTOUCHED);   /* no more than that */
    /* the query with a batch, a bad size or no buffer is refused */
    SBK_EXPECT_EQ(sbk_batch(info, 0, 1, SYSBATCH_QUERY_INFO, 0), -EINVAL);
    SBK_EXPECT_EQ(sbk_batch(info, 0, 0, SYSBATCH_QUERY_INFO, 8), -EINVAL);
    SBK_EXPECT_EQ(sbk_batch(0, 0, 0, SYSBATCH_QUERY_INFO, 0), -EFAULT);
    /* the module parameter says the same */
    char got[32] = "";
    FILE *f = fopen("/sys/module/sysbatch/parameters/hook_in_use", "r");
    SBK_EXPECT(f && fscanf(f, "%31s", got) == 1, "hook_in_use unreadable");
    if (f)
        fclose(f);
    SBK_EXPECT(strcmp(got, want) == 0, "hook_in_use '%s', want '%s'", got, want);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    long rets[1];
    struct sysbatch_slot s[1] = { SBK0(SYS_getppid) };

    if (strcmp(mode, "present") == 0) {
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 0), 0);
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 64), 0);     /* size = slot size */
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 1, 0), -EINVAL);
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 32), -EINVAL);
        sbk_fill_rets(rets, 1);
        SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), 0);
        SBK_EXPECT_EQ(rets[0], getppid());
        expect_other_numbers_unchanged();
    } else if (strcmp(mode, "absent") == 0) {
        SBK_EXPECT_EQ(sbk_batch(0, 0, 0, 0, 0), -ENOSYS);
        sbk_fill_rets(rets, 1);
        SBK_EXPECT_EQ(sbk_batch(rets, s, 1, 0, 0), -ENOSYS);
        SBK_EXPECT_EQ(rets[0], SBK_UNTOUCHED);
        expect_other_numbers_unchanged();
    } else if (strcmp(mode, "busy") == 0 && argc >= 3) {
        sbk_require_module();
        unload_while_busy(argv[2], argc > 3 ? argv[3] : "");
    } else if (strcmp(mode, "hook") == 0 && argc == 3) {
        sbk_require_module();
        expect_hook(argv[2]);
    } else {
        fprintf(stderr, "usage: sbk_probe present|absent|busy <module.ko> [params]|hook <name>\n");
        return 1;
    }
    return sbk_finish("sbk_probe");
}
