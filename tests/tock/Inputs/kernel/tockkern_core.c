/* Test kernel core: TRD104 system call classes 0-7 plus the series call
 * 0xfe with tock/tock PR #3077's semantics, a few fake drivers, upcalls, a
 * trace of every call and the exit report.  No hardware access here: the
 * arch files provide the trap entry, the console byte and the machine exit.
 *
 * The trace prints one line per executed call, in the same format whether
 * the call came from its own trap or from inside a series, e.g.
 *     K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * Pointers print as "p" (or "0"): their values differ between two builds of
 * the same app, and the tests diff the traces of such builds.
 *
 * Series rules (checked before anything runs, so a refused series has no
 * effect): count > 0 and <= SERIES_MAX, frames word-aligned and inside app
 * RAM (else the app faults), every class one of 0-5 or 7 (no exit, no nested
 * series), at most one yield and only as the last frame.  Each executed
 * call's return registers overwrite words 1-4 of its frame; an executed
 * yield's frame becomes {Success, upcall-ran, 0, 0}, an executed
 * Yield-WaitFor's {its upcall's three values, 0} (no upcall runs, so the
 * series' own return registers reach the app).  Under any policy but
 * 1 (continue) the first Failure* variant stops the series, which returns
 * Failure+u32 = calls not executed; otherwise it returns Success.
 */
#include "tockkern.h"

#include <stddef.h>

#ifndef TOCKKERN_TRACE
#define TOCKKERN_TRACE 1
#endif

#define SERIES_MAX 64
#define NUM_LEDS 4
#define NUM_BUTTONS 2
#define ALARM_HZ 1024          /* libtock-c's alarm converts ms with it */
#define TEMPERATURE_CENTI 2350 /* the sensor always reads 23.50 C */
#define BUTTONS_PRESSED 0x1u   /* button 0 is held down */

enum {
    V_FAILURE = 0,
    V_FAILURE_U32 = 1,
    V_FAILURE_2U32 = 2,
    V_SUCCESS = 128,
    V_SUCCESS_U32 = 129,
    V_SUCCESS_2U32 = 130,
    V_SUCCESS_3U32 = 132,
};
enum {
    E_FAIL = 1,
    E_RESERVE = 5,
    E_INVALID = 6,
    E_SIZE = 7,
    E_NOMEM = 9,
    E_NOSUPPORT = 10,
    E_NODEVICE = 11,
};

/* ------------------------------------------------------------- console out */

static void puts_(const char *s)
{
    while (*s)
        arch_putc(*s++);
}

