/* RV32 (qemu virt, -bios none) entry and trap path for the test kernel.
 * The app runs in U-mode; mscratch holds the address of the saved app
 * context (rv_ctx: x1..x31 at 4*regno, the app pc in slot 0) while it runs. */
    .section .text.init, "ax"
    .global _start
_start:
    la sp, __kstack_top
    call rv_reset           /* does not return */
1:  j 1b

    .text
    .balign 4
    .global rv_trap_entry
rv_trap_entry:
    csrrw t6, mscratch, t6  /* t6 = &rv_ctx, mscratch = app t6 */
    sw x1, 4(t6)
    sw x2, 8(t6)
    sw x3, 12(t6)
    sw x4, 16(t6)
    sw x5, 20(t6)
    sw x6, 24(t6)
    sw x7, 28(t6)
    sw x8, 32(t6)
    sw x9, 36(t6)
    sw x10, 40(t6)
    sw x11, 44(t6)
    sw x12, 48(t6)
    sw x13, 52(t6)
    sw x14, 56(t6)
    sw x15, 60(t6)
    sw x16, 64(t6)
    sw x17, 68(t6)
    sw x18, 72(t6)
    sw x19, 76(t6)
    sw x20, 80(t6)
    sw x21, 84(t6)
    sw x22, 88(t6)
    sw x23, 92(t6)
    sw x24, 96(t6)
    sw x25, 100(t6)
    sw x26, 104(t6)
    sw x27, 108(t6)
    sw x28, 112(t6)
    sw x29, 116(t6)
    sw x30, 120(t6)
    csrr t5, mscratch
    sw t5, 124(t6)          /* app t6 */
    csrw mscratch, t6
    csrr t5, mepc
    sw t5, 0(t6)
    la sp, __kstack_top
    mv a0, t6
    call rv_trap            /* returns &rv_ctx */
    .global rv_return_to_app
rv_return_to_app:           /* a0 = context to resume */
    mv t6, a0
    lw t5, 0(t6)
    csrw mepc, t5
    lw x1, 4(t6)
    lw x2, 8(t6)
    lw x3, 12(t6)
    lw x4, 16(t6)
    lw x5, 20(t6)
    lw x6, 24(t6)
    lw x7, 28(t6)
    lw x8, 32(t6)
    lw x9, 36(t6)
    lw x10, 40(t6)
    lw x11, 44(t6)
    lw x12, 48(t6)
    lw x13, 52(t6)
    lw x14, 56(t6)
    lw x15, 60(t6)
    lw x16, 64(t6)
    lw x17, 68(t6)
    lw x18, 72(t6)
    lw x19, 76(t6)
    lw x20, 80(t6)
    lw x21, 84(t6)
    lw x22, 88(t6)
    lw x23, 92(t6)
    lw x24, 96(t6)
    lw x25, 100(t6)
    lw x26, 104(t6)
    lw x27, 108(t6)
    lw x28, 112(t6)
    lw x29, 116(t6)
    lw x30, 120(t6)
    lw x31, 124(t6)
    mret
