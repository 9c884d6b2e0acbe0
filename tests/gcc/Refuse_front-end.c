/* The front end's own objections (the same words as the LLVM pass): a
 * catalogue name whose declaration returns something that is not an
 * integer or a pointer, or takes such an argument.  A function with a
 * catalogue name defined in this unit is not the C library's at all: it is
 * an unknown call, so a barrier.
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s
 */
double getuid(void);
int getgid(void);
int getpid(void);
int kill(int pid, long double sig);
int close(int fd) { return fd; }

int own(void)
{
    double a = getuid();
    // CHECK-DAG: Refuse_front-end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getuid not batched: front-end (the compiler front end refused it: the call returns a value that is not an integer or a pointer)
    int b = kill(1, 9.0L);
    // CHECK-DAG: Refuse_front-end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: kill not batched: front-end (the compiler front end refused it: argument 1 is neither an integer nor a pointer)
    int c = getgid();
    int d = close(3);
    int e = getpid();
    // CHECK-DAG: Refuse_front-end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: getpid not batched: barrier ({{.*}}: call to close)
    return (int)a + b + c + d + e;
}