static void puthex(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[i] = 0;
    do {
        buf[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    buf[--i] = 'x';
    buf[--i] = '0';
    puts_(buf + i);
}

static void putdec(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[i] = 0;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    puts_(buf + i);
}

/* ------------------------------------------------------------------ state */

struct subscription {
    uint32_t fn, userdata;
};
struct buffer {
    uint32_t ptr, len;
};
struct pending {
    uint8_t driver_slot, num;
    uint32_t args[3];
};

/* Driver slots for upcalls and allows. */
enum { SLOT_CONSOLE = 0, SLOT_COUNTER, SLOT_ALARM, SLOT_BUTTON, SLOT_TEMPERATURE, NSLOTS };
static const uint32_t slot_driver[NSLOTS] = {DRV_CONSOLE, DRV_COUNTER, DRV_ALARM, DRV_BUTTON,
                                             DRV_TEMPERATURE};

/* Upcall numbers 0..2: the console's read is its upcall 2. */
static struct subscription subs[NSLOTS][3];
static struct buffer allow_ro_bufs[NSLOTS][2];
static struct buffer allow_rw_bufs[NSLOTS][2];
static struct buffer allow_ur_bufs[NSLOTS][2];
static struct pending queue[16];
static uint32_t queue_len;

static uint32_t led_state;
static uint32_t alarm_now = 1000; /* ticks; time passes only when an alarm fires */
static uint32_t counter_value;
static uint32_t app_break;

static uint32_t stat_traps, stat_calls, stat_series, stat_upcalls;
static void __attribute__((noreturn)) report_and_exit(uint32_t code);

void tockkern_init(void)
{
    app_break = (uint32_t)(uintptr_t)__app_heap_start;
}

/* ---------------------------------------------------------------- checks */

static int in_range(uint32_t ptr, uint32_t len, const char *lo, const char *hi)
{
    uint32_t start = (uint32_t)(uintptr_t)lo, end = (uint32_t)(uintptr_t)hi;
    return ptr >= start && ptr <= end && len <= end - ptr;
}

static int in_app_ram(uint32_t ptr, uint32_t len)
{
    return in_range(ptr, len, __app_ram_start, __app_ram_end);
}

static int app_readable(uint32_t ptr, uint32_t len)
{
    return in_app_ram(ptr, len) || in_range(ptr, len, __app_ro_start, __app_ro_end);
}

/* ------------------------------------------------------------------ trace */

static void trace_word(uint32_t v, int is_ptr)
{
    arch_putc(' ');
    if (is_ptr)
        puts_(v ? "p" : "0");
    else
        puthex(v);
}

static const char *const class_names[8] = {
    "yield", "subscribe", "command", "allow-rw", "allow-ro", "memop", "exit", "allow-ur",
};

static void trace_call(uint32_t cls, const uint32_t in[4], const uint32_t out[4])
{
    if (!TOCKKERN_TRACE)
        return;
    int ptr_in = -1, ptr_out = -1;
    if (cls == 1 || cls == 3 || cls == 4 || cls == 7) {
        ptr_in = 2;
        ptr_out = out[0] == V_SUCCESS_2U32 ? 1 : out[0] == V_FAILURE_2U32 ? 2 : -1;
    }
    if (cls == 5 && out[0] == V_SUCCESS_U32)
        ptr_out = 1;
    puts_("K: ");
    puts_(class_names[cls]);
    for (int i = 0; i < 4; i++)
        trace_word(in[i], i == ptr_in);
    puts_(" ->");
    for (int i = 0; i < 4; i++)
        trace_word(out[i], i == ptr_out);
    arch_putc('\n');
}

/* -------------------------------------------------------------- upcalls */

static void schedule(int slot, uint32_t num, uint32_t a, uint32_t b, uint32_t c)
{
    if (queue_len == sizeof queue / sizeof queue[0])
        tockkern_fault("upcall queue full", num);
    struct pending *p = &queue[queue_len++];
    p->driver_slot = (uint8_t)slot;
    p->num = (uint8_t)num;
    p->args[0] = a;
    p->args[1] = b;
    p->args[2] = c;
}

static void drop_pending(int slot, uint32_t num)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < queue_len; i++)
        if (!(queue[i].driver_slot == slot && queue[i].num == num))
            queue[j++] = queue[i];
    queue_len = j;
}

/* Take the oldest pending upcall whose subscription has a function. */
static int take_upcall(struct tockkern_upcall *up)
{
    while (queue_len > 0) {
        struct pending p = queue[0];
        for (uint32_t i = 1; i < queue_len; i++)
            queue[i - 1] = queue[i];
        queue_len--;
        struct subscription *s = &subs[p.driver_slot][p.num];
        if (s->fn == 0)
            continue;
        up->fn = s->fn;
        up->args[0] = p.args[0];
        up->args[1] = p.args[1];
        up->args[2] = p.args[2];
        up->args[3] = s->userdata;
        stat_upcalls++;
        if (TOCKKERN_TRACE) {
            puts_("K: upcall");
            trace_word(slot_driver[p.driver_slot], 0);
            trace_word(p.num, 0);
            for (int i = 0; i < 4; i++)
                trace_word(up->args[i], 0);
            arch_putc('\n');
        }
        return 1;
    }
    return 0;
}

/* Yield-WaitFor (yield type 2): the oldest pending upcall of `driver`'s
 * upcall `num`, subscribed or not, taken off the queue without running;
 * its three values are the yield's result.  Other pending upcalls stay
 * queued.  Nothing pending for it: deadlock, as for yield-wait. */
static void take_waitfor(uint32_t driver, uint32_t num, uint32_t out[4])
{
    int slot = -1;
    for (int s = 0; s < NSLOTS; s++)
        if (slot_driver[s] == driver)
            slot = s;
    for (uint32_t i = 0; slot >= 0 && i < queue_len; i++) {
        if (queue[i].driver_slot != slot || queue[i].num != num)
            continue;
        out[0] = queue[i].args[0];
        out[1] = queue[i].args[1];
        out[2] = queue[i].args[2];
        out[3] = 0;
        for (uint32_t j = i + 1; j < queue_len; j++)
            queue[j - 1] = queue[j];
        queue_len--;
        return;
    }
    puts_("K: deadlock: yield-wait-for with no such upcall pending\n");
    report_and_exit(TOCKKERN_EXIT_DEADLOCK);
}

/* -------------------------------------------------------------- drivers */

