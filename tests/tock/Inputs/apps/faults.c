/* Apps that must end in the test kernel's distinct exit codes, one case per
 * build (-DCASE=n): 250 for a fault (kernel-detected misuse or a CPU
 * exception in the app), 251 for a deadlock (yield-wait, nothing pending).
 *   1  series frames in flash (outside app RAM)       -> 250
 *   2  series frames misaligned                       -> 250
 *   3  series frames run past the end of app RAM      -> 250
 *   4  undefined instruction in the app               -> 250
 *   5  plain yield-wait with nothing pending          -> 251
 *   6  series ending in yield-wait, nothing pending   -> 251
 *   7  yield-no-wait flag pointer outside app RAM     -> 250
 *   8  plain exit with completion code 42             -> 42
 *   9  a trap with an unknown class (0x42)            -> 250
 *  10  Yield-WaitFor on the console, only the
 *      temperature's upcall pending                   -> 251
 *  11  series ending in Yield-WaitFor, nothing pending -> 251
 */
#include <stdint.h>

#include "app_io.h"
#include "sysbatch_tock.h"

#ifndef CASE
#error "build with -DCASE=n"
#endif

static const struct sysbatch_tock_frame in_flash[2] = {
    {2, DRV_LED, 1, 0, 0},
    {2, DRV_LED, 1, 1, 0},
};

extern char __app_ram_end[];

int main(void)
{
    static uint32_t words[12];
    struct sysbatch_tock_frame f[2] = {{2, DRV_LED, 1, 0, 0}, {0, YIELD_WAIT, 0, 0, 0}};
    app_printf("case %d\n", CASE);
    switch (CASE) {
    case 1:
        sysbatch_tock_series((struct sysbatch_tock_frame *)in_flash, 2, 0);
        break;
    case 2:
        sysbatch_tock_series((struct sysbatch_tock_frame *)(void *)((char *)words + 2), 2, 0);
        break;
    case 3:
        sysbatch_tock_series((struct sysbatch_tock_frame *)((uintptr_t)__app_ram_end - 20), 2, 0);
        break;
    case 4:
#if defined(__arm__)
        __asm__ volatile("udf #0");
#else
        __asm__ volatile("unimp");
#endif
        break;
    case 5:
        yield();
        break;
    case 6:
        sysbatch_tock_series(f, 2, SYSBATCH_TOCK_POLICY_STOP);
        break;
    case 7: {
        struct sysbatch_tock_frame y = {0, YIELD_NO_WAIT, (uint32_t)(uintptr_t)in_flash, 0, 0};
        sysbatch_tock_series(&y, 1, SYSBATCH_TOCK_POLICY_STOP);
        break;
    }
    case 8:
        tock_exit(42);
    case 10: {
        syscall_return_t r = command(0x60000, 1, 0, 0) /* temperature: read */;
        app_printf("temperature read %u\n", r.type);
        yield_wait_for(DRV_CONSOLE, 1);
        break;
    }
    case 11: {
        struct sysbatch_tock_frame w[2] = {{2, DRV_LED, 1, 0, 0},
                                           {0, YIELD_WAIT_FOR, DRV_CONSOLE, 1, 0}};
        sysbatch_tock_series(w, 2, SYSBATCH_TOCK_POLICY_STOP);
        break;
    }
    case 9:
#if defined(__arm__)
        __asm__ volatile("svc 0x42" ::: "memory");
#else
        __asm__ volatile("li a4, 0x42\n\tecall" ::: "a4", "memory");
#endif
        break;
    }
    app_puts("not reached\n");
    return 1;
}

/*
 * C1: K: fault: series frames outside app RAM
 * C1-NEXT: K: leds 0000
 * C1: EXIT 250
 * C2: K: fault: series frames outside app RAM
 * C2: EXIT 250
 * C3: K: fault: series frames outside app RAM
 * C3: EXIT 250
 * C4: case 4
 * C4-NEXT: K: fault: {{cortex-m exception|risc-v trap, mcause 0x2}}
 * C4: EXIT 250
 * C5: K: yield 0x1 0
 * C5-NEXT: K: deadlock: yield-wait with no upcall pending
 * C5: EXIT 251
 * C6: K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * C6-NEXT: K: yield 0x1 0
 * C6-NEXT: K: deadlock: yield-wait with no upcall pending
 * C6-NEXT: K: leds 0001
 * C6: EXIT 251
 * C7: K: fault: yield-no-wait flag outside app RAM
 * C7: EXIT 250
 * C8: K: exit 42
 * C8: EXIT 42
 * C9: K: fault: unknown system call class 0x42
 * C9: EXIT 250
 * C10: temperature read 128
 * C10-NEXT: K: deadlock: yield-wait-for with no such upcall pending
 * C10: EXIT 251
 * C11: K: command 0x2 0x1 0x0 0x0 -> 0x80 0x0 0x0 0x0
 * C11-NEXT: K: deadlock: yield-wait-for with no such upcall pending
 * C11-NEXT: K: leds 0001
 * C11: EXIT 251
 * CHECK-NOT: not reached
 */
