/* A wrapper `if (fd < 0) return -1; return fd;` becomes max(fd, -1) once
 * inlined; for an int-returning -1/errno call that is the result itself
 * (failure -1, success 0..INT_MAX), so the fstat on it is chained from
 * open and passes glibc's negative-fd precheck (sb_max_keeps_result).
 * max(fd, 0) maps a failure to 0, not the result: the fstat on it stays
 * refused (libc-precheck).  A max after the batch's first call is
 * computed from the result again (rewrite-linux.cc).  Run plugged and
 * unplugged, with and without BATCH_EMUL=1, on a file and a missing one.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=OPT
 * OPT-DAG: Exec_max_fd.c:[[@LINE+16]]:{{[0-9]+}}: optimized: sysbatch: batched 3 calls (open, fstat, close){{.*}}(branchy)
 * OPT-DAG: Exec_max_fd.c:[[@LINE+41]]:{{[0-9]+}}: missed: sysbatch: fstat not batched: libc-precheck
 * OPT-DAG: Exec_max_fd.c:[[@LINE+56]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (getpid, close)
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime < /dev/null | %FileCheck %s
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int xopen(const char *p)
{
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return -1;
    return fd;
}

static int zopen(const char *p)
{
    int fd = open(p, O_RDONLY);
    return fd < 0 ? 0 : fd;
}

static long size_of(const char *p)
{
    struct stat st;
    int fd = xopen(p);
    if (fstat(fd, &st) < 0)
        return -1000 - errno;
    close(fd);
    return st.st_size;
}

static long size_or_stdin(const char *p)
{
    struct stat st;
    int fd = zopen(p);
    if (fstat(fd, &st) < 0)
        return -1000 - errno;
    return fd == 0 ? -1 : 1;
}

__attribute__((noinline)) static void note(const char *p)
{
    printf("note %s\n", p);
}

/* The max stands after the batch's first call, getpid: the rewrite takes
 * close's argument from open's result, defined before the batch. */
static int max_after_issue(const char *p)
{
    int fd = open(p, O_RDONLY);
    note(p);
    pid_t pid = getpid();
    int m = fd < 0 ? -1 : fd;
    return close(m) * 10 + (pid > 0);
}

int main(void)
{
    FILE *f = fopen("in.txt", "w");
    fputs("twelve bytes", f);
    fclose(f);
    printf("file %ld\n", size_of("in.txt"));
    printf("missing %ld\n", size_of("missing.txt"));
    printf("zopen file %ld\n", size_or_stdin("in.txt"));
    printf("zopen missing %ld\n", size_or_stdin("missing.txt"));
    printf("after issue file %d\n", max_after_issue("in.txt"));
    errno = 0;
    int r = max_after_issue("missing.txt");
    printf("after issue missing %d errno %d\n", r, errno);
    return 0;
}
