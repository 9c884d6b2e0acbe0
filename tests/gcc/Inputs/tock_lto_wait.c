/* libtock-c's yield_for (libtock/tock.c defines it next to the raw calls)
 * and two waits on flags an upcall sets (tests/gcc/Tock_lto_never_rows.test). */
#include <stdbool.h>

#include "tock.h"

void yield_for(bool *cond);

void yield_for(bool *cond)
{
    while (!*cond)
        yield();
}

static bool first_done, second_done;

static void done(int a, int b, int c, void *flag)
{
    (void)a;
    (void)b;
    (void)c;
    *(bool *)flag = true;
}

int main(void)
{
    subscribe(0x60000, 0, done, &first_done);
    command(0x60000, 1, 0, 0);
    yield_for(&first_done);
    subscribe(0x60000, 0, done, &second_done);
    command(0x60000, 1, 0, 0);
    yield_for(&second_done);
    return 0;
}
