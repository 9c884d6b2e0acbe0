/* Plugged app: ordinary libtock-c code, built once unplugged and once with a
 * sysbatch compiler plugin (target=tock), which turns its straight runs of
 * raw calls into series calls.  The tests diff the two runs' streams (every
 * call the kernel executed with its arguments and results, console output,
 * upcalls, driver state, every return struct the app saw) and check that
 * the plugged build trapped less.
 *
 * Each phase is one shape the plugins must get right:
 *   leds        four commands, the third fails: the series stops there and
 *               the fourth runs from its own call site
 *   console     allow, subscribe, command, yield: yield as the last frame
 *   teardown    unsubscribe, unallow, a write that fails last
 *   counter     the kernel writes an allowed cell at a command; the app
 *               reads it between two commands, so they may not share a
 *               series (the read would see the second add)
 *   rewrite     the app changes an allowed buffer between allow and the
 *               command that prints it: the command may not move above it
 *   printing    a call to other code between two commands ends the run
 *   memop       memop results (in registers on RV32) and a failure
 *   checked     every result tested before the next call: the exact tests
 *               (!r.success) chain allow, subscribe and command into one
 *               series; command's `type != SUCCESS` is not the kernel's stop
 *               condition (a Success-u32 would leave), so the run ends there
 *   loop        one command per iteration: nothing to batch
 *   wait-for    Yield-WaitFor as the last frame: its 12-byte result (the
 *               upcall's values; no upcall function runs, and none is
 *               subscribed) read from its frame; in a checked chain
 *               whose write fails the series stops before it (a wait
 *               would deadlock: nothing pending); the counter's upcall
 *               values start with 128, which the runtime must not take
 *               for the series' own reply
 * Which calls were batched is checked from the compiler's report by the
 * tests (tests/tock/plugged-*.test), not here.
 */
#include <stdint.h>

#include "app_io.h"

static char message[] = "hello, series";
static uint32_t cell;
static uint32_t shadow;
static int console_done;
static uint32_t console_ud;
static int counter_upcalls;
static int counter_last;

/* Upcalls only record, so their output does not move between builds. */
static void console_cb(int status, int n, int unused, void *ud)
{
    (void)status;
    (void)unused;
    console_done = n;
    console_ud = (uint32_t)(uintptr_t)ud;
}

static void counter_cb(int value, int by, int unused, void *ud)
{
    (void)by;
    (void)unused;
    (void)ud;
    counter_upcalls++;
    counter_last = value;
}

static void leds(void)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 4 calls (command, command, command, command) into 4 slots with 0 chains
    syscall_return_t on0 = command(DRV_LED, 1, 0, 0);
    syscall_return_t toggle1 = command(DRV_LED, 3, 1, 0);
    syscall_return_t on7 = command(DRV_LED, 1, 7, 0);
    syscall_return_t off0 = command(DRV_LED, 2, 0, 0);
    print_command("led on 0", on0);
    print_command("led toggle 1", toggle1);
    print_command("led on 7", on7);
    print_command("led off 0", off0);
}

static void console(void)
{
    uint32_t len = sizeof message - 1;
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 4 calls (allow_readonly, subscribe, command, yield) into 4 slots with 0 chains
    allow_ro_return_t allowed = allow_readonly(DRV_CONSOLE, 1, message, len);
    subscribe_return_t subscribed = subscribe(DRV_CONSOLE, 1, console_cb, (void *)0x55);
    syscall_return_t written = command(DRV_CONSOLE, 1, (int)len, 0);
    yield();
    print_allow_ro("console allow", allowed);
    print_subscribe("console subscribe", subscribed);
    print_command("console write", written);
    app_printf("console upcall %d ud %x\n", console_done, console_ud);
}

static void teardown(void)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 3 calls (subscribe, allow_readonly, command) into 3 slots with 0 chains
    subscribe_return_t unsubscribed = subscribe(DRV_CONSOLE, 1, NULL, NULL);
    allow_ro_return_t unallowed = allow_readonly(DRV_CONSOLE, 1, NULL, 0);
    syscall_return_t refused = command(DRV_CONSOLE, 1, 3, 0);
    print_subscribe("console unsubscribe", unsubscribed);
    print_allow_ro("console unallow", unallowed);
    print_command("console write unallowed", refused);
}

