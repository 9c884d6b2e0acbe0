/* Reduced from gnulib's lib/stackvma.c (rof_open, as diffutils 3.8 builds
 * it): a read-until-end-of-file loop whose buffer pointer is loaded from
 * the same struct in every iteration, read(fd, rof->buffer + rof->filled,
 * size - rof->filled).  The GCC plugin's loop inspector asked whether read
 * writes the memory of that load, which classified the buffer argument
 * again, which is computed from the load: it recursed until cc1 crashed.
 * The loop must not batch (each read starts where the last one stopped);
 * the program must build and behave as the unplugged one. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

struct rofile {
    size_t filled;
    char *buffer;
    char space[64];
};

static int fill(struct rofile *rof, int fd, size_t size)
{
    for (;;) {
        ssize_t n = read(fd, rof->buffer + rof->filled, size - rof->filled);
        if (n < 0)
            return -1;
        if (n == 0)
            return 0;
        rof->filled += n;
    }
}

int main(void)
{
    struct rofile rof = {0, rof.space, {0}};
    int fd = open("data", O_RDONLY);
    if (fd < 0)
        return 1;
    int rc = fill(&rof, fd, sizeof rof.space - 1);
    close(fd);
    printf("fill %d filled %zu: %s\n", rc, rof.filled, rof.buffer);
    return 0;
}
