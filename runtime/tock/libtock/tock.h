/* A minimal libtock-c-compatible raw system call layer (TRD104, Tock 2.x):
 * the same function names and return structs as libtock-c's libtock/tock.h,
 * written for sysbatch's test apps and benchmarks from the TRD104 facts.
 * Cortex-M (svc <class>) and RV32 (ecall, class in a4).
 *
 *     syscall_return_t r = command(DRIVER_NUM_LEDS, 1, 0, 0);   -- LED 0 on
 *     if (r.type != TOCK_SYSCALL_SUCCESS) ...
 *
 * Like libtock-c, every raw call is an out-of-line function: the sysbatch
 * compiler plugins recognise calls to these names.
 */
#ifndef SYSBATCH_LIBTOCK_TOCK_H
#define SYSBATCH_LIBTOCK_TOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return variants (r0 of every return). */
typedef enum {
    TOCK_SYSCALL_FAILURE = 0,
    TOCK_SYSCALL_FAILURE_U32 = 1,
    TOCK_SYSCALL_FAILURE_U32_U32 = 2,
    TOCK_SYSCALL_FAILURE_U64 = 3,
    TOCK_SYSCALL_SUCCESS = 128,
    TOCK_SYSCALL_SUCCESS_U32 = 129,
    TOCK_SYSCALL_SUCCESS_U32_U32 = 130,
    TOCK_SYSCALL_SUCCESS_U64 = 131,
    TOCK_SYSCALL_SUCCESS_U32_U32_U32 = 132,
    TOCK_SYSCALL_SUCCESS_U32_U64 = 133,
} syscall_rtype;

/* Error codes carried by Failure variants. */
typedef enum {
    TOCK_STATUSCODE_SUCCESS = 0,
    TOCK_STATUSCODE_FAIL = 1,
    TOCK_STATUSCODE_BUSY = 2,
    TOCK_STATUSCODE_ALREADY = 3,
    TOCK_STATUSCODE_OFF = 4,
    TOCK_STATUSCODE_RESERVE = 5,
    TOCK_STATUSCODE_INVALID = 6,
    TOCK_STATUSCODE_SIZE = 7,
    TOCK_STATUSCODE_CANCEL = 8,
    TOCK_STATUSCODE_NOMEM = 9,
    TOCK_STATUSCODE_NOSUPPORT = 10,
    TOCK_STATUSCODE_NODEVICE = 11,
    TOCK_STATUSCODE_UNINSTALLED = 12,
    TOCK_STATUSCODE_NOACK = 13,
} statuscode_t;

typedef void(subscribe_upcall)(int, int, int, void *);

typedef struct {
    syscall_rtype type;
    uint32_t data[3];
} syscall_return_t;

typedef struct {
    bool success;
    subscribe_upcall *callback; /* previous one on success, ours on failure */
    void *userdata;
    statuscode_t status;
} subscribe_return_t;

typedef struct {
    bool success;
    void *ptr;
    size_t size;
    statuscode_t status;
} allow_rw_return_t;

typedef struct {
    bool success;
    const void *ptr;
    size_t size;
    statuscode_t status;
} allow_ro_return_t;

typedef struct {
    bool success;
    void *ptr;
    size_t size;
    statuscode_t status;
} allow_userspace_r_return_t;

typedef struct {
    statuscode_t status;
    uint32_t data;
} memop_return_t;

/* Yield types (r0 of class 0). */
#define YIELD_NO_WAIT 0
#define YIELD_WAIT 1
#define YIELD_WAIT_FOR 2

/* Yield-WaitFor's result: the three values the upcall it waited for would
 * have been called with (the upcall itself does not run). */
typedef struct {
    uint32_t data0;
    uint32_t data1;
    uint32_t data2;
} yield_waitfor_return_t;

void yield(void);          /* wait: runs exactly one upcall */
int yield_no_wait(void);   /* 1 if an upcall ran, else 0 */
/* Waits for upcall `subscribe_num` of `driver` (Yield-WaitFor, type 2). */
yield_waitfor_return_t yield_wait_for(uint32_t driver, uint32_t subscribe_num);
void tock_exit(uint32_t completion_code) __attribute__((noreturn));
void tock_restart(uint32_t completion_code) __attribute__((noreturn));

subscribe_return_t subscribe(uint32_t driver, uint32_t subscribe_num, subscribe_upcall *uc,
                             void *userdata);
syscall_return_t command(uint32_t driver, uint32_t command_num, int arg1, int arg2);
allow_rw_return_t allow_readwrite(uint32_t driver, uint32_t allow_num, void *data, size_t len);
allow_ro_return_t allow_readonly(uint32_t driver, uint32_t allow_num, const void *data,
                                 size_t len);
allow_userspace_r_return_t allow_userspace_read(uint32_t driver, uint32_t allow_num, void *data,
                                                size_t len);
memop_return_t memop(uint32_t op_type, int arg1);

/* libtock-c's return codes: 0 for success, minus the TRD104 error code for
 * a failure, EBADRVAL for a return variant the converter does not expect. */
typedef enum {
    RETURNCODE_SUCCESS = 0,
    RETURNCODE_FAIL = -1,
    RETURNCODE_EBUSY = -2,
    RETURNCODE_EALREADY = -3,
    RETURNCODE_EOFF = -4,
    RETURNCODE_ERESERVE = -5,
    RETURNCODE_EINVAL = -6,
    RETURNCODE_ESIZE = -7,
    RETURNCODE_ECANCEL = -8,
    RETURNCODE_ENOMEM = -9,
    RETURNCODE_ENOSUPPORT = -10,
    RETURNCODE_ENODEVICE = -11,
    RETURNCODE_EUNINSTALLED = -12,
    RETURNCODE_ENOACK = -13,
    RETURNCODE_EBADRVAL = -1024,
} returncode_t;

/* The converters of libtock-c's libtock/tock.h, same names and meaning:
 * the allow and subscribe ones give SUCCESS iff `success`, else the
 * negated status; the command ones give SUCCESS (and store the values)
 * only for their one Success variant, the negated status for Failure and
 * EBADRVAL for every other variant.  Out of line, as in libtock-c: the
 * sysbatch plugins know them by name (core/tock.c, sb_tock_converters). */
returncode_t tock_status_to_returncode(statuscode_t status);
int tock_command_return_novalue_to_returncode(syscall_return_t command_return);
int tock_command_return_u32_to_returncode(syscall_return_t command_return, uint32_t *val);
int tock_command_return_u32_u32_to_returncode(syscall_return_t command_return, uint32_t *val1,
                                              uint32_t *val2);
int tock_command_return_u64_to_returncode(syscall_return_t command_return, uint64_t *val);
int tock_subscribe_return_to_returncode(subscribe_return_t subscribe_return);
int tock_allow_rw_return_to_returncode(allow_rw_return_t allow_return);
int tock_allow_ro_return_to_returncode(allow_ro_return_t allow_return);
int tock_allow_userspace_r_return_to_returncode(allow_userspace_r_return_t allow_return);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_LIBTOCK_TOCK_H */
