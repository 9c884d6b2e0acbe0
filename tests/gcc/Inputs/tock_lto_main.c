/* main for tests/gcc/Tock_lto_raw_calls.test: the wrappers of
 * tock_lto_app.c, one after the other. */
#include "tock.h"

syscall_return_t led_on(int led);
syscall_return_t led_off(int led);

int main(void)
{
    syscall_return_t a = led_on(1);
    syscall_return_t b = led_off(2);
    return (int)(a.type + b.type);
}
