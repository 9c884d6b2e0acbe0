/* RV32 (qemu virt, -bios none) part of the test kernel: machine setup (PMP
 * so U-mode may touch memory, counters readable from U-mode), the ecall
 * handler's C half (class in a4), upcall delivery by rewriting the saved
 * context, the 16550 console and the sifive_test exit. */
#include "tockkern.h"

extern uint32_t __kbss_start[], __kbss_end[], __abss_start[], __abss_end[];
extern char __app_stack_top[];

void app_entry(void);
void rv_trap_entry(void);
void rv_return_to_app(uint32_t *ctx) __attribute__((noreturn));

/* x1..x31 at their register numbers, the app pc in slot 0. */
static uint32_t rv_ctx[32];
enum { REG_PC = 0, REG_RA = 1, REG_SP = 2, REG_A0 = 10, REG_A4 = 14 };

#define UART_THR (*(volatile uint8_t *)0x10000000)
#define SIFIVE_TEST (*(volatile uint32_t *)0x100000)

void arch_putc(char c)
{
    UART_THR = (uint8_t)c;
}

void arch_exit(uint32_t code)
{
    SIFIVE_TEST = code == 0 ? 0x5555 : (code << 16) | 0x3333;
    for (;;) {
    }
}

static void zero_words(uint32_t *dst, const uint32_t *end)
{
    while (dst < end)
        *dst++ = 0;
}

void rv_reset(void)
{
    zero_words(__kbss_start, __kbss_end);
    zero_words(__abss_start, __abss_end);
    tockkern_init();
    __asm__ volatile("csrw mtvec, %0" : : "r"(rv_trap_entry));
    /* PMP entry 0: whole address space RWX, so U-mode can run at all. */
    __asm__ volatile("csrw pmpaddr0, %0" : : "r"(0xffffffffu));
    __asm__ volatile("csrw pmpcfg0, %0" : : "r"(0x1fu));
    /* rdinstret/rdcycle/rdtime from U-mode (the benchmarks read instret). */
    __asm__ volatile("csrw mcounteren, %0" : : "r"(7u));
    __asm__ volatile("csrw scounteren, %0" : : "r"(7u));
    /* mstatus.MPP = U (bits 12:11 = 0), MPIE = 0: no interrupts anywhere. */
    __asm__ volatile("csrc mstatus, %0" : : "r"(0x1880u));
    __asm__ volatile("csrw mscratch, %0" : : "r"(rv_ctx));
    rv_ctx[REG_PC] = (uint32_t)(uintptr_t)app_entry;
    rv_ctx[REG_SP] = (uint32_t)(uintptr_t)__app_stack_top;
    rv_return_to_app(rv_ctx);
}

uint32_t *rv_trap(uint32_t *ctx)
{
    uint32_t mcause;
    __asm__ volatile("csrr %0, mcause" : "=r"(mcause));
    if (mcause != 8)
        tockkern_fault("risc-v trap, mcause", mcause);
    ctx[REG_PC] += 4; /* resume after the ecall */
    uint32_t *a = &ctx[REG_A0];
    uint32_t r[4] = {a[0], a[1], a[2], a[3]};
    struct tockkern_upcall up;
    int deliver;
    if (tockkern_syscall(ctx[REG_A4], r, &deliver, &up))
        for (int i = 0; i < 4; i++)
            a[i] = r[i];
    if (deliver) {
        for (int i = 0; i < 4; i++)
            a[i] = up.args[i];
        ctx[REG_RA] = ctx[REG_PC];
        ctx[REG_PC] = up.fn;
    }
    return ctx;
}
