/* Rule 7 of sysbatch/loop.h for the names later calls read: loops over
 * parameter arrays that keep each result (`fd[i] = open(n[i], ...)`,
 * `rc[i] = stat(n[i], &st[i])`), where nothing proves the stores miss the
 * strings the names point to.  The inspector takes the 4096 bytes the
 * kernel may read from each later name (never reading them) and fills a
 * group only when no store of the group (nor the kernel's write of st[i])
 * meets those bytes.  Called with names and results apart (batched, also
 * with a NULL name among them), with both in one buffer but apart (within
 * 4096 bytes of the names: the group is lost, the original calls run),
 * and with each result stored over the next name (the check fails; the
 * original calls run, each on the name the store before it left). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 20

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

__attribute__((noinline)) static void open_param(const char **n, int *fd,
                                                 int count)
{
    for (int i = 0; i < count; i++)
        fd[i] = open(n[i], O_RDONLY | O_CLOEXEC);
}

__attribute__((noinline)) static void stat_param(const char *const *n, int *rc,
                                                 struct stat *st, size_t count)
{
    for (size_t i = 0; i < count; i++)
        rc[i] = stat(n[i], &st[i]);
}

/* Each iteration stores the next iteration's name into the array the
 * names are loaded from: the inspector's n[j] for a later slot is what the
 * array held before the group, which the original never passes to the
 * kernel (the check fails on those loads, and the inspector must not read
 * through such a pointer before it knows). */
__attribute__((noinline)) static void open_chained(const char **n,
                                                   const char *const *next,
                                                   int *fd, int count)
{
    for (int i = 0; i < count; i++) {
        fd[i] = open(n[i], O_RDONLY | O_CLOEXEC);
        n[i + 1] = next[i];
    }
}

/* Names of four bytes ("a.t" and its NUL): name k at bytes 4k of a buffer
 * lets an int result land exactly on a name. */
static void put_names(char *bytes, const char **n)
{
    for (int k = 0; k < N; k++) {
        memcpy(bytes + 4 * k, "a.t", 4);
        bytes[4 * k] = (char)('a' + k);
        n[k] = bytes + 4 * k;
    }
}

static void report_opens(const char *what, const int *fd)
{
    printf("%s:", what);
    for (int i = 0; i < N; i++) {
        struct stat s;
        printf(" %d", fd[i] >= 0 && fstat(fd[i], &s) == 0 ? (int)s.st_size : -1);
    }
    putchar('\n');
    for (int i = 0; i < N; i++)
        if (fd[i] >= 0)
            close(fd[i]);
}

int main(void)
{
    /* Every other name exists, with a size that tells it apart. */
    for (int k = 0; k < N; k += 2) {
        char name[4] = "a.t";
        name[0] = (char)('a' + k);
        int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0 || write(fd, "0123456789abcdefghijklmn", 1 + k) != 1 + k)
            return 2;
        close(fd);
    }

    static const char *literal[N] = {"a.t", "b.t", "c.t", "d.t", "e.t",
                                     "f.t", "g.t", "h.t", "i.t", "j.t",
                                     "k.t", "l.t", "m.t", "n.t", "o.t",
                                     "p.t", "q.t", "r.t", "s.t", "t.t"};
    int fd[N], rc[N];
    struct stat st[N];
    open_param(literal, fd, N);
    claimed += N;
    report_opens("apart", fd);
    memset(st, 0, sizeof st);
    stat_param(literal, rc, st, N);
    claimed += N;
    for (int i = 0; i < N; i++)
        printf("%d:%lld%c", rc[i], rc[i] == 0 ? (long long)st[i].st_size : -1LL,
               i + 1 < N ? ' ' : '\n');

    /* A NULL name is no bytes for the check (the kernel reads none: the
     * call fails with EFAULT in the batch as in the original). */
    const char *with_null[N];
    memcpy(with_null, literal, sizeof with_null);
    with_null[4] = NULL; /* "e.t", which exists */
    open_param(with_null, fd, N);
    claimed += N;
    report_opens("with a NULL name", fd);

    /* One buffer: the names in its first 80 bytes, the results after. */
    union {
        char bytes[4 * N + 4 * N + 16];
        int words[2 * N + 4];
    } one;
    memset(&one, 0, sizeof one);
    const char *n[N];
    put_names(one.bytes, n);
    open_param(n, &one.words[N + 2], N);
    report_opens("one buffer, apart", &one.words[N + 2]);

    /* Each result over the next name: fd[i] is bytes 4(i+1).. of the
     * buffer, so the original's call i + 1 opens what the store of
     * iteration i left there. */
    memset(&one, 0, sizeof one);
    put_names(one.bytes, n);
    open_param(n, &one.words[1], N - 1);
    printf("overlapping opens:");
    for (int i = 1; i < N; i++)
        printf(" %d", one.words[i] >= 0);
    putchar('\n');
    for (int i = 1; i < N; i++)
        if (one.words[i] > 2)
            close(one.words[i]);
    memset(&one, 0, sizeof one);
    put_names(one.bytes, n);
    stat_param(n, &one.words[1], st, N - 1);
    printf("overlapping stats:");
    for (int i = 1; i < N; i++)
        printf(" %d", one.words[i]);
    putchar('\n');
    /* The names the chain starts from are pointers no string is at. */
    const char *chain[N + 1];
    for (int i = 0; i <= N; i++)
        chain[i] = (const char *)(unsigned long)(8 + i);
    chain[0] = literal[0];
    open_chained(chain, literal + 1, fd, N);
    report_opens("chained", fd);
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
