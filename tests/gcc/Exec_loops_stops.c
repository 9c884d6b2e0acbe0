/* Loop batching where some results stop the batch, run: a diagnostic on
 * the failure path of unlink (the failing slot stops the batch; the next
 * iteration refills from its own call site), the first open that works
 * (the batch stops where the code breaks; later opens never run, so the
 * descriptor numbers stay those of the unplugged run).  Compared with the unplugged build at
 * -O0 and -O2, with and without BATCH_EMUL=1.
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=OPT
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 * OPT-DAG: optimized: sysbatch: batched loop call unlink
 * OPT-DAG: optimized: sysbatch: batched loop call open
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define N 24
static const char names[N][8] = {
    "f00", "f01", "f02", "f03", "f04", "f05", "f06", "f07",
    "f08", "f09", "f10", "f11", "f12", "f13", "f14", "f15",
    "f16", "f17", "f18", "f19", "f20", "f21", "f22", "f23"};

static int failures;

static void remove_all(void)
{
    for (int i = 0; i < N; i++)
        if (unlink(names[i]) < 0) {
            failures++;
            printf("unlink %d: errno %d\n", i, errno);
        }
}

static int first_open(int from)
{
    int fd = -1;
    for (int i = from; i < N; i++) {
        fd = open(names[i], O_RDONLY);
        if (fd >= 0) {
            printf("first %d\n", i);
            break;
        }
    }
    return fd;
}

int main(void)
{
    /* Files at every third name. */
    for (int i = 0; i < N; i += 3)
        close(open(names[i], O_WRONLY | O_CREAT, 0644));
    int fd = first_open(1);
    int fd2 = first_open(4);
    int fd3 = first_open(22);
    printf("fds %d %d %d\n", fd >= 0, fd2 > fd, fd3);
    close(fd);
    close(fd2);
    remove_all();
    printf("failures %d\n", failures);
    remove_all();
    printf("failures %d\n", failures);
    return 0;
}
