/* sysbatch Tock backend: run several TRD104 system calls in one trap through
 * the series call (class 0xfe, tock/tock PR #3077) on Cortex-M and RV32.
 *
 * The series call is chosen at build time, never probed: a stock Tock kernel
 * faults a process that issues class 0xfe, so only link this into apps that
 * run on a kernel carrying the series call.
 *
 * Before (four traps, four checks):
 *
 *     if (allow_readonly(DRV_CONSOLE, 1, buf, len).success == false) goto err;
 *     if (subscribe(DRV_CONSOLE, 1, done_cb, NULL).success == false) goto err;
 *     if (command(DRV_CONSOLE, 1, len, 0).type != TOCK_SYSCALL_SUCCESS) goto err;
 *     yield();
 *
 * After (one trap; the constant words come from a template in flash, the
 * call site stores only the four words that vary, right after the frames):
 *
 *     static const uint8_t tmpl[] = {
 *         4, SYSBATCH_TOCK_POLICY_STOP, 4, SYSBATCH_TOCK_TEMPLATE_BYTES,
 *         3, 4, 8, 13,                      -- word indexes of the 4 patches
 *         4, 1, 1, 0, 0,   1, 1, 1, 0, 0,   -- class, r0..r3 per frame
 *         2, 1, 1, 0, 0,   0, 1, 0, 0, 0 }; -- (patched words: 0 here)
 *     uint32_t space[SYSBATCH_TOCK_SPACE_WORDS(4, 4)];
 *     struct sysbatch_tock_frame *f = (struct sysbatch_tock_frame *)space;
 *     uint32_t *patch = space + 5 * 4;
 *     patch[0] = (uint32_t)buf; patch[1] = len;
 *     patch[2] = (uint32_t)done_cb; patch[3] = len;
 *     if (sysbatch_tock_series_template(f, tmpl) != 0) goto err;
 *
 * Frames: 5 x u32 {class, r0, r1, r2, r3} each; the kernel overwrites words
 * 1..4 of every call it executed with that call's return registers, so a
 * call site reads its libtock-c result from its own frame afterwards (the
 * sysbatch_tock_ret_* converters below) - but only if the call ran:
 *
 *     uint32_t left = sysbatch_tock_series(f, n, SYSBATCH_TOCK_POLICY_STOP);
 *     call k (0-based) ran  <=>  k < n - left
 *
 * Under the stop policy the kernel stops after the first call whose return
 * variant is a Failure*; the calls after it did not run and the rewritten
 * code runs them itself (or, the usual case, takes the error path the
 * original code would have taken at that call).
 *
 * Template layout (emitted by a compiler as one constant byte array, 4-byte
 * aligned):
 *     byte 0  count (1..SYSBATCH_TOCK_MAX_FRAMES)
 *     byte 1  policy
 *     byte 2  npatches: words the call site supplies
 *     byte 3  encoding: SYSBATCH_TOCK_TEMPLATE_WORDS or _BYTES
 *     npatches bytes: word index (0 .. 5*count-1) that patch i overwrites
 *     WORDS: zero padding to a multiple of 4, then 5*count u32 (fast copy)
 *     BYTES: one byte per word, 0x00..0xfe is the value itself, 0xff is
 *            followed by the value as 4 bytes little-endian (compact)
 *     COMPACT (what the compilers emit): per frame one byte, class (with
 *            its SYSBATCH_TOCK_CHECKED mark) | k << 4, then the frame's
 *            first k argument words (r0..) as in BYTES; r_k.. are 0
 * The patch values sit in RAM right after the frames (space for
 * SYSBATCH_TOCK_SPACE_WORDS(count, npatches) words); words a patch
 * overwrites are don't-care in the template.
 */
#ifndef SYSBATCH_TOCK_H
#define SYSBATCH_TOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYSBATCH_TOCK_CLASS_SERIES 0xfe

/* Error policies of the series call (r2).  Anything but CONTINUE stops. */
#define SYSBATCH_TOCK_POLICY_STOP 0
#define SYSBATCH_TOCK_POLICY_CONTINUE 1

/* Patch indexes are bytes: 5 * 51 = 255 words at most. */
#define SYSBATCH_TOCK_MAX_FRAMES 51

#define SYSBATCH_TOCK_TEMPLATE_WORDS 0
#define SYSBATCH_TOCK_TEMPLATE_BYTES 1
#define SYSBATCH_TOCK_TEMPLATE_COMPACT 2
#define SYSBATCH_TOCK_TEMPLATE_ESCAPE 0xff

/* TRD104 return variants (r0 of every return). */
#define SYSBATCH_TOCK_FAILURE 0
#define SYSBATCH_TOCK_FAILURE_U32 1
#define SYSBATCH_TOCK_FAILURE_2U32 2
#define SYSBATCH_TOCK_FAILURE_U64 3
#define SYSBATCH_TOCK_SUCCESS 128
#define SYSBATCH_TOCK_SUCCESS_U32 129
#define SYSBATCH_TOCK_SUCCESS_2U32 130
#define SYSBATCH_TOCK_SUCCESS_U64 131
#define SYSBATCH_TOCK_SUCCESS_3U32 132
#define SYSBATCH_TOCK_SUCCESS_U32_U64 133

/* RAM words a call site reserves for `count` frames and `npatches` patches. */
#define SYSBATCH_TOCK_SPACE_WORDS(count, npatches) (5u * (count) + (npatches))

struct sysbatch_tock_frame {
    uint32_t syscall_class; /* in: TRD104 class 0..7 */
    uint32_t r0, r1, r2, r3; /* in: arguments; out: return registers */
};

/* What the series call itself returned.  `variant` is SUCCESS, FAILURE_U32
 * (`value` = calls not executed, stop policy) or FAILURE (`value` = error
 * code: the kernel refused the series and ran nothing). */
