/* Equivalence app: the same driver sequences, built twice.
 *   -DUSE_SERIES=0  plain libtock-c calls, one trap each
 *   -DUSE_SERIES=1  the same calls as hand-written series (runtime API:
 *                   frames filled directly, from a word template and from a
 *                   byte template), results converted by sysbatch_tock_ret_*
 * Both print every return struct.  The tests diff the two runs as two
 * streams: the kernel's (trace of every call, console output, upcalls,
 * LED/counter state; minus the lines naming the series itself) and the
 * app's (every struct, upcall records), and FileCheck the content.
 *
 * The phases have no branches on results, so the series use the continue
 * policy: every call runs, as in the plain build.
 */
#include <stdint.h>

#include "app_io.h"
#include "sysbatch_tock.h"

#ifndef USE_SERIES
#error "build with -DUSE_SERIES=0 or 1"
#endif

static const char message[] = "hello from the app";
static uint32_t counter_cell;
static uint32_t counter_shadow;
static int console_done;
static uint32_t console_ud;
static int counter_upcalls;
static int counter_last, counter_by;
static uint32_t counter_ud;

/* Upcalls only record: a print here would land at a different place among
 * the app's own prints in the two builds (a series runs all its calls
 * before the app prints the first result). */
static void console_cb(int status, int n, int unused, void *ud)
{
    (void)status;
    (void)unused;
    console_done = n;
    console_ud = (uint32_t)(uintptr_t)ud;
}

static void counter_cb(int value, int by, int unused, void *ud)
{
    (void)unused;
    counter_upcalls++;
    counter_last = value;
    counter_by = by;
    counter_ud = (uint32_t)(uintptr_t)ud;
}

static void name_pointers(void)
{
    app_name_ptr(message, "message");
    app_name_ptr(&counter_cell, "counter_cell");
    app_name_ptr(&counter_shadow, "counter_shadow");
    app_name_ptr((const void *)(uintptr_t)console_cb, "console_cb");
    app_name_ptr((const void *)(uintptr_t)counter_cb, "counter_cb");
}

#if USE_SERIES
typedef struct sysbatch_tock_frame frame_t;

static void set(frame_t *f, uint32_t cls, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    f->syscall_class = cls;
    f->r0 = a;
    f->r1 = b;
    f->r2 = c;
    f->r3 = d;
}

static void show_command(const char *what, const frame_t *f)
{
    syscall_return_t r;
    sysbatch_tock_ret_command(&r, f);
    print_command(what, r);
}

static void show_subscribe(const char *what, const frame_t *f)
{
    subscribe_return_t r;
    sysbatch_tock_ret_subscribe(&r, f);
    print_subscribe(what, r);
}

static void show_allow_ro(const char *what, const frame_t *f)
{
    allow_ro_return_t r;
    sysbatch_tock_ret_allow(&r, f);
    print_allow_ro(what, r);
}

static void show_allow_rw(const char *what, const frame_t *f)
{
    allow_rw_return_t r;
    sysbatch_tock_ret_allow(&r, f);
    print_allow_rw(what, r);
}

static void show_allow_ur(const char *what, const frame_t *f)
{
    allow_userspace_r_return_t r;
    sysbatch_tock_ret_allow(&r, f);
    print_allow_ur(what, r);
}

static void show_memop(const char *what, const frame_t *f)
{
    memop_return_t r;
    sysbatch_tock_ret_memop(&r, f);
    print_memop(what, r);
}

static void run(frame_t *f, uint32_t n)
{
    uint32_t left = sysbatch_tock_series(f, n, SYSBATCH_TOCK_POLICY_CONTINUE);
    if (left != 0)
        app_printf("series: %u calls not run\n", left);
}
#endif

