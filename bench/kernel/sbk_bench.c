/* sbk_bench: the c-blake-style N-sweep inside the benchmark VM.  For each
 * call (getuid, an unimplemented number, fstat, lstat) and each N it times
 * one unit of N calls, made as
 *     loop     N separate raw syscalls
 *     batch    one hand-written sys_batch of N slots
 *     rt       sysbatch_run() of the same N slots (the runtime picks the
 *              kernel path when the module is loaded, else its user loop)
 *     floor    N calls of the kernel's dispatcher from a bare in-kernel
 *              loop (bench/kernel/sysbatch_floor.ko), when loaded
 *     floor-table  the same loop calling the handler from sys_call_table
 *              (the module's default dispatch)
 *     compiler N calls written as plain C and batched by the LLVM pass
 *              (sbk_plain_calls.c; N <= 64, getuid/fstat/lstat), when
 *              built with SBK_HAVE_PLAIN
 * interleaving modes, N and repetitions so machine noise hits all alike.
 * Output: one line per sample, "S <phase> <call> <mode> <N> <ns>", for
 * bench/kernel/analyze.py to fit time = a + b*N.
 *     sbk_bench <phase> [reps [modes]]
 * modes: a comma-separated subset of loop,batch,rt,compiler,floor (all by
 * default), for phases that only compare some of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sysbatch.h"
#ifdef SBK_HAVE_PLAIN
#include "sbk_plain_calls.h"
typedef long (*plain_fn)(int, const char *);
#define PLAIN_ROW(kind) { plain_##kind##_1, plain_##kind##_2, plain_##kind##_4, plain_##kind##_8, \
                          plain_##kind##_16, plain_##kind##_32, plain_##kind##_64 }
static const plain_fn plain_fns[4][7] = { PLAIN_ROW(getuid), { 0 }, PLAIN_ROW(fstat),
                                          PLAIN_ROW(lstat) };
#endif

static inline long raw3(long nr, long a, long b, long c)
{
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
                     : "rcx", "r11", "memory");
    return ret;
}

static inline long raw_batch(long *rets, struct sysbatch_slot *s, long n)
{
    register long r10 __asm__("r10") = 0;
    register long r8 __asm__("r8") = 0;
    long ret;
    __asm__ volatile("syscall" : "=a"(ret)
                     : "a"((long)SYSBATCH_NR_BATCH), "D"(rets), "S"(s), "d"(n), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return ret;
}

static long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

enum { MAXN = 1024 };
static const int sweep[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };
static struct stat st;
static const char *path = "/";
static int fd;

struct call { const char *name; long nr, a0, a1; };
static struct call calls[4];

static long rets[MAXN];
static struct sysbatch_slot slots[MAXN];

static void fill(const struct call *c, int n)
{
    for (int i = 0; i < n; i++) {
        memset(&slots[i], 0, sizeof slots[i]);
        slots[i].nr = (short)c->nr;
        slots[i].argc = 2;
        slots[i].arg[0] = c->a0;
        slots[i].arg[1] = c->a1;
    }
}

/* Is mode one of the comma-separated words of modes? */
static int want(const char *modes, const char *mode)
{
    size_t len = strlen(mode);
    for (const char *p = modes; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, mode, len) == 0 && (p[len] == ',' || p[len] == 0))
            return 1;
    return 0;
}

static int floor_fd = -1;
static long floor_ns(const struct call *c, int n, const char *via)
{
    char cmd[128], out[64];
    int len = snprintf(cmd, sizeof cmd, "%ld %d %ld %ld 0 %s", c->nr, n, c->a0, c->a1, via);
    if (pwrite(floor_fd, cmd, len, 0) != len)
        return -1;
    int in = open("/sys/module/sysbatch_floor/parameters/last_ns", O_RDONLY);
    long got = in >= 0 ? read(in, out, sizeof out - 1) : -1;
    if (in >= 0)
        close(in);
    if (got <= 0)
        return -1;
    out[got] = 0;
    return atol(out);
}

int main(int argc, char **argv)
{
    const char *phase = argc > 1 ? argv[1] : "x";
    int reps = argc > 2 ? atoi(argv[2]) : 15;
    const char *modes = argc > 3 ? argv[3] : "loop,batch,rt,compiler,floor";
    fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    calls[0] = (struct call){ "getuid", SYS_getuid, 0, 0 };
    calls[1] = (struct call){ "enosys", 184, 0, 0 };
    calls[2] = (struct call){ "fstat", SYS_fstat, fd, (long)&st };
    calls[3] = (struct call){ "lstat", SYS_lstat, (long)path, (long)&st };
    int have_batch = raw_batch(0, 0, 0) == 0;
    floor_fd = open("/sys/module/sysbatch_floor/parameters/run", O_WRONLY);
    const char *rt_mode = sysbatch_path() == SYSBATCH_PATH_KERNEL ? "rt-kernel" : "rt-emul";
    printf("# phase %s: sys_batch %s, floor %s, runtime path %s\n", phase,
           have_batch ? "present" : "absent", floor_fd >= 0 ? "present" : "absent", rt_mode);

    for (int r = 0; r < reps; r++) {
        for (unsigned k = 0; k < sizeof sweep / sizeof sweep[0]; k++) {
            int n = sweep[k];
            for (int c = 0; c < 4; c++) {
                const struct call *call = &calls[c];
                long t0, t1, last;
                fill(call, n);

                if (want(modes, "loop")) {
                    t0 = now_ns();
                    for (int i = 0; i < n; i++)
                        raw3(call->nr, call->a0, call->a1, 0);
                    t1 = now_ns();
                    printf("S %s %s loop %d %ld\n", phase, call->name, n, t1 - t0);
                }

                if (have_batch && want(modes, "batch")) {
                    t0 = now_ns();
                    last = raw_batch(rets, slots, n);
                    t1 = now_ns();
                    if (last != n - 1 || (c != 1 && rets[n - 1] < 0)) {
                        fprintf(stderr, "%s batch of %d: returned %ld, last ret %ld\n",
                                call->name, n, last, rets[n - 1]);
                        return 1;
                    }
                    printf("S %s %s batch %d %ld\n", phase, call->name, n, t1 - t0);
                }

                if (want(modes, "rt")) {
                    t0 = now_ns();
                    last = sysbatch_run(rets, slots, n, 0);
                    t1 = now_ns();
                    if (last != n - 1) {
                        fprintf(stderr, "%s sysbatch_run of %d: returned %ld\n", call->name, n,
                                last);
                        return 1;
                    }
                    printf("S %s %s %s %d %ld\n", phase, call->name, rt_mode, n, t1 - t0);
                }

#ifdef SBK_HAVE_PLAIN
                /* sweep[k] == 1 << k up to 64; fstat's functions use fd 3 */
                if (k < 7 && plain_fns[c][k] && (c != 2 || fd == 3) && want(modes, "compiler")) {
                    t0 = now_ns();
                    plain_fns[c][k](fd, path);
                    t1 = now_ns();
                    printf("S %s %s compiler %d %ld\n", phase, call->name, n, t1 - t0);
                }
#endif

                if (floor_fd >= 0 && want(modes, "floor")) {
                    long ns = floor_ns(call, n, "");
                    long ns_table = floor_ns(call, n, "table");
                    if (ns < 0 || ns_table < 0) {
                        fprintf(stderr, "floor run failed\n");
                        return 1;
                    }
                    printf("S %s %s floor %d %ld\n", phase, call->name, n, ns);
                    printf("S %s %s floor-table %d %ld\n", phase, call->name, n, ns_table);
                }
            }
        }
    }
    return 0;
}
