/* Button raw calls, as libtock-c's button_syscalls.c. */
#include "../sample.h"

returncode_t libtock_button_set_upcall(subscribe_upcall cb, void *opaque)
{
    subscribe_return_t sval = subscribe(DRIVER_NUM_BUTTONS, 0, cb, opaque);
    return tock_subscribe_return_to_returncode(sval);
}

returncode_t libtock_button_command_count(int *count)
{
    syscall_return_t rval = command(DRIVER_NUM_BUTTONS, 0, 0, 0);
    return tock_command_return_u32_to_returncode(rval, (uint32_t *)count);
}

returncode_t libtock_button_command_enable_interrupt(uint32_t button)
{
    syscall_return_t rval = command(DRIVER_NUM_BUTTONS, 1, (int)button, 0);
    return tock_command_return_novalue_to_returncode(rval);
}

returncode_t libtock_button_command_disable_interrupt(uint32_t button)
{
    syscall_return_t rval = command(DRIVER_NUM_BUTTONS, 2, (int)button, 0);
    return tock_command_return_novalue_to_returncode(rval);
}

returncode_t libtock_button_command_read(uint32_t button, int *pressed)
{
    syscall_return_t rval = command(DRIVER_NUM_BUTTONS, 3, (int)button, 0);
    return tock_command_return_u32_to_returncode(rval, (uint32_t *)pressed);
}
