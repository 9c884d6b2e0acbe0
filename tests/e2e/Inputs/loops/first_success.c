/* Loops that leave early: the first candidate that opens, the first that fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

static const char *cand[] = { "no1", "no2", "nodir/no3", "conf.b", "conf.c", "no4" };
static const char *none[] = { "x1", "x2", "x3" };

static void show(int fd, const char *what)
{
    char buf[32] = { 0 };
    if (fd < 0) {
        printf("%s: none, errno %d\n", what, errno);
        return;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    printf("%s: fd %d read %zd '%s'\n", what, fd, n, buf);
    close(fd);
}

static int first_ret(const char **c, int n)
{
    for (int i = 0; i < n; i++) {
        int fd = open(c[i], O_RDONLY);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

static int first_goto(void)
{
    int fd = -1;
    size_t i;
    for (i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        fd = open(cand[i], O_RDONLY);
        if (fd != -1)
            goto found;
    }
    printf("goto: not found\n");
    return -1;
found:
    claimed += i + 1;
    printf("goto: found at %zu\n", i);
    return fd;
}

static int make_dirs(const char **d, int n)
{
    int i = 0;
    do {
        if (mkdir(d[i], 0755) < 0)
            return i;
    } while (++i < n);
    return n;
}

int main(void)
{
    int fd = open("conf.b", O_CREAT | O_WRONLY, 0644);
    write(fd, "bee", 3);
    close(fd);
    fd = open("conf.c", O_CREAT | O_WRONLY, 0644);
    write(fd, "sea", 3);
    close(fd);

    int i;
    for (i = 0; i < 6; i++) {
        fd = open(cand[i], O_RDONLY);
        if (fd >= 0)
            break;
    }
    printf("break at %d\n", i);
    show(fd, "break");

    for (i = 0; i < 3; i++) {
        fd = open(none[i], O_RDONLY);
        if (fd >= 0)
            break;
    }
    printf("none: i %d\n", i);
    show(fd, "none");

    show(first_ret(cand, 6), "return");
    show(first_ret(none, 3), "return none");
    show(first_goto(), "goto");

    const char *dirs[] = { "d1", "d2", "d3", "d2", "d4", "d5" };
    errno = 0;
    int made = make_dirs(dirs, 6);
    printf("made %d errno %d\n", made, errno);
    const char *dirs2[] = { "e1", "e2", "e3" };
    made = make_dirs(dirs2, 3);
    printf("made %d\n", made);

    /* while with the search condition in the test */
    int k = 0;
    while (k < 6 && (fd = open(cand[k], O_RDONLY)) < 0)
        k++;
    printf("while: k %d\n", k);
    show(fd, "while");
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
