/* Two getpid-like calls in a row: a batch in a program linked without LIBS. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    pid_t a = getpid();
    uid_t u = getuid();
    printf("helper: pid %s, uid %u\n", a > 0 ? "ok" : "bad", (unsigned)u);
    return 0;
}
