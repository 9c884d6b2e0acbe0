/* Every slot kind: calls with 0..6 arguments, each result checked against
 * what the same call returns outside a batch (or its visible effect);
 * arguments beyond argc reach the kernel as 0; unknown and negative syscall
 * numbers give -ENOSYS and the batch goes on. */
#include "sbtest.h" /* first: it defines _GNU_SOURCE */

#include <sys/mman.h>

int main(void)
{
    const char *dir;
    char cwd_batch[512], cwd_libc[512], buf[16];
    struct statx stx;
    struct stat st;
    long rets[8];
    struct sysbatch_slot s[8];
    long last;
    int fd, fd2;

    sbt_begin("slot_kinds");
    dir = sbt_tempdir();
    sbt_write_file(sbt_path_in(dir, "data"), "0123456789", 10);
    fd = open(sbt_path_in(dir, "data"), O_RDONLY);
    fd2 = dup(fd);
    if (fd < 0 || fd2 < 0 || !getcwd(cwd_libc, sizeof cwd_libc)) {
        perror("setup");
        return 1;
    }
    memset(&stx, 0, sizeof stx);

    sbt_fill_rets(rets, 8);
    s[0] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    s[1] = sbt_slot(SYS_close, 1, fd2, 0, 0, 0, 0, 0);
    s[2] = sbt_slot(SYS_getcwd, 2, (long)cwd_batch, sizeof cwd_batch, 0, 0, 0, 0);
    s[3] = sbt_slot(SYS_lseek, 3, fd, 5, SEEK_SET, 0, 0, 0);
    s[4] = sbt_slot(SYS_pread64, 4, fd, (long)buf, 4, 2, 0, 0);
    s[5] = sbt_slot(SYS_statx, 5, AT_FDCWD, (long)sbt_path_in(dir, "data"), 0, STATX_SIZE,
                    (long)&stx, 0);
    s[6] = sbt_slot(SYS_mmap, 6, 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                    -1, 0);
    s[7] = sbt_slot(SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
    last = sysbatch_run(rets, s, 8, 0);
    SBT_EQ("last index", last, 7);
    SBT_EQ("argc 0: getpid", rets[0], getpid());
    SBT_EQ("argc 1: close(dup)", rets[1], 0);
    SBT_TRUE("argc 1: dup'd fd closed", fcntl(fd2, F_GETFD) == -1 && errno == EBADF);
    SBT_EQ("argc 2: getcwd length", rets[2], (long)strlen(cwd_libc) + 1);
    if (rets[2] > 0) {
        SBT_STREQ("argc 2: getcwd text", cwd_batch, cwd_libc);
    }
    SBT_EQ("argc 3: lseek", rets[3], 5);
    SBT_EQ("argc 3: offset after lseek", lseek(fd, 0, SEEK_CUR), 5);
    SBT_EQ("argc 4: pread64", rets[4], 4);
    SBT_TRUE("argc 4: pread64 bytes", memcmp(buf, "2345", 4) == 0);
    SBT_EQ("argc 5: statx", rets[5], 0);
    SBT_EQ("argc 5: statx size", (long)stx.stx_size, 10);
    SBT_TRUE("argc 6: mmap result is an address", rets[6] > 0 && (rets[6] & 4095) == 0);
    if (rets[6] > 0 && (rets[6] & 4095) == 0) {
        char *page = (char *)rets[6];
        page[0] = 'x';
        page[4095] = 'y';
        SBT_EQ("argc 6: page usable", page[0] + page[4095], 'x' + 'y');
        SBT_EQ("munmap", munmap(page, 4096), 0);
    }
    SBT_EQ("argc 0: getppid", rets[7], getppid());

    /* Arguments beyond argc are 0: openat with O_CREAT but argc 3 gets mode
     * 0 even though arg[3] holds 0640; with argc 4 the mode is used. */
    umask(0);
    sbt_fill_rets(rets, 8);
    s[0] = sbt_slot(SYS_openat, 3, AT_FDCWD, (long)sbt_path_in(dir, "mode0"),
                    O_CREAT | O_WRONLY | O_CLOEXEC, 0640, 0, 0);
    s[1] = sbt_slot(SYS_openat, 4, AT_FDCWD, (long)sbt_path_in(dir, "mode640"),
                    O_CREAT | O_WRONLY | O_CLOEXEC, 0640, 0, 0);
    last = sysbatch_run(rets, s, 2, 0);
    SBT_EQ("openat batch last", last, 1);
    SBT_TRUE("openat argc 3 fd", rets[0] >= 0);
    SBT_TRUE("openat argc 4 fd", rets[1] >= 0);
    SBT_EQ("stat mode0", stat(sbt_path_in(dir, "mode0"), &st), 0);
    SBT_EQ("mode with argc 3 (arg[3] ignored)", st.st_mode & 0777, 0);
    SBT_EQ("stat mode640", stat(sbt_path_in(dir, "mode640"), &st), 0);
    SBT_EQ("mode with argc 4", st.st_mode & 0777, 0640);
    if (rets[0] >= 0) close((int)rets[0]);
    if (rets[1] >= 0) close((int)rets[1]);

    /* The same for the last argument (mmap's offset: argc 5 maps page 0
     * although arg[5] says page 1) and a middle one (lseek's whence: argc 2
     * seeks from the start although arg[2] says SEEK_END). */
    {
        char page2[8192];
        const char *two_pages = sbt_path_in(dir, "two-pages");
        int pfd;
        memset(page2, 'a', 4096);
        memset(page2 + 4096, 'b', 4096);
        sbt_write_file(two_pages, page2, sizeof page2);
        pfd = open(two_pages, O_RDONLY | O_CLOEXEC);
        sbt_fill_rets(rets, 8);
        s[0] = sbt_slot(SYS_mmap, 5, 0, 4096, PROT_READ, MAP_PRIVATE, pfd, 4096);
        s[1] = sbt_slot(SYS_lseek, 2, pfd, 3, SEEK_END, 0, 0, 0);
        last = sysbatch_run(rets, s, 2, 0);
        SBT_EQ("argc 5 mmap: last", last, 1);
        SBT_TRUE("argc 5 mmap: address", rets[0] > 0 && (rets[0] & 4095) == 0);
        if (rets[0] > 0 && (rets[0] & 4095) == 0) {
            SBT_EQ("argc 5 mmap: mapped offset 0 (arg[5] ignored)", *(char *)rets[0], 'a');
            munmap((void *)rets[0], 4096);
        }
        SBT_EQ("argc 2 lseek: from the start (arg[2] ignored)", rets[1], 3);
        close(pfd);
    }

    /* Numbers no kernel knows: -ENOSYS in the slot, the next slot runs. */
    sbt_fill_rets(rets, 8);
    s[0] = sbt_slot(1000, 0, 0, 0, 0, 0, 0, 0);
    s[1] = sbt_slot(-1, 0, 0, 0, 0, 0, 0, 0);
    s[2] = sbt_slot(-4, 1, 0, 0, 0, 0, 0, 0); /* -3 is SYSBATCH_NR_SIGACTION */
    s[3] = sbt_slot(32767, 0, 0, 0, 0, 0, 0, 0);
    s[4] = sbt_slot(SYS_getpid, 0, 0, 0, 0, 0, 0, 0);
    last = sysbatch_run(rets, s, 5, 0);
    SBT_EQ("unknown: last", last, 4);
    SBT_EQ("nr 1000", rets[0], -ENOSYS);
    SBT_EQ("nr -1", rets[1], -ENOSYS);
    SBT_EQ("nr -4", rets[2], -ENOSYS);
    SBT_EQ("nr 32767", rets[3], -ENOSYS);
    SBT_EQ("getpid after unknown numbers", rets[4], getpid());
    close(fd);
    return sbt_end();
}
