/* libtock_led_*: the LED driver over its wrappers (libtock-c's
 * libtock/interface/led.c). */
#include "../sample.h"

returncode_t libtock_led_on(int led)
{
    return libtock_led_command_on(led);
}

returncode_t libtock_led_off(int led)
{
    return libtock_led_command_off(led);
}

returncode_t libtock_led_toggle(int led)
{
    return libtock_led_command_toggle(led);
}

returncode_t libtock_led_count(int *count)
{
    return libtock_led_command_count(count);
}
