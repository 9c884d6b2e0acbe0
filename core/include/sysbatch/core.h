/* sysbatch core: the IR-free batching model shared by both compiler plugins.
 *
 * Neither LLVM nor GCC headers are visible here: a front end describes a
 * candidate region in these plain C structs, asks sb_plan_region() for a
 * plan, prints it with sb_plan_print() and rewrites its own IR from it.  Every
 * decision about *what* is batched is taken here, once.
 *
 * The algorithm, in phases
 * ========================
 *
 * Phase 1 - recognise (front end + catalogue).  The front end walks one basic
 * block in program order and records two kinds of events:
 *
 *   SB_EV_CALL  a call to a catalogue function (sb_catalog_lookup) or to
 *               syscall(NR, ...) with a constant NR (sb_catalog_by_nr).  Each
 *               libc argument is classified as an sb_operand:
 *                 CONST      a compile-time integer
 *                 AVAILABLE  a value already defined where the region starts
 *                 RESULT     the (possibly cast) return value of call j
 *                 MEMORY     an 8-byte word call j wrote to its buffer
 *                 LOCAL      computed inside the region from anything else
 *   SB_EV_CODE  everything between two calls that is not a call event, folded
 *               into one record per gap.  The front end's alias analysis fills
 *               `conflicts`: the later calls this code may not be moved across
 *               (it reads what the call writes, writes what it reads, touches
 *               errno, is volatile/atomic, or is an unknown call - then it
 *               conflicts with everything and `barrier` is set).
 *
 * Phase 2 - group (sb_plan_region, pure).  Calls are taken greedily from the
 * first eligible one.  Call j joins the open batch when
 *   - its catalogue row is batchable for the target ABI (rule 6 of the
 *     contract: no exec/exit/fork/vDSO/batch itself, nothing unknown),
 *   - every operand is CONST, AVAILABLE, RESULT of a call before the batch,
 *     or RESULT / MEMORY of a call already in this batch (that becomes a
 *     word copy), and
 *   - no CODE event since the batch's first call conflicts with j.
 * Otherwise the batch is closed and j either opens the next one or is
 * refused with a reason.  A closed batch with fewer than `min_batch` calls is
 * dissolved and each of its calls is refused with SB_WHY_BELOW_MIN_BATCH.
 * Ties are broken by position only, so the plan is deterministic.
 *
 * Phase 3 - encode.  Each batch becomes an array of sys_batch slots:
 *   - one slot per call, libc arguments mapped onto the raw syscall by the
 *     catalogue row (open(p, f) -> openat(AT_FDCWD, p, f, 0));
 *   - one word-copy slot per chained operand, placed directly before its
 *     consumer and reached only by fall-through (hazard (a));
 *   - a call whose result feeds a later slot stops the batch when it fails
 *     (jump_fail = -1): the consumer then runs unbatched with the -1 that libc
 *     would have returned, so a failed open never leaks -errno into read();
 *   - every other offset is 0, so the batch ends exactly at slot n
 *     (hazard (b)).
 *
 * Phase 4 - rewrite (front end).  The batch is issued where its first call
 * was, behind one predictable branch on `sysbatch_active` (the original calls
 * stay as the other version).  Every original call site then becomes
 *     r = (slot <= last) ? convert(rets[slot]) : original_call(args)
 * where convert() applies the libc return convention and sets errno at that
 * point in program order.  Code between calls is never moved; only the
 * kernel effect of later calls moves up, which is why phase 1 asks whether
 * that code commutes with them.
 *
 * Worked example
 * ==============
 *
 *     int fd = open(path, O_RDONLY);        call 0
 *     n = read(fd, buf, sizeof buf);        call 1  a0 = RESULT 0
 *     close(fd);                            call 2  a0 = RESULT 0
 *
 * plans as (sb_plan_print):
 *
 *     batch 0: calls 0..2, 5 slots, 2 chains
 *       slot 0: call 0 openat(-100, a0, a1, 0)            fail=stop
 *       slot 1: copy ret[0] -> slot 2 arg 0
 *       slot 2: call 1 read(ret0, a1, 4096)
 *       slot 3: copy ret[0] -> slot 4 arg 0
 *       slot 4: call 2 close(ret0)
 *
 * and if `buf[0] = 1;` stood between open and read, read could not move above
 * the store: the CODE event conflicts with call 1, the batch is {open} alone,
 * below the minimum, and both calls are refused with their reasons.
 *
 * Branchy regions (nblocks > 0; see "branchy regions" below)
 * ==========================================================
 *
 * Phase 2b - walk.  A branchy region yields at most one batch: it has one
 * issue point (where the region's first call was, in the entry block) and
 * the kernel then follows the path the original code takes.  Blocks are
 * visited in their topological order.  A block is live if it is block 0 or
 * an edge from a live block that was not cut leads to it; its conflict
 * state is the OR of what its live predecessors ended with (code events
 * crossed since the batch point: a call mask and a barrier flag).  Call j
 * is included when it is batchable alone, no crossed code is a barrier or
 * names j, glibc's precheck passes (a chained fd counts), every operand is
 * CONST/AVAILABLE or the RESULT/MEMORY of an included call that dominates j
 * in the live DAG, and the slots fit.  The first call of a block that is
 * not included cuts the block: the batch stops there on that path, the
 * rest of the block is not included and its terminator is not followed.
 * Calls no live path reaches are refused as not-reached (unless they have
 * a reason of their own).  If the entry call is not included there is no
 * batch; fewer than min_batch included calls: no batch either.
 *
 * Phase 3b - layout and jumps.  Slots follow the live blocks in order;
 * each producer's word copies follow it directly (not its consumers).  A
 * producer stops on failure and falls into its copies on zero and positive
 * results, so the slot after its copies must be where both lead (the next
 * included call of its block, or its successor's first slot, or the end);
 * when it is not, the consumers needing the chain are refused (arg-computed)
 * and the walk repeats until nothing changes.  Every other call jumps per
 * outcome to the first slot of its terminator's target (through call-free
 * blocks' gotos); an exit, a cut or a target without slots stops (-1, or 0
 * for the last slot).  All jumps go forward and land on call slots.
 * sb_batch_plan.branchy says whether any jump other than a producer's stop
 * exists.  Tock's series call only stops or continues: branchy regions are
 * refused there (wrong-abi with a detail) and the front end plans each
 * block straight-line.
 */
