/* Sample app: button state and a press through libtock-sync. */
#include "../sample.h"
#include "app_io.h"

int main(void)
{
    int count = 0, b0 = -1, b1 = -1;
    returncode_t c = libtock_button_command_count(&count);
    returncode_t r0 = libtock_button_read(0, &b0);
    returncode_t r1 = libtock_button_read(1, &b1);
    returncode_t w = libtocksync_button_wait_for_press(0);
    returncode_t bad = libtocksync_button_wait_for_press(5);
    app_printf("count rc=%d %d\n", c, count);
    app_printf("read rc=%d,%d pressed=%d,%d\n", r0, r1, b0, b1);
    app_printf("press rc=%d bad rc=%d\n", w, bad);
    return 0;
}
/* APP: count rc=0 2
 * APP: read rc=0,0 pressed=1,0
 * APP: press rc=0 bad rc=-6
 */
