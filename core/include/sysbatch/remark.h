/* sysbatch/remark.h: what the remarks say, written once.  Both compilers
 * report a plan the same way (clang's -Rpass=sysbatch, GCC's
 * -fopt-info-optimized):
 *
 *     batched 4 calls (openat, fstat, close, getdents64) into 7 slots with
 *         3 chains over 4 blocks (branchy)
 *     fstatat not batched: below-min-batch (too few calls in a row ...)
 *
 * The core summarises a batch (which callees, over how many blocks, whether
 * that is worth saying) and composes the texts; the front ends only attach
 * them to their call sites (LLVM keeps the summary's fields as the remark's
 * named arguments).
 */
#ifndef SYSBATCH_REMARK_H
#define SYSBATCH_REMARK_H

#include "sysbatch/core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_batch_summary {
    int ncalls, nslots, nchains;
    char callees[512];  /* "openat, fstat, close" ("..." when cut) */
    int nblocks;        /* blocks the batched calls sit in; 0: not said */
    bool branchy;       /* the batch jumps (said after the block count) */
};

/* Batch `batch` of `plan` over `region`.  block_of_call[c] is the region
 * block of call c, or NULL for a one-block region.  The block count is said
 * for a branchy region, and for a straight-line run over several blocks (a
 * Tock chain) when its batch spans more than one. */
void sb_summarize_batch(const struct sb_region *region,
                        const struct sb_plan *plan, int batch,
                        const int *block_of_call,
                        struct sb_batch_summary *out);

/* "batched N calls (...) into S slots with C chains[ over B blocks[
 * (branchy)]]" */
void sb_remark_batched(char *buf, size_t size,
                       const struct sb_batch_summary *sum);
/* " over B blocks (branchy)" or "" - the tail of the text above. */
void sb_remark_blocks(char *buf, size_t size,
                      const struct sb_batch_summary *sum);
/* The reason text of a refusal: "<sb_why_text>[: <detail>]". */
void sb_remark_refusal(char *buf, size_t size, enum sb_why why,
                       const char *detail);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_REMARK_H */
