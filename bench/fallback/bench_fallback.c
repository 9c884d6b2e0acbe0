/* Fallback dispatch cost: how much the runtime's user-space batch loop adds
 * per slot over issuing the same system calls directly.
 *
 *     raw    N x getuid through an inline `syscall` instruction
 *     libc   N x getuid() through glibc
 *     emul   one sysbatch_run() of N getuid slots on the emulated path
 *
 * `bench_fallback time REPS N...` prints one line per sample,
 * "kind N ns_per_batch", with kinds and sizes interleaved in one run (the
 * order rotates every round) so machine noise hits all of them alike.
 * `bench_fallback count KIND N ROUNDS` runs ROUNDS batches of one kind inside
 * sbbench_measure(), for callgrind --toggle-collect=sbbench_measure.
 * run.py drives both, fits time = a + b*N and writes the table.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sysbatch.h"

enum kind { KIND_RAW, KIND_LIBC, KIND_EMUL, NKINDS };
static const char *const kind_names[NKINDS] = { "raw", "libc", "emul" };

static struct sysbatch_slot slots[SYSBATCH_MAX_SLOTS];
static long rets[SYSBATCH_MAX_SLOTS];
static volatile long sink;

static inline long raw_getuid(void)
{
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "0"((long)SYS_getuid) : "rcx", "r11", "memory");
    return ret;
}

/* One batch of n getuid calls of the given kind. */
static void run_once(enum kind k, long n)
{
    long i, acc = 0;
    switch (k) {
    case KIND_RAW:
        for (i = 0; i < n; i++) {
            acc += raw_getuid();
        }
        break;
    case KIND_LIBC:
        for (i = 0; i < n; i++) {
            acc += getuid();
        }
        break;
    case KIND_EMUL:
        acc = sysbatch_run(rets, slots, n, 0);
        break;
    default:
        break;
    }
    sink = acc;
}

__attribute__((noinline)) void sbbench_measure(enum kind k, long n, long rounds)
{
    long r;
    for (r = 0; r < rounds; r++) {
        run_once(k, n);
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int parse_kind(const char *s)
{
    int k;
    for (k = 0; k < NKINDS; k++) {
        if (strcmp(s, kind_names[k]) == 0) {
            return k;
        }
    }
    fprintf(stderr, "bench_fallback: unknown kind '%s' (raw, libc, emul)\n", s);
    exit(2);
}

static long parse_n(const char *s)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || n < 1 || n > SYSBATCH_MAX_SLOTS) {
        fprintf(stderr, "bench_fallback: N must be 1..%d, got '%s'\n", SYSBATCH_MAX_SLOTS, s);
        exit(2);
    }
    return n;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_fallback time REPS N...\n"
                    "       bench_fallback count raw|libc|emul N ROUNDS\n"
                    "(run with BATCH_EMUL=1 so 'emul' measures the user-space loop)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    long i;
    if (argc < 3) {
        usage();
    }
    if (sysbatch_path() != SYSBATCH_PATH_EMUL) {
        fprintf(stderr, "bench_fallback: the runtime took the kernel path; "
                        "set BATCH_EMUL=1 to measure the emulator\n");
        return 2;
    }
    for (i = 0; i < SYSBATCH_MAX_SLOTS; i++) {
        struct sysbatch_slot s = SYSBATCH_SLOT0(SYS_getuid);
        slots[i] = s;
    }
    if (strcmp(argv[1], "count") == 0) {
        if (argc != 5) {
            usage();
        }
        sbbench_measure(parse_kind(argv[2]), parse_n(argv[3]), atol(argv[4]));
        return 0;
    }
    if (strcmp(argv[1], "time") == 0) {
        long reps = atol(argv[2]), nsizes = argc - 3, rep;
        long *sizes = calloc((size_t)nsizes, sizeof *sizes);
        if (reps < 1 || nsizes < 1 || !sizes) {
            usage();
        }
        for (i = 0; i < nsizes; i++) {
            sizes[i] = parse_n(argv[3 + i]);
        }
        for (i = 0; i < 3; i++) { /* warm caches and branch predictors */
            sbbench_measure(KIND_RAW, SYSBATCH_MAX_SLOTS, 1);
            sbbench_measure(KIND_EMUL, SYSBATCH_MAX_SLOTS, 1);
        }
        for (rep = 0; rep < reps; rep++) {
            long j;
            for (j = 0; j < nsizes; j++) {
                long n = sizes[(j + rep) % nsizes];
                long inner = n >= 256 ? 2 : 512 / n; /* keep each sample ~25-100 us */
                int kk;
                for (kk = 0; kk < NKINDS; kk++) {
                    enum kind k = (enum kind)((kk + rep) % NKINDS);
                    double t0 = now_ns();
                    sbbench_measure(k, n, inner);
                    printf("%s %ld %.1f\n", kind_names[k], n, (now_ns() - t0) / (double)inner);
                }
            }
        }
        free(sizes);
        return 0;
    }
    usage();
    return 2;
}
