/* libtock-c's shape: every raw call in a small non-static wrapper of its
 * own (libtock/<driver>/syscalls/ in libtock-c), a driver layer that only calls the
 * wrappers.  No body holds two raw calls, so a series forms only where the
 * wrappers are inlined: the plugins' late look (placement=both).  Under
 * -fPIC GCC inlines no non-static wrapper unless -fno-semantic-interposition
 * is given (tests/tock/wrappers-*.test build it both ways).
 */
#include "app_io.h"

syscall_return_t libtock_led_command_on(int led)
{
    return command(DRV_LED, 1, led, 0);
}

syscall_return_t libtock_led_command_off(int led)
{
    return command(DRV_LED, 2, led, 0);
}

syscall_return_t libtock_led_command_toggle(int led)
{
    return command(DRV_LED, 3, led, 0);
}

/* The driver layer: four raw calls, each behind its wrapper. */
static void led_pattern(void)
{
    syscall_return_t on0 = libtock_led_command_on(0);
    syscall_return_t toggle1 = libtock_led_command_toggle(1);
    syscall_return_t on7 = libtock_led_command_on(7);
    syscall_return_t off0 = libtock_led_command_off(0);
    print_command("led on 0", on0);
    print_command("led toggle 1", toggle1);
    print_command("led on 7", on7);
    print_command("led off 0", off0);
}

int main(void)
{
    led_pattern();
    return 0;
}

/* What both builds must show (tests/tock/wrappers-*.test; the streams are
 * also diffed line by line), and the one series the late look forms:
 * APP: led on 0: command type=128 data=0,0,0
 * APP: led toggle 1: command type=128 data=0,0,0
 * APP: led on 7: command type=0 data=6,0,0
 * APP: led off 0: command type=128 data=0,0,0
 * PLAIN: K: stats traps {{[0-9]+}} calls [[CALLS:[0-9]+]] series 0
 * PLUGGED: K: stats traps {{[0-9]+}} calls {{[0-9]+}} series 1
 * REPORT: wrappers.c:{{[0-9]+}}:{{[0-9]+}}: {{.*}}batched 4 calls (command, command, command, command)
 * NOSERIES-NOT: {{(optimized: sysbatch|remark)}}: batched
 */
