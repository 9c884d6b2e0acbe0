/* The iovec rows (readv, preadv, pwritev, writev) as batch slots: each
 * result and each byte the kernel wrote or read is compared with the same
 * call made outside a batch on a second copy of the file; a later slot of
 * the same batch sees the bytes an earlier readv wrote (the buffers are
 * filled when that slot runs, not when the batch ends); malformed iovecs
 * (an unmapped array, an unmapped buffer, a negative or too large count)
 * get the kernel's own error in their slot, the same one a plain call
 * gets, and the batch goes on. */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <limits.h>
#include <sys/uio.h>

#define DATA "0123456789abcdefghij"
#define N 8

/* The result the same raw call gives outside a batch, as the kernel
 * returns it (-errno on failure). */
static long plain(long nr, long a0, long a1, long a2, long a3, long a4)
{
    long r = syscall(nr, a0, a1, a2, a3, a4);
    return r < 0 ? -errno : r;
}

int main(void)
{
    const char *dir;
    char b1[3], b2[4], b3[5], c1[3], c2[4], c3[5], echo[8];
    struct iovec first[2] = {{b1, sizeof b1}, {b2, sizeof b2}};
    struct iovec second[1] = {{b3, sizeof b3}};
    struct iovec first_plain[2] = {{c1, sizeof c1}, {c2, sizeof c2}};
    struct iovec second_plain[1] = {{c3, sizeof c3}};
    struct iovec out[2] = {{(void *)"XY", 2}, {(void *)"ZW", 2}};
    struct iovec unmapped_base[1] = {{(void *)8, 4}};
    long rets[N], want[N], last;
    struct sysbatch_slot s[N];
    int fd, fd_plain, fd_w, fd_w_plain;

    sbt_begin("iovec");
    dir = sbt_tempdir();
    sbt_write_file(sbt_path_in(dir, "data"), DATA, sizeof DATA - 1);
    sbt_write_file(sbt_path_in(dir, "out"), "........", 8);
    sbt_write_file(sbt_path_in(dir, "out-plain"), "........", 8);
    fd = open(sbt_path_in(dir, "data"), O_RDONLY);
    fd_plain = open(sbt_path_in(dir, "data"), O_RDONLY);
    fd_w = open(sbt_path_in(dir, "out"), O_RDWR);
    fd_w_plain = open(sbt_path_in(dir, "out-plain"), O_RDWR);
    if (fd < 0 || fd_plain < 0 || fd_w < 0 || fd_w_plain < 0) {
        perror("setup");
        return 1;
    }
    memset(b1, '-', sizeof b1);
    memset(b2, '-', sizeof b2);
    memset(b3, '-', sizeof b3);
    memset(c1, '-', sizeof c1);
    memset(c2, '-', sizeof c2);
    memset(c3, '-', sizeof c3);
    memset(echo, '-', sizeof echo);

    /* The same calls outside a batch, in order, on the second copies. */
    want[0] = plain(SYS_readv, fd_plain, (long)first_plain, 2, 0, 0);
    want[1] = plain(SYS_preadv, fd_plain, (long)second_plain, 1, 15, 0);
    want[2] = plain(SYS_pwritev, fd_w_plain, (long)out, 2, 3, 0);
    want[3] = plain(SYS_readv, fd_plain, (long)second_plain, 1, 0, 0);
    want[4] = plain(SYS_readv, fd_plain, (long)(void *)8, 1, 0, 0);
    want[5] = plain(SYS_readv, fd_plain, (long)unmapped_base, 1, 0, 0);
    want[6] = plain(SYS_preadv, fd_plain, (long)first_plain, -1, 0, 0);
    want[7] = plain(SYS_pwritev, fd_w_plain, (long)out, IOV_MAX + 1, 0, 0);
    SBT_TRUE("plain calls: the malformed ones fail",
             want[4] < 0 && want[5] < 0 && want[6] < 0 && want[7] < 0);

    sbt_fill_rets(rets, N);
    s[0] = sbt_slot(SYS_readv, 3, fd, (long)first, 2, 0, 0, 0);
    s[1] = sbt_slot(SYS_preadv, 5, fd, (long)second, 1, 15, 0, 0);
    s[2] = sbt_slot(SYS_pwritev, 5, fd_w, (long)out, 2, 3, 0, 0);
    /* readv at the position the first slot left (7): the second slot
     * was a preadv, which does not move it. */
    s[3] = sbt_slot(SYS_readv, 3, fd, (long)second, 1, 0, 0, 0);
    s[4] = sbt_slot(SYS_readv, 3, fd, (long)(void *)8, 1, 0, 0, 0);
    s[5] = sbt_slot(SYS_readv, 3, fd, (long)unmapped_base, 1, 0, 0, 0);
    s[6] = sbt_slot(SYS_preadv, 5, fd, (long)first, -1, 0, 0, 0);
    s[7] = sbt_slot(SYS_pwritev, 5, fd_w, (long)out, IOV_MAX + 1, 0, 0, 0);
    for (int i = 4; i < N; i++)
        s[i] = sbt_jumps(s[i], 0, 0, 0); /* a failure goes on */
    last = sysbatch_run(rets, s, N, 0);
    SBT_EQ("last index", last, N - 1);
    for (int i = 0; i < N; i++) {
        char what[32];
        snprintf(what, sizeof what, "slot %d result", i);
        SBT_EQ(what, rets[i], want[i]);
    }
    SBT_TRUE("readv's first buffer", memcmp(b1, c1, sizeof b1) == 0);
    SBT_TRUE("readv's second buffer", memcmp(b2, c2, sizeof b2) == 0);
    SBT_TRUE("readv after preadv: the third buffer", memcmp(b3, c3, sizeof b3) == 0);
    SBT_EQ("position after the batch", lseek(fd, 0, SEEK_CUR),
           lseek(fd_plain, 0, SEEK_CUR));
    {
        char got[9] = {0}, ref[9] = {0};
        SBT_EQ("pread out", pread(fd_w, got, 8, 0), 8);
        SBT_EQ("pread out-plain", pread(fd_w_plain, ref, 8, 0), 8);
        SBT_STREQ("pwritev's bytes", got, ref);
    }

    /* A later slot reads what an earlier readv wrote: readv fills b1/b2
     * from the start of the file, then pwritev writes b1 and b2 out. */
    {
        struct iovec echo_out[2] = {{b1, sizeof b1}, {b2, sizeof b2}};
        int fd_e = open(sbt_path_in(dir, "data"), O_RDONLY);
        memset(b1, '-', sizeof b1);
        memset(b2, '-', sizeof b2);
        sbt_fill_rets(rets, N);
        s[0] = sbt_slot(SYS_readv, 3, fd_e, (long)first, 2, 0, 0, 0);
        s[1] = sbt_slot(SYS_pwritev, 5, fd_w, (long)echo_out, 2, 0, 0, 0);
        last = sysbatch_run(rets, s, 2, 0);
        SBT_EQ("echo batch last", last, 1);
        SBT_EQ("echo readv", rets[0], 7);
        SBT_EQ("echo pwritev", rets[1], 7);
        SBT_EQ("echo pread", pread(fd_w, echo, 7, 0), 7);
        SBT_TRUE("the file holds what readv read", memcmp(echo, DATA, 7) == 0);
        close(fd_e);
    }
    close(fd);
    close(fd_plain);
    close(fd_w);
    close(fd_w_plain);
    return sbt_end();
}
