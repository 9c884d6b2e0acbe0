/* Test-app startup: the kernel enters app_entry in unprivileged mode with
 * the stack pointer at the top of app RAM; main's return value becomes the
 * completion code of tock_exit (and so qemu's exit status). */
#include "tock.h"

int main(void);

void app_entry(void)
{
    tock_exit((uint32_t)main());
}