static int driver_slot(uint32_t driver)
{
    for (int slot = 0; slot < NSLOTS; slot++)
        if (slot_driver[slot] == driver)
            return slot;
    return -1;
}

static int driver_exists(uint32_t driver)
{
    return driver == DRV_LED || driver_slot(driver) >= 0;
}

static void ret1(uint32_t out[4], uint32_t v, uint32_t a)
{
    out[0] = v;
    out[1] = a;
    out[2] = 0;
    out[3] = 0;
}

static void counter_publish(void)
{
    struct buffer *rw = &allow_rw_bufs[SLOT_COUNTER][0];
    struct buffer *ur = &allow_ur_bufs[SLOT_COUNTER][0];
    /* The app may pass any alignment: store bytewise. */
    for (int i = 0; i < 4; i++) {
        if (rw->len >= 4)
            ((volatile uint8_t *)(uintptr_t)rw->ptr)[i] = (uint8_t)(counter_value >> (8 * i));
        if (ur->len >= 4)
            ((volatile uint8_t *)(uintptr_t)ur->ptr)[i] = (uint8_t)(counter_value >> (8 * i));
    }
}

/* libtock-c's alarm driver: 1 frequency, 2 now, 3 stop, 5 set relative,
 * 6 set absolute (reference, dt).  The clock stands still until an alarm
 * fires, then it reads the expiration: every build sees the same times. */
static void do_alarm_command(uint32_t cmd, uint32_t a1, uint32_t a2, uint32_t out[4])
{
    switch (cmd) {
    case 1:
        ret1(out, V_SUCCESS_U32, ALARM_HZ);
        return;
    case 2:
        ret1(out, V_SUCCESS_U32, alarm_now);
        return;
    case 3:
        drop_pending(SLOT_ALARM, 0);
        ret1(out, V_SUCCESS, 0);
        return;
    case 5:
    case 6: {
        uint32_t at = (cmd == 5 ? alarm_now : a1) + (cmd == 5 ? a1 : a2);
        drop_pending(SLOT_ALARM, 0);
        schedule(SLOT_ALARM, 0, at, at, 0);
        alarm_now = at;
        ret1(out, V_SUCCESS_U32, at);
        return;
    }
    default:
        ret1(out, V_FAILURE, E_NOSUPPORT);
    }
}

/* libtock-c's button driver: 1 enable interrupt, 2 disable, 3 read.
 * Enabling the interrupt of a held button delivers its press at once. */
static void do_button_command(uint32_t cmd, uint32_t a1, uint32_t out[4])
{
    if (cmd > 3) {
        ret1(out, V_FAILURE, E_NOSUPPORT);
        return;
    }
    if (a1 >= NUM_BUTTONS) {
        ret1(out, V_FAILURE, E_INVALID);
        return;
    }
    uint32_t pressed = (BUTTONS_PRESSED >> a1) & 1;
    if (cmd == 1) {
        if (pressed)
            schedule(SLOT_BUTTON, 0, a1, 1, 0);
    } else if (cmd == 2) {
        drop_pending(SLOT_BUTTON, 0);
    } else {
        ret1(out, V_SUCCESS_U32, pressed);
        return;
    }
    ret1(out, V_SUCCESS, 0);
}

