/* Sample app: console write and read through libtock-sync. */
#include "../sample.h"
#include "app_io.h"

static const uint8_t greeting[] = "hello";
static uint8_t input[8];

int main(void)
{
    uint32_t written = 0, got = 0;
    returncode_t w = libtocksync_console_write(greeting, sizeof greeting - 1, &written);
    returncode_t r = libtocksync_console_read(input, sizeof input, &got);
    app_printf("write rc=%d written=%u\n", w, written);
    app_printf("read rc=%d got=%u '%s'\n", r, got, (const char *)input);
    return 0;
}
/* APP: write rc=0 written=5
 * APP: read rc=0 got=4 'tock'
 */
