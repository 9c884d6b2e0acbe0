/* sysbatch core: the remark texts both compilers print for a plan
 * (sysbatch/remark.h).
 *
 * For the batch {openat, fstat, close, getdents64} of a branchy region over
 * four blocks, sb_remark_batched() writes
 *     batched 4 calls (openat, fstat, close, getdents64) into 7 slots with
 *     3 chains over 4 blocks (branchy)
 */
#include "sysbatch/remark.h"

#include <stdio.h>
#include <string.h>

void sb_summarize_batch(const struct sb_region *region,
                        const struct sb_plan *plan, int batch,
                        const int *block_of_call,
                        struct sb_batch_summary *out)
{
    memset(out, 0, sizeof *out);
    const struct sb_batch_plan *bp = &plan->batches[batch];
    out->ncalls = bp->ncalls;
    out->nslots = bp->nslots;
    out->nchains = bp->nchains;
    out->branchy = bp->branchy;
    /* A branchy batch's range may hold calls of arms it does not include:
     * only the calls planned into this batch are named. */
    size_t len = 0;
    int nblocks = 0, prev = -1;
    bool cut = false;
    for (int c = bp->first_call; c <= bp->last_call; c++) {
        if (plan->calls[c].batch != batch)
            continue;
        if (block_of_call && block_of_call[c] != prev) {
            prev = block_of_call[c];
            nblocks++;
        }
        if (cut)
            continue;
        const struct sb_call_event *ev = sb_region_call(region, c);
        const char *sym = ev && ev->symbol ? ev->symbol : "?";
        size_t need = strlen(sym) + (len ? 2 : 0);
        if (len + need + 4 >= sizeof out->callees) {
            memcpy(out->callees + len, "...", 4);
            len += 3;
            cut = true;
            continue;
        }
        len += (size_t)snprintf(out->callees + len, sizeof out->callees - len,
                                "%s%s", len ? ", " : "", sym);
    }
    if (block_of_call && (region->nblocks > 0 || nblocks > 1))
        out->nblocks = nblocks;
}

void sb_remark_blocks(char *buf, size_t size,
                      const struct sb_batch_summary *sum)
{
    if (sum->nblocks > 0)
        snprintf(buf, size, " over %d blocks%s", sum->nblocks,
                 sum->branchy ? " (branchy)" : "");
    else if (size)
        buf[0] = '\0';
}

void sb_remark_batched(char *buf, size_t size,
                       const struct sb_batch_summary *sum)
{
    char blocks[48];
    sb_remark_blocks(blocks, sizeof blocks, sum);
    snprintf(buf, size, "batched %d calls (%s) into %d slots with %d chains%s",
             sum->ncalls, sum->callees, sum->nslots, sum->nchains, blocks);
}

void sb_remark_refusal(char *buf, size_t size, enum sb_why why,
                       const char *detail)
{
    snprintf(buf, size, "%s%s%s", sb_why_text(why), detail ? ": " : "",
             detail ? detail : "");
}