#ifndef SYSBATCH_CORE_H
#define SYSBATCH_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- catalogue */

enum sb_abi {
    SB_ABI_LINUX_X86_64 = 0,
    SB_ABI_TOCK = 1, /* TRD104 classes, issued through series call 0xfe */
};

/* What a libc argument is, as far as memory and ordering are concerned. */
enum sb_arg_kind {
    SB_ARG_NONE = 0,
    SB_ARG_VALUE,   /* integer, flags, mode, offset: no memory behind it */
    SB_ARG_FD,      /* file descriptor (a value; chaining target) */
    SB_ARG_PATH,    /* NUL-terminated string the kernel reads */
    SB_ARG_IN_BUF,  /* kernel reads size_arg (or fixed_size) bytes */
    SB_ARG_OUT_BUF, /* kernel writes size_arg (or fixed_size) bytes */
    SB_ARG_ADDR,    /* address the call maps/unmaps/protects (mmap family):
                       changes what every later access means, so code never
                       moves across such a call */
    SB_ARG_OPAQUE,  /* pointer to something the kernel may read or write
                       in ways the catalogue does not describe */
    SB_ARG_IOVEC_IN,/* an array of size_arg struct iovec entries the kernel
                       reads, and every buffer its entries name (writev):
                       the buffers are not known before the call, so code
                       that may write memory (anything but errno and the
                       front end's own unaliased locals) is ordered with
                       the call; code that only reads commutes */
    SB_ARG_IOVEC_OUT,/* an array of size_arg struct iovec entries the kernel
                       reads, and every buffer its entries name, which it
                       writes (readv, preadv): the buffers are not known
                       before the call, so every access to memory (errno
                       and the front end's own unaliased locals aside) is
                       ordered with the call, as for SB_ARG_OPAQUE, and a
                       loop cannot give a slot private buffers */
};

struct sb_arg_desc {
    uint8_t kind;       /* enum sb_arg_kind */
    int8_t size_arg;    /* libc argument index holding the byte count, or -1 */
    uint16_t fixed_size;/* byte count when size_arg < 0 (e.g. struct stat);
                           0 with size_arg < 0: a size known only at run
                           time (accept's sockaddr), so any access to the
                           buffer is ordered with the call */
};

/* How many bytes of a buffer argument the kernel touches, as the row
 * says: the value of libc argument `arg` (the row's size argument, when
 * the call passes it), `bytes` (a fixed size), or not known. */
enum sb_extent_kind {
    SB_EXTENT_UNKNOWN = 0,
    SB_EXTENT_ARG,
    SB_EXTENT_FIXED,
};

struct sb_arg_extent {
    uint8_t kind; /* enum sb_extent_kind */
    int arg;      /* SB_EXTENT_ARG: the libc argument holding the count */
    long bytes;   /* SB_EXTENT_FIXED */
};

/* The extent of buffer argument `d` of a call with `nargs` libc arguments
 * (a size argument the call does not pass is unknown). */
struct sb_arg_extent sb_arg_extent(const struct sb_arg_desc *d, int nargs);

/* Where a raw syscall argument comes from. */
enum sb_raw_from {
    SB_RAW_LIBC_ARG = 0, /* libc argument `index` (missing variadic -> 0) */
    SB_RAW_CONST,        /* the constant `value` (AT_FDCWD, AT_EMPTY_PATH) */
    SB_RAW_EMPTY_STRING, /* address of a "" (fstat -> newfstatat(fd, "")) */
};

struct sb_raw_arg {
    uint8_t from;  /* enum sb_raw_from */
    int8_t index;
    long value;
};

/* How the libc wrapper reports the raw result. */
enum sb_ret_conv {
    SB_RET_ERRNO = 0,      /* -1 and errno on failure (most calls) */
    SB_RET_MAP_FAILED,     /* MAP_FAILED and errno (mmap) */
    SB_RET_POSITIVE_ERROR, /* returns the error number, errno untouched */
    SB_RET_NEVER_FAILS,    /* raw value as is (getuid, umask) */
    SB_RET_TOCK,           /* a libtock-c return struct (Tock ABI) */
};

