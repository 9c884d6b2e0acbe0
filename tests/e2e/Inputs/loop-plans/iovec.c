/* readv, preadv and pwritev plans (issue #12, vectored I/O), compiled by
 * tests/llvm/Loop_iovec.test and tests/gcc/Loop_iovec.test at -O0 and -O2:
 * both compilers must print the PLAN lines below (each function's plan
 * joined on one line).  pwritev at computed offsets with one shared iovec
 * batches (the kernel only reads the iovec and its buffers); preadv with a
 * per-iteration iovec batches; preadv into one iovec every iteration
 * shares, read after each call, is refused (the buffers are named inside
 * the iovec, so no slot can have private ones); a readv until end of file
 * is refused, and so is an argument loaded from memory the kernel may write
 * through the iovec; readv, readv, preadv in a row are one batch, and so are
 * readv and a preadv behind a test of its result.  The opt-info /
 * remark checks of each test name lines of this file: keep them in step. */
#include <sys/uio.h>
#include <unistd.h>

// PLAN-DAG: function at_offsets loop 0: | loop call pwritev: 16 iterations per batch | slot: pwritev(a0, a1, 2, a3, 0){{$}}
void at_offsets(int fd, const struct iovec *iov, int n)
{
    for (int i = 0; i < n; i++)
        pwritev(fd, iov, 2, (off_t)i * 64);
}

// PLAN-DAG: function each_own loop 0: | loop call preadv: 16 iterations per batch | slot: preadv(a0, a1, 2, a3, 0){{$}}
long each_own(int fd, struct iovec *iov, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++) {
        long r = preadv(fd, &iov[2 * i], 2, (off_t)i * 16);
        if (r > 0)
            total += r;
    }
    return total;
}

// PLAN-DAG: function shared loop 0: | loop call preadv: refused: loop-{{[a-z-]+}}: {{.*}}
long shared(int fd, char *buf, int n)
{
    struct iovec iov[1] = {{buf, 8}};
    long sum = 0;
    for (int i = 0; i < n; i++)
        if (preadv(fd, iov, 1, (off_t)i * 8) > 0)
            sum += buf[0];
    return sum;
}

// PLAN-DAG: function until_eof loop 0: | loop call readv: refused: loop-carried: {{.*}}
long until_eof(int fd, struct iovec *iov)
{
    long n = 0;
    while (readv(fd, iov, 1) > 0)
        n++;
    return n;
}

// PLAN-DAG: function three block 0: | batch 0: calls 0..2, 3 slots, 0 chains | slot 0: call 0 readv(a0, a1, 2) | slot 1: call 1 readv(a0, a1, 1) | slot 2: call 2 preadv(a0, a1, 1, 64, 0){{$}}
long three(int fd, struct iovec *a, struct iovec *b, struct iovec *c)
{
    long r = readv(fd, a, 2);
    long s = readv(fd, b, 1);
    long t = preadv(fd, c, 1, 64);
    return r + s + t;
}

// PLAN-DAG: function two block 0: | batch 0: calls 0..1, 2 slots, 0 chains, branchy | slot 0: call 0 readv(a0, a1, 1) fail=stop | slot 1: call 1 preadv(a0, a1, 1, 0, 0){{$}}
long two(int fd, struct iovec *a, struct iovec *b)
{
    long r = readv(fd, a, 1);
    if (r < 0)
        return -1;
    return r + preadv(fd, b, 1, 0);
}

// PLAN-DAG: function loaded loop 0: | loop call preadv: refused: {{loop-arg-unrepeatable|loop-carried}}: {{.*}}
long loaded(const int *fds, struct iovec *iov, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++)
        total += preadv(fds[i], &iov[i], 1, 0);
    return total;
}

/* The kernel may write any memory through the iovec: an exit test or a
 * guard on loaded memory cannot run ahead of the calls, and a store of
 * each result crosses the later calls. */
// PLAN-DAG: function bound_loaded loop 0: | loop call preadv: refused: loop-always-stops: {{.*}}
long bound_loaded(int fd, struct iovec *iov, const int *np)
{
    long t = 0;
    for (int i = 0; i < *np; i++)
        t += preadv(fd, &iov[i], 1, 0);
    return t;
}

// PLAN-DAG: function guard_loaded loop 0: | loop call preadv: refused: loop-guard: {{.*}}
long guard_loaded(int fd, struct iovec *iov, const char *want, int n)
{
    long t = 0;
    for (int i = 0; i < n; i++)
        if (want[i])
            t += preadv(fd, &iov[i], 1, (off_t)i * 8);
    return t;
}

// PLAN-DAG: function store_after loop 0: | loop call readv: refused: loop-always-stops: {{.*}}a store {{.*}}
void store_after(int fd, struct iovec *iov, int n, long *rc)
{
    for (int i = 0; i < n; i++)
        rc[i] = readv(fd, &iov[i], 1);
}

/* Straight-line: a load between two readvs may read what the first wrote
 * (the buffers are named inside the iovec), a store between two pwritevs
 * may write what the second reads: neither pair batches. */
// PLAN-DAG: function load_between block 0: | refused call 0 (readv): below-min-batch: {{.*}} | refused call 1 (readv): code-conflict: {{.*}}: a load that may alias a buffer of readv{{$}}
long load_between(int fd, struct iovec *a, struct iovec *b, const char *p)
{
    long r = readv(fd, a, 1);
    char c = *p;
    long s = readv(fd, b, 1);
    return r + s + c;
}

// PLAN-DAG: function store_between block 0: | refused call 0 (pwritev): below-min-batch: {{.*}} | refused call 1 (pwritev): code-conflict: {{.*}}: a store that may alias a buffer of pwritev{{$}}
long store_between(int fd, struct iovec *a, struct iovec *b, char *p)
{
    long r = pwritev(fd, a, 1, 0);
    *p = 'x';
    long s = pwritev(fd, b, 1, 8);
    return r + s;
}

/* pwritev only reads memory: offsets loaded from a table nothing in the
 * loop writes are repeated by the inspector. */
// PLAN-DAG: function at_table loop 0: | loop call pwritev: 16 iterations per batch | slot: pwritev(a0, a1, 2, a3, 0){{$}}
void at_table(int fd, const struct iovec *iov, const off_t *off, int n)
{
    for (int i = 0; i < n; i++)
        pwritev(fd, iov, 2, off[i]);
}
