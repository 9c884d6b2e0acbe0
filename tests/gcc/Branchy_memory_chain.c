/* A word fstat wrote feeds read in a later block: open; if (fd < 0)
 * return; if (fstat(fd, &st) >= 0) { read(fd, buf, st.st_size); ... }.
 * st_size becomes a word copy right after fstat (copies follow their
 * producer), which then stops on failure; the error arm's close is reached
 * only by a failed fstat, so the batch stops before it.  A store to the
 * word on the way (here in the reader's own block) keeps the value
 * computed: read is refused and runs on its own.
 * (The error arm must not come first: with `if (fstat(..) < 0) { close;
 * return; }` GCC lays the close block out before the read block, so the
 * producer could not fall into its copies on success - the planner refuses
 * the chained read, see docs/gcc.md.)
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[4096]; /* a pointer parameter might point into st */

long sized(const char *p)
{
    struct stat st;
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) >= 0) {
        long n = read(fd, buf, st.st_size);
        close(fd);
        return n;
    }
    close(fd);
    return -1;
}
// CHECK-LABEL: function sized block 0:
// CHECK-NEXT: batch 0: calls 0..4, 10 slots, 5 chains, branchy
// CHECK-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}fail=stop
// CHECK-NEXT:   slot 1: copy ret[0] -> slot 5 arg 0
// CHECK-NEXT:   slot 2: copy ret[0] -> slot 7 arg 0
// CHECK-NEXT:   slot 3: copy ret[0] -> slot 8 arg 0
// CHECK-NEXT:   slot 4: copy ret[0] -> slot 9 arg 0
// CHECK-NEXT:   slot 5: call 1 newfstatat(ret0, "", a1, 4096) {{ *}}fail=stop
// CHECK-NEXT:   slot 6: copy [slot 5 a1 + 48] -> slot 7 arg 2
// CHECK-NEXT:   slot 7: call 2 read(ret0, a1, [s5.a1+48])
// CHECK-NEXT:   slot 8: call 3 close(ret0) {{ *}}fail=stop zero=stop pos=stop
// CHECK-NEXT:   slot 9: call 4 close(ret0)

long changed(const char *p, long limit)
{
    struct stat st;
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) >= 0) {
        st.st_size = limit;
        long n = read(fd, buf, st.st_size);
        close(fd);
        return n;
    }
    close(fd);
    return -1;
}
// CHECK-LABEL: function changed block 0:
// CHECK-NOT:  copy [
// CHECK:      refused call 2 (read): arg-computed
