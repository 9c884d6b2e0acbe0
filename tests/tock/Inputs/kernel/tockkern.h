/* Test kernel for sysbatch's Tock tests: the interface between the
 * ISA-independent core (tockkern_core.c: TRD104 classes 0-7, the 0xfe series
 * call, fake drivers, upcalls, trace) and the per-ISA parts (tockkern_cm3.*,
 * tockkern_rv32.*: vectors, trap entry, console, machine exit).
 *
 * Every object of the kernel is named tockkern_*.o: the linker scripts put
 * their data in kernel RAM and everything else (the app) in app RAM, which is
 * what the kernel's pointer checks enforce.
 */
#ifndef TOCKKERN_H
#define TOCKKERN_H

#include <stdint.h>

/* Machine exit codes besides the app's own completion code (0..249). */
#define TOCKKERN_EXIT_FAULT 250    /* app fault or kernel-detected misuse */
#define TOCKKERN_EXIT_DEADLOCK 251 /* yield-wait with no upcall pending */

/* Drivers. */
#define DRV_ALARM 0x0
#define DRV_CONSOLE 0x1
#define DRV_LED 0x2
#define DRV_BUTTON 0x3
#define DRV_TEMPERATURE 0x60000
#define DRV_COUNTER 0x90
#define DRV_DEBUG 0xd0 /* test-only print channel: neither traced nor counted */

/* An upcall the arch code must run when it returns to the app. */
struct tockkern_upcall {
    uint32_t fn;
    uint32_t args[4]; /* three values and the userdata */
};

/* Per-ISA services. */
void arch_putc(char c);
void arch_exit(uint32_t code) __attribute__((noreturn));

/* Core entry points for the arch code. */
void tockkern_init(void);
/* One trap with class `cls` and argument registers r[0..3].  Returns 1 when
 * r[] holds return registers to write back, 0 when the registers stay (yield);
 * *deliver is set to 1 when `up` must run before the app resumes. */
int tockkern_syscall(uint32_t cls, uint32_t r[4], int *deliver, struct tockkern_upcall *up);
void tockkern_fault(const char *why, uint32_t detail) __attribute__((noreturn));

/* Linker-script symbols. */
extern char __app_ram_start[], __app_ram_end[], __app_heap_start[];
extern char __app_ro_start[], __app_ro_end[];

#endif
