/* The caller half of the LTO tests: size_of's open, fstat and closes sit
 * in wrappers of another unit (lto_wrappers.c), so only a look after
 * link-time inlining sees them together.  Prints the size of the file
 * named by argv[1] (or -1 when fstat fails). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int xopen(const char *name, int flags);
int xclose(int fd);
static long size_of(const char *name)
{
    struct stat st;
    int fd = xopen(name, O_RDONLY);
    if (fstat(fd, &st) < 0) {
        xclose(fd);
        return -1;
    }
    xclose(fd);
    return (long)st.st_size;
}
int main(int argc, char **argv)
{
    printf("size %ld\n", size_of(argc > 1 ? argv[1] : argv[0]));
    return 0;
}
