/* Tock_exec_chain_*.test's app: checked runs, every result tested before
 * the next call, as libtock-c code is usually written.  With tock-chains
 * the pass plans each checked run as one series: the stop policy ends the
 * series at the first failure, exactly where the code leaves the run.  The
 * test builds it unplugged and plugged and diffs the runs. */
#include <stdint.h>

#include "app_io.h"

static char message[] = "chain";
static int console_done;

static void console_cb(int status, int n, int unused, void *ud)
{
    (void)status;
    (void)unused;
    (void)ud;
    console_done = n;
}

/* allow, subscribe, write, yield; each failure leaves at its own test. */
static int setup(uint32_t driver, int len)
{
    allow_ro_return_t allowed = allow_readonly(driver, 1, message, (size_t)len);
    if (!allowed.success) {
        app_printf("allow failed: %d\n", allowed.status);
        return -1;
    }
    subscribe_return_t subscribed = subscribe(driver, 1, console_cb, (void *)0x11);
    if (subscribed.success == 0) {
        app_printf("subscribe failed: %d\n", subscribed.status);
        return -2;
    }
    syscall_return_t written = command(driver, 1, len, 0);
    if (written.type < TOCK_SYSCALL_SUCCESS) {
        app_printf("write failed: %u %u\n", written.type, written.data[0]);
        return -3;
    }
    yield();
    app_printf("upcall %d\n", console_done);
    subscribe(driver, 1, NULL, NULL);
    allow_readonly(driver, 1, NULL, 0);
    return 0;
}

/* Nested success arms: the second command fails for led 7. */
static int leds(int led)
{
    syscall_return_t on0 = command(DRV_LED, 1, 0, 0);
    if (on0.type >= 128) {
        syscall_return_t on = command(DRV_LED, 1, led, 0);
        if (on.type > 127) {
            syscall_return_t off0 = command(DRV_LED, 2, 0, 0);
            print_command("off 0", off0);
            return 0;
        }
        print_command("on failed", on);
        return 1;
    }
    print_command("on 0 failed", on0);
    return 2;
}

/* `!= TOCK_SYSCALL_SUCCESS` also leaves on a Success-u32 while the kernel
 * goes on: the run ends at that test. */
static int inexact(void)
{
    syscall_return_t count = command(DRV_LED, 0, 0, 0);
    if (count.type != TOCK_SYSCALL_SUCCESS) {
        print_command("count", count);
        syscall_return_t t = command(DRV_LED, 3, 1, 0);
        syscall_return_t u = command(DRV_LED, 3, 1, 0);
        print_command("toggle", t);
        print_command("toggle again", u);
        return 1;
    }
    return 0;
}

int main(void)
{
    app_name_ptr(message, "message");
    app_name_ptr((const void *)(uintptr_t)console_cb, "console_cb");
    app_printf("setup console: %d\n", setup(DRV_CONSOLE, 5));
    app_printf("setup missing driver: %d\n", setup(0x77, 5));
    app_printf("leds 3: %d\n", leds(3));
    app_printf("leds 7: %d\n", leds(7));
    app_printf("inexact: %d\n", inexact());
    return 0;
}
