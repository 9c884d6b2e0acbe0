/* Raw x86_64 system calls through the `syscall` instruction, for the
 * runtime's internal use only (never installed).
 *
 * libc's syscall() stores -result in errno on failure; the batch paths must
 * leave errno exactly as the caller left it (the compiler plugins rebuild
 * errno at each original call site from the raw result), so every call the
 * runtime makes goes through these wrappers and returns the kernel's raw
 * value: -4095..-1 is -errno, anything else is the result.
 */
#ifndef SYSBATCH_RAW_SYSCALL_H
#define SYSBATCH_RAW_SYSCALL_H

#if !defined(__x86_64__)
#error "raw_syscall.h is the x86_64 Linux backend; other targets use the generic path in linux.c"
#endif

static inline long sb__raw_syscall6(long nr, long a0, long a1, long a2,
                                    long a3, long a4, long a5)
{
    /* The kernel clobbers rcx (return address) and r11 (saved rflags).
     * "memory" because the callee reads and writes through its pointer
     * arguments and the batch loop's word copies must not move across it. */
    register long r10 __asm__("r10") = a3;
    register long r8 __asm__("r8") = a4;
    register long r9 __asm__("r9") = a5;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

static inline long sb__raw_syscall3(long nr, long a0, long a1, long a2)
{
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"(nr), "D"(a0), "S"(a1), "d"(a2)
                     : "rcx", "r11", "memory");
    return ret;
}

#endif /* SYSBATCH_RAW_SYSCALL_H */
