/* The Tock series call (class 0xfe) for Cortex-M (Thumb-2) and RV32IMAC:
 * the trap, frame templates, and the libtock-c return-struct converters.
 * Freestanding: no libc, no globals, nothing but the trap and word copies.
 * See runtime/include/sysbatch_tock.h for the API and an example.
 *
 * Why the trap clobbers every caller-saved register: when the last frame is
 * a yield, the kernel may deliver an upcall on the way back, which runs an
 * ordinary C function before execution resumes after the trap.
 */
#include "sysbatch_tock.h"

#if defined(__arm__) && defined(__thumb__)
static struct sysbatch_tock_reply series_trap(struct sysbatch_tock_frame *frames,
                                              uint32_t count, uint32_t policy)
{
    register uint32_t arm_r0 __asm__("r0") = count;
    register uint32_t arm_r1 __asm__("r1") = (uint32_t)frames;
    register uint32_t arm_r2 __asm__("r2") = policy;
    __asm__ volatile("svc 0xfe"
                     : "+r"(arm_r0), "+r"(arm_r1), "+r"(arm_r2)
                     :
                     : "r3", "r12", "lr", "memory", "cc");
    struct sysbatch_tock_reply reply = {arm_r0, arm_r1};
    return reply;
}
#elif defined(__riscv) && __riscv_xlen == 32
static struct sysbatch_tock_reply series_trap(struct sysbatch_tock_frame *frames,
                                              uint32_t count, uint32_t policy)
{
    register uint32_t rv_a0 __asm__("a0") = count;
    register uint32_t rv_a1 __asm__("a1") = (uint32_t)frames;
    register uint32_t rv_a2 __asm__("a2") = policy;
    register uint32_t rv_a4 __asm__("a4") = SYSBATCH_TOCK_CLASS_SERIES;
    __asm__ volatile("ecall"
                     : "+r"(rv_a0), "+r"(rv_a1), "+r"(rv_a2), "+r"(rv_a4)
                     :
                     : "ra", "a3", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4",
                       "t5", "t6", "memory");
    struct sysbatch_tock_reply reply = {rv_a0, rv_a1};
    return reply;
}
#else
#error "sysbatch Tock backend: only Cortex-M (Thumb) and RV32 are supported"
#endif

/* One TRD104 call of class `cls` with the frame's four words; the return
 * registers go back into the frame, as the series call would have left
 * them.  Every caller-saved register is clobbered: a yield may run an
 * upcall on the way back. */
#if defined(__arm__) && defined(__thumb__)
#define ONE_TRAP(imm)                                                                      \
    __asm__ volatile("svc " #imm                                                           \
                     : "+r"(arm_r0), "+r"(arm_r1), "+r"(arm_r2), "+r"(arm_r3)              \
                     :                                                                     \
                     : "r12", "lr", "memory", "cc")
static void trap_one(struct sysbatch_tock_frame *f)
{
    register uint32_t arm_r0 __asm__("r0") = f->r0;
    register uint32_t arm_r1 __asm__("r1") = f->r1;
    register uint32_t arm_r2 __asm__("r2") = f->r2;
    register uint32_t arm_r3 __asm__("r3") = f->r3;
    switch (f->syscall_class) { /* the class is the svc immediate */
    case 0: ONE_TRAP(0); break;
    case 1: ONE_TRAP(1); break;
    case 2: ONE_TRAP(2); break;
    case 3: ONE_TRAP(3); break;
    case 4: ONE_TRAP(4); break;
    case 5: ONE_TRAP(5); break;
    case 7: ONE_TRAP(7); break;
    default: return; /* not a class a series frame can hold */
    }
    f->r0 = arm_r0;
    f->r1 = arm_r1;
    f->r2 = arm_r2;
    f->r3 = arm_r3;
}
#else
static void trap_one(struct sysbatch_tock_frame *f)
{
    register uint32_t rv_a0 __asm__("a0") = f->r0;
    register uint32_t rv_a1 __asm__("a1") = f->r1;
    register uint32_t rv_a2 __asm__("a2") = f->r2;
    register uint32_t rv_a3 __asm__("a3") = f->r3;
    register uint32_t rv_a4 __asm__("a4") = f->syscall_class;
    __asm__ volatile("ecall"
                     : "+r"(rv_a0), "+r"(rv_a1), "+r"(rv_a2), "+r"(rv_a3), "+r"(rv_a4)
                     :
                     : "ra", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4", "t5", "t6",
                       "memory");
    f->r0 = rv_a0;
    f->r1 = rv_a1;
    f->r2 = rv_a2;
    f->r3 = rv_a3;
}
#endif