enum sb_row_flags {
    SB_ROW_MAY_BLOCK = 1u << 0,   /* can sleep (read on a pipe, fsync) */
    SB_ROW_NEVER = 1u << 1,       /* must never be batched: see `never_why` */
    SB_ROW_VARIADIC = 1u << 2,    /* trailing libc argument is optional */
    SB_ROW_RAW_SYSCALL = 1u << 3, /* the syscall(NR, ...) entry point */
    SB_ROW_FD_TABLE = 1u << 4,    /* creates/destroys fds or changes cwd */
    SB_ROW_OPEN_MODE = 1u << 5,   /* the variadic mode (last libc argument)
                                     reaches the kernel only when the flags
                                     (the argument before it) contain O_CREAT
                                     or O_TMPFILE; otherwise glibc passes 0 */
    SB_ROW_SERIES_LAST = 1u << 6, /* Tock yield: only the last frame of a
                                     series (PR #3077: its upcall may run only
                                     after every other call); the batch closes
                                     after it */
    SB_ROW_SHARED_MEMORY = 1u << 7, /* Tock: the kernel may read or write any
                                     buffer the process allowed earlier, and a
                                     yield runs upcalls (user code).  Front
                                     ends mark code that touches memory other
                                     than the function's private locals as
                                     conflicting with such a call */
    SB_ROW_RESULT_LE_SIZE = 1u << 8, /* a success returns at most the byte
                                     count of its buffer argument (read,
                                     write, readlink): a chained result
                                     narrowed to int keeps its value when
                                     that count is a constant that fits */
    SB_ROW_FRESH_MAPPING = 1u << 9, /* mmap: with a NULL address (libc
                                     argument 0 the constant 0) and constant
                                     flags (argument 3) without MAP_FIXED
                                     the kernel only adds a mapping where it
                                     chooses: no memory that exists before
                                     the call changes (sb_call_addr_touches_memory) */
    SB_ROW_FD_POSITION = 1u << 10, /* reads or writes at the descriptor's
                                     file position and moves it (read,
                                     write, getdents64; not pread) */
    SB_ROW_RUNTIME_CONVERTED = 1u << 11, /* the slot's nr is a runtime
                                     pseudo number (sigaction): libsysbatch
                                     checks the arguments as glibc does and
                                     converts the libc structs to the
                                     kernel's when the batch is issued, and
                                     back after it (docs/design.md,
                                     "Runtime-converted calls").  Such a slot
                                     shares a batch only with calls that
                                     take no pointers (sb_converted_mix) */
    SB_ROW_FD0_FAILS_NEGATIVE = 1u << 12, /* the kernel fails the call
                                     (EBADF) whenever libc argument 0, an
                                     fd, is negative: it looks the fd up
                                     and gives no negative value a meaning
                                     (no AT_FDCWD, not ignored as mmap's
                                     fd is).  Such a call that stops its
                                     batch on failure proves the same fd
                                     non-negative for the slots after it
                                     (check_precheck) */
};

/* The pseudo number of a sigaction slot; equals SYSBATCH_NR_SIGACTION in
 * runtime/include/sysbatch.h.  Negative, so no kernel mistakes it for a
 * real call. */
#define SB_NR_RT_SIGACTION (-3)

#define SB_MAX_ARGS 6

/* Some glibc wrappers answer certain arguments themselves, without entering
 * the kernel (fstat(-1) is EBADF, utimensat(fd, NULL, ...) and an unaligned
 * mmap offset are EINVAL).  Batching such a call would make a system call
 * the original never made (or, for a clamped count, passed a different
 * argument), so the planner batches it only when the operand
 * is known to pass the check: a constant that passes, or (for fds) the
 * chained result of a call in the same batch, which stops the batch when it
 * fails and so is never negative when the slot runs; an fd the front end
 * proves non-negative (sb_operand.nonneg); the same fd (sb_operand.same)
 * as argument 0 of an earlier call of the batch that the kernel fails on a
 * negative fd (SB_ROW_FD0_FAILS_NEGATIVE), which then stops the batch when
 * it fails; a path proven non-NULL (sb_operand.nonnull).  docs/core.md,
 * "Prechecks". */
enum sb_precheck {
    SB_PRE_NONE = 0,
    SB_PRE_FD_NONNEG,     /* fd < 0 -> EBADF without a syscall */
    SB_PRE_NONNULL,       /* NULL -> EINVAL without a syscall */
    SB_PRE_PAGE_ALIGNED,  /* offset & 4095 -> EINVAL without a syscall */
    SB_PRE_COUNT_INT_MAX, /* count > INT_MAX is clamped to INT_MAX before
                             the syscall (getdents64): the raw argument
                             would differ */
    SB_PRE_CONST_ALLOWED, /* only a constant from the row's `pre_allowed`
                             list is a plain system call; glibc handles
                             other values itself (fcntl: F_GETOWN becomes
                             F_GETOWN_EX on a local, lock commands take
                             pointers and F_SETLKW is a cancellation point;
                             fchmodat with AT_SYMLINK_NOFOLLOW emulates in
                             user space) */
    SB_PRE_CONST_NONZERO, /* only a nonzero constant issues the row's raw
                             call (renameat2 with flags 0 is renameat) */
};

struct sb_syscall {
    const char *name;        /* canonical libc name, e.g. "open" */
    const char *raw_name;    /* kernel's name, e.g. "openat" */
    uint8_t abi;             /* enum sb_abi */
    int nr;                  /* Linux: syscall number; Tock: class */
    uint8_t libc_argc;
    struct sb_arg_desc libc_args[SB_MAX_ARGS];
    uint8_t raw_argc;
    struct sb_raw_arg raw_args[SB_MAX_ARGS];
    uint8_t ret;             /* enum sb_ret_conv */
    uint8_t result_bits;     /* width of the libc return value: 32 or 64 */
    uint16_t flags;          /* enum sb_row_flags */
    const char *never_why;   /* SB_ROW_NEVER: the reason, for the remark */
    uint8_t precheck;        /* enum sb_precheck: what glibc answers itself */
    int8_t precheck_arg;     /* the libc argument the precheck looks at */
    const long *pre_allowed; /* SB_PRE_CONST_ALLOWED: the values that pass */
    uint8_t pre_allowed_count;
};

