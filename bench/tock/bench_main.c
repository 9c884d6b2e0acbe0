/* Tock series-call benchmark app: runs every generated call site once
 * (bench_sites[], from tock_bench.py's sites.c) between two calls of
 * bench_mark(), whose first instruction the insn_count qemu plugin watches.
 * On RV32 it also reads the instret CSR around each site (exact under
 * qemu -icount shift=0) and prints the difference; on both ISAs it prints
 * every site's result, which must be 0 (all calls succeeded).
 *
 * Every count includes the same fixed overhead (the marker calls, the
 * indirect call); the "empty" site measures it and tock_bench.py subtracts it.
 */
#include <stdint.h>

#include "app_io.h"

struct bench_site {
    const char *variant;
    unsigned calls;
    int (*fn)(uint32_t x);
};
extern const struct bench_site bench_sites[];
extern const unsigned bench_nsites;

/* The LED the sites switch: read from memory so no call site can fold it. */
volatile uint32_t bench_led = 1;

__attribute__((noinline)) void bench_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

static inline uint32_t read_instret(void)
{
#if defined(__riscv)
    uint32_t v;
    __asm__ volatile("rdinstret %0" : "=r"(v));
    return v;
#else
    return 0;
#endif
}

int main(void)
{
    int failures = 0;
    for (unsigned i = 0; i < bench_nsites; i++) {
        const struct bench_site *s = &bench_sites[i];
        uint32_t x = bench_led;
        uint32_t before = read_instret();
        bench_mark();
        int r = s->fn(x);
        bench_mark();
        uint32_t after = read_instret();
        app_printf("site %s %u result %d instret %u\n", s->variant, s->calls, r, after - before);
        failures += r != 0;
    }
    return failures;
}
