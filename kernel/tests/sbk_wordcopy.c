/* sbk_wordcopy: the nr == -2 slot copies 8 bytes from arg[1] to arg[0].
 * A source inside rets reads the in-flight result, a destination inside the
 * slot array patches the in-flight slot (the module works on the caller's
 * arrays, so the patch stays there after the batch), the copy jumps on its own result (0, or -EFAULT / -EINVAL)
 * however it was reached, and a patch that would make a slot invalid is
 * refused on the spot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sbk.h"

static const char content[] = "sysbatch word copy test file\n";

static void fd_and_size_chain(void)
{
    int fd = open("data.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    SBK_EXPECT(fd >= 0 && write(fd, content, sizeof content - 1) == sizeof content - 1, "setup");
    close(fd);

    struct stat st;
    char buf[128] = { 0 };
    long rets[8];
    struct sysbatch_slot s[8] = {
        SBK3(SYS_openat, AT_FDCWD, "data.txt", O_RDONLY),
        SBKCOPY(0, &rets[0]),                         /* fd -> fstat */
        SBK4(SYS_newfstatat, -1, "", &st, AT_EMPTY_PATH),
        SBKCOPY(0, &rets[0]),                         /* fd -> read */
        SBKCOPY(0, &st.st_size),                      /* st_size -> read count */
        SBK3(SYS_read, -1, buf, 0),
        SBKCOPY(0, &rets[0]),                         /* fd -> close */
        SBK1(SYS_close, -1),
    };
    s[1].arg[0] = (long)&s[2].arg[0];
    s[3].arg[0] = (long)&s[5].arg[0];
    s[4].arg[0] = (long)&s[5].arg[2];
    s[6].arg[0] = (long)&s[7].arg[0];
    s[0].jump_fail = -1;
    sbk_fill_rets(rets, 8);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 8, 0, 0), 7);
    SBK_EXPECT(rets[0] >= 0, "open gave %ld", rets[0]);
    SBK_EXPECT_EQ(rets[1], 0);
    SBK_EXPECT_EQ(rets[2], 0);
    SBK_EXPECT_EQ(rets[5], (long)sizeof content - 1);
    SBK_EXPECT(memcmp(buf, content, sizeof content - 1) == 0, "read '%s'", buf);
    SBK_EXPECT_EQ(rets[7], 0);
    /* the fd really was closed by slot 7 */
    SBK_EXPECT_EQ(fcntl((int)rets[0], F_GETFD), -1);
    /* the patches were made in the caller's array */
    SBK_EXPECT_EQ(s[2].arg[0], rets[0]);
    SBK_EXPECT_EQ(s[5].arg[2], (long)sizeof content - 1);
}

/* Reached by a jump (offset 1 from slot 0), the copy still jumps on its own
 * result: jump_zero 0 falls through to slot 3; with jump_zero 1 it skips. */
static void copy_reached_by_jump(void)
{
    long rets[5], out = 0;
    struct sysbatch_slot s[5] = {
        SBK0(SYS_getpid), SBK0(SYS_getppid), SBKCOPY(&out, &rets[0]), SBK0(SYS_getuid),
        SBK0(SYS_getpid),
    };
    s[0].jump_pos = 1;
    sbk_fill_rets(rets, 5);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 5, 0, 0), 4);
    SBK_EXPECT_EQ(rets[1], SBK_UNTOUCHED);
    SBK_EXPECT_EQ(rets[2], 0);
    SBK_EXPECT_EQ(out, getpid());
    SBK_EXPECT_EQ(rets[3], getuid());
    s[2].jump_zero = 1;
    sbk_fill_rets(rets, 5);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 5, 0, 0), 4);
    SBK_EXPECT_EQ(rets[3], SBK_UNTOUCHED);
    SBK_EXPECT_EQ(rets[4], getpid());
}

/* Patching a whole slot header (nr and jumps) works when the result is a
 * valid slot, and is refused with -EINVAL (taking the copy's fail jump)
 * when it would jump past the end. */
