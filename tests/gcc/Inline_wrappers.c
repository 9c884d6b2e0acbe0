/* Calls hidden in small wrappers (xopen that dies on failure, a non-static
 * xfstat, an xclose, an open_file that passes failure on, a loop over a
 * wrapped close) batch only where the wrappers are inlined: the late look
 * (placement=both, the default) sees them at -O2; the early look alone
 * (placement=early) and -O0 see each call alone.  Run plugged and
 * unplugged, with and without BATCH_EMUL=1: a file, a missing file, and
 * eight closes of which two fail.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=LATE
 * LATE-DAG: Inline_wrappers.c:55:{{[0-9]+}}: optimized: sysbatch: batched loop call close: 16 iterations per batch
 * LATE-DAG: Inline_wrappers.c:82:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (fstat, close) into 2 slots with 0 chains over 2 blocks (branchy)
 * LATE-DAG: Inline_wrappers.c:103:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (close, open)
 * LATE-NOT: sysbatch_run not batched
 * RUN: %sbgcc -O2 -fplugin-arg-sysbatch-placement=early -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=EARLY
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=EARLY
 * EARLY-DAG: Inline_wrappers.c:55:{{[0-9]+}}: missed: sysbatch: close not batched: below-min-batch
 * EARLY-DAG: Inline_wrappers.c:47:{{[0-9]+}}: missed: sysbatch: fstat not batched: libc-precheck
 * EARLY-NOT: batched loop call close
 * EARLY-NOT: batched 2 calls (close, open)
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* xopen-style: dies on failure, so its caller never tests the result. */
static int xopen(const char *name, int flags)
{
    int fd = open(name, flags);
    if (fd < 0) {
        perror(name);
        exit(2);
    }
    return fd;
}

/* Not static: still inlined in its own unit. */
int xfstat(int fd, struct stat *st)
{
    int r = fstat(fd, st);
    if (r < 0)
        perror("fstat");
    return r;
}

static int xclose(int fd)
{
    return close(fd);
}

static long size_of(const char *name)
{
    struct stat st;
    int fd = xopen(name, O_RDONLY);
    if (xfstat(fd, &st) < 0) {
        xclose(fd);
        return -1;
    }
    xclose(fd);
    return (long)st.st_size;
}

/* A wrapper that passes failure on: the caller tests it. */
int open_file(const char *name)
{
    return open(name, O_RDONLY);
}

static long size_or_errno(const char *name)
{
    struct stat st;
    int fd = open_file(name);
    if (fd < 0)
        return -1000 - errno;
    if (fstat(fd, &st) < 0)
        return -2000 - errno;
    close(fd);
    return (long)st.st_size;
}

/* One wrapped call per iteration over a local array. */
static int close_all(const int *fds, int n)
{
    int failed = 0;
    for (int i = 0; i < n; i++)
        if (xclose(fds[i]) < 0)
            failed++;
    return failed;
}

int main(void)
{
    int fd = open("data", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "sysbatch\n", 9) != 9)
        return 1;
    close(fd);
    printf("size %ld\n", size_of("data"));
    printf("file %ld\n", size_or_errno("data"));
    printf("missing %ld\n", size_or_errno("missing"));
    int fds[8];
    for (int i = 0; i < 8; i++)
        fds[i] = i < 6 ? dup(1) : -1;
    printf("close failures %d\n", close_all(fds, 8));
    return 0;
}
