/* Sample app: a temperature reading through libtock-sync. */
#include "../sample.h"
#include "app_io.h"

int main(void)
{
    int t = 0;
    returncode_t rc = libtocksync_temperature_read(&t);
    app_printf("temperature rc=%d %d.%d C\n", rc, t / 100, t % 100);
    return 0;
}
/* APP: temperature rc=0 23.50 C
 */
