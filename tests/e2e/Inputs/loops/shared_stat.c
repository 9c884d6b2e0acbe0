/* One struct stat shared by every iteration, read after each call. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

static const char *paths[] = { "one", "two", "ghost", "three", "link", "dangling", "dir", "four", "gone", "one" };

static void mkfile(const char *name, int bytes)
{
    int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0640);
    claimed += bytes > 0 ? bytes : 0;
    while (bytes-- > 0)
        write(fd, "x", 1);
    close(fd);
}

static long long total_param(const char **p, int n, int *missing)
{
    struct stat st;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (lstat(p[i], &st) == 0)
            total += st.st_size;
        else if (errno == ENOENT)
            ++*missing;
    }
    return total;
}

int main(void)
{
    mkfile("one", 5);
    mkfile("two", 11);
    mkfile("three", 2);
    mkfile("four", 7);
    symlink("one", "link");
    symlink("nowhere", "dangling");
    mkdir("dir", 0700);

    struct stat st;
    long long total = 0;
    int files = 0, links = 0, dirs = 0;
    for (unsigned i = 0; i < sizeof paths / sizeof *paths; i++)
        if (lstat(paths[i], &st) == 0) {
            total += st.st_size;
            if (S_ISREG(st.st_mode)) files++;
            else if (S_ISLNK(st.st_mode)) links++;
            else if (S_ISDIR(st.st_mode)) dirs++;
        }
    claimed += sizeof paths / sizeof *paths;
    printf("lstat total %lld files %d links %d dirs %d (dir size counted)\n", total, files, links, dirs);

    int missing = 0;
    long long t2 = total_param(paths, 10, &missing);
    printf("param total %lld missing %d\n", t2, missing);

    /* stat follows links: the dangling one fails. */
    long long biggest = -1;
    const char *which = "none";
    const char **p = paths;
    while (p < paths + 10) {
        if (stat(*p, &st) == 0 && st.st_size > biggest) {
            biggest = st.st_size;
            which = *p;
        }
        p++;
    }
    claimed += 10;
    printf("biggest %s %lld errno %d\n", which, biggest, errno);

    /* The last result and errno are used after the loop. */
    int rc = 0;
    for (int i = 0; i < 9; i++)
        rc = lstat(paths[i], &st);
    claimed += 9;
    printf("last rc %d errno %d\n", rc, errno);
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
