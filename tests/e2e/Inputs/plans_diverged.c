/* Shapes on which the two front ends used to plan differently (issue: one
 * policy, case 4); both now follow one rule each (docs/design.md):
 *   - copy_owner: loads between two calls (sb->st_mode, then st_uid and
 *     st_gid) are made again where the batch is issued, since neither the
 *     kernel side of fchmod nor any code in between can change them;
 *   - size_of: `struct stat st` declared between open and fstat (clang -O2
 *     marks it with llvm.lifetime.start, which touches no memory anyone
 *     can observe); copy_owner_changed stores to what the second load
 *     reads, so that load stays where it is (arg-computed);
 *   - in_setjmp: a function that calls a returns-twice function batches
 *     nothing (a second return could land between a batch and its call
 *     sites); vfork, the other one, is in plans_vfork.c, since GCC ends a
 *     block at every returns-twice call and so numbers blocks differently. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

int copy_owner(int fd, const struct stat *sb)
{
    int a = fchmod(fd, sb->st_mode & 07777);
    int b = fchown(fd, sb->st_uid, sb->st_gid);
    return a * 10 + b;
}

/* The store between the calls changes what the second load reads: that
 * load cannot move to the issue point. */
int copy_owner_changed(int fd, struct stat *sb)
{
    int a = fchmod(fd, sb->st_mode & 07777);
    sb->st_gid = sb->st_uid;
    int b = fchown(fd, sb->st_uid, sb->st_gid);
    return a * 10 + b;
}

long size_of(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    int r = fstat(fd, &st);
    close(fd);
    return r == 0 ? (long)st.st_size : -1L;
}

static jmp_buf env;

int in_setjmp(void)
{
    if (setjmp(env))
        return -1;
    return getpid() == getpid() && getppid() == getppid();
}

int main(void)
{
    int fd = open("f", O_CREAT | O_WRONLY | O_TRUNC, 0600);
    struct stat sb;
    if (fd < 0 || write(fd, "0123456789", 10) != 10 || fstat(fd, &sb) != 0)
        return 1;
    sb.st_mode = 0640;
    printf("copy_owner %d\n", copy_owner(fd, &sb));
    sb.st_mode = 0604;
    sb.st_uid = getuid();
    printf("copy_owner_changed %d\n", copy_owner_changed(fd, &sb));
    close(fd);
    struct stat now;
    stat("f", &now);
    printf("mode %o\n", (unsigned)(now.st_mode & 07777));
    long present = size_of("f"); /* in order: gcc and clang evaluate */
    long missing = size_of("missing"); /* printf's arguments differently */
    printf("size_of %ld %ld\n", present, missing);
    printf("in_setjmp %d\n", in_setjmp());
    return 0;
}