static inline struct sysbatch_tock_reply series_reply(struct sysbatch_tock_frame *frames,
                                                      uint32_t count, uint32_t policy)
{
    struct sysbatch_tock_reply reply = series_trap(frames, count, policy);
    /* A yield in the last frame that ran has had its frame overwritten with
     * Success (an unexecuted yield frame still holds its yield type, 0..2).
     * It ran only if every call before it ran or the policy was continue,
     * so the series returned Success - but an upcall may have replaced the
     * return registers, so do not read them.  A Yield-WaitFor frame that
     * ran holds its upcall's values instead, which may read as Success too:
     * the answer is the same (it ran, so the series succeeded), and it runs
     * no upcall, so when its first value is anything else the registers are
     * the kernel's. */
    if (count > 0) {
        const struct sysbatch_tock_frame *last = &frames[count - 1];
        if (last->syscall_class == 0 && last->r0 == SYSBATCH_TOCK_SUCCESS) {
            reply.variant = SYSBATCH_TOCK_SUCCESS;
            reply.value = 0;
        }
    }
    return reply;
}

struct sysbatch_tock_reply sysbatch_tock_series_call(struct sysbatch_tock_frame *frames,
                                                     uint32_t count, uint32_t policy)
{
    return series_reply(frames, count, policy);
}

uint32_t sysbatch_tock_series(struct sysbatch_tock_frame *frames, uint32_t count,
                              uint32_t policy)
{
    struct sysbatch_tock_reply reply = series_reply(frames, count, policy);
    if (reply.variant == SYSBATCH_TOCK_SUCCESS)
        return 0;
    if (reply.variant == SYSBATCH_TOCK_FAILURE_U32 && reply.value <= count)
        return reply.value;
    return count; /* refused: nothing ran */
}

/* BYTES encoding: `nwords` words from `src`, one byte each, 0xff followed
 * by the word as 4 bytes little-endian. */
static void decode_bytes(uint32_t *dst, const uint8_t *src, uint32_t nwords)
{
    uint32_t i;
    for (i = 0; i < nwords; i++) {
        uint32_t b = *src++;
        if (b == SYSBATCH_TOCK_TEMPLATE_ESCAPE) {
            b = (uint32_t)src[0] | (uint32_t)src[1] << 8 | (uint32_t)src[2] << 16 |
                (uint32_t)src[3] << 24;
            src += 4;
        }
        dst[i] = b;
    }
}

/* COMPACT encoding: `count` frames, each a byte class | k << 4 and its
 * first k argument words as in BYTES; the others are 0. */
static void decode_compact(uint32_t *dst, const uint8_t *src, uint32_t count)
{
    uint32_t f, w;
    for (f = 0; f < count; f++, dst += 5) {
        uint32_t head = *src++, k = head >> 4 & 7;
        dst[0] = head & 0x8f;
        dst[1] = dst[2] = dst[3] = dst[4] = 0;
        for (w = 1; w <= k && w < 5; w++) {
            uint32_t b = *src++;
            if (b == SYSBATCH_TOCK_TEMPLATE_ESCAPE) {
                b = (uint32_t)src[0] | (uint32_t)src[1] << 8 | (uint32_t)src[2] << 16 |
                    (uint32_t)src[3] << 24;
                src += 4;
            }
            dst[w] = b;
        }
    }
}

