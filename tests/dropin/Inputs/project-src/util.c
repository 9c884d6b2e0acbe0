/* open, fstat, read, close: one batch under sysbatch. */
#include "util.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

long file_size(const char *path, char *first, unsigned long cap)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return -1;
    }
    long n = read(fd, first, cap);
    close(fd);
    return n < 0 ? -1 : (long)st.st_size;
}
