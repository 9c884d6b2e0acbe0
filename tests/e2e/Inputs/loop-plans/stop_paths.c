/* Loop batching (issue #12) of an argument a libc call computes (rule 8:
 * strlen of each part) and of loops whose only writes to what the
 * inspector reads are on paths that stop the group (rule 9: a diagnostic
 * after a failed call), compiled by tests/llvm/Loop_stop_paths.test and
 * tests/gcc/Loop_stop_paths.test at -O0 and -O2: both compilers must print
 * the PLAN lines below (each function's plan joined on one line).
 * (PLAN lines at both levels, PLANO0 at -O0 only.)
 * tests/e2e/Inputs/loops/stop_paths.c runs them.  The remark checks of
 * each test name lines of this file: keep them in step. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const parts[] = {"head:", "one,", "two,", "three\n"};

// PLAN-DAG: function write_ignored loop 0: | loop call write: 16 iterations per batch | slot: write(a0, a1, a2) | inspector calls strlen for each later iteration{{$}}
long write_ignored(int fd, int n)
{
    long wrote = 0;
    for (int i = 0; i < n; i++)
        wrote += write(fd, parts[i & 3], strlen(parts[i & 3]));
    return wrote;
}

// clang -O2 unrolls the constant loop before any look at it (GCC -O2's
// plan is in tests/gcc/Loop_stop_paths.test).
// PLANO0-DAG: function write_checked loop 0: | loop call write: 16 iterations per batch | slot: write(a0, a1, a2) fail=stop | inspector calls strlen for each later iteration{{$}}
int write_checked(int fd)
{
    for (int i = 0; i < 4; i++)
        if (write(fd, parts[i], strlen(parts[i])) < 0)
            return -1;
    return 0;
}

// A parameter array of strings: what strlen reads for a later iteration
// may not exist once a failure returns (rule 4).
// PLAN-DAG: function write_strings loop 0: | loop call write: refused: loop-speculative-load: {{.*}}{{$}}
int write_strings(int fd, const char *const *strs, int n)
{
    for (int i = 0; i < n; i++)
        if (write(fd, strs[i], strlen(strs[i])) < 0)
            return -1;
    return 0;
}

// ... but with nothing that stops, every iteration the inspector looks at
// happens and makes the same strlen.
// PLAN-DAG: function write_all_strings loop 0: | loop call write: 16 iterations per batch | slot: write(a0, a1, a2) | inspector calls strlen for each later iteration{{$}}
long write_all_strings(int fd, const char *const *strs, int n)
{
    long wrote = 0;
    for (int i = 0; i < n; i++)
        wrote += write(fd, strs[i], strlen(strs[i]));
    return wrote;
}

// The string strlen reads is written in the loop: refused.
// PLAN-DAG: function write_rewritten loop 0: | loop call write: refused: loop-arg-unrepeatable: {{.*}}{{$}}
long write_rewritten(int fd, char *line, int n)
{
    long wrote = 0;
    for (int i = 0; i < n; i++) {
        line[0] = (char)('a' + i);
        wrote += write(fd, line, strlen(line));
    }
    return wrote;
}

// Rule 9: printf runs only after a failed mkdir, which stops the group.
// PLAN-DAG: function make_dirs loop 0: | loop call mkdir: 16 iterations per batch | slot: mkdir(built, 493) fail=stop pos=stop | built a0: 64 bytes per slot, by the loop's own code | writes only after fail pos (which stop the group) not read ahead{{$}}
int make_dirs(const char *dir, int n)
{
    char path[64];
    int made = 0;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/d%d", dir, i);
        if (mkdir(path, 0755) != 0)
            printf("cannot %s\n", path);
        else
            made++;
    }
    return made;
}

// ... but a printf after every call is on the way on: refused as before.
// PLAN-DAG: function make_dirs_chatty loop 0: | loop call mkdir: refused: {{.*}}{{$}}
int make_dirs_chatty(const char *dir, int n)
{
    char path[64];
    int made = 0;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/d%d", dir, i);
        made += mkdir(path, 0755) == 0;
        printf("tried %s\n", path);
    }
    return made;
}

// Rule 9 with a local table the diagnostic may write as far as the
// compiler can tell (GCC; clang proves the table apart).  clang -O2
// unrolls the constant loop first.
// PLANO0-DAG: function unlink_victims loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) fail=stop pos=stop{{( \| writes only after fail pos \(which stop the group\) not read ahead)?}}{{$}}
int unlink_victims(void)
{
    const char *victims[] = {"u1", "nope", "u3", "u2"};
    int gone = 0;
    for (int i = 0; i < 4; i++)
        if (unlink(victims[i]) != 0)
            printf("unlink %s failed\n", victims[i]);
        else
            gone++;
    return gone;
}

// Code after a failure that changes what the next iteration's call
// takes: the next name.  Rule 7's run-time check covers the store (with
// the names' bytes), found before rule 9 is tried: GCC at -O0 and -O2 and
// clang -O0 plan it under the check, which no group passes (each store
// writes the next iteration's name pointer), so every call runs from its
// call site; clang -O2 forwards the store to the next iteration's load (a
// value the loop carries).  Rule 9 alone (names a local table) is
// unlink_victims' shape above.
int unlink_or_next(const char **names, int n)
{
    int gone = 0;
    for (int i = 0; i < n - 1; i++)
        if (unlink(names[i]) != 0)
            names[i + 1] = "fallback";
        else
            gone++;
    return gone;
}

// Rule 8 in a guard: the inspector calls strcmp for each iteration it
// looks at, as the loop does.
// PLAN-DAG: function remove_but_dots loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0) | guard repeated: up to 64 iterations looked at per batch | inspector calls strcmp for each later iteration{{$}}
int remove_but_dots(const char *const *names, int n)
{
    int gone = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], ".") != 0 && strcmp(names[i], "..") != 0)
            gone += unlink(names[i]) == 0;
    return gone;
}

// A struct array: the length is a field (rule 4 needs the table proven
// for the loads ahead: a parameter is not).
struct part {
    const char *p;
    size_t len;
};
// PLAN-DAG: function write_parts loop 0: | loop call write: refused: loop-speculative-load: {{.*}}{{$}}
int write_parts(int fd, const struct part *ps, int n)
{
    for (int i = 0; i < n; i++)
        if (write(fd, ps[i].p, ps[i].len) < 0)
            return -1;
    return 0;
}
