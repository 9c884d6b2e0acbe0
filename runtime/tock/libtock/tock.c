/* Raw TRD104 system calls with libtock-c's names and return structs (see
 * tock.h).  Each call loads r0..r3 (a0..a3), traps with its class (the svc
 * immediate on Cortex-M, a4 on RISC-V) and turns the returned registers into
 * the struct libtock-c returns.  A variant a call cannot return gives
 * success = false / status FAIL.  This file is deliberately independent of
 * runtime/tock/series.c: the tests compare the two conversions.
 */
#include "tock.h"

struct regs {
    uint32_t r0, r1, r2, r3;
};

/* Only yield can run an upcall before the trap returns, so only yield
 * clobbers every caller-saved register. */
#if defined(__arm__) && defined(__thumb__)
#define DEFINE_TRAP(name, class_imm)                                                        \
    static struct regs name(uint32_t a, uint32_t b, uint32_t c, uint32_t d)               \
    {                                                                                      \
        register uint32_t arm_r0 __asm__("r0") = a;                                        \
        register uint32_t arm_r1 __asm__("r1") = b;                                        \
        register uint32_t arm_r2 __asm__("r2") = c;                                        \
        register uint32_t arm_r3 __asm__("r3") = d;                                        \
        __asm__ volatile("svc " #class_imm                                                 \
                         : "+r"(arm_r0), "+r"(arm_r1), "+r"(arm_r2), "+r"(arm_r3)          \
                         :                                                                 \
                         : "memory");                                                      \
        struct regs out = {arm_r0, arm_r1, arm_r2, arm_r3};                                \
        return out;                                                                        \
    }

static void trap_yield(uint32_t type, uint32_t flag_addr)
{
    register uint32_t arm_r0 __asm__("r0") = type;
    register uint32_t arm_r1 __asm__("r1") = flag_addr;
    __asm__ volatile("svc 0"
                     : "+r"(arm_r0), "+r"(arm_r1)
                     :
                     : "r2", "r3", "r12", "lr", "memory", "cc");
}
#elif defined(__riscv) && __riscv_xlen == 32
#define DEFINE_TRAP(name, class_imm)                                                        \
    static struct regs name(uint32_t a, uint32_t b, uint32_t c, uint32_t d)               \
    {                                                                                      \
        register uint32_t rv_a0 __asm__("a0") = a;                                         \
        register uint32_t rv_a1 __asm__("a1") = b;                                         \
        register uint32_t rv_a2 __asm__("a2") = c;                                         \
        register uint32_t rv_a3 __asm__("a3") = d;                                         \
        register uint32_t rv_a4 __asm__("a4") = class_imm;                                 \
        __asm__ volatile("ecall"                                                           \
                         : "+r"(rv_a0), "+r"(rv_a1), "+r"(rv_a2), "+r"(rv_a3)              \
                         : "r"(rv_a4)                                                      \
                         : "memory");                                                      \
        struct regs out = {rv_a0, rv_a1, rv_a2, rv_a3};                                    \
        return out;                                                                        \
    }

static void trap_yield(uint32_t type, uint32_t flag_addr)
{
    register uint32_t rv_a0 __asm__("a0") = type;
    register uint32_t rv_a1 __asm__("a1") = flag_addr;
    register uint32_t rv_a4 __asm__("a4") = 0;
    __asm__ volatile("ecall"
                     : "+r"(rv_a0), "+r"(rv_a1), "+r"(rv_a4)
                     :
                     : "ra", "a2", "a3", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4",
                       "t5", "t6", "memory");
}
#else
#error "libtock layer: only Cortex-M (Thumb) and RV32 are supported"
#endif

DEFINE_TRAP(trap_subscribe, 1)
DEFINE_TRAP(trap_command, 2)
DEFINE_TRAP(trap_allow_rw, 3)
DEFINE_TRAP(trap_allow_ro, 4)
DEFINE_TRAP(trap_memop, 5)
DEFINE_TRAP(trap_exit, 6)
DEFINE_TRAP(trap_allow_userspace_r, 7)
/* Yield-WaitFor runs no upcall: its values come back in r0..r2. */
DEFINE_TRAP(trap_yield_wait_for, 0)

