/* Cortex-M3 (qemu lm3s6965evb) vectors and exception entry for the test
 * kernel.  The app runs in unprivileged thread mode on PSP; an svc stacks
 * r0-r3, r12, lr, pc, xpsr on PSP and enters here on MSP. */
    .syntax unified
    .thumb

    .section .vectors, "a"
    .word __kstack_top
    .word cm3_reset
    .word cm3_fault_entry   /* NMI */
    .word cm3_fault_entry   /* HardFault */
    .word cm3_fault_entry   /* MemManage */
    .word cm3_fault_entry   /* BusFault */
    .word cm3_fault_entry   /* UsageFault */
    .word 0, 0, 0, 0
    .word cm3_svc_entry     /* SVCall */
    .word cm3_fault_entry   /* DebugMon */
    .word 0
    .word cm3_fault_entry   /* PendSV */
    .word cm3_fault_entry   /* SysTick */

    .text
    .thumb_func
    .global cm3_svc_entry
cm3_svc_entry:
    mrs r0, psp             /* the app's exception frame */
    push {r4, lr}           /* keep EXC_RETURN; 8-byte aligned stack */
    bl cm3_svc
    pop {r4, pc}            /* exception return */

    .thumb_func
    .global cm3_fault_entry
cm3_fault_entry:
    mrs r0, psp
    mrs r1, ipsr
    b cm3_fault

    /* Drop to unprivileged thread mode on PSP and run the app. */
    .thumb_func
    .global cm3_enter_app
cm3_enter_app:              /* r0 = app stack top, r1 = entry (thumb) */
    msr psp, r0
    movs r2, #3
    msr control, r2
    isb
    bx r1
