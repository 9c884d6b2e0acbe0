/* sysbatch core: branchy-region formation over a plain CFG description
 * (sysbatch/cfg.h), the rule both front ends used to carry a copy of.
 *
 * Before and after, for blocks {0: 1 call; 1: no call, preds 0; 2: 2 calls,
 * preds 0, 1; 3: no call, preds 2}, entered at 0: the region is {0, 1, 2}
 * (block 3 is a trailing call-free block and is dropped).
 */
#include "sysbatch/cfg.h"

#include <string.h>

static bool in_region(const bool *in, int b)
{
    return b >= 0 && in[b];
}

int sb_cfg_form_region(const struct sb_cfg *cfg, int entry, int *out)
{
    if (entry < 0 || entry >= cfg->nblocks)
        return 0;
    const struct sb_cfg_block *eb = &cfg->blocks[entry];
    int calls = eb->candidates;
    if (calls <= 0 || calls > SB_MAX_REGION_CALLS)
        return 0;

    bool in[cfg->nblocks];
    memset(in, 0, sizeof in);
    int n = 0, ncalls[SB_MAX_REGION_BLOCKS];
    out[n] = entry;
    ncalls[n++] = calls;
    in[entry] = true;
    for (int b = entry + 1; b < cfg->nblocks && n < SB_MAX_REGION_BLOCKS; b++) {
        const struct sb_cfg_block *blk = &cfg->blocks[b];
        if ((cfg->covered && cfg->covered[b]) || blk->unreachable ||
            blk->npreds == 0 || blk->abnormal_entry)
            continue;
        bool inside = true;
        for (int p = 0; p < blk->npreds && inside; p++)
            inside = blk->preds[p] < b && in_region(in, blk->preds[p]);
        if (!inside || calls + blk->candidates > SB_MAX_REGION_CALLS)
            continue;
        out[n] = b;
        ncalls[n++] = blk->candidates;
        in[b] = true;
        calls += blk->candidates;
    }
    while (n > 0 && ncalls[n - 1] == 0)
        n--;
    int with_calls = 0;
    for (int k = 0; k < n; k++)
        with_calls += ncalls[k] > 0;
    return with_calls >= 2 ? n : 0;
}
