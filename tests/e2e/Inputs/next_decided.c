/* A call left alone because the look before inlining (placement=both)
 * batched the calls after it without it: the store to gst.st_size must
 * stay before fstat writes gst, so open cannot join fstat and close.  The
 * look after inlining finds no candidate after open - fstat and close are
 * decided - and says so (next-decided), not that no call follows. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct stat gst;

int open_cleared(const char *name, long *size)
{
    int fd = open(name, O_RDONLY);
    if (fd >= 0) {
        gst.st_size = 7;
        if (fstat(fd, &gst) != 0) {
            close(fd);
            return -1;
        }
        *size = gst.st_size;
    }
    return fd;
}
