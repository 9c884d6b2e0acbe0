/* sysbatch core: the table of runtime symbols rewritten code refers to
 * (sysbatch/runtime-abi.h).  Adding a runtime entry point means one row
 * here, the function in runtime/, and its version node. */
#include "sysbatch/runtime-abi.h"
#include "sysbatch/loop.h"

#include <string.h>

#define LINUX SB_ABI_LINUX_X86_64
#define TOCK SB_ABI_TOCK

static const struct sb_rt_entry entries[SB_RT__COUNT] = {
    [SB_RT_ACTIVE] = {"sysbatch_active", LINUX, true, SB_RT_INT, 0, {0},
                      "SYSBATCH_0.1"},
    [SB_RT_EMPTY_STRING] = {"sysbatch_empty_string", LINUX, true,
                            SB_RT_CONST_CHAR_1, 0, {0}, "SYSBATCH_0.1"},
    [SB_RT_RUN] = {"sysbatch_run", LINUX, false, SB_RT_LONG, 4,
                   {SB_RT_LONG_PTR, SB_RT_SLOT_PTR, SB_RT_LONG, SB_RT_LONG},
                   "SYSBATCH_0.1"},
    [SB_RT_RET_ERRNO] = {"sysbatch_ret_errno", LINUX, false, SB_RT_LONG, 1,
                         {SB_RT_LONG}, "SYSBATCH_0.1"},
    [SB_RT_RET_MMAP] = {"sysbatch_ret_mmap", LINUX, false, SB_RT_PTR, 1,
                        {SB_RT_LONG}, "SYSBATCH_0.1"},
    [SB_RT_RET_POSITIVE_ERROR] = {"sysbatch_ret_positive_error", LINUX, false,
                                  SB_RT_INT, 1, {SB_RT_LONG}, "SYSBATCH_0.1"},
    [SB_RT_VERIFY_SLOT] = {"sysbatch_verify_slot", LINUX, false, SB_RT_VOID, 8,
                           {SB_RT_CONST_LONG_PTR, SB_RT_CONST_SLOT_PTR,
                            SB_RT_LONG, SB_RT_LONG, SB_RT_LONG,
                            SB_RT_CONST_LONG_PTR, SB_RT_LONG,
                            SB_RT_CONST_CHAR_PTR},
                           "SYSBATCH_0.2"},
    [SB_RT_TOCK_SERIES] = {"sysbatch_tock_series", TOCK, false, SB_RT_U32, 3,
                           {SB_RT_FRAME_PTR, SB_RT_U32, SB_RT_U32}, NULL},
    [SB_RT_TOCK_SERIES_TEMPLATE] = {"sysbatch_tock_series_template", TOCK,
                                    false, SB_RT_U32, 2,
                                    {SB_RT_FRAME_PTR, SB_RT_CONST_PTR}, NULL},
    [SB_RT_TOCK_TAKE] = {"sysbatch_tock_take", TOCK, false, SB_RT_VOID, 4,
                         {SB_RT_PTR, SB_RT_FRAME_PTR, SB_RT_U32, SB_RT_U32},
                         NULL},
    [SB_RT_TOCK_RUN] = {"sysbatch_tock_run", TOCK, false, SB_RT_VOID, 2,
                        {SB_RT_FRAME_PTR, SB_RT_U32}, NULL},
    [SB_RT_TOCK_RUN_TEMPLATE] = {"sysbatch_tock_run_template", TOCK, false,
                                 SB_RT_VOID, 2,
                                 {SB_RT_FRAME_PTR, SB_RT_CONST_PTR}, NULL},
    [SB_RT_TOCK_RUN_COMMANDS] = {"sysbatch_tock_run_commands", TOCK, false,
                                 SB_RT_VOID, 3,
                                 {SB_RT_FRAME_PTR, SB_RT_U32, SB_RT_U32}, NULL},
    [SB_RT_TOCK_RUN_MASKED] = {"sysbatch_tock_run_masked", TOCK, false,
                               SB_RT_VOID, 3,
                               {SB_RT_FRAME_PTR, SB_RT_U32, SB_RT_U32}, NULL},
    [SB_RT_TOCK_RUN_TEMPLATE_COMMANDS] = {"sysbatch_tock_run_template_commands",
                                          TOCK, false, SB_RT_VOID, 2,
                                          {SB_RT_FRAME_PTR, SB_RT_CONST_PTR},
                                          NULL},
};