/* All rows, in one table; aliases (open64, fstat64, ...) resolve to rows. */
size_t sb_catalog_size(void);
const struct sb_syscall *sb_catalog_row(size_t index);
/* A libc symbol (aliases included) -> row, or NULL. */
const struct sb_syscall *sb_catalog_lookup(enum sb_abi abi, const char *symbol);
/* syscall(NR, ...): the row whose raw call is NR, or NULL. */
const struct sb_syscall *sb_catalog_by_nr(enum sb_abi abi, long nr);
/* The libc symbol for the raw syscall() entry ("syscall"). */
bool sb_catalog_is_raw_syscall_symbol(const char *symbol);
/* The i-th alias of a row (open -> "open64"), or NULL past the last one. */
const char *sb_catalog_alias(const struct sb_syscall *row, size_t i);

/* ------------------------------------------------------------------ regions */

struct sb_call_event;
/* True when the event is syscall(NR, ...): its row has SB_ROW_RAW_SYSCALL or
 * its symbol is "syscall".  Libc argument 0 is then NR and raw argument i is
 * libc argument i + 1; the result is a long with the -1/errno convention,
 * whatever the row of NR says (sb_call_ret_conv). */
bool sb_call_is_raw_syscall(const struct sb_call_event *ev);
/* The row whose raw call the event issues: for syscall(NR, ...) with a
 * constant NR, sb_catalog_by_nr(abi, NR) (NULL when NR is computed or not
 * catalogued); otherwise ev->row. */
const struct sb_syscall *sb_call_raw_row(enum sb_abi abi,
                                         const struct sb_call_event *ev);
/* Does the call change memory that exists before it through its
 * SB_ARG_ADDR arguments (so no code may move across it)?  is_const[k] and
 * value[k] say which of its `nargs` libc arguments the front end sees as
 * compile-time constants.  False only for a SB_ROW_FRESH_MAPPING row called
 * with a NULL address and constant flags without MAP_FIXED
 * (mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0): the load of
 * st.st_size between fstat and mmap commutes with it); true for every other
 * row with an SB_ARG_ADDR argument; false for rows without one. */
bool sb_call_addr_touches_memory(const struct sb_syscall *row, int nargs,
                                 const bool *is_const, const long *value);

/* The return convention and width the call site sees. */
enum sb_ret_conv sb_call_ret_conv(enum sb_abi abi, const struct sb_call_event *ev);
int sb_call_result_bits(enum sb_abi abi, const struct sb_call_event *ev);
/* The largest result the call can hand on through a chain (producers stop
 * the batch when they fail, so only successes are chained): INT32_MAX for
 * a 32-bit result, the constant byte count of a SB_ROW_RESULT_LE_SIZE
 * call, INT64_MAX otherwise. */
long sb_call_success_max(enum sb_abi abi, const struct sb_call_event *ev);
/* Does call `producer`'s result reach a use that converted it through
 * `narrowest_bits` bits (sb_operand.narrowest_bits) unchanged?  True when
 * every success value fits below 2^(narrowest_bits - 1). */
bool sb_conversion_keeps_result(enum sb_abi abi,
                                const struct sb_call_event *producer,
                                int narrowest_bits);
/* Is a signed max(result, floor) the result itself, whatever the call
 * returns?  Inlined wrappers turn `if (fd < 0) return -1; return fd;`
 * into max(fd, -1): for an int-returning -1/errno call (failure -1,
 * success 0..INT_MAX, as glibc's fd precheck and chaining already assume)
 * that holds for every floor <= -1; for a positive-error call (0..4095)
 * for every floor <= 0.  The front end then sees through the max as
 * through a copy. */
bool sb_max_keeps_result(enum sb_abi abi, const struct sb_call_event *producer,
                         long floor);

enum sb_operand_kind {
    SB_OPND_CONST = 0,
    SB_OPND_AVAILABLE, /* defined before the region's first call */
    SB_OPND_RESULT,    /* result of call `call`, possibly converted (see
                          narrowest_bits) */
    SB_OPND_LOCAL,     /* computed in the region from something else */
    SB_OPND_MEMORY,    /* the 8-byte word at byte offset `value` of the buffer
                          call `call` wrote through its libc argument `arg`
                          (read(fd, buf, st.st_size) after fstat(fd, &st):
                          call = the fstat, arg = 1, value = 48).  Inside a
                          batch it becomes a word copy from that address;
                          code that writes the word between the two calls
                          must be reported as conflicting with the reader. */
};

struct sb_operand {
    uint8_t kind;  /* enum sb_operand_kind */
    int call;      /* SB_OPND_RESULT / SB_OPND_MEMORY: region call index of
                      the producer / writer */
    long value;    /* SB_OPND_CONST; SB_OPND_MEMORY: byte offset */
    int arg;       /* SB_OPND_MEMORY: the writer's libc argument index */
    uint8_t narrowest_bits; /* SB_OPND_RESULT: the narrowest integer width
                               the value passed through on its way from the
                               call to this use ((int)lseek(...): 32), 0 when
                               no conversion narrowed it.  The front end
                               records every integer or pointer conversion;
                               the planner decides what keeps the value
                               (sb_conversion_keeps_result) */
    bool nonneg;   /* SB_OPND_AVAILABLE: the front end proves the value is
                      in 0..INT32_MAX where the call runs - a branch that
                      dominates the call left when it was negative
                      (fd = name ? open(name, O_RDONLY) : 0; if (fd < 0)
                      return; fstat(fd, &st)), read through phis of such
                      values and constants in that range.  glibc's
                      negative-fd precheck then passes */
    bool nonnull;  /* SB_OPND_AVAILABLE: the front end proves the pointer is
                      not NULL where the call runs - the address of an
                      object or a string constant, a parameter declared
                      nonnull, a branch that dominates the call left when
                      it was NULL, or a load through it on every path to
                      the call.  glibc's NULL-path precheck then passes */
    uint16_t same; /* SB_OPND_AVAILABLE: a value number, 0 when none.  Two
                      operands of one region with the same nonzero number
                      hold the same value where the batch is issued (the
                      same SSA value, or the same load of memory nothing
                      changes in between, made again there): glibc's
                      negative-fd precheck passes when an earlier call of
                      the batch took the same fd and stops the batch when
                      it fails (check_precheck, docs/core.md "Prechecks") */
};

