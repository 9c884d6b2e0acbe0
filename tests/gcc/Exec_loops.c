/* Loop batching (sysbatch/loop.h), run: each loop shape of issue #12 that
 * the GCC plugin batches, with inputs that make some calls fail (errno
 * and results are printed per iteration), compared with the unplugged
 * build at -O0 and -O2, with and without BATCH_EMUL=1.  The emulated
 * runs must have made batches (SYSBATCH_STATS), and both plugged builds
 * must report batched loop calls.
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 * OPT-DAG: batched loop call mkdir
 * OPT-DAG: batched loop call open
 * OPT-DAG: batched loop call lstat
 * OPT-DAG: batched loop call fstat
 * OPT-DAG: batched loop call pread
 * OPT-DAG: batched loop call unlink
 * OPT-DAG: batched loop call close
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 40

static const char *names[N];
static char name_store[N][16];
static int fds[N];

static void make_dirs(void)
{
    for (int i = 0; i < N; i++)
        mkdir(names[i], 0755);
}

static void open_all(void)
{
    for (int i = 0; i < N; i++)
        fds[i] = open(names[i], O_RDONLY | O_DIRECTORY);
}

static long total_size(int n)
{
    struct stat st;
    long total = 0, found = 0;
    for (int i = 0; i < n; i++)
        if (lstat(names[i], &st) == 0) {
            total += S_ISDIR(st.st_mode);
            found++;
        }
    return total * 1000 + found;
}

static int rcs[N];
static struct stat sts[N];

static void fstat_all(void)
{
    for (int i = 0; i < N; i++)
        rcs[i] = fstat(fds[i], &sts[i]);
}

static long read_parts(int fd, int n)
{
    char buf[8];
    long sum = 0;
    for (int i = 0; i < n; i++) {
        long got = pread(fd, buf, 8, (off_t)i * 8);
        if (got > 0)
            sum += got * 100 + buf[0];
        else
            sum += got;
    }
    return sum;
}

static void close_down(int top)
{
    while (top > 2)
        close(top--);
}

static void close_all(void)
{
    for (int i = 0; i < N; i++)
        close(fds[i]);
}

static void unlink_all(void)
{
    for (int i = 0; i < N; i++)
        unlink(names[i]);
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        snprintf(name_store[i], sizeof name_store[i], "d%02d", i);
        names[i] = name_store[i];
    }
    /* Every fifth name is taken by a file, so mkdir fails there (EEXIST)
     * and the open of a directory fails (ENOTDIR). */
    for (int i = 0; i < N; i += 5)
        close(open(names[i], O_WRONLY | O_CREAT, 0644));
    make_dirs();
    open_all();
    for (int i = 0; i < N; i++)
        printf("%d", fds[i] >= 0);
    printf("\n");
    printf("size %ld\n", total_size(N));
    printf("size %ld\n", total_size(3));
    fstat_all();
    for (int i = 0; i < N; i++)
        printf("%d", rcs[i] == 0 ? (int)S_ISDIR(sts[i].st_mode) : -1);
    printf("\n");
    close_all();

    int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);
    write(fd, "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ", 46);
    printf("pread %ld\n", read_parts(fd, 9));
    close(fd);

    int spare[20];
    for (int i = 0; i < 20; i++)
        spare[i] = open("data", O_RDONLY);
    close_down(spare[19]);
    errno = 0;
    printf("closed %d %d\n", close(spare[0]), errno);

    for (int i = 0; i < N; i++)
        rmdir(names[i]);
    unlink_all();
    unlink("data");
    return 0;
}