void yield(void)
{
    trap_yield(YIELD_WAIT, 0);
}

int yield_no_wait(void)
{
    volatile uint8_t upcall_ran = 0;
    trap_yield(YIELD_NO_WAIT, (uint32_t)(uintptr_t)&upcall_ran);
    return upcall_ran;
}

yield_waitfor_return_t yield_wait_for(uint32_t driver, uint32_t subscribe_num)
{
    struct regs r = trap_yield_wait_for(YIELD_WAIT_FOR, driver, subscribe_num, 0);
    yield_waitfor_return_t out = {r.r0, r.r1, r.r2};
    return out;
}

void tock_exit(uint32_t completion_code)
{
    trap_exit(0, completion_code, 0, 0);
    for (;;) {
    }
}

void tock_restart(uint32_t completion_code)
{
    trap_exit(1, completion_code, 0, 0);
    for (;;) {
    }
}

syscall_return_t command(uint32_t driver, uint32_t command_num, int arg1, int arg2)
{
    struct regs r = trap_command(driver, command_num, (uint32_t)arg1, (uint32_t)arg2);
    syscall_return_t ret;
    ret.type = (syscall_rtype)r.r0;
    ret.data[0] = r.r1;
    ret.data[1] = r.r2;
    ret.data[2] = r.r3;
    return ret;
}

subscribe_return_t subscribe(uint32_t driver, uint32_t subscribe_num, subscribe_upcall *uc,
                             void *userdata)
{
    struct regs r = trap_subscribe(driver, subscribe_num, (uint32_t)(uintptr_t)uc,
                                   (uint32_t)(uintptr_t)userdata);
    subscribe_return_t ret = {false, NULL, NULL, TOCK_STATUSCODE_FAIL};
    if (r.r0 == TOCK_SYSCALL_SUCCESS_U32_U32) {
        ret.success = true;
        ret.callback = (subscribe_upcall *)(uintptr_t)r.r1;
        ret.userdata = (void *)(uintptr_t)r.r2;
        ret.status = TOCK_STATUSCODE_SUCCESS;
    } else if (r.r0 == TOCK_SYSCALL_FAILURE_U32_U32) {
        ret.callback = (subscribe_upcall *)(uintptr_t)r.r2;
        ret.userdata = (void *)(uintptr_t)r.r3;
        ret.status = (statuscode_t)r.r1;
    }
    return ret;
}

/* The three allows return the same shape; only the pointer's constness differs. */
#define ALLOW_RESULT(ret, r, ptr_type)                                                      \
    do {                                                                                   \
        (ret).success = false;                                                             \
        (ret).ptr = NULL;                                                                  \
        (ret).size = 0;                                                                    \
        (ret).status = TOCK_STATUSCODE_FAIL;                                               \
        if ((r).r0 == TOCK_SYSCALL_SUCCESS_U32_U32) {                                      \
            (ret).success = true;                                                          \
            (ret).ptr = (ptr_type)(uintptr_t)(r).r1;                                       \
            (ret).size = (r).r2;                                                           \
            (ret).status = TOCK_STATUSCODE_SUCCESS;                                        \
        } else if ((r).r0 == TOCK_SYSCALL_FAILURE_U32_U32) {                               \
            (ret).ptr = (ptr_type)(uintptr_t)(r).r2;                                       \
            (ret).size = (r).r3;                                                           \
            (ret).status = (statuscode_t)(r).r1;                                           \
        }                                                                                  \
    } while (0)

allow_rw_return_t allow_readwrite(uint32_t driver, uint32_t allow_num, void *data, size_t len)
{
    struct regs r = trap_allow_rw(driver, allow_num, (uint32_t)(uintptr_t)data, len);
    allow_rw_return_t ret;
    ALLOW_RESULT(ret, r, void *);
    return ret;
}

