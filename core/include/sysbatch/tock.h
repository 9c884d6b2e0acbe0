/* sysbatch/tock.h: the Tock rules both front ends share - which tests on a
 * libtock-c result are exactly the series' stop condition (checked chains),
 * and how a planned Tock batch becomes frames and a constant template
 * (runtime/include/sysbatch_tock.h has the layouts).
 *
 * Stop tests.  A front end walks back from a conditional branch to the
 * load of word 0 of a Tock call's result (command's `type`, the allows'
 * and subscribe's `success`), describes the field and every conversion and
 * negation between it and the compared value as an sb_tock_test, and asks
 * sb_tock_stop_test() which edge is the failure edge.  The core decides by
 * evaluating the test on every value the kernel can put there (command:
 * every variant byte, a Failure* below 128 as the kernel tests it; the
 * flag: false/true), so no front end keeps a list of accepted forms:
 *
 *     if (r.type < 128)          field 32 bits, ULT 128   -> true is failure
 *     if ((signed char)r.type >= 0)  field 8, CONVERT(8, signed), SGE 0
 *                                                         -> true is failure
 *     if (r.type != 128)         NE 128: a Success-u32 leaves too -> not exact
 *
 * Encoding.  sb_tock_frame_words() gives the five words of a planned frame
 * (class, r0..r3), each a constant or the libc argument the call site
 * passes; sb_tock_template() lays out a template whose variable words are
 * patches, in any of its encodings (the compilers use COMPACT).  GCC
 * builds its byte array from it, the LLVM pass its global; the runtime
 * expands both the same way.
 */
#ifndef SYSBATCH_TOCK_H_CORE
#define SYSBATCH_TOCK_H_CORE

#include "sysbatch/core.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ stop tests */

enum sb_tock_step_kind {
    SB_TOCK_STEP_CONVERT = 0, /* truncate to `bits`, then read the bits as
                                 signed or unsigned (`is_signed`): C casts,
                                 GIMPLE conversions, LLVM trunc (unsigned)
                                 and zext (unsigned); sext is CONVERT to the
                                 source width signed, then to the wider one */
    SB_TOCK_STEP_NOT_BITS,    /* ~v at the current width */
    SB_TOCK_STEP_NOT_BOOL,    /* !v (logical not of a truth value) */
};

struct sb_tock_step {
    uint8_t kind;   /* enum sb_tock_step_kind */
    uint8_t bits;   /* CONVERT: the width converted to (1..64) */
    bool is_signed; /* CONVERT: how the converted bits read */
};

#define SB_TOCK_MAX_STEPS 8

/* `(steps applied to the field) cmp constant`.  The field is the low
 * `field_bits` of word 0 of the call's result, read as `field_signed`. */
struct sb_tock_test {
    uint8_t field_bits;
    bool field_signed;
    int nsteps;
    struct sb_tock_step steps[SB_TOCK_MAX_STEPS]; /* in the order applied */
    uint8_t cmp;      /* enum sb_cmp (core.h): its signedness is how the
                         comparison reads both sides */
    int64_t constant; /* read at the compared width by the core */
};

enum sb_tock_stop_class {
    SB_TOCK_TEST_NONE = 0,       /* not a batched Tock row (NULL, another
                                    ABI, never batched): nothing to say */
    SB_TOCK_TEST_NOT_EXACT,      /* a test on the result that is not the
                                    kernel's stop condition, or on a result
                                    without a stop word (memop, yield):
                                    the run ends there */
    SB_TOCK_TEST_TRUE_IS_FAILURE,
    SB_TOCK_TEST_TRUE_IS_SUCCESS,
};

/* Does the row's result carry a word a stop test can read (command's type,
 * the allows' and subscribe's success flag)? */
bool sb_tock_has_stop_word(const struct sb_syscall *row);

/* The class of test `t` on the result of a call of `row`; NULL `t` (the
 * front end found a test on the result it cannot describe) is NOT_EXACT
 * for a row with a stop word. */
enum sb_tock_stop_class sb_tock_stop_test(const struct sb_syscall *row,
                                          const struct sb_tock_test *t);

/* Why a NOT_EXACT test ends the run (the remark's text, both compilers). */
const char *sb_tock_stop_test_why(void);

/* ------------------------------------------------------------ converters */

/* libtock-c's converters (libtock/tock.h: tock_*_return_to_returncode,
 * tock_status_to_returncode) are known functions of their argument: they
 * read the struct (or status word) they are given, write only their
 * `nout` pointer arguments, make no system call, and return an int, 0
 * (RETURNCODE_SUCCESS) or negative.  A converter between two series calls
 * is code, not a barrier (the front ends still apply the Tock memory rule
 * to its pointer arguments), and a test of a converter's result on a
 * series call is a stop test whose class the core decides
 * (sb_tock_converter_test). */
struct sb_tock_converter {
    const char *name;
    uint8_t input_class;     /* TRD104 class of the call whose result struct
                                is argument 0; 0 for tock_status_to_returncode,
                                whose argument is a status word */
    uint8_t success_variant; /* command converters: the one variant that
                                gives RETURNCODE_SUCCESS; 0 otherwise */
    uint8_t nout;            /* pointer arguments after the struct it writes */
};

/* The converter called `name`, or NULL. */
const struct sb_tock_converter *sb_tock_converter_lookup(const char *name);

