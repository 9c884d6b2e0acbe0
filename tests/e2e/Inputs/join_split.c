/* Join-block splits (sysbatch/cfg.h, "join splits"): cat.c's per-file
 * code, where fstat's fd is stdin or open's result, and cp's pair of
 * checked closes, whose failure path calls a barrier before the join.
 * The program runs every path: a file, stdin, a missing file (open fails),
 * stdin closed (the unsplit fstat fails), and closes that fail first,
 * second or not at all; the cat-like loop once more with the descriptor in
 * a static, as coreutils' cat keeps it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[4096];

static int cat_one(const char *infile)
{
    struct stat st;
    int input_desc;
    int reading_stdin = strcmp(infile, "-") == 0;
    if (reading_stdin)
        input_desc = STDIN_FILENO;
    else {
        input_desc = open(infile, O_RDONLY);
        if (input_desc < 0) {
            printf("open %s: errno %d\n", infile, errno);
            return 0;
        }
    }
    if (fstat(input_desc, &st) < 0) {
        printf("fstat %s: errno %d\n", infile, errno);
        if (!reading_stdin)
            close(input_desc);
        return 0;
    }
    long n, total = 0;
    while ((n = read(input_desc, buf, sizeof buf)) > 0)
        total += n;
    printf("%s: size %ld read %ld\n", infile, (long)st.st_size, total);
    if (!reading_stdin && close(input_desc) < 0)
        return 0;
    return 1;
}

/* fd = name ? open(name, ...) : 0; ... fstat(fd) with the check on open's
 * path only. */
static long size_or_stdin(const char *name)
{
    struct stat st;
    int fd = 0;
    if (name) {
        fd = open(name, O_RDONLY);
        if (fd < 0)
            return -1000 - errno;
    }
    if (fstat(fd, &st) < 0)
        return -2000 - errno;
    if (name)
        close(fd);
    return (long)st.st_size;
}

static void report(const char *what)
{
    printf("%s failed: errno %d\n", what, errno);
}

/* copy.c's closes: the error path calls a barrier and joins the second
 * close. */
static int close_pair(int dest, int source)
{
    int ok = 1;
    if (close(dest) < 0) {
        report("close dest");
        ok = 0;
    }
    if (close(source) < 0) {
        report("close source");
        ok = 0;
    }
    return ok;
}

/* coreutils cat's own loop keeps the name and the descriptor in statics:
 * each arm stores the descriptor, and fstat takes it by a reload of the
 * static after the join, which GCC keeps (clang -O2's GVN turns it into a
 * phi).  Built with -D_FORTIFY_SOURCE=2 too (Join_split.test), as
 * coreutils' config.h does: open is then glibc's inline wrapper. */
static const char *cur_name;
static int cur_desc;

static int cat_statics(int argc, char **argv)
{
    struct stat st;
    int ok = 1;
    int i = 0;
    do {
        cur_name = argv[i];
        int reading_stdin = strcmp(cur_name, "-") == 0;
        if (reading_stdin)
            cur_desc = STDIN_FILENO;
        else {
            cur_desc = open(cur_name, O_RDONLY);
            if (cur_desc < 0) {
                printf("statics: open %s: errno %d\n", cur_name, errno);
                ok = 0;
                continue;
            }
        }
        if (fstat(cur_desc, &st) < 0) {
            printf("statics: fstat %s: errno %d\n", cur_name, errno);
            ok = 0;
            goto next;
        }
        int fd = cur_desc;
        long n, total = 0;
        while ((n = read(fd, buf, sizeof buf)) > 0)
            total += n;
        printf("statics: %s: size %ld read %ld\n", cur_name,
               (long)st.st_size, total);
    next:
        if (!reading_stdin && close(cur_desc) < 0) {
            printf("statics: close %s: errno %d\n", cur_name, errno);
            ok = 0;
        }
    } while (++i < argc);
    return ok;
}

int main(int argc, char **argv)
{
    FILE *f = fopen("in.txt", "w");
    fputs("twelve bytes", f);
    fclose(f);
    int in = open("in.txt", O_RDONLY);
    dup2(in, STDIN_FILENO);
    close(in);
    int ok = 1;
    for (int i = 1; i < argc; i++)
        ok &= cat_one(argv[i]);
    ok &= cat_statics(argc - 1, argv + 1);
    printf("size in.txt %ld\n", size_or_stdin("in.txt"));
    printf("size missing %ld\n", size_or_stdin("missing.txt"));
    printf("size stdin %ld\n", size_or_stdin(NULL));
    int a = open("in.txt", O_RDONLY), b = open("in.txt", O_RDONLY);
    printf("pair 1 %d\n", close_pair(a, b));
    b = open("in.txt", O_RDONLY);
    printf("pair 2 %d\n", close_pair(a, b));
    a = open("in.txt", O_RDONLY);
    printf("pair 3 %d\n", close_pair(a, b));
    printf("pair 4 %d\n", close_pair(a, b));
    close(STDIN_FILENO);
    ok &= cat_one("-");
    char *closed_stdin[] = {"-", "in.txt"};
    ok &= cat_statics(2, closed_stdin);
    printf("size closed stdin %ld\n", size_or_stdin(NULL));
    return !ok;
}
