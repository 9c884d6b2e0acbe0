/* Sample app: LEDs through libtock's LED driver; LED 7 does not exist. */
#include "../sample.h"
#include "app_io.h"

int main(void)
{
    int count = 0;
    returncode_t c = libtock_led_count(&count);
    returncode_t on0 = libtock_led_on(0);
    returncode_t toggle1 = libtock_led_toggle(1);
    returncode_t on7 = libtock_led_on(7);
    returncode_t on3 = libtock_led_on(3);
    returncode_t off0 = libtock_led_off(0);
    app_printf("count rc=%d %d\n", c, count);
    app_printf("on0 %d toggle1 %d on7 %d on3 %d off0 %d\n", on0, toggle1, on7, on3, off0);
    return 0;
}
/* APP: count rc=0 4
 * APP: on0 0 toggle1 0 on7 -6 on3 0 off0 0
 */
