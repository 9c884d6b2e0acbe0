/* Loop batching where some results stop the batch: a diagnostic on the
 * failure path stops at a failing slot (the next iteration refills from
 * its own call site), the first open that works stops on success (the
 * code breaks there).  Names are addresses into a read-only table, so the
 * inspector loads nothing, or loads from a table of pointers the exit
 * test keeps in bounds (i < 4 over 4 entries); other loads for iterations
 * the loop may never reach (i < n, i < 5 over 4 entries, a parameter) are
 * refused as speculative when a result may leave the loop.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static const char names[4][8] = {"a", "b", "c", "d"};

void remove_noisy(void)
{
    for (int i = 0; i < 4; i++)
        if (unlink(names[i]) < 0)
            perror(names[i]);
}

int first_open(void)
{
    int fd = -1;
    for (int i = 0; i < 4; i++) {
        fd = open(names[i], O_RDONLY);
        if (fd >= 0)
            break;
    }
    return fd;
}

static const char *const table[4] = {"a", "b", "c", "d"};

int first_in_table(void)
{
    for (int i = 0; i < 4; i++) {
        int fd = open(table[i], O_RDONLY);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

int first_in_table_n(int n)
{
    for (int i = 0; i < n; i++) {
        int fd = open(table[i], O_RDONLY);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

int first_past_table(void)
{
    for (int i = 0; i < 5; i++) {
        int fd = open(table[i], O_RDONLY);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

struct part { const char *p; long len; };

int write_parts(int fd, const struct part *part, int n)
{
    for (int i = 0; i < n; i++)
        if (write(fd, part[i].p, part[i].len) < 0)
            return -1;
    return 0;
}

// CHECK:      function remove_noisy loop 0:
// CHECK-NEXT: loop call unlink: 16 iterations per batch
// CHECK-NEXT:   slot: unlink(a0) fail=stop
// CHECK:      function first_open loop 0:
// CHECK-NEXT: loop call open: 16 iterations per batch
// CHECK-NEXT:   slot: openat(-100, a0, 0, 0) zero=stop pos=stop
// CHECK:      function first_in_table loop 0:
// CHECK-NEXT: loop call open: 16 iterations per batch
// CHECK-NEXT:   slot: openat(-100, a0, 0, 0) zero=stop pos=stop
// CHECK:      function first_in_table_n loop 0:
// CHECK-NEXT: loop call open: refused: loop-speculative-load: {{.*}}
// CHECK:      function first_past_table loop 0:
// CHECK-NEXT: loop call open: refused: loop-speculative-load: {{.*}}
// CHECK:      function write_parts loop 0:
// CHECK-NEXT: loop call write: refused: loop-speculative-load: {{.*}}: a load for a later iteration is not known to be dereferenceable
