/* sbk_invalid: malformed batches are refused before anything runs.  Every
 * batch here starts with a slot that writes one byte into a pipe, so "did
 * anything run" is checked directly (the pipe stays empty) and rets must
 * stay untouched.  -EINVAL for bad argc, jumps past the end (in any slot,
 * reached or not), n above the cap or absurd, flags or size; -EFAULT for
 * NULL, unmapped, read-only, kernel or non-canonical arrays.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sbk.h"

enum { N = 4 };
static int pipe_fds[2];
static long good_rets[N];   /* the only rets array the checks may touch */

static void fresh(struct sysbatch_slot *s)
{
    s[0] = SBK3(SYS_write, pipe_fds[1], "!", 1);
    for (int i = 1; i < N; i++)
        s[i] = SBK0(SYS_getpid);
}

static void expect_refused(const char *what, long *rets, void *slots, unsigned long n,
                           long flags, long size, long want)
{
    char c;
    if (rets == good_rets)
        sbk_fill_rets(rets, N);
    long r = sbk_batch(rets, slots, n, flags, size);
    SBK_EXPECT(r == want, "%s: batch returned %ld, want %ld", what, r, want);
    SBK_EXPECT(read(pipe_fds[0], &c, 1) == -1 && errno == EAGAIN, "%s: a slot ran", what);
    if (rets == good_rets)
        for (int i = 0; i < N; i++)
            SBK_EXPECT(rets[i] == SBK_UNTOUCHED, "%s: rets[%d] written", what, i);
}

static void bad_slots(void)
{
    long *rets = good_rets;
    struct sysbatch_slot s[N];
    char what[64];
    static const int argcs[] = { 7, 8, 127, -1, -128 };
    for (unsigned k = 0; k < sizeof argcs / sizeof argcs[0]; k++) {
        fresh(s);
        s[2].argc = (char)argcs[k];
        snprintf(what, sizeof what, "argc %d", argcs[k]);
        expect_refused(what, rets, s, N, 0, 0, -EINVAL);
    }
    for (int field = 0; field < 3; field++) {
        for (int slot = 0; slot < N; slot++) {
            fresh(s);
            short *jump = field == 0 ? &s[slot].jump_fail : field == 1 ? &s[slot].jump_zero
                                                                   : &s[slot].jump_pos;
            *jump = (short)(N - slot);   /* lands on n + 1 */
            snprintf(what, sizeof what, "jump field %d of slot %d one past the end", field, slot);
            expect_refused(what, rets, s, N, 0, 0, -EINVAL);
            *jump = 32767;
            expect_refused("jump 32767", rets, s, N, 0, 0, -EINVAL);
        }
    }
    /* Slot 3 is never reached (slot 0 stops), but is checked all the same. */
    fresh(s);
    s[0].jump_pos = -1;
    s[3].jump_fail = 5;
    expect_refused("bad jump in an unreachable slot", rets, s, N, 0, 0, -EINVAL);
}

static void bad_parameters(void)
{
    long *rets = good_rets;
    struct sysbatch_slot s[N];
    fresh(s);
    expect_refused("flags 1", rets, s, N, 1, 0, -EINVAL);
    expect_refused("flags -1", rets, s, N, -1, 0, -EINVAL);
    static const long sizes[] = { 1, 8, 63, 65, 128, -64 };
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        expect_refused("size not 0 or 64", rets, s, N, 0, sizes[k], -EINVAL);
    static const unsigned long huge[] = { 1025, 65536, 1UL << 58, 1UL << 61, 1UL << 63, ~0UL };
    for (unsigned k = 0; k < sizeof huge / sizeof huge[0]; k++)
        expect_refused("n above the cap", rets, s, huge[k], 0, 0, -EINVAL);
}

static void bad_pointers(void)
{
    long *rets = good_rets;
    struct sysbatch_slot s[N];
    long page = sysconf(_SC_PAGESIZE);
    char *two = mmap(0, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *ro = mmap(0, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(two + page, page);  /* [two, two + page) mapped, then a hole */
    char *hole = two + page;
    void *kernel = (void *)0xffffffff81000000UL, *noncanon = (void *)0x0000900000000000UL;

    fresh(s);
    expect_refused("NULL rets", 0, s, N, 0, 0, -EFAULT);
    expect_refused("NULL slots", rets, 0, N, 0, 0, -EFAULT);
    expect_refused("unmapped slots", rets, hole, N, 0, 0, -EFAULT);
    expect_refused("kernel slots", rets, kernel, N, 0, 0, -EFAULT);
    expect_refused("non-canonical slots", rets, noncanon, N, 0, 0, -EFAULT);
    expect_refused("unmapped rets", (long *)hole, s, N, 0, 0, -EFAULT);
    expect_refused("read-only rets", (long *)ro, s, N, 0, 0, -EFAULT);
    expect_refused("kernel rets", kernel, s, N, 0, 0, -EFAULT);

    /* Arrays that start mapped and run into the hole. */
    struct sysbatch_slot *tail = (struct sysbatch_slot *)(hole - 2 * sizeof *tail);
    tail[0] = SBK3(SYS_write, pipe_fds[1], "!", 1);   /* 2 of the 4 slots fit */
    tail[1] = SBK0(SYS_getpid);
    expect_refused("slots running into a hole", rets, tail, N, 0, 0, -EFAULT);
    long *rtail = (long *)(hole - 2 * sizeof(long));
    expect_refused("rets running into a hole", rtail, s, N, 0, 0, -EFAULT);
    munmap(two, page);
    munmap(ro, page);
}

/* A call in the batch unmaps rets: the batch stops with -EFAULT there. */
static void rets_lost_mid_batch(void)
{
    long page = sysconf(_SC_PAGESIZE);
    long *r = mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sysbatch_slot s[2] = { SBK2(SYS_munmap, r, page), SBK0(SYS_getpid) };
    SBK_EXPECT_EQ(sbk_batch(r, s, 2, 0, 0), -EFAULT);
}

/* The largest batch accepted: 1024 slots all run. */
static void cap_is_accepted(void)
{
    static long rets[SYSBATCH_MAX_SLOTS];
    static struct sysbatch_slot s[SYSBATCH_MAX_SLOTS];
    for (int i = 0; i < SYSBATCH_MAX_SLOTS; i++)
        s[i] = SBK0(SYS_getppid);
    SBK_EXPECT_EQ(sbk_batch(rets, s, SYSBATCH_MAX_SLOTS, 0, 64), SYSBATCH_MAX_SLOTS - 1);
    int bad = 0;
    for (int i = 0; i < SYSBATCH_MAX_SLOTS; i++)
        bad += rets[i] != getppid();
    SBK_EXPECT_EQ(bad, 0);
}

int main(void)
{
    sbk_require_module();
    if (pipe2(pipe_fds, O_NONBLOCK) != 0)
        return 1;
    bad_slots();
    bad_parameters();
    bad_pointers();
    rets_lost_mid_batch();
    cap_is_accepted();
    return sbk_finish("sbk_invalid");
}
