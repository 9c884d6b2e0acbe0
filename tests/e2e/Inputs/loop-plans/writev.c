/* writev plans (issue #12, "writes of several parts"), compiled by
 * tests/llvm/Loop_writev.test and tests/gcc/Loop_writev.test at -O0 and
 * -O2: both compilers must print the PLAN lines below (each function's plan
 * joined on one line).  One iovec shared by every iteration batches (the
 * kernel only reads it and the buffers it names); two writevs in a row are
 * one batch; an iovec the loop refills each iteration is code the later
 * calls may not move above (the kernel reads it when the batch runs), so
 * every class stops.  The opt-info / remark checks of each test name lines
 * of this file: keep them in step. */
#include <sys/uio.h>
#include <unistd.h>

int fds[16];

// PLAN-DAG: function parts loop 0: | loop call writev: 16 iterations per batch | slot: writev(a0, a1, 2){{$}}
void parts(int n, char *head, char *body)
{
    struct iovec iov[2] = {{head, 4}, {body, 5}};
    for (int i = 0; i < n; i++)
        writev(fds[i], iov, 2);
}

// PLAN-DAG: function two block 0: | batch 0: calls 0..1, 2 slots, 0 chains, branchy | slot 0: call 0 writev(a0, a1, 2) fail=stop | slot 1: call 1 writev(a0, a1, 1){{$}}
long two(int fd, const struct iovec *a, const struct iovec *b)
{
    long r = writev(fd, a, 2);
    if (r < 0)
        return -1;
    return writev(fd, b, 1);
}

// PLAN-DAG: function refilled loop 0: | loop call writev: refused: loop-always-stops: {{.*}}: a store {{.*}}
void refilled(int fd, char **p, int n)
{
    struct iovec iov[1];
    for (int i = 0; i < n; i++) {
        iov[0].iov_base = p[i];
        iov[0].iov_len = 3;
        writev(fd, iov, 1);
    }
}
