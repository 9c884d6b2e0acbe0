/* checked_cat: print a file the careful way, checking every result as real
 * code does:
 *
 *     fd = open(p, O_RDONLY);
 *     if (fd < 0) { perror(p); return -1; }
 *     if (fstat(fd, &st) < 0) { close(fd); return -1; }
 *     n = read(fd, buf, ...);
 *     close(fd);
 *
 * Straight-line batching stops at the first `if`.  With forward jumps the
 * open, the fstat, and the close on fstat's error path form one batch: the
 * slots' three-way jumps (< 0, == 0, > 0) follow the same `if`s the code
 * takes afterwards, and a call the kernel skipped is a call the program
 * does not make.  perror() is ordinary code, so open's error path leaves the
 * batch.  read's count is computed from st.st_size, so read runs on its own
 * after the batch (a word copy carries a value only when the argument is
 * exactly that load).
 *
 * usage: checked_cat [path]     (default: checked_cat.txt) */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int cat(const char *p)
{
    char buf[512];
    struct stat st;
    int fd = open(p, O_RDONLY);
    if (fd < 0) {
        perror(p);
        return -1;
    }
    if (fstat(fd, &st) < 0) {
        close(fd);
        return -1;
    }
    ssize_t n = read(fd, buf, st.st_size < (off_t)sizeof buf ? (size_t)st.st_size : sizeof buf);
    close(fd);
    if (n < 0)
        return -1;
    fwrite(buf, 1, (size_t)n, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "checked_cat.txt";
    int rc = cat(path);
    printf("cat: %d\n", rc);
    return rc == 0 ? 0 : 1;
}
