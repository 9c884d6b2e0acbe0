/* Spot check of the GCC join split in gnulib's stackvma.c (rof_open, as m4
 * 1.4.19 builds it): a buffer that grows by munmap of the old mapping and
 * mmap of a larger one, where mmap's block is a join of the first-growth
 * path (no munmap) and the later-growth path (munmap first).  The file is
 * made large enough that the buffer grows three times. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LEFTOVER 4169

struct grow_reader {
    size_t filled;
    char *buffer;
    char *map;
    size_t map_length;
    char small[1024];
};

static int read_whole(struct grow_reader *r, const char *name)
{
    size_t pagesize = 0, size = sizeof r->small;
    int fd = open(name, O_RDONLY);
    if (fd < 0)
        return -1;
    r->buffer = r->small;
    r->map = NULL;
    r->map_length = 0;
    for (;;) {
        if (size > LEFTOVER) {
            r->filled = 0;
            for (;;) {
                ssize_t n = read(fd, r->buffer + r->filled, size - r->filled);
                if (n < 0) {
                    if (errno == EINTR)
                        continue;
                    goto fail;
                }
                if ((size_t)n + LEFTOVER > size - r->filled)
                    break;
                if (n == 0) {
                    close(fd);
                    return 0;
                }
                r->filled += n;
            }
        }
        if (pagesize == 0) {
            pagesize = getpagesize();
            size = pagesize;
            while (size <= LEFTOVER)
                size *= 2;
        } else {
            size *= 2;
            if (size == 0)
                goto fail;
            if (r->map != NULL)
                munmap(r->map, r->map_length);
        }
        r->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
        if (r->map == MAP_FAILED) {
            close(fd);
            return -1;
        }
        r->map_length = size;
        r->buffer = r->map;
        if (lseek(fd, 0, SEEK_SET) < 0) {
            close(fd);
            fd = open(name, O_RDONLY);
            if (fd < 0)
                return -1;
        }
    }
fail:
    close(fd);
    return -1;
}

int main(void)
{
    static char line[100];
    FILE *f = fopen("data", "w");
    if (!f)
        return 1;
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (int i = 0; i < 300; i++)
        fwrite(line, 1, sizeof line, f);
    fclose(f);
    struct grow_reader r;
    int rc = read_whole(&r, "data");
    printf("rc %d filled %zu length %zu last %c\n", rc, r.filled, r.map_length,
           r.filled ? r.buffer[r.filled - 2] : '-');
    rc = read_whole(&r, "missing");
    printf("missing: rc %d\n", rc);
    return 0;
}
