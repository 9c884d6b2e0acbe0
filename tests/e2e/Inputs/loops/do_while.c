/* do-while loops: the test comes after the call. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

static int table[20];
static const char *names[] = { "f0", "f1", "missing", "f3", "f4", "f5", "f6", "f7", "f8", "f9" };

static int open_all(int *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = open(".", O_RDONLY);
    claimed += n;
    return out[n - 1];
}

int main(void)
{
    for (int i = 0; i < 10; i++)
        if (i != 2)
            close(open(names[i], O_CREAT | O_WRONLY, 0600));

    open_all(table, 20);
    size_t k = 0;
    do
        close(table[k]);
    while (++k < sizeof table / sizeof table[0]);
    claimed += k;
    printf("closed %zu open %d\n", k, fcntl(table[0], F_GETFD) != -1);

    /* the test on the counter's old value: one more iteration */
    open_all(table, 20);
    int j = 0;
    do {
        close(table[j]);
    } while (j++ < 18);
    claimed += j;
    printf("j %d last open %d\n", j, fcntl(table[19], F_GETFD) != -1);

    /* pointer walk to an end pointer */
    open_all(table, 17);
    int *p = table;
    int *end = table + 17;
    do
        close(*p++);
    while (p != end);
    printf("pointer done %d\n", (int)(p - table));

    /* counting down */
    struct stat st;
    long total = 0;
    int n = 10;
    do {
        n--;
        if (stat(names[n], &st) == 0)
            total += st.st_ino != 0;
    } while (n > 0);
    printf("stat found %ld errno %d\n", total, errno);

    /* do-while that leaves on the first failure */
    int u = 0;
    do {
        if (unlink(names[u]) != 0)
            break;
    } while (++u < 10);
    printf("unlinked up to %d errno %d\n", u, errno);
    int left = 0;
    u = 0;
    do
        left += access(names[u], F_OK) == 0;
    while (++u < 10);
    claimed += 10;
    printf("left %d\n", left);

    /* do-while with a bound in a variable and an after-call test on it */
    int limit = 7, m = 0, rcs[10];
    do
        rcs[m] = rmdir(names[m]);
    while (++m < limit);
    claimed += 7;
    printf("rmdir %d %d %d errno %d\n", rcs[0], rcs[3], rcs[6], errno);
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
