/* Spot check of the join split in findutils' xargs.c (the child after
 * execvp): `if (errno) write(fd[1], &errno, sizeof(int)); close(fd[1]);`
 * then errno is read again.  The split copies close onto the edge from
 * write's block, so write (whose buffer is errno itself) and close run as
 * one batch; the parent must read the exec's errno from the pipe. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int run(char *prog, int force_zero)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        char *argv[] = {prog, NULL};
        close(fd[0]);
        execvp(argv[0], argv);
        if (force_zero)
            errno = 0;
        if (errno)
            write(fd[1], &errno, sizeof(int));
        close(fd[1]);
        if (E2BIG != errno)
            fprintf(stderr, "child: errno %d\n", errno);
        _exit(errno == ENOENT ? 127 : 126);
    }
    close(fd[1]);
    int child_errno = 0;
    ssize_t n = read(fd[0], &child_errno, sizeof child_errno);
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    printf("%s: read %zd errno %d exit %d\n", prog, n, child_errno, WEXITSTATUS(status));
    return 0;
}

int main(void)
{
    run("sysbatch-no-such-command", 0);
    run("sysbatch-no-such-command", 1);
    run("/etc/passwd", 0);
    return 0;
}