/* Phase A: LEDs, one failing call in the middle. */
static void leds(void)
{
#if !USE_SERIES
    print_command("led count", command(DRV_LED, 0, 0, 0));
    print_command("led on 0", command(DRV_LED, 1, 0, 0));
    print_command("led toggle 1", command(DRV_LED, 3, 1, 0));
    print_command("led on 7", command(DRV_LED, 1, 7, 0));
    print_command("led off 0", command(DRV_LED, 2, 0, 0));
    print_command("led on 3", command(DRV_LED, 1, 3, 0));
    print_command("led bad cmd", command(DRV_LED, 9, 0, 0));
#else
    frame_t f[7];
    set(&f[0], 2, DRV_LED, 0, 0, 0);
    set(&f[1], 2, DRV_LED, 1, 0, 0);
    set(&f[2], 2, DRV_LED, 3, 1, 0);
    set(&f[3], 2, DRV_LED, 1, 7, 0);
    set(&f[4], 2, DRV_LED, 2, 0, 0);
    set(&f[5], 2, DRV_LED, 1, 3, 0);
    set(&f[6], 2, DRV_LED, 9, 0, 0);
    run(f, 7);
    show_command("led count", &f[0]);
    show_command("led on 0", &f[1]);
    show_command("led toggle 1", &f[2]);
    show_command("led on 7", &f[3]);
    show_command("led off 0", &f[4]);
    show_command("led on 3", &f[5]);
    show_command("led bad cmd", &f[6]);
#endif
}

/* Phase B: console write with its upcall; setup ends in a yield. */
static void console(void)
{
    uint32_t len = sizeof message - 1;
#if !USE_SERIES
    print_allow_ro("console allow", allow_readonly(DRV_CONSOLE, 1, message, len));
    print_subscribe("console subscribe", subscribe(DRV_CONSOLE, 1, console_cb, (void *)0x55));
    print_command("console write", command(DRV_CONSOLE, 1, (int)len, 0));
    yield();
    print_subscribe("console unsubscribe", subscribe(DRV_CONSOLE, 1, NULL, NULL));
    print_allow_ro("console unallow", allow_readonly(DRV_CONSOLE, 1, NULL, 0));
    print_command("console write unallowed", command(DRV_CONSOLE, 1, 3, 0));
#else
    /* Setup from a byte template: patches are message, len, console_cb, len. */
    static const uint8_t setup[] __attribute__((aligned(4))) = {
        4, SYSBATCH_TOCK_POLICY_CONTINUE, 4, SYSBATCH_TOCK_TEMPLATE_BYTES,
        3, 4, 8, 13,
        4, DRV_CONSOLE, 1, 0, 0,
        1, DRV_CONSOLE, 1, 0, 0x55,
        2, DRV_CONSOLE, 1, 0, 0,
        0, YIELD_WAIT, 0, 0, 0,
    };
    uint32_t space[SYSBATCH_TOCK_SPACE_WORDS(4, 4)];
    frame_t *f = (frame_t *)space;
    space[20] = (uint32_t)(uintptr_t)message;
    space[21] = len;
    space[22] = (uint32_t)(uintptr_t)console_cb;
    space[23] = len;
    uint32_t left = sysbatch_tock_series_template(f, setup);
    if (left != 0)
        app_printf("series: %u calls not run\n", left);
    show_allow_ro("console allow", &f[0]);
    show_subscribe("console subscribe", &f[1]);
    show_command("console write", &f[2]);
    /* Teardown from a word template, no patches. */
    static const uint32_t teardown[] = {
        3 | SYSBATCH_TOCK_POLICY_CONTINUE << 8 | 0 << 16 | SYSBATCH_TOCK_TEMPLATE_WORDS << 24,
        1, DRV_CONSOLE, 1, 0, 0,
        4, DRV_CONSOLE, 1, 0, 0,
        2, DRV_CONSOLE, 1, 3, 0,
    };
    frame_t g[3];
    left = sysbatch_tock_series_template(g, teardown);
    if (left != 0)
        app_printf("series: %u calls not run\n", left);
    show_subscribe("console unsubscribe", &g[0]);
    show_allow_ro("console unallow", &g[1]);
    show_command("console write unallowed", &g[2]);
#endif
    app_printf("console done=%d ud=%x\n", console_done, console_ud);
}

