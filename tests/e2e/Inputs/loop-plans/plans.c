/* Loop batching (issue #12): one loop per shape of the issue, compiled by
 * tests/llvm/Loop_plans.test and tests/gcc/Loop_plans.test at -O0 and -O2.
 * Both compilers must print the PLAN lines below (each function's plan
 * joined on one line: at -O2 clang decides loops at two points of the
 * pipeline, so plans come out in no fixed order); a plan that differs by
 * compiler or level (where -O0's stack slots hide a fact -O2 proves, or
 * one compiler proves what the other does not) is checked in each test,
 * which says why.  The remark / opt-info checks of each test name lines of
 * this file: keep them in step. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXN 64
int fds[MAXN], rcs[MAXN];
// Path strings in constant memory: no store in a loop can change them.
static const char *const names[MAXN] = {"a", "b", "c", "d"};
struct stat sts[MAXN];
struct part {
    const char *p;
    unsigned long len;
} parts[MAXN];
char block[512];

// PLAN-DAG: function close_array loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
void close_array(int *fd, int n)
{
    for (int i = 0; i < n; i++)
        close(fd[i]);
}

// PLAN-DAG: function close_down loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
void close_down(int fd)
{
    while (fd > 2)
        close(fd--);
}

// PLAN-DAG: function open_names loop 0: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0){{$}}
void open_names(int n)
{
    for (int i = 0; i < n; i++)
        fds[i] = open(names[i], O_RDONLY);
}

// PLAN-DAG: function stat_each loop 0: | loop call stat: 16 iterations per batch | slot: newfstatat(-100, a0, a1, 0){{$}}
void stat_each(int n)
{
    for (int i = 0; i < n; i++)
        rcs[i] = stat(names[i], &sts[i]);
}

// One buffer every iteration shares: private per slot, copied back.
// PLAN-DAG: function lstat_total loop 0: | loop call lstat: 16 iterations per batch | slot: newfstatat(-100, a0, private, 256) | private a1: 144 bytes per slot, copied back on success{{$}}
long lstat_total(int n)
{
    struct stat st;
    long total = 0;
    for (int i = 0; i < n; i++)
        if (lstat(names[i], &st) == 0)
            total += st.st_size;
    return total;
}

// First that succeeds: the classes that return stop the batch, so the
// table loads for later iterations must be proven: both compilers do at
// -O2 (64 entries, at most 64 iterations), and at -O0 from the exit test
// i < 64 (clang's index lives in a stack slot it follows from its start).
// PLAN-DAG: function first_open loop 0: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0) zero=stop pos=stop{{$}}
int first_open(void)
{
    for (int i = 0; i < MAXN; i++) {
        int fd = open(names[i], O_RDONLY);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

// pread at computed offsets into one buffer: copied back by the count.
// PLAN-DAG: function pread_blocks loop 0: | loop call pread: 16 iterations per batch | slot: pread64(a0, private, 512, a3) fail=stop | private a1: 512 bytes per slot, copied back on success, as many bytes as the result{{$}}
long pread_blocks(int fd, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++) {
        if (pread(fd, block, sizeof block, (off_t)i * 512) < 0)
            return -1;
        sum += block[0];
    }
    return sum;
}

// Writes of several parts: a failure returns, so the loads of later
// iterations' parts[i].p and .len run ahead: clang proves them at -O2
// (inside the 64-entry table for at most 64 iterations); not at -O0, nor
// GCC at either level.
// PLANO0-DAG: function write_parts loop 0: | loop call write: refused: loop-speculative-load: {{.*}}
int write_parts(int fd)
{
    for (int i = 0; i < MAXN; i++)
        if (write(fd, parts[i].p, parts[i].len) < 0)
            return -1;
    return 0;
}

// PLAN-DAG: function make_dirs loop 0: | loop call mkdir: 16 iterations per batch | slot: mkdir(a0, 493){{$}}
void make_dirs(int n)
{
    for (int i = 0; i < n; i++)
        mkdir(names[i], 0755);
}

// PLAN-DAG: function remove_dirs loop 0: | loop call rmdir: 16 iterations per batch | slot: rmdir(a0){{$}}
void remove_dirs(int n)
{
    for (int i = 0; i < n; i++)
        rmdir(names[i]);
}

// PLAN-DAG: function unlink_names loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0){{$}}
void unlink_names(int n)
{
    for (int i = 0; i < n; i++)
        unlink(names[i]);
}

// fstat over descriptors: glibc answers a negative one itself.
// PLAN-DAG: function fstat_fds loop 0: | loop call fstat: 16 iterations per batch | slot: newfstatat(a0, "", a1, 4096) | group ends before an iteration whose a0 is not >= 0{{$}}
void fstat_fds(int n)
{
    for (int i = 0; i < n; i++)
        rcs[i] = fstat(fds[i], &sts[i]);
}

// Refusals, each with its reason.
// PLAN-DAG: function read_to_eof loop 0: | loop call read: refused: loop-carried: {{.*}}(a read until end of file){{$}}
long read_to_eof(int fd, char *buf)
{
    long n, t = 0;
    while ((n = read(fd, buf, 64)) > 0)
        t += n;
    return t;
}

// PLAN-DAG: function read_chunks loop 0: | loop call read: refused: loop-carried: {{.*}}
long read_chunks(int fd, char *buf, int n)
{
    long got = 0;
    for (int i = 0; i < n; i++) {
        long r = read(fd, buf + got, 64);
        if (r > 0)
            got += r;
    }
    return got;
}

// PLAN-DAG: function unlink_loud loop 0: | loop call unlink: refused: loop-always-stops: {{.*}}: call to perror{{$}}
void unlink_loud(int n)
{
    for (int i = 0; i < n; i++)
        if (unlink(names[i]) < 0)
            perror(names[i]);
        else
            puts(names[i]);
}

// PLAN-DAG: function close_until loop 0: | loop call close: refused: loop-guard: {{.*}}: the call runs under a condition on a {{.*}}
void close_until(int n)
{
    int done = 0;
    for (int i = 0; i < n; i++) {
        if (!done)
            close(fds[i]);
        if (fds[i] == 0)
            done = 1;
    }
}

// Two call sites: the body is planned as straight-line code.  At -O2 the
// region look runs first and the loop look never sees the calls it batched.
// PLANO0-DAG: function open_close loop 0: | loop call open: refused: loop-several-calls: {{.*}}
// PLAN-DAG: function open_close block 0: | batch 0: calls 0..1, 3 slots, 1 chain | {{.*}}
void open_close(int n)
{
    for (int i = 0; i < n; i++)
        close(open(names[i], O_RDONLY));
}

// Pointer walks to a NULL entry or a negative descriptor: the exit test
// loads the next entry, which every iteration the inspector looks at makes
// anyway (no class stops).
// PLAN-DAG: function unlink_list loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0){{$}}
void unlink_list(char **list)
{
    for (char **p = list; *p; p++)
        unlink(*p);
}

// PLAN-DAG: function close_list loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
int close_list(const int *fds)
{
    int bad = 0;
    for (const int *p = fds; *p >= 0; p++)
        if (close(*p) < 0)
            bad++;
    return bad;
}

// Names in a table the program fills (not string literals): a store into
// an int array may alias them (a char may alias anything) in stat_kept;
// nothing else in these loops writes memory.
const char *paths[64];

// PLAN-DAG: function make_paths loop 0: | loop call mkdir: 16 iterations per batch | slot: mkdir(a0, 493){{$}}
void make_paths(int n)
{
    for (int i = 0; i < n; i++)
        mkdir(paths[i], 0755);
}

// PLAN-DAG: function remove_paths loop 0: | loop call rmdir: 16 iterations per batch | slot: rmdir(a0){{$}}
void remove_paths(int n)
{
    for (int i = 0; i < n; i++)
        rmdir(paths[i]);
}

// PLAN-DAG: function unlink_paths loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0){{$}}
void unlink_paths(int n)
{
    for (int i = 0; i < n; i++)
        unlink(paths[i]);
}

// Results kept in a local array: at -O0 GCC's front end marks fd[]
// addressable (it is indexed by a variable), but no pointer reaches it.
// Batched by both at -O2; at -O0 clang does not repeat the second exit
// test (i < 64) of its stack-slot index.
// PLANO2-DAG: function open_kept loop 0: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0){{$}}
int open_kept(int n)
{
    int fd[64], ok = 0;
    for (int i = 0; i < n && i < 64; i++)
        fd[i] = open(paths[i], O_RDONLY);
    for (int i = 0; i < n && i < 64; i++)
        ok += fd[i] >= 0;
    return ok;
}

// The store of each result may write the names later calls read: rule 7
// with the names measured (every later name's bytes, up to its NUL, miss
// the group's stores and the kernel's writes of sts[]).
// PLAN-DAG: function stat_kept loop 0: | loop call stat: 16 iterations per batch | slot: newfstatat(-100, a0, a1, 0) | run-time check: the group's writes miss what it reads ahead | measured a0: later iterations' names count as 4096 bytes in the check{{$}}
void stat_kept(int n)
{
    for (int i = 0; i < n; i++)
        rcs[i] = stat(paths[i], &sts[i]);
}

// do-while: the loop's only exit test comes after the call; the inspector
// makes it for iteration t - 1 before it fills slot t (GCC refused these as
// loop-always-stops until it repeated tests after the call, as LLVM does).
// PLAN-DAG: function close_do_while loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
void close_do_while(int n)
{
    int k = 0;
    do
        close(fds[k]);
    while (++k < n);
}

// PLAN-DAG: function close_do_while_param loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
void close_do_while_param(const int *fd, unsigned long n)
{
    unsigned long k = 0;
    do
        close(fd[k]);
    while (++k < n);
}

// First that opens over a constant table, with a counter declared once for
// two loops: at -O0 clang takes the counter's start from the store just
// before each loop (the slot is only loaded from and stored to), so the
// table's loads for later iterations are proven as GCC proves them.
// PLAN-DAG: function first_open_shared_counter loop 0: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0) zero=stop pos=stop{{$}}
// (clang -O2 numbers each of its two placements' loops from 0.)
// PLANO0-DAG: function first_open_shared_counter loop 1: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0) zero=stop pos=stop{{$}}
int first_open_shared_counter(void)
{
    int i, fd = -1;
    for (i = 0; i < 8; i++) {
        fd = open(names[i], O_RDONLY);
        if (fd >= 0)
            break;
    }
    for (i = 4; i < MAXN; i++) {
        fd = open(names[i], O_RDONLY);
        if (fd >= 0)
            break;
    }
    return fd;
}

// A local array of names, a diagnostic on failure (the failing slot stops
// the group): at -O0 clang proves the local array's loads as a global's
// (each compiler's test checks its own plans: clang -O2 unrolls the loop,
// GCC -O0 cannot tell that perror does not write the array, and batches
// it because perror runs only after a failure: rule 9).
int unlink_local_names(void)
{
    const char *victims[] = {"a", "b", "c", "d", "e"};
    int failed = 0;
    for (int i = 0; i < 5; i++)
        if (unlink(victims[i]) != 0) {
            perror(victims[i]);
            failed++;
        }
    return failed;
}
