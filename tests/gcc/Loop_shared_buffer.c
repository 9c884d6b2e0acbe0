/* Loop batching, one buffer every iteration shares: lstat into one struct
 * stat becomes a private buffer per slot, copied back at the call site on
 * success; pread into one buffer at computed offsets copies back as many
 * bytes as it returned.  -O0 and -O2 alike.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking --param ggc-min-expand=0 --param ggc-min-heapsize=0 -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fplugin-arg-sysbatch-loop-slots=8 -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s --check-prefix=EIGHT
 */
#include <sys/stat.h>
#include <unistd.h>

const char *paths[64];

long total_size(int n)
{
    struct stat st;
    long total = 0;
    for (int i = 0; i < n; i++)
        if (lstat(paths[i], &st) == 0)
            total += st.st_size;
    return total;
}

long read_blocks(int fd, int n)
{
    char buf[512];
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += pread(fd, buf, 512, (off_t)i * 4096) + buf[0];
    return sum;
}

// CHECK:      function total_size loop 0:
// CHECK-NEXT: loop call lstat: 16 iterations per batch
// CHECK-NEXT:   slot: newfstatat(-100, a0, private, 256)
// CHECK-NEXT:   private a1: 144 bytes per slot, copied back on success
// CHECK:      function read_blocks loop 0:
// CHECK-NEXT: loop call pread: 16 iterations per batch
// CHECK-NEXT:   slot: pread64(a0, private, 512, a3)
// CHECK-NEXT:   private a1: 512 bytes per slot, copied back on success, as many bytes as the result
// EIGHT: loop call lstat: 8 iterations per batch