/* The patch values, which live right after the frames, over the words
 * the template's index names; 0 when an index is out of range. */
static uint32_t apply_patches(uint32_t *dst, const uint8_t *index, uint32_t npatches,
                              uint32_t nwords)
{
    uint32_t i;
    for (i = 0; i < npatches; i++) {
        if (index[i] >= nwords)
            return 0;
        dst[index[i]] = dst[nwords + i];
    }
    return 1;
}

uint32_t sysbatch_tock_template_fill(struct sysbatch_tock_frame *frames, const void *tmpl)
{
    const uint8_t *t = (const uint8_t *)tmpl;
    uint32_t count = t[0], npatches = t[2], encoding = t[3];
    uint32_t nwords = 5 * count;
    uint32_t *dst = (uint32_t *)frames;
    const uint8_t *index = t + 4;
    uint32_t i;

    if (count == 0 || count > SYSBATCH_TOCK_MAX_FRAMES)
        return 0;
    if (encoding == SYSBATCH_TOCK_TEMPLATE_WORDS) {
        /* A frame per iteration: five loads and stores, one loop branch. */
        const uint32_t *words = (const uint32_t *)(t + ((4 + npatches + 3) & ~3u));
        for (i = 0; i < nwords; i += 5) {
            uint32_t w0 = words[i], w1 = words[i + 1], w2 = words[i + 2];
            uint32_t w3 = words[i + 3], w4 = words[i + 4];
            dst[i] = w0;
            dst[i + 1] = w1;
            dst[i + 2] = w2;
            dst[i + 3] = w3;
            dst[i + 4] = w4;
        }
    } else if (encoding == SYSBATCH_TOCK_TEMPLATE_BYTES) {
        decode_bytes(dst, index + npatches, nwords);
    } else if (encoding == SYSBATCH_TOCK_TEMPLATE_COMPACT) {
        decode_compact(dst, index + npatches, count);
    } else {
        return 0;
    }
    return apply_patches(dst, index, npatches, nwords) ? count : 0;
}

uint32_t sysbatch_tock_series_template(struct sysbatch_tock_frame *frames, const void *tmpl)
{
    uint32_t count = sysbatch_tock_template_fill(frames, tmpl);
    /* Malformed: nothing ran, so every call site of the series still has to
     * run its own call - the same answer as a refused series. */
    if (count == 0)
        return ((const uint8_t *)tmpl)[0];
    return sysbatch_tock_series(frames, count, ((const uint8_t *)tmpl)[1]);
}

void sysbatch_tock_take(void *out, struct sysbatch_tock_frame *frames, uint32_t k,
                        uint32_t ran)
{
    struct sysbatch_tock_frame *f = &frames[k];
    if (k >= ran)
        trap_one(f); /* its input words are untouched: the call the code made here */
    if (!out)
        return;
    switch (f->syscall_class) {
    case 1:
        sysbatch_tock_ret_subscribe(out, f);
        break;
    case 2:
        sysbatch_tock_ret_command(out, f);
        break;
    case 3:
    case 4:
    case 7:
        sysbatch_tock_ret_allow(out, f);
        break;
    case 5:
        sysbatch_tock_ret_memop(out, f);
        break;
    case 0: /* Yield-WaitFor: the upcall's three values; yield-wait: none */
        ((uint32_t *)out)[0] = f->r0;
        ((uint32_t *)out)[1] = f->r1;
        ((uint32_t *)out)[2] = f->r2;
        break;
    default:
        break;
    }
}

static void pair_words(uint32_t *w, uint32_t variant, uint32_t r1, uint32_t r2, uint32_t r3);
static void memop_words(uint32_t *w, uint32_t variant, uint32_t r1);

/* The libtock-c struct of each of frames[0..count-1], which ran, written
 * over the frame's return words (what sysbatch_tock_take writes at `out`).
 * Command frames already hold theirs: the loop only reads their class. */