allow_ro_return_t allow_readonly(uint32_t driver, uint32_t allow_num, const void *data,
                                 size_t len)
{
    struct regs r = trap_allow_ro(driver, allow_num, (uint32_t)(uintptr_t)data, len);
    allow_ro_return_t ret;
    ALLOW_RESULT(ret, r, const void *);
    return ret;
}

allow_userspace_r_return_t allow_userspace_read(uint32_t driver, uint32_t allow_num, void *data,
                                                size_t len)
{
    struct regs r = trap_allow_userspace_r(driver, allow_num, (uint32_t)(uintptr_t)data, len);
    allow_userspace_r_return_t ret;
    ALLOW_RESULT(ret, r, void *);
    return ret;
}

memop_return_t memop(uint32_t op_type, int arg1)
{
    struct regs r = trap_memop(op_type, (uint32_t)arg1, 0, 0);
    memop_return_t ret = {TOCK_STATUSCODE_FAIL, 0};
    if (r.r0 == TOCK_SYSCALL_SUCCESS) {
        ret.status = TOCK_STATUSCODE_SUCCESS;
    } else if (r.r0 == TOCK_SYSCALL_SUCCESS_U32) {
        ret.status = TOCK_STATUSCODE_SUCCESS;
        ret.data = r.r1;
    } else if (r.r0 == TOCK_SYSCALL_FAILURE) {
        ret.status = (statuscode_t)r.r1;
    }
    return ret;
}

/* ------------------------------------------------------------ converters */

returncode_t tock_status_to_returncode(statuscode_t status)
{
    return (returncode_t)(-(int)status);
}

/* The one Success variant `expected` is RETURNCODE_SUCCESS, a Failure its
 * negated error code, any other variant EBADRVAL (the caller asked for a
 * shape the driver did not return). */
static int command_returncode(syscall_return_t r, syscall_rtype expected)
{
    if (r.type == expected)
        return RETURNCODE_SUCCESS;
    if (r.type == TOCK_SYSCALL_FAILURE)
        return tock_status_to_returncode((statuscode_t)r.data[0]);
    return RETURNCODE_EBADRVAL;
}

int tock_command_return_novalue_to_returncode(syscall_return_t command_return)
{
    return command_returncode(command_return, TOCK_SYSCALL_SUCCESS);
}

int tock_command_return_u32_to_returncode(syscall_return_t command_return, uint32_t *val)
{
    int rc = command_returncode(command_return, TOCK_SYSCALL_SUCCESS_U32);
    if (rc == RETURNCODE_SUCCESS)
        *val = command_return.data[0];
    return rc;
}

int tock_command_return_u32_u32_to_returncode(syscall_return_t command_return, uint32_t *val1,
                                              uint32_t *val2)
{
    int rc = command_returncode(command_return, TOCK_SYSCALL_SUCCESS_U32_U32);
    if (rc == RETURNCODE_SUCCESS) {
        *val1 = command_return.data[0];
        *val2 = command_return.data[1];
    }
    return rc;
}

int tock_command_return_u64_to_returncode(syscall_return_t command_return, uint64_t *val)
{
    int rc = command_returncode(command_return, TOCK_SYSCALL_SUCCESS_U64);
    if (rc == RETURNCODE_SUCCESS)
        *val = (uint64_t)command_return.data[0] | (uint64_t)command_return.data[1] << 32;
    return rc;
}

int tock_subscribe_return_to_returncode(subscribe_return_t subscribe_return)
{
    return subscribe_return.success ? RETURNCODE_SUCCESS
                                    : tock_status_to_returncode(subscribe_return.status);
}

int tock_allow_rw_return_to_returncode(allow_rw_return_t allow_return)
{
    return allow_return.success ? RETURNCODE_SUCCESS
                                : tock_status_to_returncode(allow_return.status);
}

int tock_allow_ro_return_to_returncode(allow_ro_return_t allow_return)
{
    return allow_return.success ? RETURNCODE_SUCCESS
                                : tock_status_to_returncode(allow_return.status);
}

int tock_allow_userspace_r_return_to_returncode(allow_userspace_r_return_t allow_return)
{
    return allow_return.success ? RETURNCODE_SUCCESS
                                : tock_status_to_returncode(allow_return.status);
}
