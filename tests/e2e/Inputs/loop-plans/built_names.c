/* Loop batching of a call whose name the loop builds each iteration into
 * one buffer (issue #12, rule 6), compiled by tests/llvm/Loop_built_names.test
 * and tests/gcc/Loop_built_names.test at -O0 and -O2: both compilers must
 * print the PLAN lines below (each function's plan joined on one line).
 * The inspector builds the name again for each later iteration into a
 * private buffer per slot: one string from the start (snprintf, strcpy +
 * strcat), or fixed-size writes (memcpy of constant counts) over a copy of
 * the shared buffer.  Refused as loop-built-arg, with the cause: a buffer
 * also written by other code, built from what the loop writes, appended to
 * without being started in the iteration (strcat of what an earlier
 * iteration left), or a string read by a byte count (write).  The remark
 * checks of each test name lines of this file: keep them in step. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const names[4] = {"a", "b", "c", "d"};

// PLAN-DAG: function sizes loop 0: | loop call lstat: 16 iterations per batch | slot: newfstatat(-100, built, private, 256) | private a1: 144 bytes per slot, copied back on success | built a0: 256 bytes per slot, by the loop's own code{{$}}
long sizes(const char *dir, int n)
{
    char path[256];
    struct stat st;
    long total = 0;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i & 3]);
        if (lstat(path, &st) == 0)
            total += st.st_size;
    }
    return total;
}

// PLAN-DAG: function remove_all loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(built) | built a0: 64 bytes per slot, by the loop's own code{{$}}
void remove_all(const char *dir, int n)
{
    char path[64];
    for (int i = 0; i < n; i++) {
        strcpy(path, dir);
        strcat(path, names[i & 3]);
        unlink(path);
    }
}

static const char prefix[4] = {'d', 'i', 'r', '-'};

// PLAN-DAG: function make_dirs loop 0: | loop call mkdir: 16 iterations per batch | slot: mkdir(built, 493) | built a0: 16 bytes per slot, by the loop's own code, over a copy of the buffer{{$}}
void make_dirs(int n)
{
    char name[16];
    for (int i = 0; i < n; i++) {
        memcpy(name, prefix, sizeof prefix);
        memcpy(name + sizeof prefix, names[i & 3], 2);
        mkdir(name, 0755);
    }
}

// The buffer is also written by code the inspector does not repeat.
// PLAN-DAG: function touch_up loop 0: | loop call unlink: refused: loop-built-arg: {{.*}}: the buffer is built in the loop, but {{.*}}
void touch_up(const char *dir, int n, char c)
{
    char path[64];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i & 3]);
        path[n & 7] = c++;
        unlink(path);
    }
}

// A name built from a counter the loop keeps: not repeatable.
// PLAN-DAG: function numbered loop 0: | loop call unlink: refused: loop-built-arg: {{.*}}: the buffer is built in the loop, but a call to snprintf takes {{.*}}
void numbered(int n, int *seq)
{
    char path[32];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "f%d", *seq);
        *seq += 3;
        unlink(path);
    }
}

// Each iteration appends to what the one before left: the name grows, so
// the inspector could not build a later one from this iteration alone.
// PLAN-DAG: function grow loop 0: | loop call unlink: refused: loop-built-arg: {{.*}}: the first step appends to what an earlier iteration left in the buffer
void grow(int n)
{
    char path[64] = "x";
    for (int i = 0; i < n; i++) {
        strcat(path, names[i & 3]);
        unlink(path);
    }
}

// write reads 8 bytes whatever the string's length: the bytes after it are
// what earlier iterations left.
// PLAN-DAG: function padded loop 0: | loop call write: refused: loop-built-arg: {{.*}}: the call reads a byte count of a buffer the loop writes a string into {{.*}}
void padded(int fd, int n)
{
    char buf[64];
    for (int i = 0; i < n; i++) {
        snprintf(buf, sizeof buf, "%s\n", names[i & 3]);
        write(fd, buf, 8);
    }
}
