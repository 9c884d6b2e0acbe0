/* Sample app: two alarm delays through libtock-sync. */
#include "../sample.h"
#include "app_io.h"

int main(void)
{
    int first = libtocksync_alarm_delay_ms(250);
    int second = libtocksync_alarm_delay_ms(1000);
    uint32_t now = 0;
    int rc = libtock_alarm_command_read(&now);
    app_printf("delays rc=%d,%d now rc=%d %u\n", first, second, rc, now);
    return 0;
}
/* 1000 ticks at start, 256 for 250 ms at 1024 Hz, then 1024.
 * APP: delays rc=0,0 now rc=0 2280
 */
