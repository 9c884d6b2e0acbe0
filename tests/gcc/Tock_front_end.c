/* Tock: calls named like libtock-c's raw calls but not shaped like them
 * stay out of a series with the front end's reason (the runtime's
 * converter writes libtock-c's struct, and every argument must fit a
 * 32-bit frame word), in the LLVM pass's words: a struct returned in
 * memory (every struct over 4 bytes on Arm, over 8 on RV32) is its sret
 * slot.  A struct larger than libtock-c's is refused too.  This file declares its
 * own versions instead of including libtock/tock.h.
 *
 * REQUIRES: gcc-arm, gcc-riscv
 * RUN: %sbgcc_arm -mthumb -mcpu=cortex-m3 -ffreestanding -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O2 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s --check-prefixes=CHECK,ARM
 * RUN: %sbgcc_riscv -march=rv32imac -mabi=ilp32 -ffreestanding -fplugin-arg-sysbatch-target=tock -fplugin-arg-sysbatch-tock-yield -O0 -fchecking -c %s -o /dev/null -fopt-info-missed 2>&1 | %FileCheck %s --check-prefixes=CHECK,RV
 */
#include <stdint.h>

typedef struct {
    uint32_t type;
    uint32_t data[2]; /* libtock-c's has three words */
} short_return_t;
typedef struct {
    uint32_t status;
    uint32_t data;
} memop_return_t;

short_return_t command(uint32_t driver, uint32_t num, int arg1, int arg2);
int yield(void);
void subscribe(uint32_t driver, uint32_t num, void *upcall, void *ud);
memop_return_t memop(uint32_t op);
memop_return_t allow_readonly(uint32_t driver, uint32_t num, const void *buf,
                              uint64_t len);
typedef struct {
    uint32_t words[5];
} big_return_t;
big_return_t allow_readwrite(uint32_t driver, uint32_t num, void *buf,
                             uint32_t len);

int shapes(const char *buf)
{
    short_return_t r = command(2, 1, 0, 0);
    // CHECK-DAG: Tock_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: command not batched: front-end (the compiler front end refused it: the sret slot of command is smaller than libtock-c's 16-byte result)
    int y = yield();
    // CHECK-DAG: Tock_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: yield not batched: front-end (the compiler front end refused it: yield returns a value, libtock-c's returns nothing)
    subscribe(1, 1, 0, 0);
    // CHECK-DAG: Tock_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: subscribe not batched: front-end (the compiler front end refused it: subscribe returns nothing, libtock-c's returns a struct)
    memop_return_t m = memop(10);
    // CHECK-DAG: Tock_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: memop not batched: front-end (the compiler front end refused it: memop is called with 1 arguments, libtock-c's takes 2)
    memop_return_t a = allow_readonly(1, 1, buf, 4);
    // ARM-DAG: Tock_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: allow_readonly not batched: front-end (the compiler front end refused it: the sret slot of allow_readonly is smaller than libtock-c's 16-byte result)
    // RV-DAG: Tock_front_end.c:[[@LINE-2]]:{{[0-9]+}}: missed: sysbatch: allow_readonly not batched: front-end (the compiler front end refused it: allow_readonly returns a 8-byte value in registers, libtock-c's result has 16 bytes)
    big_return_t b = allow_readwrite(1, 1, 0, 0);
    // CHECK-DAG: Tock_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: allow_readwrite not batched: front-end (the compiler front end refused it: allow_readwrite returns a 20-byte value, libtock-c's result has 16 bytes)
    return (int)r.type + y + (int)m.data + (int)a.data + (int)b.words[0];
}

typedef struct {
    uint32_t words[4];
} allow_return_t;
allow_return_t allow_userspace_read(uint32_t driver, uint32_t num, void *buf,
                                    uint64_t len);

int wide(char *buf)
{
    allow_return_t r = allow_userspace_read(1, 1, buf, 4);
    // CHECK-DAG: Tock_front_end.c:[[@LINE-1]]:{{[0-9]+}}: missed: sysbatch: allow_userspace_read not batched: front-end (the compiler front end refused it: argument 3 does not fit a 32-bit frame word)
    allow_return_t s = allow_userspace_read(1, 2, buf, 4);
    return (int)(r.words[0] + s.words[0]);
}
