/* Loop batching over arrays: mkdir, rmdir and unlink over names, fstat
 * over descriptors (the inspector ends a group before a negative one,
 * which glibc answers itself), open with its results kept in a local
 * array, and stat into per-iteration buffers.  At -O0 the C front end
 * marks the local fd[] addressable (it is indexed by a variable), but its
 * address is never taken, so no name points into it and the open loop
 * batches at both levels.  Stores of the results into a global int array
 * may alias the names (a char may alias anything), so that stat loop is
 * refused, with the store named.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s --check-prefix=MISSED
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

const char *names[64];
int fds[64];
int rcs[64];
struct stat sts[64];

void make_dirs(int n)
{
    for (int i = 0; i < n; i++)
        mkdir(names[i], 0755);
}

void remove_dirs(int n)
{
    for (int i = 0; i < n; i++)
        rmdir(names[i]);
}

void remove_files(int n)
{
    for (int i = 0; i < n; i++)
        unlink(names[i]);
}

void stat_fds(int n)
{
    for (int i = 0; i < n; i++)
        rcs[i] = fstat(fds[i], &sts[i]);
}

int open_kept(int n)
{
    int fd[64], ok = 0;
    for (int i = 0; i < n && i < 64; i++)
        fd[i] = open(names[i], O_RDONLY);
    for (int i = 0; i < n && i < 64; i++)
        ok += fd[i] >= 0;
    return ok;
}

void stat_kept(int n)
{
    for (int i = 0; i < n; i++)
        rcs[i] = stat(names[i], &sts[i]);
    // MISSED: Loop_over_names.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: stat not batched in its loop: loop-arg-unrepeatable ({{.*}}: a store in the loop may write what a0 points to)
}

// CHECK:      function make_dirs loop 0:
// CHECK-NEXT: loop call mkdir: 16 iterations per batch
// CHECK-NEXT:   slot: mkdir(a0, 493)
// CHECK:      function remove_dirs loop 0:
// CHECK-NEXT: loop call rmdir: 16 iterations per batch
// CHECK-NEXT:   slot: rmdir(a0)
// CHECK:      function remove_files loop 0:
// CHECK-NEXT: loop call unlink: 16 iterations per batch
// CHECK-NEXT:   slot: unlink(a0)
// CHECK:      function stat_fds loop 0:
// CHECK-NEXT: loop call fstat: 16 iterations per batch
// CHECK-NEXT:   slot: newfstatat(a0, "", a1, 4096)
// CHECK-NEXT:   group ends before an iteration whose a0 is not >= 0
// CHECK:      function open_kept loop 0:
// CHECK-NEXT: loop call open: 16 iterations per batch
// CHECK-NEXT:   slot: openat(-100, a0, 0, 0)
// CHECK:      function stat_kept loop 0:
// CHECK-NEXT: loop call stat: refused: loop-arg-unrepeatable: {{.*}}: a store in the loop may write what a0 points to