#define SB_MAX_REGION_CALLS 64

struct sb_call_event {
    const struct sb_syscall *row; /* NULL: not in the catalogue */
    const char *symbol;           /* callee as written (for messages) */
    int nargs;                    /* libc arguments as written */
    struct sb_operand args[SB_MAX_ARGS + 1]; /* +1: syscall()'s NR */
    const char *why_not;          /* front end's own refusal, or NULL */
};

struct sb_code_event {
    bool barrier;        /* conflicts with every later call */
    uint64_t conflicts;  /* bit j: may not move across region call j */
    const char *why;     /* what the code is, for the remark */
};

enum sb_event_kind { SB_EV_CALL = 0, SB_EV_CODE = 1 };

struct sb_event {
    uint8_t kind; /* enum sb_event_kind */
    union {
        struct sb_call_event call;
        struct sb_code_event code;
    } u;
};

/* ---------------------------------------------------- branchy regions
 *
 * A region may span several basic blocks (issue: forward jumps).  blocks[0]
 * is the entry; blocks are listed in a topological order (every successor
 * comes later in the list, so the region is acyclic) and block b owns
 * events[first_event .. first_event + nevents).  Calls are numbered across
 * blocks in that order.  A block ends in one terminator:
 *
 *   SB_TERM_EXIT   leaves the region (return, or a branch to a block the
 *                  front end did not put in the region)
 *   SB_TERM_GOTO   to block succ[0]
 *   SB_TERM_COND   on the sign class of call cond_call's raw result, the
 *                  block's last call: succ[0] for < 0, succ[1] for == 0,
 *                  succ[2] for > 0 (a block index or SB_BLOCK_EXIT).  The
 *                  front end derives the classes with sb_cond_classes() from
 *                  the compare it sees (fd < 0, rc != 0, n == -1, ...);
 *                  any other terminator is an EXIT.
 *
 *     fd = open(p, O_RDONLY);                 block 0: call 0, COND call 0
 *     if (fd < 0) { perror(p); return -1; }     <0 -> block 1, else block 2
 *     if (fstat(fd, &st) < 0) {               block 1: code (barrier), EXIT
 *         close(fd); return -1; }             block 2: call 1, COND call 1
 *                                               <0 -> block 3, else EXIT
 *                                             block 3: call 2, EXIT
 *
 * plans as one batch whose slots follow the blocks (block 1 has no calls
 * before its barrier and leaves the region, so no slot stands for it; open
 * stops on failure anyway because it feeds fstat and close):
 *
 *     batch 0: calls 0..2, 5 slots, 2 chains, branchy
 *       slot 0: call 0 openat(-100, a0, 0, 0)             fail=stop
 *       slot 1: copy ret[0] -> slot 3 arg 0     (copies follow their
 *       slot 2: copy ret[0] -> slot 4 arg 0      producer, by fall-through)
 *       slot 3: call 1 newfstatat(ret0, "", a1, 4096)     zero=stop pos=stop
 *       slot 4: call 2 close(ret0)              (fstat < 0 falls through)
 *
 * (fstat >= 0 leaves the region: the batch stops there.)  Conditions come
 * from sb_cond_classes(): per raw sign class the call site sees -1 / 0 /
 * 1..max (errno convention), MAP_FAILED / 1..max (mmap), 1..4095 / 0
 * (posix_fadvise) or 0 / 1..max (never fails); a class is in the mask when
 * the compare holds for all of its values.  Ordered unsigned compares read
 * value and constant as unsigned at the result's width; == and != compare
 * at that width (for 32 bits the constant is read as an int).
 *
 * In a branchy batch the kernel skips slots, so "slot <= last" no longer
 * tells which calls ran: libsysbatch fills rets with SYSBATCH_NOT_RUN before
 * running, and each call site tests its own slot (sb_batch_plan.branchy). *
 * Predicated slots (SB_TERM_PRED)
 * -------------------------------
 *   SB_TERM_PRED   a two-way branch on a value that is available where the
 *                  batch is issued and that nothing in the region (no code,
 *                  no call of the batch) can change before the branch: a
 *                  flag parameter, a local that is not address-taken, a
 *                  field or global read before the batch.  succ[0] when the
 *                  condition is true, succ[1] when false.  The front end
 *                  says the condition is available (sb_term_shape.pred,
 *                  decided by sb_describe_terminator); the planner takes both
 *                  arms as live and the slot that leads into the branch
 *                  gets two sets of jumps: the front end evaluates the
 *                  condition of block `pred_block` while it fills the batch
 *                  and stores the slot's header with jump_* when it holds,
 *                  alt_* when it does not (sb_slot_plan.predicated).
 *
 *     fd = open(p, O_WRONLY);              block 0: call 0, COND
 *     if (fd < 0) return -1;                 <0 -> exit, else block 1
 *     if (opts->preserve)                  block 1: PRED (read before open)
 *         fchmod(fd, mode);                block 2: call 1, GOTO 3
 *     fchown(fd, uid, gid);                block 3: call 2, EXIT
 *
 * A skipped slot is jumped over (no slot is replaced by another call, and
 * results, errno and order stay those of the path the program takes); each
 * call site consumes its slot only when it ran (rets[slot] != NOT_RUN, as
 * in any branchy batch).  A word copy is reached only by fall-through, so a
 * producer whose copies are followed by one arm stops the batch when the
 * condition selects the other (the rest of the path runs unbatched).
 *
 * Several predicates may decide one slot's jumps (cpio's rtapelib.c:
 * `if (dup2(a, 0) < 0 || (a != 0 && close(a) != 0) || (b != 0 &&
 * close(b) != 0) || dup2(c, 1) < 0 ...)`: after dup2 the path meets
 * `a != 0`, and when that is false `b != 0`, before the next slot).  The
 * slot then lists up to SB_MAX_SLOT_PREDS predicate blocks and one set of
 * jumps per assignment of their conditions (sb_slot_plan.pred_jumps); a
 * path that would need more predicates than that stops the batch there. */
