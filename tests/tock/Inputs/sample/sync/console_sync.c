/* libtocksync_console_*: allow the buffer, start the operation, wait for
 * its upcall with Yield-WaitFor, unallow the buffer (libtock-c's
 * libtock-sync/interface/console.c, 2025-2026: no subscribe, no flag).
 * libtock-c unallows with its `defer` (a GCC nested function, which clang
 * rejects); here the unallow is written out on the paths defer runs it:
 * every return after the allow succeeded. */
#include "../sample.h"

returncode_t libtocksync_console_write(const uint8_t *buffer, uint32_t length, uint32_t *written)
{
    returncode_t err = libtock_console_set_read_allow(buffer, length);
    if (err != RETURNCODE_SUCCESS)
        return err;
    err = libtock_console_command_write((int)length);
    if (err == RETURNCODE_SUCCESS)
        err = libtocksync_console_yield_wait_for_write(written);
    libtock_console_set_read_allow(NULL, 0);
    return err;
}

returncode_t libtocksync_console_read(uint8_t *buffer, uint32_t length, uint32_t *read)
{
    returncode_t err = libtock_console_set_readwrite_allow(buffer, length);
    if (err != RETURNCODE_SUCCESS)
        return err;
    err = libtock_console_command_read((int)length);
    if (err == RETURNCODE_SUCCESS)
        err = libtocksync_console_yield_wait_for_read(read);
    libtock_console_set_readwrite_allow(NULL, 0);
    return err;
}
