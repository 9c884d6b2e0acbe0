// open/fstat/read/close with the fd chained from open, then a file written
// through a chained fd; run with the input present and missing (open fails
// inside the batch: fstat/read/close must then run unbatched and fail with
// EBADF exactly as before), plus an unlink of a missing path mid-batch.
// REQUIRES: llvm
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/present '%clang' '%sbclang' %sbruntime \
// RUN:   'printf "hello, batch\n" > in.txt' | %FileCheck %s --check-prefix=PRESENT
// RUN: SYSBATCH_EXPECT_BATCHES=1 sh %S/Inputs/exec-compare.sh %s %t/missing '%clang' '%sbclang' %sbruntime \
// RUN:   'true' | %FileCheck %s --check-prefix=MISSING
// PRESENT: same: 4 runs
// PRESENT: open = 3 errno 0
// PRESENT: fstat = 0 errno 0 size 13
// PRESENT: read = 13 errno 0
// PRESENT: file ./out.txt mode 640: h e l l o
// MISSING: same: 4 runs
// MISSING: open = -1 errno 2
// MISSING: fstat = -1 errno 9
// MISSING: read = -1 errno 9
// MISSING: close = -1 errno 9
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    char buf[64];
    struct stat st;
    memset(&st, 0, sizeof st);
    memset(buf, 0, sizeof buf);
    errno = 0;

    int fd = open("in.txt", O_RDONLY);
    int e0 = errno;
    int rs = fstat(fd, &st);
    int e1 = errno;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    int e2 = errno;
    int rc = close(fd);
    int e3 = errno;

    int out = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0640);
    int e4 = errno;
    int gone = unlink("no-such-file");
    int e5 = errno;
    ssize_t w = write(out, "hello", 5);
    int e6 = errno;
    int oc = close(out);
    int e7 = errno;

    printf("open = %d errno %d\n", fd, e0);
    printf("fstat = %d errno %d size %lld\n", rs, e1, (long long)st.st_size);
    printf("read = %zd errno %d data %s", n, e2, n > 0 ? buf : "\n");
    printf("close = %d errno %d\n", rc, e3);
    printf("creat = %d errno %d\n", out >= 0, e4);
    printf("unlink = %d errno %d\n", gone, e5);
    printf("write = %zd errno %d\n", w, e6);
    printf("close = %d errno %d\n", oc, e7);
    return fd < 0;
}
