/* Series-call semantics on the test kernel, through the runtime API:
 * the stop and continue policies, the count of calls not executed, a yield
 * as the last call (with its upcall), refused series (two yields, a yield
 * not last, count 0, exit inside), frame templates (both encodings, escapes,
 * patches) and a malformed template; sysbatch_tock_run (checked and
 * unchecked failures, in-place conversion, the call-by-call fallback of a
 * refused series); sysbatch_tock_run_commands (the marks as a mask) and
 * sysbatch_tock_run_template_commands, without conversion.  Checked line by line with FileCheck
 * (the kernel traces every call that runs, so "did not run" is visible).
 */
#include <stdint.h>

#include "app_io.h"
#include "sysbatch_tock.h"

typedef struct sysbatch_tock_frame frame_t;

static uint32_t cell;
static int upcalls, last_value;

static void counter_cb(int value, int by, int unused, void *ud)
{
    (void)by;
    (void)unused;
    (void)ud;
    upcalls++;
    last_value = value;
}

static void set(frame_t *f, uint32_t cls, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    f->syscall_class = cls;
    f->r0 = a;
    f->r1 = b;
    f->r2 = c;
    f->r3 = d;
}

static void show_frames(const frame_t *f, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        app_printf("frame %u: %x %x %x %x %x\n", i, f[i].syscall_class, f[i].r0, f[i].r1,
                   f[i].r2, f[i].r3);
}

static void led_four(frame_t *f, uint32_t bad_led)
{
    set(&f[0], 2, DRV_LED, 1, 0, 0);
    set(&f[1], 2, DRV_LED, 1, bad_led, 0);
    set(&f[2], 2, DRV_LED, 1, 1, 0);
    set(&f[3], 2, DRV_LED, 1, 2, 0);
}

static void report(const char *what, struct sysbatch_tock_reply r, frame_t *f, uint32_t n)
{
    app_printf("%s: variant=%u value=%u\n", what, r.variant, r.value);
    show_frames(f, n);
}

