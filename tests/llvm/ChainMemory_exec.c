// read(fd, buf, st.st_size) after fstat(fd, &st): the size reaches read's
// slot through a word copy from fstat's buffer.  Present, empty and missing
// input, on the batch path and the fallback path, at -O0 and -O2.
// REQUIRES: llvm
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/present '%clang' '%sbclang' %sbruntime \
// RUN:   'printf "twelve bytes" > in.txt' | %FileCheck %s --check-prefix=PRESENT
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/empty '%clang' '%sbclang' %sbruntime \
// RUN:   ': > in.txt' | %FileCheck %s --check-prefix=EMPTY
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/missing '%clang' '%sbclang' %sbruntime \
// RUN:   'true' | %FileCheck %s --check-prefix=MISSING
// PRESENT: same: 4 runs
// PRESENT: read = 12 errno 0 data twelve bytes
// EMPTY: same: 4 runs
// EMPTY: read = 0 errno 0 data
// MISSING: same: 4 runs
// MISSING: open = -1 errno 2
// MISSING: read = -1 errno 9
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[4096];

int main(void)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    errno = 0;
    int fd = open("in.txt", O_RDONLY);
    int e0 = errno;
    int rs = fstat(fd, &st);
    int e1 = errno;
    ssize_t n = read(fd, buf, st.st_size);
    int e2 = errno;
    int rc = close(fd);
    int e3 = errno;
    printf("open = %d errno %d\n", fd, e0);
    printf("fstat = %d errno %d size %lld\n", rs, e1, (long long)st.st_size);
    printf("read = %zd errno %d data %s\n", n, e2, buf);
    printf("close = %d errno %d\n", rc, e3);
    return 0;
}