static void counter(void)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 4 calls (allow_readwrite, allow_userspace_read, subscribe, command) into 4 slots with 0 chains
    allow_rw_return_t rw = allow_readwrite(DRV_COUNTER, 0, &cell, sizeof cell);
    allow_userspace_r_return_t ur =
        allow_userspace_read(DRV_COUNTER, 0, &shadow, sizeof shadow);
    subscribe_return_t sub = subscribe(DRV_COUNTER, 0, counter_cb, NULL);
    syscall_return_t add5 = command(DRV_COUNTER, 1, 5, 0);
    uint32_t seen = cell; /* the kernel wrote it at add5 */
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 5 calls (command, command, command, command, yield) into 5 slots with 0 chains
    syscall_return_t add7 = command(DRV_COUNTER, 1, 7, 0);
    syscall_return_t get = command(DRV_COUNTER, 2, 0, 0);
    syscall_return_t three = command(DRV_COUNTER, 3, 0, 0);
    syscall_return_t fails = command(DRV_COUNTER, 4, 0, 0);
    yield();
    print_allow_rw("counter allow", rw);
    print_allow_ur("counter allow-ur", ur);
    print_subscribe("counter subscribe", sub);
    print_command("counter add 5", add5);
    app_printf("counter cell after add 5: %u\n", seen);
    print_command("counter add 7", add7);
    print_command("counter get", get);
    print_command("counter 3u32", three);
    print_command("counter failure-u32", fails);
    app_printf("counter cell %u shadow %u upcalls %d last %d\n", cell, shadow,
               counter_upcalls, counter_last);
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 3 calls (allow_readwrite, allow_userspace_read, subscribe) into 3 slots with 0 chains
    allow_readwrite(DRV_COUNTER, 0, NULL, 0);
    allow_userspace_read(DRV_COUNTER, 0, NULL, 0);
    subscribe(DRV_COUNTER, 0, NULL, NULL);
}

static void rewrite(void)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}allow_readonly not batched: below-min-batch
    allow_readonly(DRV_CONSOLE, 1, message, 5);
    message[0] = 'J';
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 4 calls (command, subscribe, command, yield) into 4 slots with 0 chains
    command(DRV_CONSOLE, 1, 5, 0);
    subscribe(DRV_CONSOLE, 1, console_cb, (void *)0x66);
    command(DRV_CONSOLE, 1, 4, 0);
    yield();
    app_printf("rewrite upcall %d ud %x\n", console_done, console_ud);
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 2 calls (subscribe, allow_readonly) into 2 slots with 0 chains
    subscribe(DRV_CONSOLE, 1, NULL, NULL);
    allow_readonly(DRV_CONSOLE, 1, NULL, 0);
}

static void printing(void)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}command not batched: below-min-batch
    syscall_return_t a = command(DRV_LED, 3, 2, 0);
    app_puts("between the toggles\n");
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 2 calls (command, command) into 2 slots with 0 chains
    syscall_return_t b = command(DRV_LED, 3, 3, 0);
    syscall_return_t c = command(DRV_LED, 3, 3, 0);
    print_command("toggle 2", a);
    print_command("toggle 3", b);
    print_command("toggle 3 again", c);
}

static void memops(void)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 3 calls (memop, memop, memop) into 3 slots with 0 chains
    memop_return_t hint = memop(10, 0);
    memop_return_t hint2 = memop(11, 0);
    memop_return_t bad = memop(99, 0);
    print_memop("memop hint", hint);
    print_memop("memop hint 2", hint2);
    print_memop("memop unknown", bad);
}

static int checked(uint32_t driver)
{
    uint32_t len = 7;
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 3 calls (allow_readonly, subscribe, command) into 3 slots with 0 chains over 3 blocks
    allow_ro_return_t allowed = allow_readonly(driver, 1, message, len);
    if (!allowed.success) {
        app_printf("checked allow failed: %d\n", allowed.status);
        return -1;
    }
    subscribe_return_t subscribed = subscribe(driver, 1, console_cb, (void *)0x77);
    if (!subscribed.success) {
        app_printf("checked subscribe failed: %d\n", subscribed.status);
        return -2;
    }
    syscall_return_t written = command(driver, 1, (int)len, 0);
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}branch ends the run: the branch does not test the call's success exactly
    if (written.type != TOCK_SYSCALL_SUCCESS) {
        app_printf("checked write failed: %u\n", written.type);
        return -3;
    }
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}yield not batched: below-min-batch
    yield();
    app_printf("checked upcall %d ud %x\n", console_done, console_ud);
    subscribe(driver, 1, NULL, NULL);
    allow_readonly(driver, 1, NULL, 0);
    return 0;
}

