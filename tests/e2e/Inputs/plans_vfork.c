/* A function that calls vfork batches nothing, in both compilers (see
 * plans_diverged.c). */
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int in_vfork(void)
{
    int a = getuid() == getuid();
    pid_t p = vfork();
    if (p == 0)
        _exit(0);
    int st;
    waitpid(p, &st, 0);
    return a + (geteuid() == geteuid());
}

int main(void)
{
    printf("in_vfork %d\n", in_vfork());
    return 0;
}
