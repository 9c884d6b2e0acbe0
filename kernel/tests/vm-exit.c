/* vm-exit: end the test VM with a status through qemu's isa-debug-exit
 * device (I/O port 0xf4).  qemu then exits with (status << 1) | 1, so an odd
 * exit code means "the VM finished its run" and anything else means it
 * crashed or hung.  Used by the /init that scripts/vm-run.py builds:
 *     vm-exit <failure-count>      (clamped to 0..127)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char **argv)
{
    long status = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
    if (status < 0 || status > 127)
        status = 127;
    if (ioperm(0xf4, 4, 1) != 0) {
        perror("vm-exit: ioperm");
        return 1;
    }
    outl((unsigned)status, 0xf4);
    perror("vm-exit: still running after isa-debug-exit");
    return 1;
}