static void do_command(const uint32_t in[4], uint32_t out[4])
{
    uint32_t driver = in[0], cmd = in[1], a1 = in[2];
    if (!driver_exists(driver)) {
        ret1(out, V_FAILURE, E_NODEVICE);
        return;
    }
    if (cmd == 0) { /* existence check */
        if (driver == DRV_LED)
            ret1(out, V_SUCCESS_U32, NUM_LEDS);
        else if (driver == DRV_BUTTON)
            ret1(out, V_SUCCESS_U32, NUM_BUTTONS);
        else
            ret1(out, V_SUCCESS, 0);
        return;
    }
    if (driver == DRV_LED) {
        if (cmd > 3) {
            ret1(out, V_FAILURE, E_NOSUPPORT);
        } else if (a1 >= NUM_LEDS) {
            ret1(out, V_FAILURE, E_INVALID);
        } else {
            if (cmd == 1)
                led_state |= 1u << a1;
            else if (cmd == 2)
                led_state &= ~(1u << a1);
            else
                led_state ^= 1u << a1;
            ret1(out, V_SUCCESS, 0);
        }
        return;
    }
    if (driver == DRV_ALARM) {
        do_alarm_command(cmd, a1, in[3], out);
        return;
    }
    if (driver == DRV_BUTTON) {
        do_button_command(cmd, a1, out);
        return;
    }
    if (driver == DRV_TEMPERATURE) {
        if (cmd != 1) {
            ret1(out, V_FAILURE, E_NOSUPPORT);
            return;
        }
        schedule(SLOT_TEMPERATURE, 0, TEMPERATURE_CENTI, 0, 0);
        ret1(out, V_SUCCESS, 0);
        return;
    }
    if (driver == DRV_CONSOLE && cmd == 2) { /* read a1 bytes of canned input */
        static const char input[] = "tock";
        struct buffer *b = &allow_rw_bufs[SLOT_CONSOLE][1];
        if (b->len == 0) {
            ret1(out, V_FAILURE, E_RESERVE);
            return;
        }
        uint32_t n = a1 < b->len ? a1 : b->len;
        if (n > sizeof input - 1)
            n = sizeof input - 1;
        for (uint32_t i = 0; i < n; i++)
            ((volatile char *)(uintptr_t)b->ptr)[i] = input[i];
        schedule(SLOT_CONSOLE, 2, 0, n, 0);
        ret1(out, V_SUCCESS, 0);
        return;
    }
    if (driver == DRV_CONSOLE) {
        if (cmd != 1) {
            ret1(out, V_FAILURE, E_NOSUPPORT);
            return;
        }
        struct buffer *b = &allow_ro_bufs[SLOT_CONSOLE][1];
        if (b->len == 0) {
            ret1(out, V_FAILURE, E_RESERVE);
            return;
        }
        uint32_t n = a1 < b->len ? a1 : b->len;
        puts_("console: ");
        for (uint32_t i = 0; i < n; i++)
            arch_putc(((const char *)(uintptr_t)b->ptr)[i]);
        arch_putc('\n');
        /* libtock-c's console: (status, length, 0), status 0 = success. */
        schedule(SLOT_CONSOLE, 1, 0, n, 0);
        ret1(out, V_SUCCESS, 0);
        return;
    }
    /* counter */
    switch (cmd) {
    case 1:
        if (allow_rw_bufs[SLOT_COUNTER][0].len < 4) {
            ret1(out, V_FAILURE, E_RESERVE);
            return;
        }
        counter_value += a1;
        counter_publish();
        schedule(SLOT_COUNTER, 0, counter_value, a1, 0);
        ret1(out, V_SUCCESS, 0);
        return;
    case 2:
        ret1(out, V_SUCCESS_U32, counter_value);
        return;
    case 3:
        out[0] = V_SUCCESS_3U32;
        out[1] = counter_value;
        out[2] = ~counter_value;
        out[3] = counter_value * 3;
        return;
    case 4:
        out[0] = V_FAILURE_U32;
        out[1] = E_FAIL;
        out[2] = counter_value;
        out[3] = 0;
        return;
    default:
        ret1(out, V_FAILURE, E_NOSUPPORT);
    }
}

static void do_subscribe(const uint32_t in[4], uint32_t out[4])
{
    int slot = driver_slot(in[0]);
    uint32_t num = in[1];
    uint32_t last = slot == SLOT_CONSOLE ? 2 : 1;
    int fail = slot < 0 ? E_NODEVICE : (num > last ? E_NOSUPPORT : 0);
    if (fail) {
        out[0] = V_FAILURE_2U32;
        out[1] = (uint32_t)fail;
        out[2] = in[2];
        out[3] = in[3];
        return;
    }
    struct subscription *s = &subs[slot][num];
    out[0] = V_SUCCESS_2U32;
    out[1] = s->fn;
    out[2] = s->userdata;
    out[3] = 0;
    s->fn = in[2];
    s->userdata = in[3];
    drop_pending(slot, num);
}

static void do_allow(uint32_t cls, const uint32_t in[4], uint32_t out[4])
{
    int slot = driver_slot(in[0]);
    uint32_t num = in[1], ptr = in[2], len = in[3];
    int fail = slot < 0 ? E_NODEVICE : (num > 1 ? E_NOSUPPORT : 0);
    if (!fail && len > 0 && !(cls == 4 ? app_readable(ptr, len) : in_app_ram(ptr, len)))
        fail = E_INVALID;
    if (fail) {
        out[0] = V_FAILURE_2U32;
        out[1] = (uint32_t)fail;
        out[2] = ptr;
        out[3] = len;
        return;
    }
    struct buffer *b = cls == 3 ? &allow_rw_bufs[slot][num]
                       : cls == 4 ? &allow_ro_bufs[slot][num]
                                  : &allow_ur_bufs[slot][num];
    out[0] = V_SUCCESS_2U32;
    out[1] = b->ptr;
    out[2] = b->len;
    out[3] = 0;
    b->ptr = len ? ptr : 0;
    b->len = len;
    if (slot == SLOT_COUNTER)
        counter_publish();
}

