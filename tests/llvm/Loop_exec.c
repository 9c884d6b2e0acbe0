// Loop batching run: the shapes of tests/e2e/Inputs/loop-plans/plans.c on real files, built
// unplugged and plugged at -O0 and -O2, run plainly and with BATCH_EMUL=1
// (the batched path): same output, exit status and files left behind, and
// batches ran.  21 names (more than one 16-iteration group), one missing
// (open, stat, lstat fail inside a group; the fstat of its -1 ends a group
// through the precheck), an early exit in the middle of a group.
// REQUIRES: llvm
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t '%clang' '%sbclang' %sbruntime \
// RUN:   'for f in a b c d e f g h i j k l m n o p q r s t; do printf %%s $f$f$f > $f; done' | %FileCheck %s
// verify mode: every slot a call site takes is compared with that call
// site's own arguments (a difference aborts the run).
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t.verify '%clang' '%sbclang -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-verify' %sbruntime \
// RUN:   'for f in a b c d e f g h i j k l m n o p q r s t; do printf %%s $f$f$f > $f; done' | %FileCheck %s
// CHECK: same: 4 runs
// CHECK: open 2 = -1 errno 2
// CHECK: stat 2 = -1 errno 2
// CHECK: fstat 2 = -1 errno 9
// CHECK: lstat total 60
// CHECK: first missing at 2
// CHECK: pread 3 blocks sum 291
// CHECK: write parts 0 errno 0
// CHECK: unlink errno 2
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 21
static const char *const names[N] = {"a", "b", "missing", "c", "d", "e", "f",
                                     "g", "h", "i", "j", "k", "l", "m", "n",
                                     "o", "p", "q", "r", "s", "t"};
int fds[N], rcs[N], ers[N];
struct stat sts[N];
char block[64];
struct part {
    const char *p;
    unsigned long len;
} parts[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        fds[i] = open(names[i], O_RDONLY);
        ers[i] = errno;
    }
    for (int i = 0; i < N; i++)
        printf("open %d = %d errno %d\n", i, fds[i] < 0 ? -1 : 1,
               fds[i] < 0 ? ers[i] : 0);
    for (int i = 0; i < N; i++) {
        rcs[i] = stat(names[i], &sts[i]);
        ers[i] = errno;
    }
    for (int i = 0; i < N; i++)
        printf("stat %d = %d errno %d size %lld\n", i, rcs[i],
               rcs[i] ? ers[i] : 0, rcs[i] ? -1LL : (long long)sts[i].st_size);
    for (int i = 0; i < N; i++) {
        rcs[i] = fstat(fds[i], &sts[i]);
        ers[i] = errno;
    }
    for (int i = 0; i < N; i++)
        printf("fstat %d = %d errno %d\n", i, rcs[i], rcs[i] ? ers[i] : 0);

    struct stat st;
    long total = 0;
    for (int i = 0; i < N; i++)
        if (lstat(names[i], &st) == 0)
            total += st.st_size;
    printf("lstat total %ld\n", total);

    int first = -1;
    for (int i = 0; i < N; i++) {
        if (access(names[i], F_OK) < 0) {
            first = i;
            break;
        }
    }
    printf("first missing at %d\n", first);

    long sum = 0;
    int fd = open("a", O_RDONLY);
    int got = 0;
    for (int i = 0; i < 4; i++) {
        if (pread(fd, block, 1, i) <= 0)
            break;
        sum += block[0];
        got++;
    }
    printf("pread %d blocks sum %ld\n", got, sum);
    close(fd);

    int out = open("out", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    for (int i = 0; i < N; i++) {
        parts[i].p = names[i];
        parts[i].len = strlen(names[i]);
    }
    int rc = 0;
    errno = 0;
    for (int i = 0; i < N; i++)
        if (write(out, parts[i].p, parts[i].len) < 0) {
            rc = -1;
            break;
        }
    printf("write parts %d errno %d\n", rc, errno);
    close(out);

    for (int i = 0; i < N; i++)
        close(fds[i]);
    errno = 0;
    for (int i = 0; i < N; i++)
        unlink(names[i]);
    printf("unlink errno %d\n", errno);
    return 0;
}