enum sb_term_kind {
    SB_TERM_EXIT = 0,
    SB_TERM_GOTO = 1,
    SB_TERM_COND = 2,
    SB_TERM_PRED = 3, /* see "predicated slots" below */
};
#define SB_BLOCK_EXIT (-1)
#define SB_MAX_REGION_BLOCKS 64
#define SB_MAX_SLOT_PREDS 3 /* predicates deciding one slot's jumps */

struct sb_block {
    int first_event, nevents;
    uint8_t term;     /* enum sb_term_kind */
    int cond_call;    /* SB_TERM_COND: region call index */
    int succ[3];      /* see above */
};

/* Sign classes of a raw result, as a bit mask. */
#define SB_CLASS_NEG 1u
#define SB_CLASS_ZERO 2u
#define SB_CLASS_POS 4u

enum sb_cmp {
    SB_CMP_EQ = 0, SB_CMP_NE,
    SB_CMP_SLT, SB_CMP_SLE, SB_CMP_SGT, SB_CMP_SGE,
    SB_CMP_ULT, SB_CMP_ULE, SB_CMP_UGT, SB_CMP_UGE,
};

/* A branch `value OP constant`, where value is what the call site of a call
 * with return convention `conv` and width `bits` sees (libc's -1 for a
 * failure, MAP_FAILED as -1, posix_fadvise's positive error): the mask of
 * raw-result sign classes for which it is true, or -1 when the sign class
 * does not decide it (x == 5 after read()).  Classes that cannot occur for
 * the convention are left out of the mask. */
int sb_cond_classes(enum sb_ret_conv conv, int bits, enum sb_cmp op,
                    long constant);

/* What lies between a straight-line region's last call and the next
 * candidate call of the function, as the front end sees it (facts only:
 * the planner names the reason a lone call gives from them, the same in
 * both compilers).  All zero: not described (a lone call then says only
 * below-min-batch).  The front end walks forward from the end of the
 * region's block through blocks without candidate calls, up to the first
 * blocks that hold one:
 *
 *     for (i = 0; i < n; i++)             block 1: lstat, branch on it
 *         if (lstat(p[i], &st) == 0)        <- region of block 1: term
 *             count++;                         BRANCH, back_edge (the path
 *                                              to the next lstat crosses
 *                                              the loop's back edge) */
enum sb_end_term {
    SB_ENDT_UNSAID = 0,
    SB_ENDT_RETURN, /* the block leaves the function (return, unreachable) */
    SB_ENDT_JUMP,   /* one successor */
    SB_ENDT_BRANCH, /* a conditional branch or switch */
};

struct sb_region_end {
    uint8_t term;         /* enum sb_end_term: how the block ends */
    bool only_call;       /* the function has no other candidate call */
    bool split;           /* the block's next calls are another region
                             (more than SB_MAX_REGION_CALLS in the block) */
    const char *barrier;  /* code after the last call, before the block
                             ends, that may touch anything ("a call to
                             free"), or NULL */
    bool no_call_follows; /* no path from the block's end reaches a
                             candidate call */
    bool back_edge;       /* a path to the next call crosses a loop's
                             back edge (the next call is the next
                             iteration's) */
    bool loop_exit;       /* a path to the next call leaves a loop */
    const char *decided_next; /* the first call after it (on a walk like
                                 no_call_follows') that an earlier look
                                 decided - placement=both's look before
                                 inlining batched it, or refused it in a
                                 region that batched - so it is no
                                 candidate here: its symbol, or NULL */
    const char *branch_why; /* term BRANCH: why the branchy region entered
                               at this block batched nothing past the
                               branch (sb_branch_end_why), or NULL */
};

struct sb_region {
    enum sb_abi abi;
    int nevents;
    struct sb_event *events; /* program order; calls numbered 0.. in order */
    int nblocks;             /* 0: one block holding every event, EXIT at
                                its end (the straight-line form) */
    struct sb_block *blocks;
    struct sb_region_end end; /* straight-line form: what follows the last
                                 call (lone calls' reasons) */
};

struct sb_options {
    int min_batch;          /* smallest batch worth a crossing; default 2 */
    int max_slots;          /* cap per batch; default 64 */
    bool allow_blocking;    /* batch SB_ROW_MAY_BLOCK rows; default true */
    bool series_yield;      /* Tock: let a yield close a series
                               (SB_ROW_SERIES_LAST).  Default true:
                               libtock-c's yield() has been the bare trap
                               since June 2025 (tock_enqueue's task queue,
                               which yield() ran instead of trapping, was
                               removed); off for older libtock-c */
    bool loops;             /* batch the calls of many loop iterations
                               (sysbatch/loop.h); default true */
    bool join_split;        /* copy a join block's first call onto an
                               incoming edge where that makes it batch
                               (sysbatch/cfg.h, "join splits"); default
                               true */
    int loop_slots;         /* iterations per loop batch; default 16, at
                               most max_slots */
};
void sb_options_default(struct sb_options *opts);