static void do_memop(const uint32_t in[4], uint32_t out[4])
{
    uint32_t op = in[0], arg = in[1];
    uint32_t heap_lo = (uint32_t)(uintptr_t)__app_heap_start;
    uint32_t heap_hi = (uint32_t)(uintptr_t)__app_ram_end - 4096; /* keep the stack */
    switch (op) {
    case 0: /* brk */
        if (arg < heap_lo || arg > heap_hi) {
            ret1(out, V_FAILURE, E_NOMEM);
        } else {
            app_break = arg;
            ret1(out, V_SUCCESS, 0);
        }
        return;
    case 1: { /* sbrk */
        uint32_t old = app_break, next = app_break + arg;
        if ((int32_t)arg < 0 ? next < heap_lo || next > old : next > heap_hi || next < old) {
            ret1(out, V_FAILURE, E_NOMEM);
        } else {
            app_break = next;
            ret1(out, V_SUCCESS_U32, old);
        }
        return;
    }
    case 2:
        ret1(out, V_SUCCESS_U32, (uint32_t)(uintptr_t)__app_ram_start);
        return;
    case 3:
        ret1(out, V_SUCCESS_U32, (uint32_t)(uintptr_t)__app_ram_end);
        return;
    case 4:
        ret1(out, V_SUCCESS_U32, (uint32_t)(uintptr_t)__app_ro_start);
        return;
    case 5:
        ret1(out, V_SUCCESS_U32, (uint32_t)(uintptr_t)__app_ro_end);
        return;
    case 10: /* stack-top and heap-start hints */
    case 11:
        ret1(out, V_SUCCESS, 0);
        return;
    default:
        ret1(out, V_FAILURE, E_NOSUPPORT);
    }
}

static void __attribute__((noreturn)) report_and_exit(uint32_t code)
{
    puts_("K: leds ");
    for (int i = NUM_LEDS - 1; i >= 0; i--)
        arch_putc((led_state >> i) & 1 ? '1' : '0');
    puts_(" counter ");
    putdec(counter_value);
    puts_("\nK: exit ");
    putdec(code);
    /* Counters a batching build changes on purpose: keep them on their own
     * line so tests can drop it before diffing two builds. */
    puts_("\nK: stats traps ");
    putdec(stat_traps);
    puts_(" calls ");
    putdec(stat_calls);
    puts_(" series ");
    putdec(stat_series);
    puts_(" upcalls ");
    putdec(stat_upcalls);
    arch_putc('\n');
    arch_exit(code);
}

void tockkern_fault(const char *why, uint32_t detail)
{
    puts_("K: fault: ");
    puts_(why);
    puts_(" ");
    puthex(detail);
    arch_putc('\n');
    report_and_exit(TOCKKERN_EXIT_FAULT);
}

static void trace_yield(uint32_t type, uint32_t flag)
{
    if (TOCKKERN_TRACE && type != 2) {
        puts_("K: yield");
        trace_word(type, 0);
        trace_word(flag, 1);
        arch_putc('\n');
    }
}

/* Yield-WaitFor is traced as a call, with its upcall's values as result. */
static void do_waitfor(const uint32_t in[4], uint32_t out[4])
{
    take_waitfor(in[1], in[2], out);
    if (TOCKKERN_TRACE) {
        puts_("K: yield-wait-for");
        trace_word(in[1], 0);
        trace_word(in[2], 0);
        puts_(" ->");
        for (int i = 0; i < 3; i++)
            trace_word(out[i], 0);
        arch_putc('\n');
    }
}

/* Yield type `type`, flag pointer `flag`.  Returns whether an upcall ran. */
static int do_yield(uint32_t type, uint32_t flag, int *deliver, struct tockkern_upcall *up)
{
    if (type == 1) {
        if (!take_upcall(up)) {
            puts_("K: deadlock: yield-wait with no upcall pending\n");
            report_and_exit(TOCKKERN_EXIT_DEADLOCK);
        }
        *deliver = 1;
        return 1;
    }
    if (type == 0) {
        int ran = take_upcall(up);
        if (flag) {
            if (!in_app_ram(flag, 1))
                tockkern_fault("yield-no-wait flag outside app RAM", flag);
            *(volatile uint8_t *)(uintptr_t)flag = (uint8_t)ran;
        }
        *deliver = ran;
        return ran;
    }
    return 0; /* unknown yield types return at once */
}

