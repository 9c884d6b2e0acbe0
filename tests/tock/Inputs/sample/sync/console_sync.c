/* libtocksync_console_*: start the operation, then yield until its upcall
 * ran (libtock-c's libtock-sync/interface/console.c waits the same way with
 * yield_wait_for). */
#include "../sample.h"

struct console_result {
    bool fired;
    returncode_t status;
    uint32_t length;
};

static struct console_result result;

static void console_done(returncode_t status, uint32_t length)
{
    result.fired = true;
    result.status = status;
    result.length = length;
}

returncode_t libtocksync_console_write(const uint8_t *buffer, uint32_t length, int *written)
{
    result.fired = false;
    returncode_t err = libtock_console_write(buffer, length, console_done);
    if (err != RETURNCODE_SUCCESS)
        return err;
    yield_for(&result.fired);
    *written = (int)result.length;
    return result.status;
}

returncode_t libtocksync_console_read(uint8_t *buffer, uint32_t length, int *read)
{
    result.fired = false;
    returncode_t err = libtock_console_read(buffer, length, console_done);
    if (err != RETURNCODE_SUCCESS)
        return err;
    yield_for(&result.fired);
    *read = (int)result.length;
    return result.status;
}
