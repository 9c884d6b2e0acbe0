/* A buffer declared in the branch that follows the first call
 * (`if (fd >= 0) { struct stat st; fstat(fd, &st) ...`, tar's
 * open_output_file, cat's and cp's per-file code): at -O1 and up clang
 * starts st's lifetime inside the branch, after the point where the batch
 * runs fstat.  The pass moves that start up to the batch; these runs check
 * that what the kernel wrote into st is what the code reads, on every path
 * (the branch taken or not, fstat failing, the loop going round). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int check_size = 1;

__attribute__((noinline)) int open_sized(const char *name, long *size)
{
    int fd = open(name, O_RDONLY);
    if (fd >= 0) {
        struct stat st;
        if (fstat(fd, &st) != 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        *size = (long)st.st_size;
    }
    return fd;
}

/* The buffer's scope under a flag read before the batch. */
__attribute__((noinline)) int open_flagged(const char *name, long *size)
{
    int fd = open(name, O_RDONLY);
    if (fd >= 0 && check_size) {
        struct stat st;
        if (fstat(fd, &st) != 0) {
            close(fd);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            close(fd);
            errno = EISDIR;
            return -1;
        }
        *size = (long)st.st_size;
    }
    return fd;
}

/* Every iteration's buffer starts and ends in the loop body. */
__attribute__((noinline)) long total_size(const char *const *names, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++) {
        int fd = open(names[i], O_RDONLY);
        if (fd >= 0) {
            struct stat st;
            if (fstat(fd, &st) == 0)
                total += (long)st.st_size * (i + 1);
            close(fd);
        }
    }
    return total;
}

static void run(const char *what, const char *name)
{
    long size = -1;
    errno = 0;
    int fd = open_sized(name, &size);
    printf("%s sized: fd %s size %ld errno %d\n", what, fd >= 0 ? ">=0" : "-1", size, errno);
    if (fd >= 0)
        close(fd);
    for (check_size = 0; check_size < 2; check_size++) {
        size = -1;
        errno = 0;
        fd = open_flagged(name, &size);
        printf("%s flagged %d: fd %s size %ld errno %d\n", what, check_size,
               fd >= 0 ? ">=0" : "-1", size, errno);
        if (fd >= 0)
            close(fd);
    }
}

int main(void)
{
    FILE *f = fopen("data.txt", "w");
    if (!f)
        return 1;
    fputs("twelve bytes", f);
    fclose(f);
    if (mkdir("subdir", 0755) != 0)
        return 1;
    run("file", "data.txt");
    run("missing", "no-such-file");
    run("dir", "subdir");
    const char *names[] = {"data.txt", "no-such-file", "subdir", "data.txt"};
    printf("total %ld\n", total_size(names, 4));
    return 0;
}
