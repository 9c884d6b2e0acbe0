/* libtock_temperature_read: start a reading, the upcall delivers it in
 * hundredths of a degree (libtock-c's libtock/sensors/temperature.c). */
#include "../sample.h"

/* The callback waits in a variable, not in the userdata (drivers/console.c). */
static libtock_temperature_callback temperature_cb;

static void temperature_upcall(int temperature, int unused1, int unused2, void *opaque)
{
    (void)unused1;
    (void)unused2;
    (void)opaque;
    temperature_cb(RETURNCODE_SUCCESS, temperature);
}

returncode_t libtock_temperature_read(libtock_temperature_callback cb)
{
    temperature_cb = cb;
    returncode_t err = libtock_temperature_set_upcall(temperature_upcall, NULL);
    if (err != RETURNCODE_SUCCESS)
        return err;
    return libtock_temperature_command_read();
}