int main(void)
{
    frame_t f[4];
    struct sysbatch_tock_reply r;

    /* Stop policy, the second of four calls fails: two calls not run. */
    led_four(f, 9);
    r = sysbatch_tock_series_call(f, 4, SYSBATCH_TOCK_POLICY_STOP);
    report("stop", r, f, 4);
    led_four(f, 9);
    app_printf("stop left=%u\n", sysbatch_tock_series(f, 4, SYSBATCH_TOCK_POLICY_STOP));

    /* Any policy value but 1 stops. */
    led_four(f, 9);
    app_printf("policy 7 left=%u\n", sysbatch_tock_series(f, 4, 7));

    /* Continue policy: all four run, the failure stays in its frame. */
    led_four(f, 9);
    r = sysbatch_tock_series_call(f, 4, SYSBATCH_TOCK_POLICY_CONTINUE);
    report("continue", r, f, 4);

    /* Stop with the failure in the last call: nothing left, but Failure+u32. */
    led_four(f, 1);
    set(&f[3], 2, DRV_LED, 1, 8, 0);
    r = sysbatch_tock_series_call(f, 4, SYSBATCH_TOCK_POLICY_STOP);
    app_printf("fail last: variant=%u value=%u\n", r.variant, r.value);

    /* Setup + yield last: the upcall runs before the series returns. */
    set(&f[0], 3, DRV_COUNTER, 0, (uint32_t)(uintptr_t)&cell, 4);
    set(&f[1], 1, DRV_COUNTER, 0, (uint32_t)(uintptr_t)counter_cb, 0);
    set(&f[2], 2, DRV_COUNTER, 1, 6, 0);
    set(&f[3], 0, YIELD_WAIT, 0, 0, 0);
    app_printf("yield last left=%u upcalls=%d value=%d cell=%u yield frame=%x,%x\n",
               sysbatch_tock_series(f, 4, SYSBATCH_TOCK_POLICY_STOP), upcalls, last_value,
               cell, f[3].r0, f[3].r1);

    /* Yield last but the stop policy ends the series first: no yield. */
    set(&f[0], 2, DRV_COUNTER, 1, 1, 0);
    set(&f[1], 2, DRV_COUNTER, 9, 0, 0);
    set(&f[2], 0, YIELD_WAIT, 0, 0, 0);
    r = sysbatch_tock_series_call(f, 3, SYSBATCH_TOCK_POLICY_STOP);
    app_printf("yield skipped: variant=%u value=%u upcalls=%d\n", r.variant, r.value, upcalls);
    yield(); /* the increment's upcall is still pending */
    app_printf("after yield upcalls=%d value=%d\n", upcalls, last_value);

    /* Refused before anything runs: Failure INVALID (6), all calls left. */
    set(&f[0], 0, YIELD_NO_WAIT, 0, 0, 0);
    set(&f[1], 2, DRV_LED, 3, 0, 0);
    set(&f[2], 0, YIELD_NO_WAIT, 0, 0, 0);
    r = sysbatch_tock_series_call(f, 3, SYSBATCH_TOCK_POLICY_CONTINUE);
    app_printf("two yields: variant=%u value=%u\n", r.variant, r.value);
    set(&f[0], 0, YIELD_NO_WAIT, 0, 0, 0);
    set(&f[1], 2, DRV_LED, 3, 0, 0);
    app_printf("yield first left=%u\n", sysbatch_tock_series(f, 2, SYSBATCH_TOCK_POLICY_CONTINUE));
    r = sysbatch_tock_series_call(f, 0, SYSBATCH_TOCK_POLICY_CONTINUE);
    app_printf("count 0: variant=%u value=%u\n", r.variant, r.value);
    set(&f[0], 2, DRV_LED, 3, 0, 0);
    set(&f[1], 6, 0, 0, 0, 0);
    app_printf("exit inside left=%u\n", sysbatch_tock_series(f, 2, SYSBATCH_TOCK_POLICY_CONTINUE));
    set(&f[1], SYSBATCH_TOCK_CLASS_SERIES, 1, (uint32_t)(uintptr_t)f, 1, 0);
    app_printf("nested left=%u\n", sysbatch_tock_series(f, 2, SYSBATCH_TOCK_POLICY_CONTINUE));

    /* Templates: the byte encoding with an escaped word and two patches,
     * and the word encoding; both fill the same frames. */
    static const uint8_t bytes_tmpl[] __attribute__((aligned(4))) = {
        2, SYSBATCH_TOCK_POLICY_STOP, 2, SYSBATCH_TOCK_TEMPLATE_BYTES,
        3, 7,
        2, DRV_LED, 3, 0, 0,
        2, 0xff, 0x42, 0x42, 0x01, 0x00, 7, 0, 0xfe,
    };
    static const uint32_t words_tmpl[] = {
        2 | SYSBATCH_TOCK_POLICY_STOP << 8 | 2 << 16 | SYSBATCH_TOCK_TEMPLATE_WORDS << 24,
        3 | 7 << 8,
        2, DRV_LED, 3, 0, 0,
        2, 0x14242, 7, 0, 0xfe,
    };
    uint32_t space[SYSBATCH_TOCK_SPACE_WORDS(2, 2)];
    frame_t *t = (frame_t *)space;
    space[10] = 3;
    space[11] = 0x1234;
    app_printf("fill bytes=%u\n", sysbatch_tock_template_fill(t, bytes_tmpl));
    show_frames(t, 2);
    space[10] = 3;
    space[11] = 0x1234;
    app_printf("fill words=%u\n", sysbatch_tock_template_fill(t, words_tmpl));
    show_frames(t, 2);
    /* Run it: LED 3 toggles, then the unknown driver fails (last call). */
    space[10] = 3;
    app_printf("template left=%u\n", sysbatch_tock_series_template(t, bytes_tmpl));
    show_frames(t, 2);

    static const uint8_t bad_tmpl[] __attribute__((aligned(4))) = {1, 0, 0, 9, 2, 2, 1, 0, 0};
    app_printf("bad template left=%u\n", sysbatch_tock_series_template(t, bad_tmpl));
    static const uint8_t bad_patch[] __attribute__((aligned(4))) = {1, 0, 1, 1, 5, 2, 2, 1, 0, 0};
    app_printf("bad patch index left=%u\n", sysbatch_tock_series_template(t, bad_patch));
    static const uint8_t zero_count[] __attribute__((aligned(4))) = {0, 0, 0, 1};
    app_printf("zero-count template left=%u\n", sysbatch_tock_series_template(t, zero_count));

    /* Converters on variants a call cannot return: success = false, FAIL. */
    frame_t odd;
    set(&odd, 1, SYSBATCH_TOCK_SUCCESS_U32, 5, 6, 7);
    uint32_t out[4];
    sysbatch_tock_ret_subscribe(out, &odd);
    app_printf("odd subscribe: %u %x %x %u\n", out[0], out[1], out[2], out[3]);
    sysbatch_tock_ret_allow(out, &odd);
    app_printf("odd allow: %u %x %x %u\n", out[0], out[1], out[2], out[3]);
    set(&odd, 5, SYSBATCH_TOCK_FAILURE_2U32, 5, 6, 7);
    sysbatch_tock_ret_memop(out, &odd);
    app_printf("odd memop: %u %x\n", out[0], out[1]);
    set(&odd, 2, SYSBATCH_TOCK_SUCCESS_U32_U64, 5, 6, 7);
    sysbatch_tock_ret_command(out, &odd);
    app_printf("command u32+u64: %u %x %x %x\n", out[0], out[1], out[2], out[3]);

    /* sysbatch_tock_take: sites 0 and 1 convert their frames; the series
     * stopped at site 1's failure, so sites 2 and 3 each make their own
     * call (one trap each, its class's trap) when they are reached. */
    frame_t g[4];
    set(&g[0], 2, 2, 2, 3, 0);                 /* led off 3 */
    set(&g[1], 2, 2, 2, 9, 0);                 /* led off 9: fails */
    set(&g[2], 5, 10, 0, 0, 0);                /* memop hint */
    set(&g[3], 2, 0x90, 2, 0, 0);              /* counter get */
    uint32_t ran = 4 - sysbatch_tock_series(g, 4, SYSBATCH_TOCK_POLICY_STOP);
    app_printf("take ran=%u\n", ran);
    uint32_t word[4];
    for (uint32_t k = 0; k < 4; k++) {
        word[0] = word[1] = word[2] = word[3] = 0xeeeeeeee;
        sysbatch_tock_take(word, g, k, ran);
        app_printf("take %u: %x %x %x %x\n", k, word[0], word[1], word[2], word[3]);
    }
    set(&g[3], 2, 0x90, 2, 0, 0); /* not run, result unused: runs, converts nothing */
    sysbatch_tock_take(NULL, g, 3, 3);
    app_printf("take unused: frame 3 %x %x\n", g[3].r0, g[3].r1);

    /* sysbatch_tock_run, what compiled code calls.  A failure in an
     * unchecked frame (1) does not stop the run: the runtime resumes after
     * it; the checked frame 2 fails and stops it, so frame 3 never runs
     * and keeps its input words; the mark is gone from frame 2. */
    frame_t h[4];
    set(&h[0], 2, DRV_LED, 2, 3, 0);
    set(&h[1], 2, DRV_LED, 2, 9, 0);
    set(&h[2], 2 | SYSBATCH_TOCK_CHECKED, DRV_LED, 2, 9, 0);
    set(&h[3], 2, DRV_LED, 1, 0, 0);
    sysbatch_tock_run(h, 4);
    show_frames(h, 4);
    /* Nothing checked: one trap with the continue policy, and every frame
     * is turned into libtock-c's struct in place (subscribe {success,
     * previous callback, previous data, status}, memop {status, data},
     * command as it came back). */
    set(&h[0], 1, DRV_COUNTER, 0, 0, 0x55);   /* unsubscribe: the old callback back */
    set(&h[1], 5, 10, 0, 0, 0);               /* memop hint */
    set(&h[2], 2, DRV_LED, 2, 9, 0);          /* fails, the run goes on */
    set(&h[3], 2, DRV_COUNTER, 2, 0, 0);      /* get: Success+u32 */
    sysbatch_tock_run(h, 4);
    app_printf("run callback %s\n", h[0].r1 == (uint32_t)counter_cb ? "back" : "lost");
    h[0].r1 = 0;
    show_frames(h, 4);
    /* Refused (a yield that is not last): the runtime makes the calls one
     * by one, each with its own trap, and stops where the code leaves. */
    uint8_t flag = 0xee;
    set(&h[0], 2 | SYSBATCH_TOCK_CHECKED, DRV_LED, 1, 1, 0);
    set(&h[1], 0, 0, (uint32_t)&flag, 0, 0);  /* yield-no-wait */
    set(&h[2], 2 | SYSBATCH_TOCK_CHECKED, DRV_LED, 2, 9, 0);
    set(&h[3], 2, DRV_LED, 1, 3, 0);
    sysbatch_tock_run(h, 4);
    app_printf("refused: flag %x\n", flag);
    h[1].r1 = 0; /* an address, which differs by ISA */
    show_frames(h, 4);

    /* sysbatch_tock_run_commands, what compiled code calls for a series of
     * commands and yields: the same runs, the marks as a mask (bit i:
     * frame i checked), the class words left unmarked, no conversion. */
    set(&h[0], 2, DRV_LED, 2, 3, 0);
    set(&h[1], 2, DRV_LED, 2, 9, 0);
    set(&h[2], 2, DRV_LED, 2, 9, 0);
    set(&h[3], 2, DRV_LED, 1, 0, 0);
    sysbatch_tock_run_commands(h, 4, 1u << 2);
    app_printf("commands:\n");
    show_frames(h, 4);
    flag = 0xee;
    set(&h[0], 2, DRV_LED, 1, 1, 0);
    set(&h[1], 0, 0, (uint32_t)&flag, 0, 0);  /* yield-no-wait: refused */
    set(&h[2], 2, DRV_LED, 2, 9, 0);
    set(&h[3], 2, DRV_LED, 1, 3, 0);
    sysbatch_tock_run_commands(h, 4, 1u << 0 | 1u << 2);
    app_printf("commands refused: flag %x\n", flag);
    h[1].r1 = 0;
    show_frames(h, 4);
    /* sysbatch_tock_run_template_commands: COMPACT, the marks in the
     * template; frame 1's r2 is a patch (word 8, its value after the
     * frames).  The checked frame 0 fails: frame 1 never runs. */
    static const uint8_t run_tmpl[] = {2, 0, 1, 2, 8,
                                       2 | 0x80 | 3 << 4, DRV_LED, 2, 9,
                                       2 | 3 << 4, DRV_LED, 1, 0};
    uint32_t words[11];
    words[10] = 4;
    sysbatch_tock_run_template_commands((frame_t *)words, run_tmpl);
    app_printf("commands template:\n");
    show_frames((frame_t *)words, 2);
    return 0;
}

