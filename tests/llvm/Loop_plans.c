// Loop batching (issue #12) from clang at -O0 and -O2: the loop plan the
// pass prints for each shape of the issue, the same text at both levels
// except where -O0's stack slots hide a fact -O2 proves (named below).
// At -O2 loops are decided at two points of the pipeline, so plans come out
// in no fixed order: each plan is joined into one line (`function F loop
// N: | line | line`) and checked wherever it is.
// REQUIRES: llvm
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-placement=early -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | awk '/^function /{if (b) print b; b = $0; next} {sub(/^ +/, ""); b = b " | " $0} END{if (b) print b}' | %FileCheck %s --check-prefixes=CHECK,O2
// RUN: %sbclang -O0 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-print-plan %s -o /dev/null 2>&1 | awk '/^function /{if (b) print b; b = $0; next} {sub(/^ +/, ""); b = b " | " $0} END{if (b) print b}' | %FileCheck %s --check-prefixes=CHECK,O0
// With the loops option off nothing is planned as a loop.
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-placement=early -mllvm -sysbatch-print-plan -mllvm -sysbatch-no-loops %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// OFF-NOT: loop call
// A smaller group from loop-slots.
// RUN: %sbclang -O2 -c -Xclang -load -Xclang %sbplugin -mllvm -sysbatch-placement=early -mllvm -sysbatch-print-plan -mllvm -sysbatch-loop-slots=4 %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=SLOTS
// SLOTS: loop call close: 4 iterations per batch
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

// CHECK-DAG: function close_array loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
void close_array(int *fd, int n)
{
    for (int i = 0; i < n; i++)
        close(fd[i]);
}

// CHECK-DAG: function close_down loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
void close_down(int fd)
{
    while (fd > 2)
        close(fd--);
}

// CHECK-DAG: function open_names loop 0: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0){{$}}
void open_names(int n)
{
    for (int i = 0; i < n; i++)
        fds[i] = open(names[i], O_RDONLY);
}

// CHECK-DAG: function stat_each loop 0: | loop call stat: 16 iterations per batch | slot: newfstatat(-100, a0, a1, 0){{$}}
void stat_each(int n)
{
    for (int i = 0; i < n; i++)
        rcs[i] = stat(names[i], &sts[i]);
}

// One buffer every iteration shares: private per slot, copied back.
// CHECK-DAG: function lstat_total loop 0: | loop call lstat: 16 iterations per batch | slot: newfstatat(-100, a0, private, 256) | private a1: 144 bytes per slot, copied back on success{{$}}
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
// table loads for later iterations must be proven: SCEV does at -O2 (64
// entries, at most 64 iterations); -O0's index lives in a stack slot.
// O2-DAG: function first_open loop 0: | loop call open: 16 iterations per batch | slot: openat(-100, a0, 0, 0) zero=stop pos=stop{{$}}
// O0-DAG: function first_open loop 0: | loop call open: refused: loop-speculative-load: {{.*}} not known to be dereferenceable{{$}}
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
// CHECK-DAG: function pread_blocks loop 0: | loop call pread: 16 iterations per batch | slot: pread64(a0, private, 512, a3) fail=stop | private a1: 512 bytes per slot, copied back on success, as many bytes as the result{{$}}
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
// iterations' parts[i].p and .len run ahead: proven at -O2 (inside the
// 64-entry table for at most 64 iterations), not at -O0.
// O2-DAG: function write_parts loop 0: | loop call write: 16 iterations per batch | slot: write(a0, a1, a2) fail=stop{{$}}
// O0-DAG: function write_parts loop 0: | loop call write: refused: loop-speculative-load: {{.*}}
int write_parts(int fd)
{
    for (int i = 0; i < MAXN; i++)
        if (write(fd, parts[i].p, parts[i].len) < 0)
            return -1;
    return 0;
}

// CHECK-DAG: function make_dirs loop 0: | loop call mkdir: 16 iterations per batch | slot: mkdir(a0, 493){{$}}
void make_dirs(int n)
{
    for (int i = 0; i < n; i++)
        mkdir(names[i], 0755);
}

// CHECK-DAG: function remove_dirs loop 0: | loop call rmdir: 16 iterations per batch | slot: rmdir(a0){{$}}
void remove_dirs(int n)
{
    for (int i = 0; i < n; i++)
        rmdir(names[i]);
}

// CHECK-DAG: function unlink_names loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0){{$}}
void unlink_names(int n)
{
    for (int i = 0; i < n; i++)
        unlink(names[i]);
}

// fstat over descriptors: glibc answers a negative one itself.
// CHECK-DAG: function fstat_fds loop 0: | loop call fstat: 16 iterations per batch | slot: newfstatat(a0, "", a1, 4096) | group ends before an iteration whose a0 is not >= 0{{$}}
void fstat_fds(int n)
{
    for (int i = 0; i < n; i++)
        rcs[i] = fstat(fds[i], &sts[i]);
}

// Refusals, each with its reason.
// CHECK-DAG: function read_to_eof loop 0: | loop call read: refused: loop-carried: {{.*}}(a read until end of file){{$}}
long read_to_eof(int fd, char *buf)
{
    long n, t = 0;
    while ((n = read(fd, buf, 64)) > 0)
        t += n;
    return t;
}

// O2-DAG: function read_chunks loop 0: | loop call read: refused: loop-carried: {{.*}}: a value the loop carries from the call's result to the next iteration{{$}}
// O0-DAG: function read_chunks loop 0: | loop call read: refused: loop-carried: {{.*}}: a load of memory the loop stores the call's result in{{$}}
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

// CHECK-DAG: function unlink_loud loop 0: | loop call unlink: refused: loop-always-stops: {{.*}}: call to perror{{$}}
void unlink_loud(int n)
{
    for (int i = 0; i < n; i++)
        if (unlink(names[i]) < 0)
            perror(names[i]);
        else
            puts(names[i]);
}

// CHECK-DAG: function close_until loop 0: | loop call close: refused: loop-guard: {{.*}}: the call runs under a condition on a {{.*}}
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
// O0-DAG: function open_close loop 0: | loop call open: refused: loop-several-calls: {{.*}}
// CHECK-DAG: function open_close block 0: | batch 0: calls 0..1, 3 slots, 1 chain | {{.*}}
void open_close(int n)
{
    for (int i = 0; i < n; i++)
        close(open(names[i], O_RDONLY));
}

// Pointer walks to a NULL entry or a negative descriptor: the exit test
// loads the next entry, which every iteration the inspector looks at makes
// anyway (no class stops).
// CHECK-DAG: function unlink_list loop 0: | loop call unlink: 16 iterations per batch | slot: unlink(a0){{$}}
void unlink_list(char **list)
{
    for (char **p = list; *p; p++)
        unlink(*p);
}

// CHECK-DAG: function close_list loop 0: | loop call close: 16 iterations per batch | slot: close(a0){{$}}
int close_list(const int *fds)
{
    int bad = 0;
    for (const int *p = fds; *p >= 0; p++)
        if (close(*p) < 0)
            bad++;
    return bad;
}
