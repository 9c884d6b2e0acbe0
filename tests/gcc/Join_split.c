/* Join-block splits (sysbatch/cfg.h, "join splits"), remarks of both
 * compilers at -O0 and -O2 (this file is also tests/llvm/Join_split.test's
 * input): a join's first call copied onto the edge from a region with a
 * call batches there (cat.c's open/fstat through a stdin phi); a join whose
 * copy would not batch, or whose code before the call has an effect, is not
 * split, and says why (cp's close pair after an error arm needs no split:
 * the arm has no calls, so the first close stops on failure; core.md).
 *
 * REQUIRES: gcc-host
 * RUN: %sbgcc -O0 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefixes=CHECK,O0
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefixes=CHECK,O2
 * coreutils' config.h turns on _FORTIFY_SOURCE: open is glibc's inline
 * wrapper, whose call is to __open_alias (open's asm name).
 * RUN: %sbgcc -O2 -D_FORTIFY_SOURCE=2 -c %s -o /dev/null -fopt-info-optimized-missed 2>&1 | %FileCheck %s --check-prefix=FORTIFY
 * FORTIFY-DAG: Join_split.c:46:9: optimized: sysbatch: join split: fstat copied onto the edge from __open_alias's block
 * FORTIFY-DAG: Join_split.c:111:9: optimized: sysbatch: join split: fstat copied onto the edge from __open_alias's block, with the 1 instruction before it; it batches there
 * FORTIFY-DAG: Join_split.c:107:22: optimized: sysbatch: batched 2 calls (open, fstat) into 3 slots with 1 chains over 2 blocks
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-optimized-missed -fplugin-arg-sysbatch-no-join-split 2>&1 | %FileCheck %s --check-prefix=OFF
 * OFF: Join_split.c:46:9: missed: sysbatch: fstat not batched: libc-precheck
 * OFF-NOT: join split
 * CHECK-DAG: Join_split.c:46:9: optimized: sysbatch: join split: fstat copied onto the edge from open's block, with the {{[0-9]+}} instruction{{s?}} before it; it batches there
 * CHECK-DAG: Join_split.c:42:14: optimized: sysbatch: batched 2 calls (open, fstat) into 3 slots with 1 chains over 2 blocks
 * CHECK-DAG: Join_split.c:56:9: optimized: sysbatch: batched 2 calls (close, close) into 2 slots with 0 chains over 2 blocks (branchy)
 * CHECK-DAG: Join_split.c:76:12: missed: sysbatch: fstat: join not split: its copy on the edge from open's block forms no batch (open: too few calls in a row to pay for a batch: branch: {{.*}}the next call after it, fstat, cannot join it (barrier: call to puts))
 * O2-DAG: Join_split.c:111:9: optimized: sysbatch: join split: fstat copied onto the edge from open's block, with the 1 instruction before it; it batches there
 * O2-DAG: Join_split.c:107:22: optimized: sysbatch: batched 2 calls (open, fstat) into 3 slots with 1 chains over 2 blocks
 * O0-DAG: Join_split.c:111:9: missed: sysbatch: fstat: join not split: its copy on the edge from open's block forms no batch (open: {{.*}}the branch's condition is not available where the batch is issued: it reads memory the region may write
 * CHECK-DAG: Join_split.c:90:12: missed: sysbatch: fstat: join not split: code before its first call has an effect the split does not copy
 * CHECK-NOT: internal compiler error
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int cat_like(const char *p, int use_stdin, struct stat *st)
{
    int fd;
    if (use_stdin)
        fd = 0;
    else {
        fd = open(p, O_RDONLY);
        if (fd < 0)
            return -1;
    }
    if (fstat(fd, st) < 0)
        return -2;
    return fd;
}

void report(const char *what);

int close_pair(int dest, int source)
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

int barrier_first(const char *p, int use_stdin, struct stat *st)
{
    int fd = 0;
    if (!use_stdin) {
        fd = open(p, O_RDONLY);
        if (fd < 0)
            return -1;
        puts("opened");
    }
    return fstat(fd, st);
}

int last_fd;

int effect_first(const char *p, int use_stdin, struct stat *st)
{
    int fd = 0;
    if (!use_stdin) {
        fd = open(p, O_RDONLY);
        if (fd < 0)
            return -1;
    }
    last_fd = fd;
    return fstat(fd, st);
}

/* coreutils cat's loop keeps the descriptor in a static: each arm stores
 * it and fstat takes a reload of the static, which GCC keeps in the join
 * (clang -O2's GVN makes it a phi).  In the copy the reload reads the
 * store on open's path: open's result, chained.  At -O0 the branch on
 * open's result is a reload of the static too, after open (the batch
 * would have to issue before it): not split, and the remark says open's
 * own refusal. */
static int input_desc;

int cat_static(const char *p, int use_stdin, struct stat *st)
{
    if (use_stdin)
        input_desc = 0;
    else {
        input_desc = open(p, O_RDONLY);
        if (input_desc < 0)
            return -1;
    }
    if (fstat(input_desc, st) < 0)
        return -2;
    return input_desc;
}

/* A join whose first call can never batch (_exit): no split is tried (it
 * would cost the function one of its trials for nothing) and nothing is
 * said about it.
 * RUN: %sbgcc -O2 -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s --check-prefix=NEVER
 * NEVER-NOT: _exit: join
 */
void finish(int fd, int code)
{
    if (code)
        close(fd);
    else
        fsync(fd);
    _exit(code);
}