/* One non-yield call; the in-series path and the trap path share it. */
static void do_call(uint32_t cls, const uint32_t in[4], uint32_t out[4])
{
    stat_calls++;
    switch (cls) {
    case 1:
        do_subscribe(in, out);
        break;
    case 2:
        do_command(in, out);
        break;
    case 3:
    case 4:
    case 7:
        do_allow(cls, in, out);
        break;
    case 5:
        do_memop(in, out);
        break;
    }
    trace_call(cls, in, out);
}

static void do_series(uint32_t r[4], int *deliver, struct tockkern_upcall *up)
{
    uint32_t count = r[0], frames_addr = r[1], policy = r[2];
    stat_series++;
    if (TOCKKERN_TRACE) {
        puts_("K: series ");
        putdec(count);
        puts_(policy == 1 ? " continue\n" : " stop\n");
    }
    if (count == 0 || count > SERIES_MAX) {
        ret1(r, V_FAILURE, count == 0 ? E_INVALID : E_SIZE);
        puts_("K: series refused: bad count\n");
        return;
    }
    if ((frames_addr & 3) || !in_app_ram(frames_addr, count * 20))
        tockkern_fault("series frames outside app RAM", frames_addr);
    /* The app is stopped while its series runs: plain accesses suffice. */
    uint32_t *f = (uint32_t *)(uintptr_t)frames_addr;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t cls = f[5 * i];
        int ok = (cls >= 1 && cls <= 5) || cls == 7 || (cls == 0 && i == count - 1);
        if (!ok) {
            ret1(r, V_FAILURE, E_INVALID);
            puts_(cls == 0 ? "K: series refused: yield not last\n"
                           : "K: series refused: class not allowed\n");
            return;
        }
    }
    for (uint32_t i = 0; i < count; i++) {
        uint32_t *fr = f + 5 * i;
        uint32_t in[4] = {fr[1], fr[2], fr[3], fr[4]};
        if (fr[0] == 0 && in[0] == 2) {
            stat_calls++;
            do_waitfor(in, fr + 1); /* no upcall runs: the frame is its result */
            continue; /* a yield does not fail: no stop */
        } else if (fr[0] == 0) {
            stat_calls++;
            trace_yield(in[0], in[1]);
            /* Written before the upcall runs: the runtime reads it. */
            fr[2] = (uint32_t)do_yield(in[0], in[1], deliver, up);
            fr[1] = V_SUCCESS;
            fr[3] = fr[4] = 0;
        } else {
            do_call(fr[0], in, fr + 1); /* results straight into the frame */
        }
        if (policy != 1 && fr[1] < V_SUCCESS) {
            ret1(r, V_FAILURE_U32, count - 1 - i);
            return;
        }
    }
    ret1(r, V_SUCCESS, 0);
}

int tockkern_syscall(uint32_t cls, uint32_t r[4], int *deliver, struct tockkern_upcall *up)
{
    *deliver = 0;
    if (cls == 2 && r[0] == DRV_DEBUG) { /* test print channel */
        if (r[1] == 1 && app_readable(r[2], r[3]))
            for (uint32_t i = 0; i < r[3]; i++)
                arch_putc(((const char *)(uintptr_t)r[2])[i]);
        ret1(r, V_SUCCESS, 0);
        return 1;
    }
    stat_traps++;
    switch (cls) {
    case 0:
        stat_calls++;
        if (r[0] == 2) {
            uint32_t in[4] = {r[0], r[1], r[2], r[3]};
            do_waitfor(in, r);
            return 1;
        }
        trace_yield(r[0], r[1]);
        do_yield(r[0], r[1], deliver, up);
        return 0;
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 7: {
        uint32_t in[4] = {r[0], r[1], r[2], r[3]};
        do_call(cls, in, r);
        return 1;
    }
    case 6:
        stat_calls++;
        if (r[0] == 0 || r[0] == 1)
            report_and_exit(r[1] < TOCKKERN_EXIT_FAULT ? r[1] : TOCKKERN_EXIT_FAULT - 1);
        tockkern_fault("exit with unknown type", r[0]);
    case 0xfe:
        do_series(r, deliver, up);
        return 1;
    default:
        tockkern_fault("unknown system call class", cls);
    }
}
