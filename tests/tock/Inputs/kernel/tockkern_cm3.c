/* Cortex-M3 (qemu lm3s6965evb) part of the test kernel: reset, the svc
 * handler's C half, upcall delivery by rewriting the app's exception frame,
 * the PL011 console and the semihosting exit. */
#include "tockkern.h"

extern uint32_t __kdata_start[], __kdata_end[], __kdata_load[];
extern uint32_t __kbss_start[], __kbss_end[];
extern uint32_t __adata_start[], __adata_end[], __adata_load[];
extern uint32_t __abss_start[], __abss_end[];
extern char __app_stack_top[];

void app_entry(void);
void cm3_enter_app(uint32_t sp, void (*entry)(void)) __attribute__((noreturn));

#define UART0_DR (*(volatile uint32_t *)0x4000c000)

void arch_putc(char c)
{
    UART0_DR = (uint8_t)c;
}

void arch_exit(uint32_t code)
{
    /* SYS_EXIT_EXTENDED: qemu exits with `code` (plain SYS_EXIT only
     * knows success and failure). */
    volatile uint32_t block[2] = {0x20026, code};
    register uint32_t op __asm__("r0") = 0x20;
    register volatile uint32_t *arg __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : : "r"(op), "r"(arg) : "memory");
    for (;;) {
    }
}

static void copy_words(uint32_t *dst, const uint32_t *end, const uint32_t *src)
{
    while (dst < end)
        *dst++ = *src++;
}

static void zero_words(uint32_t *dst, const uint32_t *end)
{
    while (dst < end)
        *dst++ = 0;
}

void cm3_reset(void)
{
    copy_words(__kdata_start, __kdata_end, __kdata_load);
    zero_words(__kbss_start, __kbss_end);
    copy_words(__adata_start, __adata_end, __adata_load);
    zero_words(__abss_start, __abss_end);
    tockkern_init();
    cm3_enter_app((uint32_t)(uintptr_t)__app_stack_top, app_entry);
}

/* frame: r0 r1 r2 r3 r12 lr pc xpsr, as stacked by the svc. */
void cm3_svc(uint32_t *frame)
{
    uint32_t pc = frame[6];
    uint32_t cls = *(const uint16_t *)(uintptr_t)(pc - 2) & 0xff;
    uint32_t r[4] = {frame[0], frame[1], frame[2], frame[3]};
    struct tockkern_upcall up;
    int deliver;
    if (tockkern_syscall(cls, r, &deliver, &up))
        for (int i = 0; i < 4; i++)
            frame[i] = r[i];
    if (deliver) {
        /* Run the upcall in thread mode; it returns to the instruction after
         * the svc, like a call made there. */
        for (int i = 0; i < 4; i++)
            frame[i] = up.args[i];
        frame[5] = pc | 1;
        frame[6] = up.fn & ~1u;
    }
}

void cm3_fault(uint32_t *psp, uint32_t ipsr)
{
    (void)psp;
    tockkern_fault("cortex-m exception", ipsr);
}
