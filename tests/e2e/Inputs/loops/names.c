/* mkdir, rmdir and unlink over lists of names; a failure prints a
 * diagnostic (code the next call may not move above: the failing class
 * stops the batch) and the loop goes on. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const dirs[] = {
    "d0", "d1", "d2", "d3", "d1", "d5", "d6", "d7", "d8", "d9", "d10", "d11",
};
#define NDIRS ((int)(sizeof dirs / sizeof dirs[0]))

static const char *const files[] = {
    "u0", "u1", "u2", "gone", "u4", "u5", "u6", "u7", "u8", "u9",
};
#define NFILES ((int)(sizeof files / sizeof files[0]))

static int make_dirs(void)
{
    int failed = 0;
    for (int i = 0; i < NDIRS; i++)
        if (mkdir(dirs[i], 0750) < 0) {
            printf("mkdir %s: %s\n", dirs[i], strerror(errno));
            failed++;
        }
    return failed;
}

static void remove_files(void)
{
    for (int i = 0; i < NFILES; i++)
        unlink(files[i]);
}

static int remove_dirs(void)
{
    int removed = 0;
    for (int i = NDIRS - 1; i >= 0; i--)
        if (rmdir(dirs[i]) == 0)
            removed++;
    return removed;
}

int main(void)
{
    for (int i = 0; i < NFILES; i++)
        if (strcmp(files[i], "gone")) {
            int fd = open(files[i], O_WRONLY | O_CREAT, 0600);
            if (fd < 0)
                return 2;
            close(fd);
        }
    printf("mkdir failures %d\n", make_dirs());
    remove_files();
    printf("after unlink: access u4 %d\n", access("u4", F_OK));
    if (mkdir("d3/keep", 0700) != 0)
        return 2;
    printf("rmdir removed %d\n", remove_dirs());
    return 0;
}
