/* Retry loops (issue #12, real programs): a call made again only after it
 * failed, as gnulib's safe_read/safe_write and the EINTR loops of real
 * code do.  Every success leaves the loop, so a run makes one call unless
 * a signal interrupts it and no later iteration's call is known ahead:
 * refused as loop-retry by both compilers at -O0 and -O2
 * (tests/llvm/Loop_retry.test, tests/gcc/Loop_retry.test check the PLAN
 * lines; tests/e2e/Inputs/loops/retry.c runs these functions; the first
 * open that succeeds over a list of names, whose failure goes on to the
 * next name, is not a retry: plans.c's first_open).  The remark checks
 * name lines of this file: keep them in step. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define BIG_COUNT 0x7fffe000UL

// PLAN-DAG: function read_retry loop 0: | loop call read: refused: loop-retry: {{.*}}
long read_retry(int fd, void *buf, unsigned long count)
{
    for (;;) {
        long n = read(fd, buf, count);
        if (n >= 0)
            return n;
        if (errno == EINTR)
            continue;
        if (errno == EINVAL && count > BIG_COUNT)
            count = BIG_COUNT;
        else
            return n;
    }
}

// clang -O0 reads n back from its stack slot in the loop's test, which its
// walk of the paths does not tie to the result: it does not prove that a
// success leaves, and says only that every result may.
// RETRY-DAG: function write_retry loop 0: | loop call write: refused: loop-retry: {{.*}}
// CLANGO0-DAG: function write_retry loop 0: | loop call write: refused: loop-always-stops: {{.*}}
long write_retry(int fd, const void *buf, unsigned long count)
{
    long n;
    do
        n = write(fd, buf, count);
    while (n < 0 && errno == EINTR);
    return n;
}

// PLAN-DAG: function open_retry loop 0: | loop call open: refused: loop-retry: {{.*}}
int open_retry(const char *name)
{
    int fd;
    while ((fd = open(name, O_RDONLY)) < 0)
        if (errno != EINTR)
            break;
    return fd;
}
