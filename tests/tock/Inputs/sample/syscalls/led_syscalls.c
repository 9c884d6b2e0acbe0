/* LED raw calls, as libtock-c's led_syscalls.c. */
#include "../sample.h"

returncode_t libtock_led_command_count(int *count)
{
    syscall_return_t rval = command(DRIVER_NUM_LEDS, 0, 0, 0);
    return tock_command_return_u32_to_returncode(rval, (uint32_t *)count);
}

returncode_t libtock_led_command_on(int led)
{
    syscall_return_t rval = command(DRIVER_NUM_LEDS, 1, led, 0);
    return tock_command_return_novalue_to_returncode(rval);
}

returncode_t libtock_led_command_off(int led)
{
    syscall_return_t rval = command(DRIVER_NUM_LEDS, 2, led, 0);
    return tock_command_return_novalue_to_returncode(rval);
}

returncode_t libtock_led_command_toggle(int led)
{
    syscall_return_t rval = command(DRIVER_NUM_LEDS, 3, led, 0);
    return tock_command_return_novalue_to_returncode(rval);
}
