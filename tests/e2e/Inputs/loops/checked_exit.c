#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
/* Rule 7 (issue #12): the loop's exit test reads stop[i], which the loop
 * itself writes for the next iteration after each call.  An inspector that
 * repeated the test for later iterations without the run-time check would
 * read stop[] before the loop wrote it and close descriptors the loop never
 * reaches (the program then prints "still open 0"); with the check, the
 * group's write of stop[i + 1] meets its read and the calls run from their
 * call site. */
__attribute__((noinline)) int closer(int base, int *stop, int n)
{
    int i;
    for (i = 0; i < n && !stop[i]; i++) {
        close(base + i);
        stop[i + 1] = (i == 2);
    }
    return i;
}
int main(void)
{
    int fd[12], stop[13] = {0};
    for (int i = 0; i < 12; i++)
        fd[i] = open("/dev/null", O_RDONLY);
    int k = closer(fd[0], stop, 12);
    int open_left = 0;
    for (int i = 0; i < 12; i++)
        open_left += fcntl(fd[i], F_GETFD) >= 0;
    printf("closed %d, still open %d\n", k, open_left);
    return 0;
}
