/* tock.c: the Tock rules both front ends share (sysbatch/tock.h) - the
 * classification of stop tests on a libtock-c result, and the frame and
 * template encoding of a planned series. */
#include "sysbatch/tock.h"

#include <stdio.h>
#include <string.h>

/* TRD104 classes whose results carry a stop word. */
enum { CLASS_SUBSCRIBE = 1, CLASS_COMMAND = 2, CLASS_ALLOW_RW = 3,
       CLASS_ALLOW_RO = 4, CLASS_ALLOW_USERSPACE_READ = 7 };

static bool is_command(const struct sb_syscall *row)
{
    return row->nr == CLASS_COMMAND;
}

bool sb_tock_has_stop_word(const struct sb_syscall *row)
{
    if (!row || row->abi != SB_ABI_TOCK || (row->flags & SB_ROW_NEVER))
        return false;
    switch (row->nr) {
    case CLASS_SUBSCRIBE:
    case CLASS_COMMAND:
    case CLASS_ALLOW_RW:
    case CLASS_ALLOW_RO:
    case CLASS_ALLOW_USERSPACE_READ:
        return true;
    default:
        return false;
    }
}

const char *sb_tock_stop_test_why(void)
{
    return "the branch does not test the call's success exactly (command: "
           "r.type < 128 or >= 128; allow, subscribe: r.success)";
}

/* `v` truncated to `bits` and read back signed or unsigned. */
static int64_t convert(int64_t v, unsigned bits, bool is_signed)
{
    if (bits >= 64)
        return v;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t low = (uint64_t)v & mask;
    if (is_signed && (low >> (bits - 1)) & 1)
        return (int64_t)(low | ~mask);
    return (int64_t)low;
}

static bool holds(enum sb_cmp cmp, int64_t a, int64_t b, unsigned bits)
{
    bool is_unsigned = cmp >= SB_CMP_ULT;
    /* Both sides read at the compared width, as the comparison reads them
     * (unsigned reads are non-negative below 64 bits). */
    a = convert(a, bits, !is_unsigned);
    b = convert(b, bits, !is_unsigned);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (cmp) {
    case SB_CMP_EQ: return a == b;
    case SB_CMP_NE: return a != b;
    case SB_CMP_SLT: return a < b;
    case SB_CMP_SLE: return a <= b;
    case SB_CMP_SGT: return a > b;
    case SB_CMP_SGE: return a >= b;
    case SB_CMP_ULT: return ua < ub;
    case SB_CMP_ULE: return ua <= ub;
    case SB_CMP_UGT: return ua > ub;
    case SB_CMP_UGE: return ua >= ub;
    }
    return false;
}

/* `t` applied to `rc` (a field of the result frame, or a converter's result):
 * does it hold?  *bad when a step is outside the model. */
static bool test_holds(const struct sb_tock_test *t, int64_t rc, bool *bad)
{
    unsigned bits = t->field_bits;
    int64_t w = convert(rc, bits, t->field_signed);
    for (int s = 0; s < t->nsteps; s++) {
        const struct sb_tock_step *step = &t->steps[s];
        switch (step->kind) {
        case SB_TOCK_STEP_CONVERT:
            if (step->bits < 1 || step->bits > 64) {
                *bad = true;
                return false;
            }
            bits = step->bits;
            w = convert(w, bits, step->is_signed);
            break;
        case SB_TOCK_STEP_NOT_BITS:
            w = ~w;
            break;
        case SB_TOCK_STEP_NOT_BOOL:
            w = !w;
            break;
        default:
            *bad = true;
            return false;
        }
    }
    return holds((enum sb_cmp)t->cmp, w, t->constant, bits);
}

enum sb_tock_stop_class sb_tock_stop_test(const struct sb_syscall *row,
                                          const struct sb_tock_test *t)
{
    if (!row || row->abi != SB_ABI_TOCK || (row->flags & SB_ROW_NEVER))
        return SB_TOCK_TEST_NONE;
    if (!sb_tock_has_stop_word(row) || !t || t->nsteps < 0 || t->nsteps > SB_TOCK_MAX_STEPS ||
        t->cmp > SB_CMP_UGE)
        return SB_TOCK_TEST_NOT_EXACT;
    /* command's type is a u32 whose variants fit in its low byte, so a read
     * of 8..32 bits sees the variant; the flag is a one-byte bool, and a
     * wider read would see the struct's padding. */
    bool command = is_command(row);
    if (command ? (t->field_bits < 8 || t->field_bits > 32)
                : t->field_bits != 8)
        return SB_TOCK_TEST_NOT_EXACT;

    /* The kernel stops on a variant below 128 (TRD104's Failure* are 0..3
     * today; a future one would also be below 128), so a test is exact
     * only when it agrees with `< 128` on every byte: `r.type < 4` is
     * not.  The flag is false or true. */
    int64_t ndomain = command ? 256 : 2;
    bool true_is_failure = true, true_is_success = true;
    for (int64_t v = 0; v < ndomain; v++) {
        bool bad = false;
        bool h = test_holds(t, v, &bad);
        if (bad)
            return SB_TOCK_TEST_NOT_EXACT;
        bool failure = command ? v < 128 : v == 0;
        true_is_failure &= h == failure;
        true_is_success &= h != failure;
    }
    if (true_is_failure)
        return SB_TOCK_TEST_TRUE_IS_FAILURE;
    if (true_is_success)
        return SB_TOCK_TEST_TRUE_IS_SUCCESS;
    return SB_TOCK_TEST_NOT_EXACT;
}

