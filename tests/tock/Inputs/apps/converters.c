/* Converters app: libtock-c code that tests each call through libtock-c's
 * converters (rc = tock_*_return_to_returncode(r); if (rc !=
 * RETURNCODE_SUCCESS) return rc;), built unplugged and plugged
 * (tests/tock/converters-*.test), streams diffed.
 *
 *   chain     subscribe, allow, command, each tested through its converter:
 *             one series (the allow/subscribe tests are exact); run with
 *             every call succeeding, the subscribe failing (no driver) and
 *             the allow failing (a pointer outside the app): the kernel
 *             stops exactly where the code leaves
 *   leds      converters between four commands, results only summed: code
 *             on private values, one straight series; LED 7 fails inside
 *   novalue   a command converter's test is not exact (EBADRVAL on both
 *             sides of the stop condition): the run ends at that branch
 *   value     tock_command_return_u32_to_returncode into a private local
 *             between two commands (LLVM batches them; GCC too, the
 *             address goes only to the converter)
 */
#include <stdint.h>

#include "app_io.h"

static char message[] = "converted";
static int upcalls;

static void console_cb(int status, int len, int unused, void *ud)
{
    (void)status;
    (void)len;
    (void)unused;
    (void)ud;
    upcalls++;
}

static int chain(uint32_t driver, const void *text, uint32_t len)
{
    subscribe_return_t s = subscribe(driver, 1, console_cb, 0);
    // REPORT-DAG: converters.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}batched 3 calls (subscribe, allow_readonly, command) into 3 slots with 0 chains
    int rc = tock_subscribe_return_to_returncode(s);
    if (rc != RETURNCODE_SUCCESS)
        return rc;
    allow_ro_return_t a = allow_readonly(driver, 1, text, len);
    rc = tock_allow_ro_return_to_returncode(a);
    if (rc != RETURNCODE_SUCCESS)
        return rc - 100;
    syscall_return_t c = command(driver, 1, (int)len, 0);
    return tock_command_return_novalue_to_returncode(c) - 200;
}

static int leds(void)
{
    syscall_return_t a = command(DRV_LED, 1, 0, 0);
    // REPORT-DAG: converters.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}batched 4 calls (command, command, command, command) into 4 slots with 0 chains
    int sum = tock_command_return_novalue_to_returncode(a);
    syscall_return_t b = command(DRV_LED, 3, 1, 0);
    sum = sum * 16 + tock_command_return_novalue_to_returncode(b);
    syscall_return_t c = command(DRV_LED, 1, 7, 0);
    sum = sum * 16 + tock_command_return_novalue_to_returncode(c);
    syscall_return_t d = command(DRV_LED, 1, 3, 0);
    return sum * 16 + tock_command_return_novalue_to_returncode(d) +
           tock_status_to_returncode(TOCK_STATUSCODE_BUSY);
}

static int novalue(uint32_t led)
{
    syscall_return_t a = command(DRV_LED, 2, (int)led, 0);
    int rc = tock_command_return_novalue_to_returncode(a);
    if (rc != RETURNCODE_SUCCESS)
        // REPORT-DAG: converters.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}branch ends the run: tock_command_return_novalue_to_returncode returns RETURNCODE_EBADRVAL
        return rc;
    syscall_return_t b = command(DRV_LED, 3, (int)led, 0);
    return tock_command_return_novalue_to_returncode(b);
}

static uint32_t value(void)
{
    uint32_t n = 0;
    syscall_return_t c = command(DRV_LED, 0, 0, 0);
    int rc = tock_command_return_u32_to_returncode(c, &n);
    syscall_return_t d = command(DRV_LED, 3, 2, 0);
    return n * 100 + (uint32_t)(-rc) * 10 + (d.type == TOCK_SYSCALL_SUCCESS);
}

int main(void)
{
    int ok = chain(DRV_CONSOLE, message, sizeof message - 1);
    yield();
    int no_driver = chain(0x77, message, sizeof message - 1);
    int bad_buffer = chain(DRV_CONSOLE, (const void *)0xfffffff0u, 8);
    app_printf("chain ok=%d no_driver=%d bad_buffer=%d upcalls=%d\n", ok, no_driver,
               bad_buffer, upcalls);
    app_printf("leds %d\n", leds());
    int n0 = novalue(0);
    int n9 = novalue(9);
    app_printf("novalue %d %d\n", n0, n9);
    app_printf("value %u\n", value());
    return 0;
}
/* APP: chain ok=-200 no_driver=-11 bad_buffer=-106 upcalls=1
 * APP: leds -98
 * APP: novalue 0 -6
 * APP: value 401
 * 17 traps plain (16 calls and the exit); plugged: chain 3 -> 1 each time
 * it reaches the command, 2 when it stops early, leds 4 -> 1, value 2 -> 1.
 * PLAIN: K: stats traps 17 calls 17 series 0
 * PLUGGED: K: stats traps 10 calls 17 series 5
 */
