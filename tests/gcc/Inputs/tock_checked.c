/* Tock app for Tock_chains_exec.test: libtock-c code that tests every
 * result before the next call.  With tock-chains the GCC plugin plans each
 * exactly tested run as one series; the stop policy ends the series at the
 * first failure, which is exactly where the code leaves the run.  The
 * console driver succeeds, driver 0x77 does not exist (the allow fails),
 * LED 9 does not exist (a command in the middle fails). */
#include <stdint.h>

#include "app_io.h"

static char text[] = "checked";
static int upcalls;

static void written_cb(int status, int n, int unused, void *ud)
{
    (void)status;
    (void)unused;
    (void)ud;
    upcalls += n;
}

static int write_checked(uint32_t driver, int len)
{
    allow_ro_return_t a = allow_readonly(driver, 1, text, (size_t)len);
    if (!a.success)
        return -(int)a.status;
    subscribe_return_t s = subscribe(driver, 1, written_cb, NULL);
    if (s.success == 0)
        return -100;
    syscall_return_t w = command(driver, 1, len, 0);
    if (w.type < TOCK_SYSCALL_SUCCESS)
        return -200 - (int)w.data[0];
    yield();
    subscribe(driver, 1, NULL, NULL);
    allow_readonly(driver, 1, NULL, 0);
    return upcalls;
}

static int toggles(int led)
{
    syscall_return_t a = command(DRV_LED, 3, 0, 0);
    if (a.type > 127) {
        syscall_return_t b = command(DRV_LED, 3, led, 0);
        if (b.type >= TOCK_SYSCALL_SUCCESS) {
            syscall_return_t c = command(DRV_LED, 3, 1, 0);
            print_command("third", c);
            return 0;
        }
        print_command("second failed", b);
        return 1;
    }
    return 2;
}

static int positive(void)
{
    subscribe_return_t s = subscribe(DRV_COUNTER, 0, NULL, NULL);
    if (s.success) {
        syscall_return_t get = command(DRV_COUNTER, 2, 0, 0);
        syscall_return_t bad = command(DRV_COUNTER, 9, 0, 0);
        print_command("get", get);
        print_command("bad", bad);
        return 0;
    }
    return 1;
}

static int inexact(void)
{
    syscall_return_t n = command(DRV_LED, 0, 0, 0);
    if (n.type != TOCK_SYSCALL_SUCCESS) { /* Success-u32: leaves, kernel would not */
        syscall_return_t t = command(DRV_LED, 3, 2, 0);
        syscall_return_t u = command(DRV_LED, 3, 2, 0);
        print_command("toggle", t);
        print_command("toggle back", u);
        return (int)n.data[0];
    }
    return 0;
}

int main(void)
{
    app_name_ptr(text, "text");
    app_name_ptr((const void *)(uintptr_t)written_cb, "written_cb");
    app_printf("console: %d\n", write_checked(DRV_CONSOLE, 7));
    app_printf("missing driver: %d\n", write_checked(0x77, 7));
    app_printf("toggles 2: %d\n", toggles(2));
    app_printf("toggles 9: %d\n", toggles(9));
    app_printf("positive: %d\n", positive());
    app_printf("inexact: %d\n", inexact());
    return 0;
}
