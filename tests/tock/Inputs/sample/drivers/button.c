/* libtock_button_*: press notification and state (libtock-c's
 * libtock/interface/button.c). */
#include "../sample.h"

/* The callback waits in a variable, not in the userdata (drivers/console.c). */
static libtock_button_callback button_cb;

static void button_upcall(int button, int pressed, int unused, void *opaque)
{
    (void)unused;
    (void)opaque;
    button_cb(RETURNCODE_SUCCESS, button, pressed != 0);
}

returncode_t libtock_button_notify_on_press(int button, libtock_button_callback cb)
{
    button_cb = cb;
    returncode_t err = libtock_button_set_upcall(button_upcall, NULL);
    if (err != RETURNCODE_SUCCESS)
        return err;
    return libtock_button_command_enable_interrupt((uint32_t)button);
}

returncode_t libtock_button_read(int button, int *pressed)
{
    return libtock_button_command_read((uint32_t)button, pressed);
}
