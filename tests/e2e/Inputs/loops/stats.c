/* One buffer every iteration shares (struct stat st; if (lstat(p[i], &st)
 * == 0) total += st.st_size), stat into a buffer per iteration, and the
 * first name that opens (the loop breaks on success, so the later opens
 * must never run: the strace comparison sees them). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const paths[] = {
    "a", "b", "nope", "c", "d", "e", "f", "g", "h", "i", "j", "k",
    "l", "m", "n", "o", "p", "q", "r", "link", "dir", "s", "t", "u",
};
#define N ((int)(sizeof paths / sizeof paths[0]))

static const char *const candidates[] = {
    "none1", "none2", "none3", "none4", "none5", "e", "f", "g", "h", "i",
};
#define NCAND ((int)(sizeof candidates / sizeof candidates[0]))

static long shared_buffer_total(int *found)
{
    struct stat st;
    long total = 0;
    *found = 0;
    for (int i = 0; i < N; i++)
        if (lstat(paths[i], &st) == 0) {
            total += st.st_size + (S_ISLNK(st.st_mode) ? 1000 : 0);
            (*found)++;
        }
    return total;
}

static int first_that_opens(void)
{
    int fd = -1, i;
    for (i = 0; i < NCAND; i++) {
        fd = open(candidates[i], O_RDONLY);
        if (fd >= 0)
            break;
    }
    printf("first: %s (errno of the last miss %d)\n", i < NCAND ? candidates[i] : "-",
           errno);
    return fd;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        if (!strcmp(paths[i], "nope") || !strcmp(paths[i], "link") ||
            !strcmp(paths[i], "dir"))
            continue;
        FILE *f = fopen(paths[i], "w");
        if (!f)
            return 2;
        fprintf(f, "%*s", 2 * i + 1, "y");
        fclose(f);
    }
    if (symlink("a", "link") != 0 || mkdir("dir", 0755) != 0)
        return 2;

    int found;
    long total = shared_buffer_total(&found);
    printf("lstat: %d found, total %ld\n", found, total);

    struct stat each[N];
    int rc[N];
    for (int i = 0; i < N; i++)
        rc[i] = stat(paths[i], &each[i]);
    for (int i = 0; i < N; i++)
        printf("%s: %d %ld %o\n", paths[i], rc[i], rc[i] ? -1L : (long)each[i].st_size,
               rc[i] ? 0u : (unsigned)(each[i].st_mode & 0777));

    int fd = first_that_opens();
    if (fd >= 0)
        close(fd);
    return 0;
}