/* -------------------------------------------------------------- wrappers */

/* libtock-c's wrappers are the raw call, its converter and the return:
 * after SSA a handful of statements (argument conversions, the struct
 * copy).  The bound keeps a function that does more out of it. */
#define WRAPPER_MAX_STATEMENTS 8

bool sb_tock_inline_wrapper(const struct sb_tock_body *b)
{
    return b && b->raw_calls == 1 && b->never_calls == 0 &&
           b->converter_calls <= 1 && b->other_calls == 0 && !b->loops &&
           b->statements <= WRAPPER_MAX_STATEMENTS;
}

/* ------------------------------------------------------------ converters */

/* libtock-c's libtock/tock.h, 2025-2026 head. */
static const struct sb_tock_converter converters[] = {
    {"tock_status_to_returncode", 0, 0, 0},
    {"tock_command_return_novalue_to_returncode", CLASS_COMMAND, 128, 0},
    {"tock_command_return_u32_to_returncode", CLASS_COMMAND, 129, 1},
    {"tock_command_return_u32_u32_to_returncode", CLASS_COMMAND, 130, 2},
    {"tock_command_return_u64_to_returncode", CLASS_COMMAND, 131, 1},
    {"tock_subscribe_return_to_returncode", CLASS_SUBSCRIBE, 0, 0},
    {"tock_allow_rw_return_to_returncode", CLASS_ALLOW_RW, 0, 0},
    {"tock_allow_ro_return_to_returncode", CLASS_ALLOW_RO, 0, 0},
    {"tock_allow_userspace_r_return_to_returncode", CLASS_ALLOW_USERSPACE_READ, 0, 0},
};

const struct sb_tock_converter *sb_tock_converter_lookup(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof converters / sizeof converters[0]; i++)
        if (!strcmp(converters[i].name, name))
            return &converters[i];
    return NULL;
}

enum { MAX_ERROR_CODE = 1023 }; /* error codes checked: TRD104 has 1..13 */


enum sb_tock_stop_class sb_tock_converter_test(const struct sb_tock_converter *conv,
                                               const struct sb_syscall *row,
                                               const struct sb_tock_test *t,
                                               const char **why, char *buf,
                                               size_t cap)
{
    *why = NULL;
    if (!conv || sb_tock_stop_test(row, NULL) == SB_TOCK_TEST_NONE)
        return SB_TOCK_TEST_NONE;
    if (conv->input_class == 0 || conv->input_class != (uint8_t)row->nr) {
        *why = "the converter is not the one for this call's result";
        return SB_TOCK_TEST_NOT_EXACT;
    }
    if (conv->input_class == CLASS_COMMAND) {
        /* EBADRVAL for Failure-u32 (the kernel stops) and for Success-u32
         * and the other Success variants (it goes on): no test on the int
         * separates the two. */
        if (buf && cap)
            snprintf(buf, cap,
                     "%s returns RETURNCODE_EBADRVAL both for a Failure with "
                     "values (the series stops) and for a Success variant "
                     "other than %u (it goes on), so no test of its result is "
                     "the series' stop condition",
                     conv->name, (unsigned)conv->success_variant);
        *why = buf && cap ? buf : "a command converter's result is never "
                                  "the series' stop condition";
        return SB_TOCK_TEST_NOT_EXACT;
    }
    if (!t || t->nsteps < 0 || t->nsteps > SB_TOCK_MAX_STEPS ||
        t->cmp > SB_CMP_UGE || t->field_bits < 1 || t->field_bits > 64) {
        *why = sb_tock_stop_test_why();
        return SB_TOCK_TEST_NOT_EXACT;
    }
    /* Allow and subscribe converters: 0 on success, -status on failure,
     * with status a nonzero error code. */
    bool true_is_failure = true, true_is_success = true, bad = false;
    for (int64_t status = 0; status <= MAX_ERROR_CODE; status++) {
        bool failure = status != 0;
        bool h = test_holds(t, -status, &bad);
        true_is_failure &= h == failure;
        true_is_success &= h != failure;
    }
    if (!bad && true_is_failure)
        return SB_TOCK_TEST_TRUE_IS_FAILURE;
    if (!bad && true_is_success)
        return SB_TOCK_TEST_TRUE_IS_SUCCESS;
    *why = "the branch does not test the converter's result exactly "
           "(RETURNCODE_SUCCESS iff the call succeeded: rc == 0, rc != 0, "
           "rc < 0, rc >= 0)";
    return SB_TOCK_TEST_NOT_EXACT;
}

