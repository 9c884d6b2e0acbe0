/* Results kept per iteration, with errno stored after each failure. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

static const char *names[] = { "a.txt", "missing1", "b.txt", "c.txt", "nodir/x", "a.txt", "d.txt", "e.txt" };
#define N (sizeof names / sizeof names[0])

static void setup(void)
{
    const char *mk[] = { "a.txt", "b.txt", "c.txt", "d.txt", "e.txt" };
    for (int i = 0; i < 5; i++) {
        int fd = open(mk[i], O_CREAT | O_WRONLY | O_TRUNC, 0644);
        write(fd, "0123456789abcdef", 3 + 2 * i);
        close(fd);
    }
}

static void stat_param(const char *const *n, int *rc, struct stat *st, size_t count)
{
    for (size_t i = 0; i < count; i++)
        rc[i] = stat(n[i], &st[i]);
}

static void open_param(const char **n, int *fd, int count)
{
    int i = 0;
    while (i < count) {
        fd[i] = open(n[i], O_RDONLY);
        i++;
    }
}

int main(void)
{
    setup();
    int fd[N];
    int err[N];
    for (size_t i = 0; i < N; i++) {
        fd[i] = open(names[i], O_RDONLY);
        err[i] = fd[i] < 0 ? errno : 0;
    }
    claimed += N;
    for (size_t i = 0; i < N; i++) {
        char c = '?';
        if (fd[i] >= 0 && read(fd[i], &c, 1) != 1)
            c = '!';
        printf("open %s -> %d errno %d first %c\n", names[i], fd[i], err[i], c);
    }
    for (size_t i = 0; i < N; i++)
        if (fd[i] >= 0)
            close(fd[i]);

    int rc[N];
    struct stat st[N];
    memset(st, 0, sizeof st);
    for (long i = 0; i < (long)N; i++)
        rc[i] = stat(names[i], &st[i]);
    claimed += N;
    for (size_t i = 0; i < N; i++)
        printf("stat %s -> %d size %lld\n", names[i], rc[i], rc[i] == 0 ? (long long)st[i].st_size : -1LL);

    int *hrc = malloc(N * sizeof *hrc);
    struct stat *hst = calloc(N, sizeof *hst);
    /* Batched under rule 7's run-time check even where nothing proves
     * the stores miss the names (-O0; both parameters): the inspector
     * measures each later name. */
    stat_param(names, hrc, hst, N);
    claimed += N;
    for (size_t i = 0; i < N; i++)
        printf("param stat %zu -> %d %lld\n", i, hrc[i], (long long)hst[i].st_size);

    int *hfd = malloc(N * sizeof *hfd);
    errno = 0;
    open_param(names, hfd, N);
    claimed += N;
    printf("errno after param opens %d\n", errno);
    for (size_t i = 0; i < N; i++) {
        struct stat s;
        int frc = hfd[i] >= 0 ? fstat(hfd[i], &s) : -2;
        printf("param open %zu -> %d fstat %d\n", i, hfd[i] >= 0, frc);
    }
    printf("calls in batched loops: %ld\n", claimed);
    free(hrc); free(hst); free(hfd);
    return 0;
}
