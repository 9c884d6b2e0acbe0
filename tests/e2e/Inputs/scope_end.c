/* The end of a block-scoped buffer's life between two calls: GCC ends
 * `struct stat st`'s scope with `st ={v} {CLOBBER}`, which is no barrier
 * (gcc-plugin/block-analysis.cc, barrier_kind), so the two fstats below
 * are one batch with GCC at -O0 and -O2.  The second buffer's life starts
 * after the first one's ends, so the compiler could give both one stack
 * slot - but the batch writes both before the first is read, and the
 * rewrite takes both addresses where the batch is issued, which keeps
 * them apart.  The sizes printed must be the two files' own.
 *
 * Run by tests/e2e/Scope_end.test, plugged against unplugged with both
 * compilers, with and without BATCH_EMUL=1.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Descriptors 10 and 11 (constants: glibc's negative-fd precheck passes). */
__attribute__((noinline)) static long two_sizes(void)
{
    long r = 0;
    {
        struct stat st;
        if (fstat(10, &st) != 0)
            return -1;
        r += (long)st.st_size;
    }
    {
        struct stat st2;
        if (fstat(11, &st2) != 0)
            return -2;
        r += (long)st2.st_size * 1000;
    }
    return r;
}

static int make(const char *name, size_t len, int as)
{
    char buf[64];
    memset(buf, 'x', sizeof buf);
    int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, len) != (ssize_t)len || dup2(fd, as) != as)
        return -1;
    return close(fd);
}

int main(void)
{
    if (make("seven", 7, 10) != 0 || make("forty", 40, 11) != 0)
        return 2;
    printf("sizes %ld\n", two_sizes());
    /* A descriptor that is closed: the second fstat fails with EBADF. */
    close(11);
    printf("closed %ld\n", two_sizes());
    close(10);
    return 0;
}