static void header_patches_checked(void)
{
    struct { short nr, jf, jz, jp; } good = { SYS_getppid, 0, 0, 0 }, bad = { SYS_getppid, 0, 0, 100 };
    long rets[4];
    struct sysbatch_slot s[4] = { SBKCOPY(0, &good), SBK0(SYS_getpid), SBK0(SYS_getuid),
                                  SBK0(SYS_getpid) };
    s[0].arg[0] = (long)&s[1];
    sbk_fill_rets(rets, 4);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 2, 0, 0), 1);
    SBK_EXPECT_EQ(rets[0], 0);
    SBK_EXPECT_EQ(rets[1], getppid());

    s[0].arg[1] = (long)&bad;
    s[0].jump_fail = 1;     /* on -EINVAL skip slot 1 */
    sbk_fill_rets(rets, 4);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 3, 0, 0), 2);
    SBK_EXPECT_EQ(rets[0], -EINVAL);
    SBK_EXPECT_EQ(rets[1], SBK_UNTOUCHED);
    SBK_EXPECT_EQ(rets[2], getuid());

    /* argc patched to 7 is refused too */
    long argc7 = 7;
    s[0].arg[0] = (long)&s[1].argc;
    s[0].arg[1] = (long)&argc7;
    sbk_fill_rets(rets, 4);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 3, 0, 0), 2);
    SBK_EXPECT_EQ(rets[0], -EINVAL);
}

/* A source inside the slot array reads the in-flight (patched) slot; a
 * destination inside rets writes there (slot 3 never runs, so it stays). */
static void reads_from_slots_and_writes_to_rets(void)
{
    long rets[4], seen = 0, value = 4242;
    struct sysbatch_slot s[4] = { SBKCOPY(0, &value), SBKCOPY(&seen, 0), SBKCOPY(&rets[3], &value),
                                  SBK0(SYS_getpid) };
    s[0].arg[0] = (long)&s[3].arg[5];
    s[1].arg[1] = (long)&s[3].arg[5];
    s[2].jump_zero = -1;
    sbk_fill_rets(rets, 4);
    SBK_EXPECT_EQ(sbk_batch(rets, s, 4, 0, 0), 2);
    SBK_EXPECT_EQ(seen, 4242);
    SBK_EXPECT_EQ(rets[3], 4242);
    SBK_EXPECT_EQ(s[3].arg[5], 4242);
}

static void bad_addresses(void)
{
    long rets[2], v = 1, out = 0;
    void *hole = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    void *ro = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(hole, 4096);
    struct sysbatch_slot s[2] = { SBKCOPY(&out, &v), SBK0(SYS_getpid) };
    struct { const char *what; long dst, src, want; } cases[] = {
        { "unmapped source", (long)&out, (long)hole, -EFAULT },
        { "unmapped destination", (long)hole, (long)&v, -EFAULT },
        { "read-only destination", (long)ro, (long)&v, -EFAULT },
        { "NULL destination", 0, (long)&v, -EFAULT },
        { "kernel source", (long)&out, (long)0xffffffff81000000UL, -EFAULT },
        { "kernel destination", (long)0xffff888000000000UL, (long)&v, -EFAULT },
        { "non-canonical destination", (long)0x8000000000000000UL, (long)&v, -EFAULT },
        { "destination straddles slot start", (long)s - 4, (long)&v, -EINVAL },
        { "destination straddles slot end", (long)&s[2] - 4, (long)&v, -EINVAL },
        { "source straddles slot end", (long)&out, (long)&s[2] - 1, -EINVAL },
        { "good copy", (long)&out, (long)&v, 0 },
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        s[0].arg[0] = cases[c].dst;
        s[0].arg[1] = cases[c].src;
        s[0].jump_fail = 0;  /* the fail path falls through: slot 1 runs */
        sbk_fill_rets(rets, 2);
        long r = sbk_batch(rets, s, 2, 0, 0);
        SBK_EXPECT(r == 1 && rets[0] == cases[c].want && rets[1] == getpid(),
                   "%s: batch %ld, copy %ld, want %ld", cases[c].what, r, rets[0], cases[c].want);
        s[0].jump_fail = -1; /* and stops when told to */
        sbk_fill_rets(rets, 2);
        r = sbk_batch(rets, s, 2, 0, 0);
        long want_last = cases[c].want < 0 ? 0 : 1;
        SBK_EXPECT(r == want_last, "%s with stop: batch %ld", cases[c].what, r);
    }
    SBK_EXPECT_EQ(out, 1);
    munmap(ro, 4096);
}

int main(void)
{
    sbk_require_module();
    fd_and_size_chain();
    copy_reached_by_jump();
    header_patches_checked();
    reads_from_slots_and_writes_to_rets();
    bad_addresses();
    return sbk_finish("sbk_wordcopy");
}
