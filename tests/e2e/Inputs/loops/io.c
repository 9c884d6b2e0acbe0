/* pread at computed offsets into one buffer (copied back by the result's
 * byte count, the last read short), and a message written in several parts
 * (if (write(...) < 0) return -1). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct part {
    const char *p;
    size_t len;
};

static int write_parts(int fd, const struct part *parts, int n)
{
    for (int i = 0; i < n; i++)
        if (write(fd, parts[i].p, parts[i].len) < 0)
            return -1;
    return 0;
}

static unsigned long checksum_blocks(int fd, int nblocks)
{
    char buf[64];
    unsigned long sum = 0;
    for (int b = 0; b < nblocks; b++) {
        ssize_t n = pread(fd, buf, sizeof buf, (off_t)b * 100);
        if (n < 0)
            return 0;
        for (ssize_t k = 0; k < n; k++)
            sum = sum * 31 + (unsigned char)buf[k];
        sum += (unsigned long)n;
    }
    return sum;
}

int main(void)
{
    static const struct part parts[] = {
        {"alpha ", 6}, {"bravo ", 6}, {"charlie ", 8}, {"delta ", 6},
        {"echo ", 5},  {"foxtrot ", 8}, {"golf ", 5}, {"hotel ", 6},
        {"india ", 6}, {"juliett ", 8}, {"kilo ", 5}, {"lima\n", 5},
    };
    int fd = open("parts.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 2;
    int rc = write_parts(fd, parts, (int)(sizeof parts / sizeof parts[0]));
    close(fd);
    printf("write_parts %d\n", rc);
    printf("to a closed fd %d\n", write_parts(fd, parts, 3));

    fd = open("blocks", O_RDWR | O_CREAT | O_TRUNC, 0644);
    for (int i = 0; i < 1030; i++) {
        char c = (char)('a' + i % 26);
        if (write(fd, &c, 1) != 1)
            return 2;
    }
    printf("checksum %lu\n", checksum_blocks(fd, 12));
    close(fd);
    return 0;
}
