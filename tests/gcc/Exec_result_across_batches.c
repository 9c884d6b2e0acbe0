/* A result from an earlier batch feeds a call of a later batch through a
 * conversion that GIMPLE places between the later batch's first call and
 * its consumer (long n -> size_t for write).  The slot is filled at the
 * later batch's issue point, so the conversion is redone there from the
 * result; max-slots=2 forces the two batches.  Checked for valid GIMPLE
 * and for behaviour.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O2 -fchecking -c %s -o /dev/null -fopt-info-optimized -fplugin-arg-sysbatch-max-slots=2 2>&1 | %FileCheck %s --check-prefix=OPT
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc -fplugin-arg-sysbatch-max-slots=2" %sbruntime | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static char buf[32];

int main(void)
{
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0)
        return 77;
    long n = read(fd, buf, 4);
    // OPT: Exec_result_across_batches.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (read, getuid)
    long a = getuid();
    long b = getgid();
    // OPT: Exec_result_across_batches.c:[[@LINE-1]]:{{[0-9]+}}: optimized: sysbatch: batched 2 calls (getgid, write)
    long k = write(1, buf, n);
    printf("\nread %ld uid-ok %d gid-ok %d write %ld\n", n, a == (long)getuid(),
           b == (long)getgid(), k);
    return 0;
}
