/* libtocksync_temperature_read and libtocksync_button_wait_for_press: the
 * command, then Yield-WaitFor on its upcall (libtock-c's
 * libtock-sync/sensors/temperature.c and interface/button.c, 2025-2026:
 * no subscribe, no flag; the button's interrupt stays enabled). */
#include "../sample.h"

returncode_t libtocksync_temperature_read(int *temperature)
{
    returncode_t err = libtock_temperature_command_read();
    if (err != RETURNCODE_SUCCESS)
        return err;
    return libtocksync_temperature_yield_wait_for(temperature);
}

returncode_t libtocksync_button_wait_for_press(int button)
{
    returncode_t ret = libtock_button_command_enable_interrupt((uint32_t)button);
    if (ret != RETURNCODE_SUCCESS)
        return ret;
    for (;;) {
        int index;
        bool pressed;
        ret = libtocksync_button_yield_wait_for(&index, &pressed);
        if (ret != RETURNCODE_SUCCESS)
            return ret;
        if (pressed && index == button)
            break;
    }
    return RETURNCODE_SUCCESS;
}