static void convert_in_place(struct sysbatch_tock_frame *frames, uint32_t count)
{
    uint32_t i;
    for (i = 0; i < count; i++) {
        struct sysbatch_tock_frame *f = &frames[i];
        switch (f->syscall_class) {
        case 1:
        case 3:
        case 4:
        case 7:
            pair_words(&f->r0, f->r0, f->r1, f->r2, f->r3);
            break;
        case 5:
            memop_words(&f->r0, f->r0, f->r1);
            break;
        default:
            break; /* command: its struct is the return registers; yield: none,
                    * Yield-WaitFor: its struct is r0..r2 */
        }
    }
}

/* Runs frames[0..n-1] (n <= 32; bit i of `checked` set when frame i is a
 * checked call) and returns how many ran: all of them, or up to and
 * including the checked call that failed (where the code leaves). */
static uint32_t run_group(struct sysbatch_tock_frame *frames, uint32_t n, uint32_t checked)
{
    uint32_t policy = checked ? SYSBATCH_TOCK_POLICY_STOP : SYSBATCH_TOCK_POLICY_CONTINUE;
    uint32_t next = 0;
    while (next < n) {
        struct sysbatch_tock_reply reply = series_reply(frames + next, n - next, policy);
        if (reply.variant == SYSBATCH_TOCK_SUCCESS)
            return n;
        if (reply.variant == SYSBATCH_TOCK_FAILURE_U32 && reply.value < n - next) {
            next = n - reply.value; /* one past the call the kernel stopped at */
            if (checked >> (next - 1) & 1)
                return next; /* the code leaves the run at this call */
        } else {
            /* Refused, nothing ran: the calls one by one, each with its own
             * trap, stopping where the code would leave. */
            for (; next < n; next++) {
                trap_one(&frames[next]);
                if ((checked >> next & 1) && frames[next].r0 < SYSBATCH_TOCK_SUCCESS)
                    return next + 1;
            }
        }
    }
    return n;
}

/* Frames are marked in groups of 32 (one mask word); splitting a series
 * into consecutive series changes nothing the app or the kernel sees.
 * Strips the marks and returns how many frames ran, as run_group. */
#define MARK_GROUP 32u

static uint32_t run_marked(struct sysbatch_tock_frame *frames, uint32_t count)
{
    uint32_t done = 0;
    while (done < count) {
        struct sysbatch_tock_frame *g = frames + done, *f;
        uint32_t n = count - done < MARK_GROUP ? count - done : MARK_GROUP;
        uint32_t checked = 0, bit = 1, ran;
        for (f = g; f < g + n; f++, bit <<= 1) {
            uint32_t cls = f->syscall_class;
            if (cls & SYSBATCH_TOCK_CHECKED) {
                checked |= bit;
                f->syscall_class = cls & ~SYSBATCH_TOCK_CHECKED;
            }
        }
        ran = run_group(g, n, checked);
        done += ran;
        if (ran < n)
            break;
    }
    return done;
}

void sysbatch_tock_run(struct sysbatch_tock_frame *frames, uint32_t count)
{
    convert_in_place(frames, run_marked(frames, count));
}

/* Command and yield frames need no conversion (a command's struct is its
 * return registers, a yield has none): a series of only those, up to 32
 * frames, runs through this entry, and an app whose series are all such
 * does not link the converter (the runtime is built with
 * -ffunction-sections).  The marks come as a mask, not in the class
 * words. */
void sysbatch_tock_run_commands(struct sysbatch_tock_frame *frames, uint32_t count,
                                uint32_t checked)
{
    if (count > MARK_GROUP)
        __builtin_trap(); /* only a compiler calls this, and never so */
    (void)run_group(frames, count, checked);
}

/* sysbatch_tock_run with the marks as a mask: no scan, so an app whose
 * series are all at most 32 frames does not link it. */
