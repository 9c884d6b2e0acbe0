/* Linked-list walks (rule 10 of sysbatch/loop.h) run plugged and
 * unplugged: the functions are those whose plans tests/{llvm,gcc}/
 * Loop_lists.test check (loop-plans/lists.c, included, not copied).
 * Lists longer than a group (16) and shorter, an empty list, nodes
 * scattered in one array out of list order, closed and negative
 * descriptors in the middle (EBADF must reach each call site in order),
 * missing names (ENOENT), a failure that is only counted, a node that
 * marks the end before the list does, and a walk whose loop stores into
 * the next node's field the next call reads (the run-time check must fail
 * and the original calls run, each on what the store before it left).
 * Prints every result and errno; the files are compared by the harness. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../loop-plans/lists.c"

#define N 40

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

void report(const char *name)
{
    printf("cannot unlink %s: errno %d\n", name, errno);
}

/* Each iteration stores -1 into the next node's descriptor, which the
 * next call closes: the inspector's later descriptors are what the nodes
 * held before the group, which the original never passes to the kernel. */
__attribute__((noinline)) static void close_and_spoil(struct node *head)
{
    for (struct node *p = head; p; p = p->next) {
        close(p->fd);
        if (p->next)
            p->next->fd = -1;
    }
}

/* Nodes in `pool`, linked in the order `order` gives (scattered). */
static struct node *link_nodes(struct node *pool, int n, int stride)
{
    struct node *head = NULL;
    for (int k = n - 1; k >= 0; k--) {
        struct node *p = &pool[(k * stride) % n];
        p->next = head;
        p->last = 0;
        head = p;
    }
    return head;
}

static void open_fds(struct node *pool, int n)
{
    for (int k = 0; k < n; k++)
        pool[k].fd = open("data", O_RDONLY | O_CLOEXEC);
}

static int count_open(struct node *pool, int n)
{
    int open_now = 0;
    for (int k = 0; k < n; k++)
        open_now += fcntl(pool[k].fd, F_GETFD) >= 0;
    return open_now;
}

int main(void)
{
    int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "list walks\n", 11) != 11)
        return 2;
    close(fd);

    static struct node pool[N];

    /* close_all over 40 scattered nodes (stride 7), then 5, then none. */
    open_fds(pool, N);
    close_all(link_nodes(pool, N, 7));
    claimed += N;
    printf("close_all 40: %d left open\n", count_open(pool, N));
    open_fds(pool, 5);
    close_all(link_nodes(pool, 5, 2));
    claimed += 5;
    printf("close_all 5: %d left open\n", count_open(pool, 5));
    close_all(NULL);

    /* close_open: every third descriptor negative (skipped by the guard),
     * one already closed (EBADF from its own call). */
    open_fds(pool, N);
    for (int k = 0; k < N; k += 3) {
        close(pool[k].fd);
        pool[k].fd = -1 - k;
    }
    close(pool[4].fd);
    close_open(link_nodes(pool, N, 1));
    claimed += N - (N + 2) / 3;
    printf("close_open: %d left open, errno %d\n", count_open(pool, N), errno);

    /* stat_all over names that exist and do not: literals, far from the
     * entries on the stack (the check measures 4096 bytes from each later
     * name against the stores of each result and stat's buffers). */
    static const char *const pick[2] = {"data", "missing"};
    struct entry ents[N];
    static char names[N][16];
    struct entry *head = NULL;
    for (int k = N - 1; k >= 0; k--) {
        ents[k].name = pick[k % 5 == 3];
        ents[k].rc = 99;
        ents[k].next = head;
        head = &ents[k];
    }
    errno = 0;
    stat_all(head);
    claimed += N;
    for (int k = 0; k < N; k++)
        printf("%s%d:%ld", k ? " " : "stat_all: ", ents[k].rc,
               ents[k].rc == 0 ? (long)ents[k].st.st_size : -1L);
    printf(" errno %d\n", errno);
    stat_all(NULL);

    /* unlink_all: files f0..f19, every fourth missing (report, in order). */
    for (int k = 0; k < 20; k++) {
        snprintf(names[k], sizeof names[k], "f%d", k);
        if (k % 4 != 1) {
            int f = open(names[k], O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (f >= 0)
                close(f);
        }
        ents[k].name = names[k];
        ents[k].next = k + 1 < 20 ? &ents[k + 1] : NULL;
    }
    unlink_all(&ents[0]);

    /* unlink_counting: the same names again, now half of them gone. */
    for (int k = 0; k < 20; k += 2) {
        int f = open(names[k], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (f >= 0)
            close(f);
    }
    errno = 0;
    int failed = unlink_counting(&ents[0]);
    claimed += 20;
    printf("unlink_counting: %d failed, errno %d\n", failed, errno);

    /* close_until_failure: stops at the closed descriptor. */
    open_fds(pool, 10);
    close(pool[6].fd);
    errno = 0;
    int n = close_until_failure(link_nodes(pool, 10, 3));
    printf("close_until_failure: %d closed, errno %d, %d left open\n", n,
           errno, count_open(pool, 10));

    /* close_to_last: the sixth node marks the end. */
    open_fds(pool, 10);
    struct node *list = link_nodes(pool, 10, 1);
    pool[5].last = 1;
    close_to_last(list);
    printf("close_to_last: %d left open\n", count_open(pool, 10));
    close_all(list);

    /* close_and_spoil: only the first call closes a real descriptor. */
    open_fds(pool, 20);
    int keep[20];
    for (int k = 0; k < 20; k++)
        keep[k] = pool[k].fd;
    errno = 0;
    close_and_spoil(link_nodes(pool, 20, 1));
    int still = 0;
    for (int k = 0; k < 20; k++)
        still += fcntl(keep[k], F_GETFD) >= 0;
    printf("close_and_spoil: %d still open, errno %d\n", still, errno);
    for (int k = 0; k < 20; k++)
        close(keep[k]);

    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
