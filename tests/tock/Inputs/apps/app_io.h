/* Printing for test apps through the test kernel's debug driver (0xd0,
 * neither traced nor counted), plus the return-struct printers every app
 * uses so that two builds print identical lines for identical results.
 * Pointers print by name (app_name_ptr) because their values differ between
 * builds. */
#ifndef APP_IO_H
#define APP_IO_H

#include <stdint.h>

#include "tock.h"

#define DRV_CONSOLE 0x1
#define DRV_LED 0x2
#define DRV_COUNTER 0x90

void app_puts(const char *s);
void app_printf(const char *fmt, ...); /* %d %u %x %s %p(named) */
void app_name_ptr(const void *p, const char *name);

void print_command(const char *what, syscall_return_t r);
void print_subscribe(const char *what, subscribe_return_t r);
void print_allow_rw(const char *what, allow_rw_return_t r);
void print_allow_ro(const char *what, allow_ro_return_t r);
void print_allow_ur(const char *what, allow_userspace_r_return_t r);
void print_memop(const char *what, memop_return_t r);

#endif
