/* A value a call wrote to memory feeds a later call of the same batch:
 * fstat(fd, &st) then read(fd, buf, st.st_size).  The size becomes a word
 * copy from st + 48 (st_size) into read's third argument, and fstat stops
 * the batch when it fails.  A store to st between the two calls, or a
 * 32-bit field, keeps the value computed (arg-computed) instead.
 *
 * (The LLVM pass does not produce memory operands yet, so this file is not
 * in Plans_agree.test: there the read opens a second batch.)
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fplugin-arg-sysbatch-print-plan 2>&1 | %FileCheck %s
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[4096]; /* a pointer parameter might point into st */

long sized(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    fstat(fd, &st);
    long n = read(fd, buf, st.st_size);
    close(fd);
    return n;
}
// CHECK-LABEL: function sized block 0:
// CHECK-NEXT: batch 0: calls 0..3, 8 slots, 4 chains
// CHECK-NEXT:   slot 0: call 0 openat(-100, a0, 0, 0) {{ *}}fail=stop
// CHECK-NEXT:   slot 1: copy ret[0] -> slot 2 arg 0
// CHECK-NEXT:   slot 2: call 1 newfstatat(ret0, "", a1, 4096) {{ *}}fail=stop
// CHECK-NEXT:   slot 3: copy ret[0] -> slot 5 arg 0
// CHECK-NEXT:   slot 4: copy [slot 2 a1 + 48] -> slot 5 arg 2
// CHECK-NEXT:   slot 5: call 2 read(ret0, a1, [s2.a1+48])

long changed(int fd)
{
    struct stat st;
    fstat(fd, &st);
    st.st_size = 1;
    return read(fd, buf, st.st_size) + getuid();
}
// CHECK-LABEL: function changed block 0:
// CHECK-NOT:  copy [
// CHECK:      call 1 read(a0, a1, a2)

long narrow(int fd)
{
    struct stat st;
    fstat(fd, &st);
    return read(fd, buf, st.st_mode) + getuid();
}
// CHECK-LABEL: function narrow block 0:
// CHECK-NOT:  copy [
// CHECK:      call 1 read(a0, a1, a2)
