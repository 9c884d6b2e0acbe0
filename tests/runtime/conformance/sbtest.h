/* Shared helpers for the runtime conformance programs.
 *
 * Every program is liburing-style: exit 0 pass, 1 fail (after printing what
 * differed), 77 skip.  The same program runs on every backend; the backend
 * is chosen by the environment ctest sets:
 *
 *     BATCH_EMUL=1               the user-space emulator (always available)
 *     SYSBATCH_REQUIRE_KERNEL=1  the kernel's sys_batch; skip (77) when the
 *                                start-up probe did not find it
 *
 * sbt_begin() checks that the runtime really took the requested path, so a
 * "kernel" run can never silently test the emulator, and vice versa.
 */
#ifndef SYSBATCH_SBTEST_H
#define SYSBATCH_SBTEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2, statx, mkdtemp */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysbatch.h"

#define SBT_SKIP 77

static int sbt_failures;
static const char *sbt_name = "test";

static void sbt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void sbt_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: FAIL: ", sbt_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    sbt_failures++;
}

/* Compare two longs; `what` names the value in the failure message. */
#define SBT_EQ(what, got, want)                                                 \
    do {                                                                        \
        long sbt_g_ = (long)(got), sbt_w_ = (long)(want);                       \
        if (sbt_g_ != sbt_w_) {                                                 \
            sbt_fail("%s: got %ld, want %ld (line %d)", (what), sbt_g_, sbt_w_, \
                     __LINE__);                                                 \
        }                                                                       \
    } while (0)

#define SBT_TRUE(what, cond)                                                    \
    do {                                                                        \
        if (!(cond)) {                                                          \
            sbt_fail("%s: expected %s (line %d)", (what), #cond, __LINE__);     \
        }                                                                       \
    } while (0)

static inline int sbt_env_on(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] && strcmp(v, "0") != 0;
}

static inline const char *sbt_path_name(enum sysbatch_path p)
{
    switch (p) {
    case SYSBATCH_PATH_KERNEL: return "kernel";
    case SYSBATCH_PATH_EMUL: return "emulated";
    default: return "none";
    }
}

static inline void sbt_begin(const char *name)
{
    enum sysbatch_path p = sysbatch_path();
    sbt_name = name;
    if (sbt_env_on("SYSBATCH_REQUIRE_KERNEL")) {
        if (p != SYSBATCH_PATH_KERNEL) {
            printf("%s: SKIP: sys_batch not in this kernel\n", name);
            exit(SBT_SKIP);
        }
    } else if (sbt_env_on("BATCH_EMUL") || sbt_env_on("SYSBATCH_EMUL")) {
        if (p != SYSBATCH_PATH_EMUL) {
            sbt_fail("BATCH_EMUL set but the runtime chose the %s path", sbt_path_name(p));
            exit(1);
        }
    }
    if (!sysbatch_active && (p == SYSBATCH_PATH_KERNEL || sbt_env_on("BATCH_EMUL") ||
                             sbt_env_on("SYSBATCH_EMUL"))) {
        sbt_fail("sysbatch_active is 0 on the %s path", sbt_path_name(p));
    }
}

static inline int sbt_end(void)
{
    if (sbt_failures) {
        fprintf(stderr, "%s: %d failure(s) on the %s path\n", sbt_name, sbt_failures,
                sbt_path_name(sysbatch_path()));
        return 1;
    }
    printf("%s: PASS (%s path)\n", sbt_name, sbt_path_name(sysbatch_path()));
    return 0;
}

/* A slot from its parts; jumps default to "fall through". */
static inline struct sysbatch_slot sbt_slot(long nr, int argc, long a0, long a1, long a2, long a3,
                                     long a4, long a5)
{
    struct sysbatch_slot s;
    memset(&s, 0, sizeof s);
    s.nr = (short)nr;
    s.argc = (char)argc;
    s.arg[0] = a0;
    s.arg[1] = a1;
    s.arg[2] = a2;
    s.arg[3] = a3;
    s.arg[4] = a4;
    s.arg[5] = a5;
    return s;
}

static inline struct sysbatch_slot sbt_jumps(struct sysbatch_slot s, int fail, int zero, int pos)
{
    s.jump_fail = (short)fail;
    s.jump_zero = (short)zero;
    s.jump_pos = (short)pos;
    return s;
}

/* A word copy slot: *(long *)dst = *(long *)src. */
static inline struct sysbatch_slot sbt_copy(void *dst, const void *src)
{
    return sbt_slot(SYSBATCH_NR_WORDCOPY, 2, (long)dst, (long)src, 0, 0, 0, 0);
}

/* Results not yet written hold this, so a test can tell a slot never ran. */
#define SBT_UNSET 0x5b5b5b5bL

static inline void sbt_fill_rets(long *rets, long n)
{
    long i;
    for (i = 0; i < n; i++) {
        rets[i] = SBT_UNSET;
    }
}

/* A private temporary directory, removed (with its files) at exit. */
static char sbt_dir[256];

static inline void sbt_remove_dir(void)
{
    char cmd[300];
    if (sbt_dir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", sbt_dir);
        if (system(cmd) != 0) {
            fprintf(stderr, "%s: could not remove %s\n", sbt_name, sbt_dir);
        }
    }
}

static inline const char *sbt_tempdir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(sbt_dir, sizeof sbt_dir, "%s/sbrt-XXXXXX", base && base[0] ? base : "/tmp");
    if (!mkdtemp(sbt_dir)) {
        perror("mkdtemp");
        exit(1);
    }
    atexit(sbt_remove_dir);
    return sbt_dir;
}

static inline const char *sbt_path_in(const char *dir, const char *file)
{
    static char buf[4][320];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, file);
    return p;
}

static inline void sbt_write_file(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd) != 0) {
        perror(path);
        exit(1);
    }
}

static inline int sbt_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Markers: slots that write one byte to a pipe leave a trace of the order in
 * which slots ran, independent of rets. */
struct sbt_trace {
    int rd, wr;
};

static inline struct sbt_trace sbt_trace_open(void)
{
    int fds[2];
    struct sbt_trace t;
    if (pipe2(fds, O_NONBLOCK) != 0) {
        perror("pipe2");
        exit(1);
    }
    t.rd = fds[0];
    t.wr = fds[1];
    return t;
}

/* write(t.wr, letter, len): len 1 -> result 1 (> 0), len 0 -> 0, and with
 * fd -1 -> -EBADF (< 0); only len 1 leaves a letter in the trace. */
static inline struct sysbatch_slot sbt_mark(struct sbt_trace t, const char *letter, int len)
{
    return sbt_slot(SYS_write, 3, t.wr, (long)letter, len, 0, 0, 0);
}

static inline struct sysbatch_slot sbt_mark_fail(const char *letter)
{
    return sbt_slot(SYS_write, 3, -1, (long)letter, 1, 0, 0, 0);
}

/* Everything written so far, as a string. */
static inline const char *sbt_trace_read(struct sbt_trace t)
{
    static char buf[256];
    ssize_t got = read(t.rd, buf, sizeof buf - 1);
    buf[got > 0 ? got : 0] = 0;
    return buf;
}

#define SBT_STREQ(what, got, want)                                              \
    do {                                                                        \
        const char *sbt_gs_ = (got), *sbt_ws_ = (want);                         \
        if (strcmp(sbt_gs_, sbt_ws_) != 0) {                                    \
            sbt_fail("%s: got \"%s\", want \"%s\" (line %d)", (what), sbt_gs_,  \
                     sbt_ws_, __LINE__);                                        \
        }                                                                       \
    } while (0)

#endif /* SYSBATCH_SBTEST_H */
