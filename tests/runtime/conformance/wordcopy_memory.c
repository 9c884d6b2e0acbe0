/* Word copies that read memory a call wrote: fstat's st_size becomes the
 * count of a read and of a write (copied within the same batch), and the fd
 * from openat is chained into fstat, read and close.  Placeholder counts are
 * 1, so a missing copy shows as a 1-byte transfer. */
#include "sbtest.h"

int main(void)
{
    static const char text[] = "thirty-seven bytes of file content!!\n";
    const char *dir, *in, *out;
    struct sysbatch_slot s[12];
    long rets[12], last;
    struct stat st, st_out;
    char buf[4096], check[64];
    int outfd, fd;

    sbt_begin("wordcopy_memory");
    dir = sbt_tempdir();
    in = sbt_path_in(dir, "in");
    out = sbt_path_in(dir, "out");
    sbt_write_file(in, text, sizeof text - 1);
    outfd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (outfd < 0) {
        perror(out);
        return 1;
    }
    memset(&st, 0, sizeof st);
    memset(buf, 0, sizeof buf);

    sbt_fill_rets(rets, 12);
    s[0] = sbt_jumps(sbt_slot(SYS_openat, 3, AT_FDCWD, (long)in, O_RDONLY | O_CLOEXEC, 0, 0, 0),
                     -1, 0, 0);
    s[1] = sbt_copy(&s[2].arg[0], &rets[0]);
    s[2] = sbt_jumps(sbt_slot(SYS_fstat, 2, -1, (long)&st, 0, 0, 0, 0), 6, 0, 0);
    s[3] = sbt_copy(&s[5].arg[2], &st.st_size);
    s[4] = sbt_copy(&s[5].arg[0], &rets[0]);
    s[5] = sbt_slot(SYS_read, 3, -1, (long)buf, 1, 0, 0, 0);
    s[6] = sbt_copy(&s[7].arg[2], &st.st_size);
    s[7] = sbt_slot(SYS_write, 3, outfd, (long)buf, 1, 0, 0, 0);
    s[8] = sbt_copy(&s[9].arg[0], &rets[0]);
    s[9] = sbt_slot(SYS_close, 1, -1, 0, 0, 0, 0, 0);
    last = sysbatch_run(rets, s, 10, 0);
    SBT_EQ("last", last, 9);
    SBT_TRUE("openat fd", rets[0] >= 0);
    SBT_EQ("fstat through copied fd", rets[2], 0);
    SBT_EQ("fstat size", st.st_size, (long)sizeof text - 1);
    SBT_EQ("read count came from st_size", rets[5], (long)sizeof text - 1);
    SBT_EQ("write count came from st_size", rets[7], (long)sizeof text - 1);
    SBT_EQ("close", rets[9], 0);
    SBT_EQ("copy results are 0", rets[1] | rets[3] | rets[4] | rets[6] | rets[8], 0);
    SBT_EQ("stat out", fstat(outfd, &st_out), 0);
    SBT_EQ("out file size", st_out.st_size, (long)sizeof text - 1);
    close(outfd);
    fd = open(out, O_RDONLY);
    memset(check, 0, sizeof check);
    SBT_EQ("read back", read(fd, check, sizeof check), (long)sizeof text - 1);
    SBT_STREQ("out file content", check, text);
    close(fd);
    if (rets[0] >= 0) {
        SBT_TRUE("input fd closed", fcntl((int)rets[0], F_GETFD) == -1 && errno == EBADF);
    }

    /* Two copies patching the same later argument: the later copy wins. */
    {
        long first = 3, second = 9;
        fd = open(in, O_RDONLY | O_CLOEXEC);
        sbt_fill_rets(rets, 3);
        s[0] = sbt_copy(&s[2].arg[1], &first);
        s[1] = sbt_copy(&s[2].arg[1], &second);
        s[2] = sbt_slot(SYS_lseek, 3, fd, 1, SEEK_SET, 0, 0, 0);
        last = sysbatch_run(rets, s, 3, 0);
        SBT_EQ("double patch: last", last, 2);
        SBT_EQ("double patch: lseek offset", rets[2], 9);
        SBT_EQ("double patch: file offset", lseek(fd, 0, SEEK_CUR), 9);
        close(fd);
    }
    return sbt_end();
}
