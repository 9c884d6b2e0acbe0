/* Loops whose only way out is the call's own result: no exit test for the
 * inspector to repeat, so a group's first iteration and its later ones go
 * on to the same place (GCC's loop rewriter crashed building that branch
 * with both ways to one block).  And a read until end of file through a
 * global descriptor, which GCC describes as a load it recomputes rather
 * than an invariant: it must be refused like the local one (each read
 * starts where the previous one stopped, and the loop goes on only on
 * what it returned).
 *
 * Run by tests/e2e/Loop_result_exits.test.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

int input_desc;
static char buf[64];

/* Closes top, top - 1, ... until a close fails: returns the descriptor
 * whose close failed. */
static int close_down(int fd)
{
    while (close(fd) == 0)
        fd--;
    return fd;
}

/* mkdir d0, d1, ... until one exists already. */
static int make_until_exists(char *name)
{
    int i = 0;
    name[1] = '0';
    while (mkdir(name, 0755) == 0)
        name[1] = (char)('0' + ++i);
    return i;
}

static long read_to_end(void)
{
    long n, total = 0;
    while ((n = read(input_desc, buf, sizeof buf)) > 0)
        total += n;
    return n < 0 ? -1 : total;
}

int main(void)
{
    /* Descriptors 20..39 on one file, 19 left closed: 20 closes succeed
     * and the 21st (19) fails. */
    int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);
    for (int k = 0; k < 300; k++)
        write(fd, "0123456789", 10);
    for (int t = 20; t < 40; t++)
        dup2(fd, t);
    close(fd);
    printf("close_down stopped at %d\n", close_down(39));
    claimed += 20;
    printf("closing 39 again: %d\n", close(39));

    mkdir("d5", 0755);
    char name[3] = "d0";
    printf("made %d before one existed\n", make_until_exists(name));

    input_desc = open("data", O_RDONLY);
    printf("read %ld bytes\n", read_to_end());
    close(input_desc);
    input_desc = -1;
    printf("read from a closed descriptor: %ld\n", read_to_end());

    struct stat st;
    for (int i = 0; i < 6; i++) {
        char d[3] = {'d', (char)('0' + i), 0};
        printf("%s: %s\n", d, stat(d, &st) == 0 ? "dir" : "missing");
    }
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
