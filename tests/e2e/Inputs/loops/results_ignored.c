/* Results ignored: descriptors closed in loops of several styles. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

static int global_fds[12];

static void open_some(int *out, int n, const char *tag)
{
    char name[32];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "%s%d", tag, i);
        out[i] = open(name, O_CREAT | O_WRONLY, 0600);
    }
}

static void close_param(const int *fds, int n)
{
    for (int i = 0; i < n; i++)
        close(fds[i]);
    claimed += n;
}

static int still_open(int fd)
{
    return fcntl(fd, F_GETFD) != -1;
}

int main(void)
{
    int stack_fds[10];
    open_some(stack_fds, 10, "s");
    stack_fds[4] = 999;             /* never open: EBADF, ignored */
    errno = 0;
    for (int i = 0; i < 10; i++)
        close(stack_fds[i]);
    claimed += 10;
    int saved = errno;
    printf("stack: errno after loop %d, fd %d open %d\n", saved, stack_fds[0], still_open(stack_fds[0]));

    open_some(global_fds, 12, "g");
    size_t k = 0;
    do
        close(global_fds[k]);
    while (++k < sizeof global_fds / sizeof global_fds[0]);
    claimed += k;
    printf("global: closed %zu, last open %d\n", k, still_open(global_fds[11]));

    int *heap = malloc(9 * sizeof *heap);
    open_some(heap, 9, "h");
    for (int *p = heap; p != heap + 9; ++p)
        close(*p);
    claimed += 9;
    saved = errno;
    printf("heap: errno %d, open %d\n", saved, still_open(heap[8]));
    free(heap);

    int more[7];
    open_some(more, 7, "m");
    close_param(more, 7);
    int first_open = still_open(more[0]);
    printf("param: open %d %d\n", first_open, still_open(more[6]));

    /* Open a run of descriptors above 2, then close downward. */
    int top = -1;
    for (int i = 0; i < 8; i++)
        top = open(".", O_RDONLY);
    claimed += 8;
    printf("top %d\n", top);
    int fd = top + 3;               /* the first three closes fail with EBADF */
    errno = 0;
    while (fd > 2)
        close(fd--);
    claimed += top + 3 - 2;
    saved = errno;
    printf("downward: fd %d errno %d open3 %d\n", fd, saved, still_open(3));

    long lfd = 20;
    while (lfd >= 3) {
        close((int)lfd);
        lfd -= 1;
    }
    claimed += 20 - 2;
    printf("long counter done %ld errno %d\n", lfd, errno);
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
