/* const_move.c: a call of a function declared const stands between two
 * system calls; moving it after the second one is the fix-it (it touches
 * no memory).  In `kept` the statement after the call writes the
 * argument, so the move would change the result: no fix-it there. */
#include <stdio.h>
#include <unistd.h>

__attribute__((const)) static long scale(long x) { return x * 3 + 1; }

static long moved(void)
{
    long k = 14;
    pid_t a = getpid();
    long s = scale(k);
    pid_t b = getppid();
    return (a > 0 && b > 0) + s;
}

static long kept(void)
{
    long k = 14;
    pid_t a = getpid();
    long s = scale(k);
    k = getppid();
    return (a > 0 && k > 0) + s;
}

int main(void)
{
    printf("%ld %ld\n", moved(), kept());
    return 0;
}