int sb_tock_frame_words(const struct sb_batch_plan *b, int slot,
                        struct sb_tock_word out[SB_TOCK_WORDS_PER_FRAME],
                        const char **why)
{
    *why = NULL;
    if (!b || slot < 0 || slot >= b->nslots) {
        *why = "no such frame";
        return -1;
    }
    const struct sb_slot_plan *sp = &b->slots[slot];
    if (sp->kind != SB_SLOT_CALL || sp->argc < 0 || sp->argc > 4) {
        *why = "a Tock slot that is not a call of at most 4 arguments";
        return -1;
    }
    /* Words a call does not pass (memop's r2, r3; yield's r1..r3) are 0,
     * as libtock-c's own traps leave them or pass them. */
    for (int w = 0; w < SB_TOCK_WORDS_PER_FRAME; w++) {
        out[w].constant = true;
        out[w].value = 0;
        out[w].libc_arg = -1;
    }
    out[0].value = (uint32_t)sp->nr;
    for (int k = 0; k < sp->argc; k++) {
        const struct sb_fill_arg *f = &sp->args[k];
        struct sb_tock_word *w = &out[1 + k];
        if (f->fill == SB_FILL_CONST) {
            w->value = (uint32_t)f->value;
        } else if (f->fill == SB_FILL_LIBC_ARG) {
            w->constant = false;
            w->libc_arg = f->index;
        } else {
            *why = "a Tock frame word the series cannot fill (chained or "
                   "empty string)";
            return -1;
        }
    }
    return 0;
}

bool sb_tock_frame_checked(const struct sb_batch_plan *b, int slot,
                           const int *block_of_slot)
{
    if (!b || slot < 0 || slot + 1 >= b->nslots)
        return false; /* the last frame: nothing after it to keep from running */
    return block_of_slot[slot] != block_of_slot[slot + 1];
}

bool sb_tock_series_commands_only(const struct sb_batch_plan *b)
{
    if (!b || b->nslots <= 0)
        return false;
    for (int s = 0; s < b->nslots; s++) {
        const struct sb_slot_plan *sp = &b->slots[s];
        if (sp->kind != SB_SLOT_CALL || (sp->nr != 0 && sp->nr != 2))
            return false; /* 0 yield, 2 command (TRD104 classes) */
    }
    return true;
}

size_t sb_tock_template(const struct sb_tock_word *words, int nframes,
                        enum sb_tock_template_encoding encoding, uint8_t *out,
                        size_t cap, int *npatches)
{
    *npatches = 0;
    if (nframes <= 0 || nframes > SB_TOCK_TEMPLATE_MAX_FRAMES)
        return 0;
    int nwords = SB_TOCK_WORDS_PER_FRAME * nframes;
    size_t n = 0;
#define PUT(byte)                                                              \
    do {                                                                       \
        if (out && n < cap)                                                    \
            out[n] = (uint8_t)(byte);                                          \
        n++;                                                                   \
    } while (0)
/* A word as BYTES and COMPACT store it: one byte below 0xff, else the
 * escape byte (SYSBATCH_TOCK_TEMPLATE_ESCAPE) and the word little-endian. */
#define PUT_BYTE_WORD(word)                                                    \
    do {                                                                       \
        uint32_t v_ = (word);                                                  \
        if (v_ < 0xff) {                                                       \
            PUT(v_);                                                           \
        } else {                                                               \
            PUT(0xff);                                                         \
            for (int b_ = 0; b_ < 4; b_++)                                     \
                PUT(v_ >> (8 * b_));                                           \
        }                                                                      \
    } while (0)
    int patches = 0;
    for (int w = 0; w < nwords; w++)
        patches += !words[w].constant;
    PUT(nframes);
    PUT(SB_TOCK_POLICY_STOP);
    PUT(patches);
    PUT(encoding);
    for (int w = 0; w < nwords; w++)
        if (!words[w].constant)
            PUT(w);
    if (encoding == SB_TOCK_TEMPLATE_WORDS) {
        while (n % 4)
            PUT(0);
        for (int w = 0; w < nwords; w++) {
            uint32_t v = words[w].constant ? words[w].value : 0;
            for (int b = 0; b < 4; b++)
                PUT(v >> (8 * b));
        }
    } else if (encoding == SB_TOCK_TEMPLATE_BYTES) {
        for (int w = 0; w < nwords; w++)
            PUT_BYTE_WORD(words[w].constant ? words[w].value : 0);
    } else {
        /* COMPACT: per frame one byte, class | checked mark | (number of
         * argument words stored) << 4, then those words as in BYTES; the
         * words after them are 0 (a patched word reads as 0 here). */
        for (int f = 0; f < nframes; f++) {
            const struct sb_tock_word *fw = &words[SB_TOCK_WORDS_PER_FRAME * f];
            int stored = SB_TOCK_WORDS_PER_FRAME - 1;
            while (stored > 0 && !(fw[stored].constant && fw[stored].value != 0))
                stored--;
            PUT((fw[0].constant ? fw[0].value : 0) | (uint32_t)stored << 4);
            for (int w = 1; w <= stored; w++)
                PUT_BYTE_WORD(fw[w].constant ? fw[w].value : 0);
        }
    }
#undef PUT_BYTE_WORD
#undef PUT
    *npatches = patches;
    return n;
}
