/* A freestanding libtock-c style fragment: the raw Tock calls as libtock-c
 * declares them (libtock/tock.h), without its headers. */
#include <stdint.h>

typedef struct {
    uint32_t type;
    uint32_t data[3];
} syscall_return_t;

syscall_return_t command(uint32_t driver, uint32_t command, int arg1, int arg2);
void yield(void);

uint32_t led_blink(void)
{
    syscall_return_t a = command(2, 1, 0, 0);
    syscall_return_t b = command(2, 1, 1, 0);
    syscall_return_t c = command(2, 2, 0, 0);
    yield();
    return a.type + b.type + c.type;
}
