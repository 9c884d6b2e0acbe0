/* Writes of several parts with strlen as the count (rule 8) and loops
 * whose only writes to what the inspector reads come after a failed call
 * (rule 9: a diagnostic that names the file), run from the one file whose
 * plans tests/{llvm,gcc}/Loop_stop_paths.test check.  Every write goes to
 * one file (compared by the harness), once to a closed descriptor; mkdir
 * meets a directory that is already there (the printf after the failure,
 * the group stops, the next iteration refills) and, the second time, only
 * directories that are; unlink meets a name that is not there, and once
 * a failure that changes the next name; unlink skips "." and ".." by a
 * strcmp the inspector repeats.  Prints every result and errno. */
#include <errno.h>
#include <fcntl.h>

#include "../loop-plans/stop_paths.c"

/* The calls of the loops every plugged build batches (tests/tools/
 * sbcompare.py --expect-calls-printed checks that at least these ran
 * inside batches): write_ignored's, write_all_strings', make_dirs' and
 * remove_but_dots'. */
static long claimed;

int main(void)
{
    int fd = open("parts.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return 2;
    long wrote = write_ignored(fd, 40);
    claimed += 40;
    printf("write_ignored %ld\n", wrote);
    printf("write_checked %d\n", write_checked(fd));
    errno = 0;
    int bad = write_checked(77);
    printf("write_checked to a bad fd %d errno %d\n", bad, errno);

    const char *strs[] = {"alpha ", "", "charlie ", "delta\n", "e", "foxtrot\n"};
    printf("write_strings %d\n", write_strings(fd, strs, 6));
    errno = 0;
    bad = write_strings(77, strs, 6);
    printf("write_strings to a bad fd %d errno %d\n", bad, errno);
    printf("write_all_strings %ld\n", write_all_strings(fd, strs, 6));
    claimed += 6;
    errno = 0;
    wrote = write_all_strings(77, strs, 3);
    printf("write_all_strings to a bad fd %ld errno %d\n", wrote, errno);
    char line[] = "?-line\n";
    printf("write_rewritten %ld\n", write_rewritten(fd, line, 3));
    struct part ps[] = {{"abc", 3}, {"defgh", 5}, {"ij", 2}, {"\n", 1}};
    printf("write_parts %d\n", write_parts(fd, ps, 4));
    errno = 0;
    bad = write_parts(77, ps, 4);
    printf("write_parts to a bad fd %d errno %d\n", bad, errno);
    close(fd);

    if (mkdir("made", 0755) != 0 || mkdir("made/d2", 0755) != 0 ||
        mkdir("made/d9", 0755) != 0)
        return 2;
    printf("make_dirs %d\n", make_dirs("made", 20));
    claimed += 20;
    errno = 0;
    int made = make_dirs("made", 6);
    printf("make_dirs again %d errno %d\n", made, errno);
    printf("make_dirs_chatty %d\n", make_dirs_chatty("made", 8));
    for (int i = 0; i < 20; i++) {
        char path[32];
        snprintf(path, sizeof path, "made/d%d", i);
        rmdir(path);
    }
    rmdir("made");

    const char *files[] = {"u1", "u3", "u2"};
    for (int i = 0; i < 3; i++)
        close(open(files[i], O_CREAT | O_WRONLY, 0600));
    printf("unlink_victims %d\n", unlink_victims());
    errno = 0;
    int gone = unlink_victims();
    printf("unlink_victims again %d errno %d\n", gone, errno);
    /* The failed unlink of "missing" puts "fallback" in place of "x3":
     * a group that had read "x3" ahead would remove it instead. */
    const char *chain[] = {"x1", "missing", "x3", "x4", "x5"};
    const char *made_files[] = {"x1", "x3", "x4", "fallback"};
    for (int i = 0; i < 4; i++)
        close(open(made_files[i], O_CREAT | O_WRONLY, 0600));
    printf("unlink_or_next %d\n", unlink_or_next(chain, 5));
    for (int i = 0; i < 5; i++)
        printf("chain %d %s %s\n", i, chain[i], access(chain[i], F_OK) == 0 ? "there" : "gone");
    printf("x3 %s\n", access("x3", F_OK) == 0 ? "there" : "gone");
    const char *listing[] = {".", "r1", "..", "r2", "nope", ".", "r3", "r4", "..", "r5"};
    for (int i = 0; i < 10; i++)
        if (listing[i][0] == 'r')
            close(open(listing[i], O_CREAT | O_WRONLY, 0600));
    printf("remove_but_dots %d\n", remove_but_dots(listing, 10));
    claimed += 6;
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