/*
 * CHECK:      K: series 4 stop
 * CHECK-NEXT: K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x1 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: stop: variant=1 value=2
 * CHECK-NEXT: frame 0: 2 80 0 0 0
 * CHECK-NEXT: frame 1: 2 0 6 0 0
 * CHECK-NEXT: frame 2: 2 2 1 1 0
 * CHECK-NEXT: frame 3: 2 2 1 2 0
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x1 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: stop left=2
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x1 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: policy 7 left=2
 * CHECK-NEXT: K: series 4 continue
 * CHECK-NEXT: K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x1 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x1 0x1 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x1 0x2 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: continue: variant=128 value=0
 * CHECK-NEXT: frame 0: 2 80 0 0 0
 * CHECK-NEXT: frame 1: 2 0 6 0 0
 * CHECK-NEXT: frame 2: 2 80 0 0 0
 * CHECK-NEXT: frame 3: 2 80 0 0 0
 * CHECK-NEXT: K: series 4 stop
 * CHECK-COUNT-3: K: command 0x2 0x1
 * CHECK-NEXT: K: command 0x2 0x1 0x8 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: fail last: variant=1 value=0
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: allow-rw 0x90 0x0 p 0x4 -> 0x82 0 0x0 0x0
 * CHECK-NEXT: K: subscribe 0x90 0x0 p 0x0 -> 0x82 0 0x0 0x0
 * CHECK-NEXT: K: command 0x90 0x1 0x6 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: yield 0x1 0
 * CHECK-NEXT: K: upcall 0x90 0x0 0x6 0x6 0x0 0x0
 * CHECK-NEXT: yield last left=0 upcalls=1 value=6 cell=6 yield frame=80,1
 * CHECK-NEXT: K: series 3 stop
 * CHECK-NEXT: K: command 0x90 0x1 0x1 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x90 0x9 0x0 0x0 -> 0x0 0xa 0x0 0x0
 * CHECK-NEXT: yield skipped: variant=1 value=1 upcalls=1
 * CHECK-NEXT: K: yield 0x1 0
 * CHECK-NEXT: K: upcall 0x90 0x0 0x7 0x1 0x0 0x0
 * CHECK-NEXT: after yield upcalls=2 value=7
 * CHECK-NEXT: K: series 3 continue
 * CHECK-NEXT: K: series refused: yield not last
 * CHECK-NEXT: two yields: variant=0 value=6
 * CHECK-NEXT: K: series 2 continue
 * CHECK-NEXT: K: series refused: yield not last
 * CHECK-NEXT: yield first left=2
 * CHECK-NEXT: K: series 0 continue
 * CHECK-NEXT: K: series refused: bad count
 * CHECK-NEXT: count 0: variant=0 value=6
 * CHECK-NEXT: K: series 2 continue
 * CHECK-NEXT: K: series refused: class not allowed
 * CHECK-NEXT: exit inside left=2
 * CHECK-NEXT: K: series 2 continue
 * CHECK-NEXT: K: series refused: class not allowed
 * CHECK-NEXT: nested left=2
 * CHECK-NEXT: fill bytes=2
 * CHECK-NEXT: frame 0: 2 2 3 3 0
 * CHECK-NEXT: frame 1: 2 14242 1234 0 fe
 * CHECK-NEXT: fill words=2
 * CHECK-NEXT: frame 0: 2 2 3 3 0
 * CHECK-NEXT: frame 1: 2 14242 1234 0 fe
 * CHECK-NEXT: K: series 2 stop
 * CHECK-NEXT: K: command 0x2 0x3 0x3 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x14242 0x1234 0x0 0xfe -> 0x0 0xb 0x0 0x0
 * CHECK-NEXT: template left=0
 * CHECK-NEXT: frame 0: 2 80 0 0 0
 * CHECK-NEXT: frame 1: 2 0 b 0 0
 * CHECK-NEXT: bad template left=1
 * CHECK-NEXT: bad patch index left=1
 * CHECK-NEXT: zero-count template left=0
 * CHECK-NEXT: odd subscribe: 0 0 0 1
 * CHECK-NEXT: odd allow: 0 0 0 1
 * CHECK-NEXT: odd memop: 1 0
 * CHECK-NEXT: command u32+u64: 133 5 6 7
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: command 0x2 0x2 0x3 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: take ran=2
 * CHECK-NEXT: take 0: 80 0 0 0
 * CHECK-NEXT: take 1: 0 6 0 0
 * CHECK-NEXT: K: memop 0xa 0x0 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: take 2: 0 0 eeeeeeee eeeeeeee
 * CHECK-NEXT: K: command 0x90 0x2 0x0 0x0 -> 0x81 0x7 0x0 0x0
 * CHECK-NEXT: take 3: 81 7 0 0
 * CHECK-NEXT: K: command 0x90 0x2 0x0 0x0 -> 0x81 0x7 0x0 0x0
 * CHECK-NEXT: take unused: frame 3 81 7
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: command 0x2 0x2 0x3 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: K: series 2 stop
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: frame 0: 2 80 0 0 0
 * CHECK-NEXT: frame 1: 2 0 6 0 0
 * CHECK-NEXT: frame 2: 2 0 6 0 0
 * CHECK-NEXT: frame 3: 2 2 1 0 0
 * CHECK-NEXT: K: series 4 continue
 * CHECK-NEXT: K: subscribe 0x90 0x0 0 0x55 -> 0x82 p 0x0 0x0
 * CHECK-NEXT: K: memop 0xa 0x0 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: K: command 0x90 0x2 0x0 0x0 -> 0x81 0x7 0x0 0x0
 * CHECK-NEXT: run callback back
 * CHECK-NEXT: frame 0: 1 1 0 0 0
 * CHECK-NEXT: frame 1: 5 0 0 0 0
 * CHECK-NEXT: frame 2: 2 0 6 0 0
 * CHECK-NEXT: frame 3: 2 81 7 0 0
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: series refused: yield not last
 * CHECK-NEXT: K: command 0x2 0x1 0x1 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: yield 0x0 p
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: refused: flag 0
 * CHECK-NEXT: frame 0: 2 80 0 0 0
 * CHECK-NEXT: frame 1: 0 0 0 0 0
 * CHECK-NEXT: frame 2: 2 0 6 0 0
 * CHECK-NEXT: frame 3: 2 2 1 3 0
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: command 0x2 0x2 0x3 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: K: series 2 stop
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: commands:
 * CHECK-NEXT: frame 0: 2 80 0 0 0
 * CHECK-NEXT: frame 1: 2 0 6 0 0
 * CHECK-NEXT: frame 2: 2 0 6 0 0
 * CHECK-NEXT: frame 3: 2 2 1 0 0
 * CHECK-NEXT: K: series 4 stop
 * CHECK-NEXT: K: series refused: yield not last
 * CHECK-NEXT: K: command 0x2 0x1 0x1 0x0 -> 0x80 0x0 0x0 0x0
 * CHECK-NEXT: K: yield 0x0 p
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: commands refused: flag 0
 * CHECK-NEXT: frame 0: 2 80 0 0 0
 * CHECK-NEXT: frame 1: 0 0 0 0 0
 * CHECK-NEXT: frame 2: 2 0 6 0 0
 * CHECK-NEXT: frame 3: 2 2 1 3 0
 * CHECK-NEXT: K: series 2 stop
 * CHECK-NEXT: K: command 0x2 0x2 0x9 0x0 -> 0x0 0x6 0x0 0x0
 * CHECK-NEXT: commands template:
 * CHECK-NEXT: frame 0: 2 0 6 0 0
 * CHECK-NEXT: frame 1: 2 2 1 4 0
 * CHECK-NEXT: K: leds 0111 counter 7
 * CHECK-NEXT: K: exit 0
 * CHECK-NEXT: K: stats traps 33 calls 46 series 22 upcalls 2
 * CHECK:      EXIT 0
 */