/* The class of test `t` on the converter's int result, the converter being
 * applied to the result of a call of `row` (field_bits/field_signed
 * describe how the int is read, as for a field).  Evaluated on every
 * result the converter can give: a Failure's error code is TRD104's
 * nonzero ErrorCode (1..1023 checked); command converters give EBADRVAL
 * both for a Failure with values, where the kernel stops, and for a Success
 * variant other than theirs, where it goes on, so no test on them is
 * exact.  NOT_EXACT sets *why to the remark's reason (naming `conv`),
 * written to buf (cap bytes) when it needs the converter's name. */
enum sb_tock_stop_class sb_tock_converter_test(const struct sb_tock_converter *conv,
                                               const struct sb_syscall *row,
                                               const struct sb_tock_test *t,
                                               const char **why, char *buf,
                                               size_t cap);

/* -------------------------------------------------------------- wrappers */

/* libtock-c puts every raw call in a small out-of-line wrapper
 * (libtock/<kind>/syscalls/: the call, then its converter), so a series
 * forms only where the wrappers are inlined.  A front end describes a
 * function body by these facts, before inlining, and asks
 * sb_tock_inline_wrapper whether to inline the function wherever the
 * compiler can (GCC: its size heuristics refuse a wrapper called from a
 * cold `main`, which clang's inliner takes). */
struct sb_tock_body {
    int raw_calls;       /* calls of batchable Tock rows */
    int never_calls;     /* calls of Tock rows that are never batched */
    int converter_calls; /* libtock-c converters (sb_tock_converter_lookup) */
    int other_calls;     /* every other call */
    int statements;      /* every other statement that makes code */
    bool loops;
};

/* Small enough and nothing but one raw call and its converter: inlining
 * it costs about as much as calling it, and it may join a series. */
bool sb_tock_inline_wrapper(const struct sb_tock_body *b);

/* -------------------------------------------------------------- encoding */

#define SB_TOCK_WORDS_PER_FRAME 5
/* Patch indexes are bytes: 5 * 51 = 255 words (SYSBATCH_TOCK_MAX_FRAMES). */
#define SB_TOCK_TEMPLATE_MAX_FRAMES 51
#define SB_TOCK_POLICY_STOP 0 /* SYSBATCH_TOCK_POLICY_STOP */
/* A checked frame's class word carries this bit (SYSBATCH_TOCK_CHECKED):
 * the code tests that call's success exactly and leaves the run when it
 * failed, so sysbatch_tock_run stops there and nowhere else. */
#define SB_TOCK_CHECKED 0x80u

struct sb_tock_word {
    bool constant;
    uint32_t value; /* constant words */
    int libc_arg;   /* variable words: the call's libc argument, else -1 */
};

/* The five words of Tock frame `slot` of batch `b`.  Returns 0, or -1 when
 * the slot is not a call a frame can hold (a word copy, more than four
 * raw arguments, a chained word): *why says which. */
int sb_tock_frame_words(const struct sb_batch_plan *b, int slot,
                        struct sb_tock_word out[SB_TOCK_WORDS_PER_FRAME],
                        const char **why);

/* Is frame `slot` of batch `b` checked?  `block_of_slot[s]` is any number
 * naming the block frame s's call sits in.  In a checked chain only the
 * last call of a block is tested (exactly) by the block's branch, and the
 * chain's next block is entered only from that branch's success edge; so
 * a frame is checked when the next frame's call is in another block.  A
 * straight-line run has one block and no checked frame. */
bool sb_tock_frame_checked(const struct sb_batch_plan *b, int slot,
                           const int *block_of_slot);

/* Does every frame of batch `b` hold a command or a yield?  The runtime
 * converts only the other classes' return words in place, so such a
 * series runs through sysbatch_tock_run[_template]_commands, which skip
 * the conversion, and an app with no other series does not link it.
 * A series whose frames are stored (not from a template) passes its marks
 * as a mask argument (bit s: frame s is checked) instead of in the class
 * words - sysbatch_tock_run_commands or sysbatch_tock_run_masked - so it
 * takes at most SB_TOCK_MASK_FRAMES frames; a longer one stores the marks
 * and calls sysbatch_tock_run. */
bool sb_tock_series_commands_only(const struct sb_batch_plan *b);
#define SB_TOCK_MASK_FRAMES 32

enum sb_tock_template_encoding {
    SB_TOCK_TEMPLATE_WORDS = 0, /* SYSBATCH_TOCK_TEMPLATE_WORDS */
    SB_TOCK_TEMPLATE_BYTES = 1, /* SYSBATCH_TOCK_TEMPLATE_BYTES */
    SB_TOCK_TEMPLATE_COMPACT = 2, /* SYSBATCH_TOCK_TEMPLATE_COMPACT: what the
                                     compilers emit */
};

/* Lay out the template of `nframes` frames whose words are `words`
 * (5 * nframes): header, the index of every variable word (its patch, in
 * word order), then the constant words in `encoding`.  Writes at most
 * `cap` bytes to `out` (NULL: only count) and returns the template's size,
 * or 0 when nframes is 0 or above SB_TOCK_TEMPLATE_MAX_FRAMES.  The
 * number of patches goes to *npatches. */
size_t sb_tock_template(const struct sb_tock_word *words, int nframes,
                        enum sb_tock_template_encoding encoding, uint8_t *out,
                        size_t cap, int *npatches);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_TOCK_H_CORE */
