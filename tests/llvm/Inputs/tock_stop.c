/* Tock_exec_stop.test's app: runs whose series stop in the middle, so the
 * calls after the failing one run from their own call sites - with results
 * used (sret and, on RV32, memop's register return), unused, and a yield
 * whose upcall must still come.  Plain libtock-c code; the test builds it
 * unplugged and with the LLVM pass (target=tock) and diffs the runs. */
#include <stdint.h>

#include "app_io.h"

static char message[] = "stop";
static int console_done;

static void console_cb(int status, int n, int unused, void *ud)
{
    (void)status;
    (void)unused;
    (void)ud;
    console_done = n;
}

/* memop, a failing command, then memop and command again: the series stops
 * at the failure; the last two are made at their sites. */
static void memops_around_failure(void)
{
    memop_return_t before = memop(10, 0);
    syscall_return_t bad = command(DRV_LED, 1, 7, 0);
    memop_return_t after = memop(11, 0);
    syscall_return_t on = command(DRV_LED, 1, 2, 0);
    print_memop("memop before", before);
    print_command("led on 7", bad);
    print_memop("memop after", after);
    print_command("led on 2", on);
}

/* Results nobody reads: the sites only re-make the calls that did not run. */
static void unused_results(void)
{
    command(DRV_LED, 3, 0, 0);
    command(DRV_LED, 9, 0, 0); /* fails */
    command(DRV_LED, 3, 1, 0);
    memop(12, 0);
}

/* The failure comes before the write and the yield: both are made at their
 * sites, and the upcall the write schedules is delivered by that yield. */
static void yield_after_failure(void)
{
    allow_ro_return_t allowed = allow_readonly(DRV_CONSOLE, 1, message, 4);
    subscribe_return_t subscribed = subscribe(DRV_CONSOLE, 1, console_cb, NULL);
    syscall_return_t bad = command(DRV_LED, 1, 9, 0);
    syscall_return_t written = command(DRV_CONSOLE, 1, 4, 0);
    yield();
    print_allow_ro("allow", allowed);
    print_subscribe("subscribe", subscribed);
    print_command("led on 9", bad);
    print_command("write", written);
    app_printf("upcall %d\n", console_done);
    subscribe(DRV_CONSOLE, 1, NULL, NULL);
    allow_readonly(DRV_CONSOLE, 1, NULL, 0);
}

int main(void)
{
    app_name_ptr(message, "message");
    app_name_ptr((const void *)(uintptr_t)console_cb, "console_cb");
    memops_around_failure();
    unused_results();
    yield_after_failure();
    return 0;
}