struct sysbatch_tock_reply {
    uint32_t variant;
    uint32_t value;
};

/* One trap: run frames[0..count-1] with `policy`.  Works also when the last
 * frame is a yield that delivers an upcall (the reply is then rebuilt from
 * the yield's frame, since the upcall reuses the return registers). */
struct sysbatch_tock_reply sysbatch_tock_series_call(struct sysbatch_tock_frame *frames,
                                                     uint32_t count, uint32_t policy);

/* The function rewritten code calls: one trap, returns the number of calls
 * that did NOT run (0: all ran; count: the kernel refused the series). */
uint32_t sysbatch_tock_series(struct sysbatch_tock_frame *frames, uint32_t count,
                              uint32_t policy);

/* Expand a template into `frames` and apply the patch values that follow
 * the frames in RAM; returns count, or 0 for a malformed template. */
uint32_t sysbatch_tock_template_fill(struct sysbatch_tock_frame *frames, const void *tmpl);

/* Fill from the template, then sysbatch_tock_series() with its policy.
 * A malformed template runs nothing and returns its count byte (every call
 * still to run), like a refused series. */
uint32_t sysbatch_tock_series_template(struct sysbatch_tock_frame *frames, const void *tmpl);

/* Call site k (0-based) of a series that ran its first `ran` frames (count
 * minus what sysbatch_tock_series returned): write at `out` the struct
 * libtock-c's call would have returned (nothing when `out` is NULL: result
 * unused, or a yield; a Yield-WaitFor's yield_waitfor_return_t is the
 * frame's words 1-3).  A frame the series did not run still holds its
 * input words, so it is run now, alone, with its own class's trap - the
 * call the original code made at this point.  One call per site, instead
 * of a test, a converter call and a copy of the original call:
 *
 *     ran = 3 - sysbatch_tock_series(frames, 3, SYSBATCH_TOCK_POLICY_STOP);
 *     sysbatch_tock_take(&a, frames, 0, ran);
 *     sysbatch_tock_take(&b, frames, 1, ran);
 *     sysbatch_tock_take(NULL, frames, 2, ran);          -- yield
 */
void sysbatch_tock_take(void *out, struct sysbatch_tock_frame *frames, uint32_t k,
                        uint32_t ran);

/* What compiler-rewritten code calls (one call per series, nothing per
 * call site).  A frame whose class word carries SYSBATCH_TOCK_CHECKED is a
 * checked call: the code tests its success exactly (the kernel's stop
 * condition) and leaves the run when it failed, so no call after it may
 * run then; every other call is followed by the next whatever it returned.
 * sysbatch_tock_run strips the marks, runs the frames in as few traps as
 * that allows (continue policy when nothing is checked; stop, resumed
 * after an unchecked failure, otherwise; one trap per frame when the kernel
 * refuses the series) and converts every frame that ran, in place, into
 * the struct libtock-c's call returns (words 1..4: syscall_return_t,
 * subscribe_return_t, allow_*_return_t; memop_return_t in words 1..2).  A
 * call site then reads its result straight from its frame:
 *
 *     sysbatch_tock_run_template(f, tmpl);
 *     a = *(syscall_return_t *)&f[0].r0;
 *
 * Frames after a checked call that failed did not run and are left as
 * they were: the code never reaches their call sites. */
#define SYSBATCH_TOCK_CHECKED 0x80u

void sysbatch_tock_run(struct sysbatch_tock_frame *frames, uint32_t count);

/* Expand a COMPACT template (its marks included; the policy byte is not
 * read: the marks decide it), apply the patches, then sysbatch_tock_run.
 * A malformed template (or another encoding) is a fault: only a compiler
 * writes these, and nothing runs. */
void sysbatch_tock_run_template(struct sysbatch_tock_frame *frames, const void *tmpl);

/* The same two for a series whose frames are all commands and yields,
 * whose results need no conversion: they run the frames exactly as above
 * and leave the return words as the kernel wrote them (which for a
 * command is libtock-c's syscall_return_t).  An app that only makes such
 * series does not link the converter.  sysbatch_tock_run_commands takes
 * at most 32 frames, unmarked, and their marks as a mask (bit i: frame i
 * is checked); more is a fault. */
void sysbatch_tock_run_commands(struct sysbatch_tock_frame *frames, uint32_t count,
                                uint32_t checked);

/* sysbatch_tock_run with the marks as a mask (at most 32 frames, class
 * words unmarked): what compilers call for a series whose frames they
 * store, so that the mark scan is linked only where a template or a longer
 * series needs it. */
void sysbatch_tock_run_masked(struct sysbatch_tock_frame *frames, uint32_t count,
                              uint32_t checked);
void sysbatch_tock_run_template_commands(struct sysbatch_tock_frame *frames, const void *tmpl);

/* Return-struct converters: write, at `out`, the struct libtock-c's raw
 * call would have returned for the call that filled `frame`.  `out` points
 * at a syscall_return_t (command), subscribe_return_t (subscribe),
 * allow_{rw,ro,userspace_r}_return_t (the three allows) or memop_return_t
 * (memop); those structs are word-sized fields on both ISAs, so these work
 * whatever enum size the compiler picked.  A variant the call cannot return
 * gives success = false and status FAIL, as the libtock layer does. */
void sysbatch_tock_ret_command(void *out, const struct sysbatch_tock_frame *frame);
void sysbatch_tock_ret_subscribe(void *out, const struct sysbatch_tock_frame *frame);
void sysbatch_tock_ret_allow(void *out, const struct sysbatch_tock_frame *frame);
void sysbatch_tock_ret_memop(void *out, const struct sysbatch_tock_frame *frame);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_TOCK_H */