/* ---------------------------------------------------------------- the plan */

/* One distinct reason per bail-out; sb_why_text() gives the remark text. */
enum sb_why {
    SB_WHY_NONE = 0,
    SB_WHY_NOT_IN_CATALOG,
    SB_WHY_WRONG_ABI,
    SB_WHY_NEVER_BATCH,        /* detail: the row's never_why */
    SB_WHY_NR_NOT_CONSTANT,    /* syscall() with a computed number */
    SB_WHY_NR_UNKNOWN,         /* syscall() with a number not catalogued */
    SB_WHY_MAY_BLOCK,          /* blocking rows disabled by option */
    SB_WHY_ARG_COMPUTED,       /* argument derived from a result by code */
    SB_WHY_ARG_FROM_UNBATCHED, /* argument is the result of a refused call */
    SB_WHY_CODE_CONFLICT,      /* detail: the code event's why */
    SB_WHY_BARRIER,            /* detail: the code event's why */
    SB_WHY_BELOW_MIN_BATCH,    /* a lone call's detail starts with what
                                  kept its neighbour out (sb_lone_cause) */
    SB_WHY_BATCH_FULL,         /* max_slots reached; call starts next batch */
    SB_WHY_FRONT_END,          /* detail: the front end's why_not */
    SB_WHY_NO_CHAINING,        /* result feeds a later call in the batch and
                                  the target's batch call cannot copy it
                                  (Tock series: no word copy) */
    SB_WHY_LIBC_PRECHECK,      /* glibc may answer this call itself */
    SB_WHY_NOT_REACHED,        /* branchy region: every path to the call
                                  left the batch before it (an earlier call
                                  on the path was not batched, or the path
                                  left the region) */
    SB_WHY_SERIES_ENDED,       /* the batch ended at a call that must be the
                                  last of its series (Tock yield) */
    /* Loop batching (sysbatch/loop.h) */
    SB_WHY_LOOP_CARRIED,       /* an argument depends on the call's result
                                  in an earlier iteration */
    SB_WHY_LOOP_UNREPEATABLE,  /* an argument comes from code the inspector
                                  cannot run ahead */
    SB_WHY_LOOP_GUARD,         /* whether an iteration calls is not known
                                  ahead */
    SB_WHY_LOOP_ALWAYS_STOPS,  /* every result class stops the batch */
    SB_WHY_LOOP_SPECULATIVE,   /* running ahead would load memory the loop
                                  may never reach */
    SB_WHY_LOOP_SHARED_BUFFER, /* a shared output buffer of unknown extent */
    SB_WHY_LOOP_SEVERAL_CALLS, /* more than one call site in the loop */
    SB_WHY_LOOP_BUILT_ARG,     /* an argument is a buffer the loop fills each
                                  iteration, not only by code the inspector
                                  can repeat into a private copy */
    SB_WHY_CONVERTED_MIX,      /* a runtime-converted call (sigaction) and a
                                  call taking pointers in one batch */
    SB_WHY_LOOP_RETRY,         /* the loop repeats the call only after it
                                  failed (an EINTR retry): no later
                                  iteration is known to happen */
    SB_WHY__COUNT
};
/* Why a call stayed alone (below-min-batch with a batch of one call):
 * what kept its neighbour out.  The detail of such a refusal is
 * "<sb_lone_cause_name>: <what, naming the code or call>". */
enum sb_lone_cause {
    SB_LONE_UNSAID = 0,       /* the front end described nothing */
    SB_LONE_BARRIER,          /* code that may touch anything (an unknown
                                 call, volatile) between it and the next
                                 call, or after it in its block */
    SB_LONE_CONFLICT,         /* code between it and the next call may not
                                 move across the next call */
    SB_LONE_NEXT_REFUSED,     /* the next call is not batchable at all */
    SB_LONE_NEXT_CANNOT_JOIN, /* the next call cannot join (its argument,
                                 precheck, slots) */
    SB_LONE_ONLY_CALL,        /* no other system call in the function */
    SB_LONE_LAST_CALL,        /* no system call follows it on any path */
    SB_LONE_LOOP_BACK_EDGE,   /* the next call is in the next iteration */
    SB_LONE_LOOP_EXIT,        /* the next call is after a loop exit */
    SB_LONE_BRANCH,           /* its block ends in a branch */
    SB_LONE_BLOCK_END,        /* its block ends in a jump (to a join) */
    SB_LONE_REGION_SPLIT,     /* the block has more calls than a region */
    SB_LONE_NEXT_DECIDED,     /* the next call was planned by an earlier
                                 look, without it */
    SB_LONE__COUNT
};
const char *sb_lone_cause_name(enum sb_lone_cause cause);
const char *sb_why_text(enum sb_why why);
/* Short stable identifier ("not-in-catalog"), used by tests and remarks. */
const char *sb_why_name(enum sb_why why);

enum sb_slot_kind { SB_SLOT_CALL = 0, SB_SLOT_COPY = 1 };

/* How to fill one raw argument of a call slot. */
enum sb_fill {
    SB_FILL_CONST = 0,    /* `value` */
    SB_FILL_LIBC_ARG,     /* the call's libc argument `index` */
    SB_FILL_EMPTY_STRING, /* address of a "" the runtime provides */
    SB_FILL_CHAINED,      /* written by the preceding copy slot; 0 here */
};

