/* libtock_console_*: asynchronous write and read made of the console
 * wrappers (libtock-c's libtock/interface/console.c). */
#include "../sample.h"

/* libtock-c passes the callback as the upcall's userdata; here it waits in
 * a variable, so the kernel's trace (which prints userdata) is the same in
 * every build of an app. */
static libtock_console_callback write_cb, read_cb;

static void write_upcall(int status, int length, int unused, void *opaque)
{
    (void)unused;
    (void)opaque;
    write_cb(tock_status_to_returncode((statuscode_t)status), (uint32_t)length);
}

static void read_upcall(int status, int length, int unused, void *opaque)
{
    (void)unused;
    (void)opaque;
    read_cb(tock_status_to_returncode((statuscode_t)status), (uint32_t)length);
}

returncode_t libtock_console_write(const uint8_t *buffer, uint32_t len, libtock_console_callback cb)
{
    write_cb = cb;
    returncode_t err = libtock_console_write_done_set_upcall(write_upcall, NULL);
    if (err != RETURNCODE_SUCCESS)
        return err;
    err = libtock_console_set_read_allow(buffer, len);
    if (err != RETURNCODE_SUCCESS)
        return err;
    return libtock_console_command_write((int)len);
}

returncode_t libtock_console_read(uint8_t *buffer, uint32_t len, libtock_console_callback cb)
{
    read_cb = cb;
    returncode_t err = libtock_console_read_done_set_upcall(read_upcall, NULL);
    if (err != RETURNCODE_SUCCESS)
        return err;
    err = libtock_console_set_readwrite_allow(buffer, len);
    if (err != RETURNCODE_SUCCESS)
        return err;
    return libtock_console_command_read((int)len);
}
