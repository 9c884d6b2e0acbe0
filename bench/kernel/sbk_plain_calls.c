/* sbk_plain_calls: the benchmark's compiler-batched mode.  Plain C - N calls
 * in a row, written the ordinary way - for each call kind and each N of the
 * sweep.  bench/kernel builds this file with the sysbatch LLVM pass, so each
 * function becomes one batch (one crossing with sys_batch, the original
 * calls without it); sbk_bench times them next to the hand-written batch.
 *
 *     long plain_getuid_8(void)   -- 8 getuid() calls, returns their sum
 */
#include <sys/stat.h>
#include <unistd.h>

#include "sbk_plain_calls.h"

/* The calls' results land in arrays so each call site stays distinct and
 * nothing between them can be folded away. */
static long plain_results[1024];
static struct stat plain_stat[1024];

#define REPEAT1(m) m
#define REPEAT2(m) REPEAT1(m) REPEAT1(m)
#define REPEAT4(m) REPEAT2(m) REPEAT2(m)
#define REPEAT8(m) REPEAT4(m) REPEAT4(m)
#define REPEAT16(m) REPEAT8(m) REPEAT8(m)
#define REPEAT32(m) REPEAT16(m) REPEAT16(m)
#define REPEAT64(m) REPEAT32(m) REPEAT32(m)

/* fstat takes the constant fd 3 (sbk_bench checks its open of "/" got 3):
 * the planner batches fstat only for an fd it knows to be non-negative,
 * since glibc answers negative fds itself.  lstat takes a literal path, so
 * no store can alias it. */
#define GETUID_CALL plain_results[i++] = getuid();
#define FSTAT_CALL sum += fstat(3, &plain_stat[i++]);
#define LSTAT_CALL sum += lstat("/", &plain_stat[i++]);

#define DEFINE(kind, call, n, ...)                                             \
    long plain_##kind##_##n(int fd, const char *path)                          \
    {                                                                          \
        long sum = 0;                                                          \
        int i = 0;                                                             \
        (void)fd; (void)path;                                                  \
        REPEAT##n(call)                                                        \
        return sum + plain_results[0];                                         \
    }

#define DEFINE_ALL(kind, call)                                                 \
    DEFINE(kind, call, 1) DEFINE(kind, call, 2) DEFINE(kind, call, 4)          \
    DEFINE(kind, call, 8) DEFINE(kind, call, 16) DEFINE(kind, call, 32)        \
    DEFINE(kind, call, 64)

DEFINE_ALL(getuid, GETUID_CALL)
DEFINE_ALL(fstat, FSTAT_CALL)
DEFINE_ALL(lstat, LSTAT_CALL)
