// Branchy batches at run time: every form of tests/llvm/Branch_*.ll in one
// program, built unplugged and with the pass at -O0 and -O2 and run with and
// without BATCH_EMUL=1 (Inputs/exec-compare.sh).  The three worlds make each
// condition go both ways: with in.txt and dir/ present, with nothing, and
// with only alt.txt (the path search's second choice).
// REQUIRES: llvm
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/present '%clang' '%sbclang' %sbruntime \
// RUN:   'printf "twelve bytes" > in.txt; mkdir dir' | %FileCheck %s --check-prefix=PRESENT
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/missing '%clang' '%sbclang' %sbruntime \
// RUN:   'true' | %FileCheck %s --check-prefix=MISSING
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/alt '%clang' '%sbclang' %sbruntime \
// RUN:   'printf "alternative" > alt.txt; : > empty.txt' | %FileCheck %s --check-prefix=ALT
// PRESENT: same: 4 runs
// PRESENT: checked: 12 errno 0 twelve bytes
// PRESENT: search: fd>=0 errno 0 data twelve bytes
// PRESENT: ifelse: access 0 unlink/rmdir 0 errno 0
// MISSING: same: 4 runs
// MISSING: checked: -1 errno 2
// MISSING: search: fd=-1 errno 2
// MISSING: ifelse: access -1 mkdir 0 errno 0
// ALT: same: 4 runs
// ALT: search: fd>=0 errno 2 data alternative
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[64];

/* Early exit on error and an error arm that cleans up. */
static int checked(const char *p)
{
    struct stat st;
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return -1;
    }
    long n = read(fd, buf, sizeof buf - 1);
    close(fd);
    return (int)n;
}

/* First that succeeds: stops at the first open that works. */
static int search(void)
{
    int fd;
    if ((fd = open("in.txt", O_RDONLY)) < 0 &&
        (fd = open("alt.txt", O_RDONLY)) < 0 &&
        (fd = open("none.txt", O_RDONLY)) < 0)
        return -1;
    int e = errno;
    memset(buf, 0, sizeof buf);
    long n = read(fd, buf, sizeof buf - 1);
    close(fd);
    printf("search: fd>=0 errno %d data %s (%ld)\n", e, buf, n);
    return 0;
}

/* if/else with calls on both arms, == -1, != 0 and > 0. */
static void ifelse(void)
{
    int a = access("dir", F_OK);
    if (a == 0) {
        int r = rmdir("dir");
        printf("ifelse: access %d unlink/rmdir %d errno %d\n", a, r, errno);
    } else {
        errno = 0;
        int r = mkdir("made", 0755);
        printf("ifelse: access %d mkdir %d errno %d\n", a, r, errno);
    }
    int fd = open("in.txt", O_RDONLY);
    if (fd == -1) {
        int c = close(fd);
        printf("eq-1: close %d errno %d\n", c, errno);
        return;
    }
    long n = read(fd, buf, 4);
    if (n > 0)
        n = lseek(fd, 0, SEEK_SET);
    int c = close(fd);
    if (c != 0)
        getuid();
    printf("gt0: n %ld close %d errno %d\n", n, c, errno);
}

int main(void)
{
    errno = 0;
    int n = checked("in.txt");
    printf("checked: %d errno %d %s\n", n, n < 0 ? errno : 0, n > 0 ? buf : "");
    errno = 0;
    if (search() < 0)
        printf("search: fd=-1 errno %d\n", errno);
    errno = 0;
    ifelse();
    errno = 0;
    n = checked("empty.txt");
    printf("checked empty: %d errno %d\n", n, errno);
    return 0;
}