/* Phase C: counter with a read-write and a userspace-readable buffer. */
static void counter(void)
{
#if !USE_SERIES
    print_command("counter inc no buffer", command(DRV_COUNTER, 1, 1, 0));
    print_allow_rw("counter allow", allow_readwrite(DRV_COUNTER, 0, &counter_cell, 4));
    print_allow_ur("counter shadow", allow_userspace_read(DRV_COUNTER, 0, &counter_shadow, 4));
    print_subscribe("counter subscribe", subscribe(DRV_COUNTER, 0, counter_cb, (void *)0x77));
    print_command("counter inc 5", command(DRV_COUNTER, 1, 5, 0));
    print_command("counter get", command(DRV_COUNTER, 2, 0, 0));
    print_command("counter get3", command(DRV_COUNTER, 3, 0, 0));
    print_command("counter fail", command(DRV_COUNTER, 4, 0, 0));
    print_allow_rw("counter bad allow", allow_readwrite(DRV_COUNTER, 0, (void *)0x10, 4));
    print_subscribe("counter bad subscribe", subscribe(DRV_COUNTER, 5, counter_cb, (void *)1));
    print_allow_rw("nodevice allow", allow_readwrite(0x4242, 0, &counter_cell, 4));
    yield();
#else
    frame_t f[11];
    set(&f[0], 2, DRV_COUNTER, 1, 1, 0);
    set(&f[1], 3, DRV_COUNTER, 0, (uint32_t)(uintptr_t)&counter_cell, 4);
    set(&f[2], 7, DRV_COUNTER, 0, (uint32_t)(uintptr_t)&counter_shadow, 4);
    set(&f[3], 1, DRV_COUNTER, 0, (uint32_t)(uintptr_t)counter_cb, 0x77);
    set(&f[4], 2, DRV_COUNTER, 1, 5, 0);
    set(&f[5], 2, DRV_COUNTER, 2, 0, 0);
    set(&f[6], 2, DRV_COUNTER, 3, 0, 0);
    set(&f[7], 2, DRV_COUNTER, 4, 0, 0);
    set(&f[8], 3, DRV_COUNTER, 0, 0x10, 4);
    set(&f[9], 1, DRV_COUNTER, 5, (uint32_t)(uintptr_t)counter_cb, 1);
    set(&f[10], 3, 0x4242, 0, (uint32_t)(uintptr_t)&counter_cell, 4);
    run(f, 11);
    show_command("counter inc no buffer", &f[0]);
    show_allow_rw("counter allow", &f[1]);
    show_allow_ur("counter shadow", &f[2]);
    show_subscribe("counter subscribe", &f[3]);
    show_command("counter inc 5", &f[4]);
    show_command("counter get", &f[5]);
    show_command("counter get3", &f[6]);
    show_command("counter fail", &f[7]);
    show_allow_rw("counter bad allow", &f[8]);
    show_subscribe("counter bad subscribe", &f[9]);
    show_allow_rw("nodevice allow", &f[10]);
    frame_t y[1];
    set(&y[0], 0, YIELD_WAIT, 0, 0, 0);
    run(y, 1);
#endif
    app_printf("counter cell=%u shadow=%u upcalls=%d last=%d by=%d ud=%x\n", counter_cell,
               counter_shadow, counter_upcalls, counter_last, counter_by, counter_ud);
}

/* Phase D: memop and yield-no-wait (with and without an upcall pending). */
static void memory_and_polling(void)
{
#if !USE_SERIES
    print_memop("memop ram start", memop(2, 0));
    print_memop("memop ram end", memop(3, 0));
    print_memop("memop unknown", memop(99, 0));
    print_memop("memop brk too low", memop(0, 16));
    app_printf("poll idle=%d\n", yield_no_wait());
    print_command("counter inc 2", command(DRV_COUNTER, 1, 2, 0));
    app_printf("poll pending=%d\n", yield_no_wait());
#else
    frame_t f[4];
    set(&f[0], 5, 2, 0, 0, 0);
    set(&f[1], 5, 3, 0, 0, 0);
    set(&f[2], 5, 99, 0, 0, 0);
    set(&f[3], 5, 0, 16, 0, 0);
    run(f, 4);
    show_memop("memop ram start", &f[0]);
    show_memop("memop ram end", &f[1]);
    show_memop("memop unknown", &f[2]);
    show_memop("memop brk too low", &f[3]);
    /* A yield-no-wait as the last call: its frame says whether an upcall ran. */
    volatile uint8_t ran = 0xaa;
    frame_t p[1];
    set(&p[0], 0, YIELD_NO_WAIT, (uint32_t)(uintptr_t)&ran, 0, 0);
    run(p, 1);
    app_printf("poll idle=%d\n", (int)p[0].r1);
    frame_t q[2];
    set(&q[0], 2, DRV_COUNTER, 1, 2, 0);
    set(&q[1], 0, YIELD_NO_WAIT, (uint32_t)(uintptr_t)&ran, 0, 0);
    run(q, 2);
    show_command("counter inc 2", &q[0]);
    app_printf("poll pending=%d\n", (int)ran);
#endif
    app_printf("counter upcalls=%d last=%d by=%d\n", counter_upcalls, counter_last, counter_by);
}

