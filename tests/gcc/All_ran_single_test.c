/* One test "every slot ran" (sb_rt_all_ran_test) replaces the per-call tests
 * on the common path only where it is a sound summary and the stretch can be
 * copied: a straight-line batch whose calls share one block.  open's "stop"
 * (read and close do not run when it fails) only ends the batch, so
 * last == nslots - 1 still means every slot ran; the per-slot path stays
 * for a batch that stopped early.  A batch whose calls span blocks, one
 * with forward skips (branchy), and verify mode keep only the per-slot
 * tests.  (tests/llvm/AllRan_single_test.ll is the same for the LLVM pass.)
 *
 * REQUIRES: gcc-host
 * RUN: rm -rf %t && mkdir -p %t && cd %t
 * RUN: %sbgcc -O0 -fchecking -c %s -o %t/x.o -fdump-tree-all -dumpdir %t/
 * RUN: cat %t/*.sysbatch | %FileCheck %s
 * RUN: rm -rf %t.v && mkdir -p %t.v && cd %t.v
 * RUN: %sbgcc -O0 -fplugin-arg-sysbatch-verify -fchecking -c %s -o %t.v/x.o -fdump-tree-all -dumpdir %t.v/
 * RUN: cat %t.v/*.sysbatch | %FileCheck %s --check-prefix=VERIFY
 * VERIFY: sysbatch_verify_slot
 * VERIFY-NOT: == 4)
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

long stop_in_one_block(const char *p, char *buf)
{
    int fd = open(p, O_RDONLY);
    int twice = fd * 2;
    long n = read(fd, buf, 64);
    close(fd);
    return n + twice;
}

// CHECK:      function stop_in_one_block block 0:
// CHECK:      sysbatch_slots{{.*}}[0].jump_fail = -1;
// CHECK:      _[[RES:[0-9]+]] = sysbatch_run (&sysbatch_rets{{.*}}[0], &sysbatch_slots{{.*}}[0], 5, 7);
// CHECK:      # _[[LAST:[0-9]+]] = PHI <_[[RES]]({{[0-9]+}}), -1({{[0-9]+}})>
// CHECK-NEXT: if (_[[LAST]] == 4)
// The common path: every result from rets (errno set for a failing one),
// the code between the calls once more, no call and no test.
// CHECK:      sysbatch_rets{{.*}}[0];
// CHECK-NEXT: sysbatch_ret_errno
// CHECK-NOT:  if (
// CHECK-NOT:  open (
// CHECK:      twice_[[FAST:[0-9]+]] = fd_{{[0-9]+}} * 2;
// CHECK-NOT:  if (
// CHECK:      sysbatch_rets{{.*}}[2];
// CHECK-NOT:  if (
// CHECK:      sysbatch_rets{{.*}}[4];
// CHECK-NEXT: sysbatch_ret_errno
// CHECK-NEXT: goto <bb [[AFTER:[0-9]+]]>
// The per-slot path.
// CHECK:      if (_[[LAST]] >= 0)
// CHECK:      fd_{{[0-9]+}} = open (
// CHECK:      twice_[[SLOW:[0-9]+]] = fd_{{[0-9]+}} * 2;
// CHECK:      if (_[[LAST]] >= 2)
// CHECK:      read (
// CHECK:      if (_[[LAST]] >= 4)
// CHECK:      close (
// CHECK:      <bb [[AFTER]]> :
// CHECK-NEXT: # twice_{{[0-9]+}} = PHI <twice_[[SLOW]]({{[0-9]+}}), twice_[[FAST]]({{[0-9]+}})>

int stop_across_blocks(const char *p, char *buf)
{
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return -1;
    long n = read(fd, buf, 64);
    close(fd);
    return (int)n;
}

// CHECK:      function stop_across_blocks block 0:
// CHECK:      sysbatch_run ({{.*}}, 5, 7);
// CHECK-NOT:  == 4)
// CHECK:      >= 0)
// CHECK:      >= 3)

void branchy(const char *p)
{
    if (access(p, F_OK) == 0)
        unlink(p);
    else
        mkdir(p, 0755);
    getuid();
}

// CHECK:      function branchy block 0:
// CHECK:      sysbatch_run ({{.*}}, 4, 3);
// CHECK-NOT:  == 3)
// CHECK:      != -9223372036854775808)