struct sb_fill_arg {
    uint8_t fill; /* enum sb_fill */
    int8_t index; /* LIBC_ARG and CHAINED: the libc argument the word is
                     (verify mode compares a chained word with it) */
    long value;
};

struct sb_slot_plan {
    uint8_t kind;          /* enum sb_slot_kind */
    int call;              /* SB_SLOT_CALL: region call index */
    int nr;                /* raw syscall number, -2 for a copy */
    int argc;
    struct sb_fill_arg args[SB_MAX_ARGS];
    short jump_fail, jump_zero, jump_pos; /* <0 stops; off k -> slot+1+k */
    /* SB_SLOT_COPY: rets[copy_src_slot] -> slots[copy_dst_slot].arg[copy_dst_arg] */
    int copy_src_slot, copy_dst_slot, copy_dst_arg;
    /* SB_SLOT_COPY from memory (copy_src_arg >= 0, else -1): the source is
     * the word at (libc argument copy_src_arg of the call in copy_src_slot)
     * + copy_src_offset, i.e. what that call wrote, not its result. */
    int copy_src_arg;
    long copy_src_offset;
    /* Predicated jumps (branchy regions, SB_TERM_PRED): when set, jump_*
     * apply when the condition of region block pred_block's terminator
     * holds where the batch is filled, alt_* when it does not. */
    bool predicated;
    int pred_block;
    short alt_fail, alt_zero, alt_pos;
    /* All predicates of a predicated slot (npreds >= 1; pred_blocks[0] is
     * pred_block): pred_jumps[v] = {fail, zero, pos} apply when, for every
     * i, the condition of block pred_blocks[i] holds exactly when bit i of
     * v is clear.  pred_jumps[0] is jump_*; with one predicate,
     * pred_jumps[1] is alt_*.  Read them with sb_slot_variant_jumps. */
    int npreds;
    int pred_blocks[SB_MAX_SLOT_PREDS];
    short pred_jumps[1 << SB_MAX_SLOT_PREDS][3];
};
/* How many sets of jumps a slot has (1 << npreds when predicated, else 1),
 * and set v of them (v as in pred_jumps). */
int sb_slot_nvariants(const struct sb_slot_plan *s);
void sb_slot_variant_jumps(const struct sb_slot_plan *s, int v,
                           short out[3]);

struct sb_batch_plan {
    int first_call, last_call; /* region call indices, inclusive */
    int ncalls, nchains;
    int nslots;
    struct sb_slot_plan *slots;
    /* Why the batch ended before call `end_call` (-1: the region ended
     * there, end_why SB_WHY_NONE); end_detail as in sb_call_plan. */
    int end_call;
    enum sb_why end_why;
    const char *end_detail;
    /* The batch has forward jumps other than "stop": a call site must test
     * rets[slot] != SYSBATCH_NOT_RUN (after checking the batch ran at all),
     * not slot <= last. */
    bool branchy;
};

struct sb_call_plan {
    int batch;          /* index into batches, or -1 when refused */
    int slot;           /* the call's slot in that batch */
    enum sb_why why;    /* refused: the reason */
    const char *detail; /* refused: extra text (row or code reason), or NULL */
    char *owned_detail; /* text the plan composed for `detail` (a lone
                           call's neighbour), freed by sb_plan_free */
    uint8_t lone;       /* below-min-batch alone: enum sb_lone_cause */
};

struct sb_plan {
    int ncalls;
    struct sb_call_plan *calls; /* per region call */
    int nbatches;
    struct sb_batch_plan *batches;
};

/* Call `call`'s event in the region (calls are numbered in event order),
 * or NULL. */
const struct sb_call_event *sb_region_call(const struct sb_region *region,
                                           int call);
/* A branchy region's plan is worth using instead of planning its entry
 * block straight-line only when it is one batch whose calls sit in more
 * than one block (block_of_call[c]: call c's region block). */
bool sb_plan_spans_blocks(const struct sb_plan *plan,
                          const int *block_of_call);
/* A branchy region entered at a block (`region`, planned as `plan`) gave
 * no batch over several blocks, and the front end plans that block
 * straight-line: what kept the entry block's calls from the calls after
 * its branch, for sb_region_end.branch_why - the entry block's branch
 * ending the region (term_why[0]), else the first call after the entry
 * block that cannot join and its reason, else the first later branch
 * that ends the region.  term_why[b] is the reason block b's terminator
 * ends the region (sb_describe_terminator's), or NULL.  Writes the text
 * into buf and returns buf, or NULL when none of these is known. */
const char *sb_branch_end_why(const struct sb_region *region,
                              const struct sb_plan *plan,
                              const char *const *term_why, char *buf,
                              size_t size);

/* Plan a region.  Returns 0, or -1 if memory ran out (plan left empty).
 * The region is not modified; the plan owns its memory. */
int sb_plan_region(const struct sb_region *region,
                   const struct sb_options *opts, struct sb_plan *plan);
void sb_plan_free(struct sb_plan *plan);

/* The one printable plan format (see the worked example above).  Both
 * front ends write exactly this, so their plans can be compared. */
void sb_plan_print(FILE *out, const struct sb_region *region,
                   const struct sb_plan *plan);

/* Check a plan against the sys_batch hazards: every jump lands in 1..n or
 * stops; a copy slot is reached only by fall-through; argc in 0..6.  Returns
 * NULL when fine, else a static description of the first violation. */
const char *sb_plan_check_hazards(const struct sb_plan *plan);
/* The same check, also saying where: *batch and *slot of the first violation
 * (both -1 when the plan is fine; *slot -1 for a batch-level violation). */
const char *sb_plan_find_hazard(const struct sb_plan *plan, int *batch,
                                int *slot);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_CORE_H */