int main(void)
{
    name_pointers();
    leds();
    console();
    counter();
    memory_and_polling();
    return 3;
}

/* Expected results (the tests diff the plain and series builds first, then
 * check the plain build's app stream (APP) and kernel stream (KERN) here).
 *
 * APP:      led count: command type=129 data=4,0,0
 * APP-NEXT: led on 0: command type=128 data=0,0,0
 * APP-NEXT: led toggle 1: command type=128 data=0,0,0
 * APP-NEXT: led on 7: command type=0 data=6,0,0
 * APP-NEXT: led off 0: command type=128 data=0,0,0
 * APP-NEXT: led on 3: command type=128 data=0,0,0
 * APP-NEXT: led bad cmd: command type=0 data=a,0,0
 * APP-NEXT: console allow: allow-ro success=1 ptr=null size=0 status=0
 * APP-NEXT: console subscribe: subscribe success=1 callback=null userdata=0 status=0
 * APP-NEXT: console write: command type=128 data=0,0,0
 * APP-NEXT: console unsubscribe: subscribe success=1 callback=console_cb userdata=55 status=0
 * APP-NEXT: console unallow: allow-ro success=1 ptr=message size=18 status=0
 * APP-NEXT: console write unallowed: command type=0 data=5,0,0
 * APP-NEXT: console done=18 ud=55
 * APP-NEXT: counter inc no buffer: command type=0 data=5,0,0
 * APP-NEXT: counter allow: allow-rw success=1 ptr=null size=0 status=0
 * APP-NEXT: counter shadow: allow-ur success=1 ptr=null size=0 status=0
 * APP-NEXT: counter subscribe: subscribe success=1 callback=null userdata=0 status=0
 * APP-NEXT: counter inc 5: command type=128 data=0,0,0
 * APP-NEXT: counter get: command type=129 data=5,0,0
 * APP-NEXT: counter get3: command type=132 data=5,fffffffa,f
 * APP-NEXT: counter fail: command type=1 data=1,5,0
 * APP-NEXT: counter bad allow: allow-rw success=0 ptr=unnamed size=4 status=6
 * APP-NEXT: counter bad subscribe: subscribe success=0 callback=counter_cb userdata=1 status=10
 * APP-NEXT: nodevice allow: allow-rw success=0 ptr=counter_cell size=4 status=11
 * APP-NEXT: counter cell=5 shadow=5 upcalls=1 last=5 by=5 ud=77
 * APP-NEXT: memop ram start: memop status=0 data={{[0-9a-f]+}}
 * APP-NEXT: memop ram end: memop status=0 data={{[0-9a-f]+}}
 * APP-NEXT: memop unknown: memop status=10 data=0
 * APP-NEXT: memop brk too low: memop status=9 data=0
 * APP-NEXT: poll idle=0
 * APP-NEXT: counter inc 2: command type=128 data=0,0,0
 * APP-NEXT: poll pending=1
 * APP-NEXT: counter upcalls=2 last=7 by=2
 * APP:      EXIT 3
 * KERN:      K: command 0x2 0x0 0x0 0x0 -> 0x81 0x4 0x0 0x0
 * KERN-NEXT: K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * KERN-NEXT: K: command 0x2 0x3 0x1 0x0 -> 0x80 0x0 0x0 0x0
 * KERN-NEXT: K: command 0x2 0x1 0x7 0x0 -> 0x0 0x6 0x0 0x0
 * KERN-NEXT: K: command 0x2 0x2 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * KERN-NEXT: K: command 0x2 0x1 0x3 0x0 -> 0x80 0x0 0x0 0x0
 * KERN-NEXT: K: command 0x2 0x9 0x0 0x0 -> 0x0 0xa 0x0 0x0
 * KERN-NEXT: K: allow-ro 0x1 0x1 p 0x12 -> 0x82 0 0x0 0x0
 * KERN-NEXT: K: subscribe 0x1 0x1 p 0x55 -> 0x82 0 0x0 0x0
 * KERN-NEXT: console: hello from the app
 * KERN-NEXT: K: command 0x1 0x1 0x12 0x0 -> 0x80 0x0 0x0 0x0
 * KERN-NEXT: K: yield 0x1 0
 * KERN-NEXT: K: upcall 0x1 0x1 0x0 0x12 0x0 0x55
 * KERN-NEXT: K: subscribe 0x1 0x1 0 0x0 -> 0x82 p 0x55 0x0
 * KERN-NEXT: K: allow-ro 0x1 0x1 0 0x0 -> 0x82 p 0x12 0x0
 * KERN-NEXT: K: command 0x1 0x1 0x3 0x0 -> 0x0 0x5 0x0 0x0
 * KERN-NEXT: K: command 0x90 0x1 0x1 0x0 -> 0x0 0x5 0x0 0x0
 * KERN-NEXT: K: allow-rw 0x90 0x0 p 0x4 -> 0x82 0 0x0 0x0
 * KERN-NEXT: K: allow-ur 0x90 0x0 p 0x4 -> 0x82 0 0x0 0x0
 * KERN-NEXT: K: subscribe 0x90 0x0 p 0x77 -> 0x82 0 0x0 0x0
 * KERN-NEXT: K: command 0x90 0x1 0x5 0x0 -> 0x80 0x0 0x0 0x0
 * KERN-NEXT: K: command 0x90 0x2 0x0 0x0 -> 0x81 0x5 0x0 0x0
 * KERN-NEXT: K: command 0x90 0x3 0x0 0x0 -> 0x84 0x5 0xfffffffa 0xf
 * KERN-NEXT: K: command 0x90 0x4 0x0 0x0 -> 0x1 0x1 0x5 0x0
 * KERN-NEXT: K: allow-rw 0x90 0x0 p 0x4 -> 0x2 0x6 p 0x4
 * KERN-NEXT: K: subscribe 0x90 0x5 p 0x1 -> 0x2 0xa p 0x1
 * KERN-NEXT: K: allow-rw 0x4242 0x0 p 0x4 -> 0x2 0xb p 0x4
 * KERN-NEXT: K: yield 0x1 0
 * KERN-NEXT: K: upcall 0x90 0x0 0x5 0x5 0x0 0x77
 * KERN-NEXT: K: memop 0x2 0x0 0x0 0x0 -> 0x81 p 0x0 0x0
 * KERN-NEXT: K: memop 0x3 0x0 0x0 0x0 -> 0x81 p 0x0 0x0
 * KERN-NEXT: K: memop 0x63 0x0 0x0 0x0 -> 0x0 0xa 0x0 0x0
 * KERN-NEXT: K: memop 0x0 0x10 0x0 0x0 -> 0x0 0x9 0x0 0x0
 * KERN-NEXT: K: yield 0x0 p
 * KERN-NEXT: K: command 0x90 0x1 0x2 0x0 -> 0x80 0x0 0x0 0x0
 * KERN-NEXT: K: yield 0x0 p
 * KERN-NEXT: K: upcall 0x90 0x0 0x7 0x2 0x0 0x77
 * KERN-NEXT: K: leds 1010 counter 7
 * KERN-NEXT: K: exit 3
 * PLAIN:  K: stats traps 34 calls 34 series 0 upcalls 3
 * SERIES: K: stats traps 9 calls 34 series 8 upcalls 3
 */