static void loop(void)
{
    for (uint32_t led = 0; led < 4; led++) {
        // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}command not batched: below-min-batch
        syscall_return_t r = command(DRV_LED, 3, (int)led, 0);
        print_command("loop toggle", r);
    }
}

static int wait_checked(uint32_t len)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 3 calls (allow_readonly, command, yield_wait_for) into 3 slots with 0 chains over 3 blocks
    allow_ro_return_t allowed = allow_readonly(DRV_CONSOLE, 1, message, len);
    if (!allowed.success)
        return -1;
    syscall_return_t written = command(DRV_CONSOLE, 1, (int)len, 0);
    if (written.type < TOCK_SYSCALL_SUCCESS)
        return -(int)written.data[0];
    yield_waitfor_return_t done = yield_wait_for(DRV_CONSOLE, 1);
    app_printf("wait-for console %u %u %u\n", done.data0, done.data1, done.data2);
    allow_readonly(DRV_CONSOLE, 1, NULL, 0);
    return (int)done.data1;
}

static void counter_wait(void)
{
    // REPORT-DAG: plugged.c:[[@LINE+1]]:{{[0-9]+}}: {{.*}}batched 3 calls (allow_readwrite, command, yield_wait_for) into 3 slots with 0 chains
    allow_rw_return_t rw = allow_readwrite(DRV_COUNTER, 0, &cell, sizeof cell);
    syscall_return_t add = command(DRV_COUNTER, 1, 116, 0);
    yield_waitfor_return_t got = yield_wait_for(DRV_COUNTER, 0);
    print_allow_rw("counter wait allow", rw);
    print_command("counter add 116", add);
    app_printf("counter wait-for %u %u %u\n", got.data0, got.data1, got.data2);
    allow_readwrite(DRV_COUNTER, 0, NULL, 0);
}

int main(void)
{
    app_name_ptr(message, "message");
    app_name_ptr(&cell, "cell");
    app_name_ptr(&shadow, "shadow");
    app_name_ptr((const void *)(uintptr_t)console_cb, "console_cb");
    app_name_ptr((const void *)(uintptr_t)counter_cb, "counter_cb");
    leds();
    console();
    teardown();
    counter();
    rewrite();
    printing();
    memops();
    app_printf("checked console: %d\n", checked(DRV_CONSOLE));
    app_printf("checked missing driver: %d\n", checked(0x77));
    loop();
    app_printf("wait-for checked: %d\n", wait_checked(6));
    app_printf("wait-for failed write: %d\n", wait_checked(0));
    counter_wait();
    return 0;
}

/* What both builds must show (FileCheck prefixes used by plugged-*.test;
 * the two builds' streams are also diffed line by line):
 *
 * APP: led on 7: command type=0 data=6,0,0
 * APP: led off 0: command type=128 data=0,0,0
 * APP: console upcall 13 ud 55
 * APP: console write unallowed: command type=0 data=5,0,0
 * APP: counter cell after add 5: 5
 * APP: counter failure-u32: command type=1 data=1,c,0
 * APP: counter cell 12 shadow 12 upcalls 1 last 5
 * APP: rewrite upcall 4 ud 66
 * APP: memop unknown: memop status=10 data=0
 * APP: checked console: 0
 * APP: checked allow failed: 11
 * APP: checked missing driver: -1
 * APP: wait-for console 0 6 0
 * APP-NEXT: wait-for checked: 6
 * APP-NEXT: wait-for failed write: -5
 * APP: counter add 116: command type=128 data=0,0,0
 * APP-NEXT: counter wait-for 128 116 0
 *
 * KERN: console: Jello
 * KERN-NEXT: K: command 0x1 0x1 0x5 0x0 -> 0x80 0x0 0x0 0x0
 * KERN: K: yield-wait-for 0x1 0x1 -> 0x0 0x6 0x0
 * KERN: K: yield-wait-for 0x90 0x0 -> 0x80 0x74 0x0
 * KERN: K: leds 1001 counter 128
 * KERN-NEXT: K: exit 0
 *
 * Every call the plain build makes, one trap each:
 * PLAIN: K: stats traps 58 calls 58 series 0 upcalls 4
 *
 * The plugged build makes the same calls in fewer traps:
 * PLUGGED: K: stats traps 26 calls 58 series 16 upcalls 4
 */
