/* Temperature sensor raw calls, as libtock-c's temperature_syscalls.c. */
#include "../sample.h"

returncode_t libtock_temperature_set_upcall(subscribe_upcall cb, void *opaque)
{
    subscribe_return_t sval = subscribe(DRIVER_NUM_TEMPERATURE, 0, cb, opaque);
    return tock_subscribe_return_to_returncode(sval);
}

returncode_t libtock_temperature_command_read(void)
{
    syscall_return_t cval = command(DRIVER_NUM_TEMPERATURE, 1, 0, 0);
    return tock_command_return_novalue_to_returncode(cval);
}
