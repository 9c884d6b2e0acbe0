/* Two libtock-c-style wrappers in another file than their raw call, which
 * the libtock layer (runtime/tock/libtock/tock.c) defines in the same LTO
 * unit (tests/gcc/Tock_lto_raw_calls.test). */
#include "tock.h"

syscall_return_t led_on(int led)
{
    return command(2, 1, led, 0);
}

syscall_return_t led_off(int led)
{
    return command(2, 2, led, 0);
}
