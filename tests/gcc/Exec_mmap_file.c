/* open, fstat, mmap(NULL, st.st_size, ...), close: one batch (the load of
 * st.st_size commutes with an mmap that adds a fresh mapping, and fstat's
 * failure arm leaves the batch).  Run on a file, an empty file (mmap fails
 * with EINVAL inside the batch), a missing one (open fails) and a
 * directory; plugged and unplugged, with and without BATCH_EMUL=1.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=BATCH
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized 2>&1 | %FileCheck %s --check-prefix=BATCH
 * BATCH: Exec_mmap_file.c:[[@LINE+22]]:{{[0-9]+}}: optimized: sysbatch: batched 4 calls (open, fstat, mmap, close)
 * The close of fstat's failure arm says why it is not in the batch:
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s --check-prefix=LEFT
 * LEFT: Exec_mmap_file.c:36:{{[0-9]+}}: missed: sysbatch: close left out of the batch at line 32: not-reached ({{.*}}: the batch stops when the call before this arm fails: {{.*}})
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static long map_file(const char *path, long *size)
{
    struct stat st;
    errno = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -100 - errno;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return -200 - errno;
    }
    char *p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e_mmap = errno;
    int r_close = close(fd);
    *size = st.st_size;
    if (p == MAP_FAILED)
        return -300 - e_mmap - 1000 * r_close;
    long sum = 0;
    for (long i = 0; i < st.st_size; i++)
        sum += p[i];
    munmap(p, st.st_size);
    return sum + 1000000 * r_close;
}

int main(void)
{
    FILE *f = fopen("data.txt", "w");
    fputs("mapped contents\n", f);
    fclose(f);
    fclose(fopen("empty.txt", "w"));
    mkdir("dir", 0755);
    const char *paths[] = {"data.txt", "empty.txt", "missing.txt", "dir"};
    for (int i = 0; i < 4; i++) {
        long size = -1;
        long r = map_file(paths[i], &size);
        printf("%s: %ld size %ld errno %d\n", paths[i], r, size, errno);
    }
    return 0;
}
