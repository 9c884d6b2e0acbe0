/* getuids: the identity calls a daemon makes at start-up, written the plain
 * way.  Eight calls that never fail and take no arguments: the cheapest
 * possible syscalls, so the crossing is most of their cost.
 *
 * With the sysbatch plugin all eight become one batch (one crossing when the
 * kernel has sys_batch); the printed values are the same either way. */
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

int main(void)
{
    uid_t uid = getuid();
    uid_t euid = geteuid();
    gid_t gid = getgid();
    gid_t egid = getegid();
    pid_t pid = getpid();
    pid_t ppid = getppid();
    pid_t pgid = getpgid(0);
    pid_t sid = getsid(0);

    printf("uid=%d euid=%d gid=%d egid=%d\n", (int)uid, (int)euid, (int)gid, (int)egid);
    printf("pid>0:%d ppid>0:%d pgid>0:%d sid>0:%d\n", pid > 0, ppid > 0, pgid > 0, sid > 0);
    return 0;
}
