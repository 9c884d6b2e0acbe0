/* A libtock-c-shaped layer for the sample apps (tests/tock/samples-*.test),
 * in libtock-c's three layers and with its names:
 *
 *   syscalls/<driver>_syscalls.c   one raw call per function, its result
 *                                  through libtock-c's converter
 *                                  (libtock/<kind>/syscalls/ in libtock-c)
 *   drivers/<driver>.c             libtock_<driver>_*: asynchronous
 *                                  operations made only of those wrappers
 *   sync/syscalls/<driver>_sync_syscalls.c
 *                                  libtocksync_<driver>_yield_wait_for*:
 *                                  one Yield-WaitFor and its values
 *                                  (libtock-sync/<kind>/syscalls/
 *                                  <driver>_syscalls.c; renamed: the
 *                                  test build names objects by basename)
 *   sync/<driver>_sync.c           libtocksync_<driver>_*: libtock-c's
 *                                  2025-2026 sync layer - the console,
 *                                  the sensor and the button wait with
 *                                  Yield-WaitFor (no subscribe, no flag),
 *                                  the alarm delay with yield_for on a
 *                                  flag its callback sets
 *
 * No body holds two raw calls: a series forms only where the compiler
 * inlined the wrappers (the plugins' late look).  The converters and the
 * raw calls are libtock's (runtime/tock/libtock), out of line.  Written for
 * sysbatch from libtock-c's documented interfaces.
 */
#ifndef SAMPLE_H
#define SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "tock.h"

#define DRIVER_NUM_ALARM 0x0
#define DRIVER_NUM_CONSOLE 0x1
#define DRIVER_NUM_LEDS 0x2
#define DRIVER_NUM_BUTTONS 0x3
#define DRIVER_NUM_TEMPERATURE 0x60000

void yield_for(bool *cond);

/* syscalls/ */
returncode_t libtock_console_write_done_set_upcall(subscribe_upcall cb, void *opaque);
returncode_t libtock_console_read_done_set_upcall(subscribe_upcall cb, void *opaque);
returncode_t libtock_console_set_read_allow(const uint8_t *buffer, uint32_t len);
returncode_t libtock_console_set_readwrite_allow(uint8_t *buffer, uint32_t len);
returncode_t libtock_console_command_write(int length);
returncode_t libtock_console_command_read(int length);

int libtock_alarm_set_upcall(subscribe_upcall cb, void *opaque);
int libtock_alarm_command_get_frequency(uint32_t *frequency);
int libtock_alarm_command_read(uint32_t *time);
int libtock_alarm_command_stop(void);
int libtock_alarm_command_set_absolute(uint32_t reference, uint32_t dt);

returncode_t libtock_temperature_set_upcall(subscribe_upcall cb, void *opaque);
returncode_t libtock_temperature_command_read(void);

returncode_t libtock_led_command_count(int *count);
returncode_t libtock_led_command_on(int led);
returncode_t libtock_led_command_off(int led);
returncode_t libtock_led_command_toggle(int led);

returncode_t libtock_button_set_upcall(subscribe_upcall cb, void *opaque);
returncode_t libtock_button_command_count(int *count);
returncode_t libtock_button_command_enable_interrupt(uint32_t button);
returncode_t libtock_button_command_disable_interrupt(uint32_t button);
returncode_t libtock_button_command_read(uint32_t button, int *pressed);

/* drivers/ */
typedef void (*libtock_console_callback)(returncode_t status, uint32_t length);
returncode_t libtock_console_write(const uint8_t *buffer, uint32_t len, libtock_console_callback cb);
returncode_t libtock_console_read(uint8_t *buffer, uint32_t len, libtock_console_callback cb);

typedef void (*libtock_alarm_callback)(uint32_t now, uint32_t scheduled, void *opaque);
int libtock_alarm_in_ms(uint32_t ms, libtock_alarm_callback cb, void *opaque);

typedef void (*libtock_temperature_callback)(returncode_t status, int temperature);
returncode_t libtock_temperature_read(libtock_temperature_callback cb);

returncode_t libtock_led_on(int led);
returncode_t libtock_led_off(int led);
returncode_t libtock_led_toggle(int led);
returncode_t libtock_led_count(int *count);

typedef void (*libtock_button_callback)(returncode_t status, int button, bool pressed);
returncode_t libtock_button_notify_on_press(int button, libtock_button_callback cb);
returncode_t libtock_button_read(int button, int *pressed);

/* sync/syscalls/ */
returncode_t libtocksync_console_yield_wait_for_write(uint32_t *bytes_written);
returncode_t libtocksync_console_yield_wait_for_read(uint32_t *bytes_read);
returncode_t libtocksync_temperature_yield_wait_for(int *temperature);
returncode_t libtocksync_button_yield_wait_for(int *button_index, bool *pressed);

/* sync/ */
returncode_t libtocksync_console_write(const uint8_t *buffer, uint32_t length, uint32_t *written);
returncode_t libtocksync_console_read(uint8_t *buffer, uint32_t length, uint32_t *read);
int libtocksync_alarm_delay_ms(uint32_t ms);
returncode_t libtocksync_temperature_read(int *temperature);
returncode_t libtocksync_button_wait_for_press(int button);

#endif
