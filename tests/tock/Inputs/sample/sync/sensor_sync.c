/* libtocksync_temperature_read and libtocksync_button_wait_for_press: the
 * asynchronous operation, then yield until its upcall ran
 * (libtock-c's libtock-sync/sensors/temperature.c, interface/button.c). */
#include "../sample.h"

static bool temperature_fired;
static int temperature_value;

static void temperature_done(returncode_t status, int temperature)
{
    (void)status;
    temperature_fired = true;
    temperature_value = temperature;
}

returncode_t libtocksync_temperature_read(int *temperature)
{
    temperature_fired = false;
    returncode_t err = libtock_temperature_read(temperature_done);
    if (err != RETURNCODE_SUCCESS)
        return err;
    yield_for(&temperature_fired);
    *temperature = temperature_value;
    return RETURNCODE_SUCCESS;
}

static bool press_fired;

static void press_done(returncode_t status, int button, bool pressed)
{
    (void)status;
    (void)button;
    press_fired = pressed;
}

returncode_t libtocksync_button_wait_for_press(int button)
{
    press_fired = false;
    returncode_t err = libtock_button_notify_on_press(button, press_done);
    if (err != RETURNCODE_SUCCESS)
        return err;
    yield_for(&press_fired);
    return libtock_button_command_disable_interrupt((uint32_t)button);
}