void sysbatch_tock_run_masked(struct sysbatch_tock_frame *frames, uint32_t count,
                              uint32_t checked)
{
    if (count > MARK_GROUP)
        __builtin_trap();
    convert_in_place(frames, run_group(frames, count, checked));
}

/* Compilers emit the COMPACT encoding only, so the other decoders are not
 * linked in for them.  Only a compiler writes these templates; a malformed
 * one leaves nothing a call site could read, so fault rather than go on. */
static uint32_t expand_compact(struct sysbatch_tock_frame *frames, const void *tmpl)
{
    const uint8_t *t = (const uint8_t *)tmpl;
    uint32_t count = t[0], npatches = t[2];
    uint32_t *dst = (uint32_t *)frames;
    if (count == 0 || count > SYSBATCH_TOCK_MAX_FRAMES || t[3] != SYSBATCH_TOCK_TEMPLATE_COMPACT)
        __builtin_trap();
    decode_compact(dst, t + 4 + npatches, count);
    if (!apply_patches(dst, t + 4, npatches, 5 * count))
        __builtin_trap();
    return count;
}

void sysbatch_tock_run_template(struct sysbatch_tock_frame *frames, const void *tmpl)
{
    convert_in_place(frames, run_marked(frames, expand_compact(frames, tmpl)));
}

void sysbatch_tock_run_template_commands(struct sysbatch_tock_frame *frames, const void *tmpl)
{
    (void)run_marked(frames, expand_compact(frames, tmpl));
}

/* libtock-c's return structs, as words: {type, data0, data1, data2} for
 * command, {success, ptr-or-callback, size-or-userdata, status} for the
 * allows and subscribe, {status, data} for memop. */
void sysbatch_tock_ret_command(void *out, const struct sysbatch_tock_frame *frame)
{
    uint32_t *w = (uint32_t *)out;
    w[0] = frame->r0;
    w[1] = frame->r1;
    w[2] = frame->r2;
    w[3] = frame->r3;
}

/* Subscribe and the allows share one shape: Success+2u32 carries the two
 * previous values, Failure+2u32 the error and the two values passed in.
 * The words are read before any is written: `w` may be the frame's own
 * return words. */
static void pair_words(uint32_t *w, uint32_t variant, uint32_t r1, uint32_t r2, uint32_t r3)
{
    if (variant == SYSBATCH_TOCK_SUCCESS_2U32) {
        w[0] = 1;
        w[1] = r1;
        w[2] = r2;
        w[3] = 0;
    } else if (variant == SYSBATCH_TOCK_FAILURE_2U32) {
        w[0] = 0;
        w[1] = r2;
        w[2] = r3;
        w[3] = r1;
    } else {
        w[0] = 0;
        w[1] = 0;
        w[2] = 0;
        w[3] = 1; /* FAIL */
    }
}

static void ret_pair(uint32_t *w, const struct sysbatch_tock_frame *frame)
{
    pair_words(w, frame->r0, frame->r1, frame->r2, frame->r3);
}

void sysbatch_tock_ret_subscribe(void *out, const struct sysbatch_tock_frame *frame)
{
    ret_pair((uint32_t *)out, frame);
}

void sysbatch_tock_ret_allow(void *out, const struct sysbatch_tock_frame *frame)
{
    ret_pair((uint32_t *)out, frame);
}

static void memop_words(uint32_t *w, uint32_t variant, uint32_t r1)
{
    if (variant == SYSBATCH_TOCK_SUCCESS) {
        w[0] = 0;
        w[1] = 0;
    } else if (variant == SYSBATCH_TOCK_SUCCESS_U32) {
        w[0] = 0;
        w[1] = r1;
    } else if (variant == SYSBATCH_TOCK_FAILURE) {
        w[0] = r1;
        w[1] = 0;
    } else {
        w[0] = 1; /* FAIL */
        w[1] = 0;
    }
}

void sysbatch_tock_ret_memop(void *out, const struct sysbatch_tock_frame *frame)
{
    memop_words((uint32_t *)out, frame->r0, frame->r1);
}