const struct sb_rt_entry *sb_runtime_abi(enum sb_rt_symbol symbol)
{
    if ((int)symbol < 0 || symbol >= SB_RT__COUNT)
        return NULL;
    return &entries[symbol];
}

const char *sb_rt_type_c(enum sb_rt_type type)
{
    static const char *const names[] = {
        [SB_RT_VOID] = "void",
        [SB_RT_INT] = "int",
        [SB_RT_U32] = "uint32_t",
        [SB_RT_LONG] = "long",
        [SB_RT_PTR] = "void *",
        [SB_RT_CONST_PTR] = "const void *",
        [SB_RT_LONG_PTR] = "long *",
        [SB_RT_CONST_LONG_PTR] = "const long *",
        [SB_RT_SLOT_PTR] = "struct sysbatch_slot *",
        [SB_RT_CONST_SLOT_PTR] = "const struct sysbatch_slot *",
        [SB_RT_FRAME_PTR] = "struct sysbatch_tock_frame *",
        [SB_RT_CONST_CHAR_PTR] = "const char *",
        [SB_RT_CONST_CHAR_1] = "const char",
    };
    if ((int)type < 0 || type > SB_RT_CONST_CHAR_1)
        return "?";
    return names[type];
}

/* The kernel names of the calls libc makes cancellation points, as in
 * runtime/src/linux.c's sb__cancel_points (tests/core/Cancel_points.test
 * keeps the two lists in step).  By name, not number: the core knows x86_64
 * numbers only through its catalogue, and only catalogued calls are ever
 * batched. */
static const char *const linux_cancel_points[] = {
    "read", "write", "close", "openat", "pread64", "pwrite64", "readv",
    "writev", "preadv", "pwritev", "msync", "fsync", "fdatasync", "waitid",
    "accept4", "connect", "sendmmsg", "rt_sigsuspend", "epoll_pwait",
    "fallocate", "open", "creat", "select", "poll", "pause", "epoll_wait",
    "accept", "sendto", "recvfrom", "sendmsg", "recvmsg", "msgsnd", "msgrcv",
    "nanosleep", "clock_nanosleep", "wait4", "recvmmsg", "rt_sigtimedwait",
    "pselect6", "ppoll", "mq_timedsend", "mq_timedreceive", "preadv2",
    "pwritev2", "openat2", "epoll_pwait2", "copy_file_range",
};

bool sb_linux_cancel_point(int nr)
{
    const struct sb_syscall *row = sb_catalog_by_nr(SB_ABI_LINUX_X86_64, nr);
    if (!row || !row->raw_name)
        return false;
    for (size_t i = 0; i < sizeof linux_cancel_points / sizeof *linux_cancel_points; i++)
        if (strcmp(row->raw_name, linux_cancel_points[i]) == 0)
            return true;
    return false;
}

long sb_rt_run_flags_slot(long flags, int nr, short jump_fail, short jump_zero,
                          short jump_pos)
{
    flags |= SB_RT_RUN_PLANNED;
    if (jump_fail || jump_zero || jump_pos)
        flags |= SB_RT_RUN_JUMPS;
    if (nr >= 0 && sb_linux_cancel_point(nr))
        flags |= SB_RT_RUN_CANCEL;
    if (nr == SB_NR_RT_SIGACTION)
        flags |= SB_RT_RUN_CONVERTS;
    return flags;
}

long sb_rt_run_flags(const struct sb_batch_plan *batch)
{
    long flags = SB_RT_RUN_PLANNED;
    for (int i = 0; i < batch->nslots; i++) {
        const struct sb_slot_plan *s = &batch->slots[i];
        flags = sb_rt_run_flags_slot(flags, s->kind == SB_SLOT_CALL ? s->nr : -1,
                                     s->jump_fail, s->jump_zero, s->jump_pos);
        /* A predicated slot runs with any of its sets of jumps (chosen when
         * the batch is filled): the flags must hold for all of them. */
        for (int v = 1; v < sb_slot_nvariants(s); v++) {
            short j[3];
            sb_slot_variant_jumps(s, v, j);
            flags = sb_rt_run_flags_slot(flags, -1, j[0], j[1], j[2]);
        }
    }
    return flags;
}

bool sb_rt_all_ran_test(const struct sb_batch_plan *batch, int copied,
                        bool verify)
{
    if (verify || batch->branchy || batch->ncalls < 2 || copied < 0 ||
        copied > SB_ALL_RAN_MAX_COPY)
        return false;
    for (int i = 0; i < batch->nslots; i++)
        if (batch->slots[i].predicated)
            return false;
    return true;
}
