/* sysbatch/runtime-abi.h: the runtime symbols compiler-rewritten code
 * refers to, with their C types - one table both compilers declare from
 * (and sysbatch-plan --runtime-abi prints, which a test compiles against
 * runtime/include/sysbatch.h and sysbatch_tock.h and checks against the
 * library's exported symbols and version nodes).
 *
 *     sysbatch_run: long (long *, struct sysbatch_slot *, long, long)
 *
 * becomes in LLVM `declare i64 @sysbatch_run(ptr, ptr, i64, i64)` and in
 * GCC an extern FUNCTION_DECL of that type.
 */
#ifndef SYSBATCH_RUNTIME_ABI_H
#define SYSBATCH_RUNTIME_ABI_H

#include "sysbatch/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The C types that occur (the front end maps each to its IR type). */
enum sb_rt_type {
    SB_RT_VOID = 0,
    SB_RT_INT,          /* int */
    SB_RT_U32,          /* uint32_t */
    SB_RT_LONG,         /* long */
    SB_RT_PTR,          /* void * */
    SB_RT_CONST_PTR,    /* const void * */
    SB_RT_LONG_PTR,     /* long * */
    SB_RT_CONST_LONG_PTR, /* const long * */
    SB_RT_SLOT_PTR,     /* struct sysbatch_slot * */
    SB_RT_CONST_SLOT_PTR, /* const struct sysbatch_slot * */
    SB_RT_FRAME_PTR,    /* struct sysbatch_tock_frame * (u32 words) */
    SB_RT_CONST_CHAR_PTR, /* const char * */
    SB_RT_CONST_CHAR_1, /* an object: const char[1] */
};

enum sb_rt_symbol {
    SB_RT_ACTIVE = 0,          /* int sysbatch_active */
    SB_RT_EMPTY_STRING,        /* const char sysbatch_empty_string[1] */
    SB_RT_RUN,
    SB_RT_RET_ERRNO,
    SB_RT_RET_MMAP,
    SB_RT_RET_POSITIVE_ERROR,
    SB_RT_VERIFY_SLOT,
    SB_RT_TOCK_SERIES,
    SB_RT_TOCK_SERIES_TEMPLATE,
    SB_RT_TOCK_TAKE,
    SB_RT_TOCK_RUN,
    SB_RT_TOCK_RUN_TEMPLATE,
    SB_RT_TOCK_RUN_COMMANDS,          /* no in-place conversion */
    SB_RT_TOCK_RUN_MASKED,            /* the marks as a mask */
    SB_RT_TOCK_RUN_TEMPLATE_COMMANDS,
    SB_RT__COUNT
};

#define SB_RT_MAX_PARAMS 8

struct sb_rt_entry {
    const char *name;
    uint8_t abi;          /* enum sb_abi: which runtime provides it */
    bool object;          /* a variable, of type `ret` */
    uint8_t ret;          /* enum sb_rt_type */
    uint8_t nparams;
    uint8_t params[SB_RT_MAX_PARAMS];
    const char *version;  /* Linux: libsysbatch.so's version node */
};

const struct sb_rt_entry *sb_runtime_abi(enum sb_rt_symbol symbol);

/* sysbatch_run's flags argument (== SYSBATCH_RUN_* of sysbatch.h): a batch
 * the planner built is well-formed by construction, so rewritten code
 * passes SB_RT_RUN_PLANNED and two facts about its slots, and the runtime
 * skips its own pass over them on the kernel path. */
#define SB_RT_RUN_PLANNED 0x1
#define SB_RT_RUN_JUMPS 0x2  /* some slot has a nonzero jump offset */
#define SB_RT_RUN_CANCEL 0x4 /* some slot is a pthread cancellation point */
#define SB_RT_RUN_CONVERTS 0x8 /* some slot is runtime-converted
                                 (SB_ROW_RUNTIME_CONVERTED: sigaction) */

/* Linux x86_64: is the raw call nr a pthread cancellation point in libc
 * (runtime/src/linux.c's list, for the calls the catalogue knows)? */
bool sb_linux_cancel_point(int nr);
/* The flags for one slot (nr, its three jumps), ORed into `flags`. */
long sb_rt_run_flags_slot(long flags, int nr, short jump_fail, short jump_zero,
                          short jump_pos);
/* The flags for a planned batch. */
long sb_rt_run_flags(const struct sb_batch_plan *batch);
/* May the call sites of a straight-line batch take every result on ONE
 * test after sysbatch_run, last == nslots - 1 ("the batch ran to its end"),
 * instead of one `slot <= last` test each?  Sound where the slots run in
 * order and stop only as a whole: no forward skips (not branchy) and no
 * predicated slot; "stop" offsets only end the batch, so the last slot
 * running means every slot ran.  Worth it from two calls; `copied` is the
 * number of the front end's IR statements between the first and the last
 * call, which the common path duplicates (the per-slot path stays for a
 * batch that stopped early, was refused or did not run), at most
 * SB_ALL_RAN_MAX_COPY (the copy is about the stretch's own size, calls
 * replaced by loads: the limit only keeps a huge straight-line function
 * from doubling; 64 getuid calls stored to an array are ~400); -1 where the front end cannot copy it (the calls
 * span blocks, or something there must not be duplicated).  Not under
 * verify, which checks each call site's arguments on the per-slot path. */
#define SB_ALL_RAN_MAX_COPY 1024
bool sb_rt_all_ran_test(const struct sb_batch_plan *batch, int copied,
                        bool verify);
/* The C spelling of a type ("struct sysbatch_slot *"). */
const char *sb_rt_type_c(enum sb_rt_type type);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_RUNTIME_ABI_H */
