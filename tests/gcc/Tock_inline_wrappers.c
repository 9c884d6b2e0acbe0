/* Tock: libtock-c's syscall wrappers (one raw call and its converter) are
 * inlined wherever GCC can (core: sb_tock_inline_wrapper), so the late look
 * sees their raw calls side by side.  GCC's own heuristics refuse every
 * one of these at -Os and at -O2: `main` runs once, so its calls are cold,
 * and a wrapper called three times grows it.  A function that does more
 * than a wrapper (another call, two raw calls, a loop) keeps GCC's
 * decision.  Both cross compilers, -Os (libtock-c's default) and -O2.
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -Os -fopt-info-optimized-missed -c %s -o /dev/null 2>&1 | %FileCheck %s
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -O2 -fopt-info-optimized-missed -c %s -o /dev/null 2>&1 | %FileCheck %s
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -I%srcroot/runtime/tock/libtock -fplugin-arg-sysbatch-target=tock -Os -fopt-info-optimized-missed -c %s -o /dev/null 2>&1 | %FileCheck %s
 * Without the plugin GCC inlines none of the wrappers into main:
 * RUN: arm-none-eabi-gcc -mthumb -mcpu=cortex-m3 -ffreestanding -I%srcroot/runtime/tock/libtock -Os -fopt-info-inline-missed -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAIN
 * PLAIN-DAG: not inlinable: main/{{[0-9]+}} -> led_on/{{[0-9]+}}, call is unlikely and code size would grow
 * PLAIN-DAG: not inlinable: main/{{[0-9]+}} -> led_count/{{[0-9]+}}, call is unlikely and code size would grow
 *
 * CHECK-DAG: Inlining led_on/{{[0-9]+}} into main/{{[0-9]+}}
 * CHECK-DAG: Inlining led_count/{{[0-9]+}} into main/{{[0-9]+}}
 * CHECK-DAG: not inlinable: main/{{[0-9]+}} -> led_on_logged/{{[0-9]+}}, {{.+}}
 * CHECK-DAG: not inlinable: main/{{[0-9]+}} -> led_pair/{{[0-9]+}}, {{.+}}
 * CHECK-DAG: not inlinable: main/{{[0-9]+}} -> led_blink/{{[0-9]+}}, {{.+}}
 * CHECK-DAG: Tock_inline_wrappers.c:{{[0-9]+}}:{{[0-9]+}}: optimized: sysbatch: batched 4 calls (command, command, command, command)
 */
#include "tock.h"

void log_call(int);

int led_on(int led)
{
    syscall_return_t r = command(2, 1, led, 0);
    return tock_command_return_novalue_to_returncode(r);
}

int led_count(int *count)
{
    syscall_return_t r = command(2, 0, 0, 0);
    return tock_command_return_u32_to_returncode(r, (uint32_t *)count);
}

int led_on_logged(int led)
{
    log_call(led);
    syscall_return_t r = command(2, 1, led, 0);
    return tock_command_return_novalue_to_returncode(r);
}

int led_pair(int led)
{
    syscall_return_t r = command(2, 1, led, 0);
    syscall_return_t s = command(2, 1, led + 1, 0);
    return tock_command_return_novalue_to_returncode(r) +
           tock_command_return_novalue_to_returncode(s);
}

int led_blink(int led, int n)
{
    int rc = 0;
    for (int i = 0; i < n; i++)
        rc |= tock_command_return_novalue_to_returncode(command(2, 3, led, 0));
    return rc;
}

int main(void)
{
    int n = 0;
    int c = led_count(&n);
    int a = led_on(0);
    int b = led_on(1);
    int d = led_on(3);
    int e = led_on_logged(2) + led_on_logged(3) + led_on_logged(1);
    int f = led_pair(0) + led_pair(2) + led_pair(1);
    int g = led_blink(0, n) + led_blink(1, n) + led_blink(2, n);
    return a + b + c + d + e + f + g + n;
}
