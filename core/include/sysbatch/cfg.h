/* sysbatch/cfg.h: which blocks form a branchy region - decided once, over a
 * plain description of the function's control-flow graph.
 *
 * A front end numbers its basic blocks in function order, says for each
 * how many candidate calls it holds (calls the catalogue knows), which
 * blocks lead into it, and whether an abnormal edge (setjmp, EH, computed
 * goto) does; sb_cfg_form_region() then picks the region entered at one
 * block.  The rule: a later block joins when every edge into it comes from
 * a block already in the region (single entry, and no back edge can reach
 * it, because predecessors come first in function order), it is not
 * covered by an earlier region or batch, and the region stays within
 * SB_MAX_REGION_BLOCKS blocks and SB_MAX_REGION_CALLS calls; trailing
 * blocks without candidates are dropped (they change nothing the planner
 * decides).  A region needs candidates in at least two blocks, otherwise
 * the straight-line planner handles the entry block alone.
 *
 *     fd = open(p, O_RDONLY);         block 0: 1 call
 *     if (fd < 0) {                     (branch)
 *         perror(p);                  block 1: no call, preds 0
 *         return -1; }
 *     n = read(fd, buf, 64);          block 2: 2 calls, preds 0
 *     close(fd);
 *     return n;                       block 3: no call, preds 2 (say)
 *
 * forms the region {0, 1, 2}: block 3 is a trailing block without calls.
 */
#ifndef SYSBATCH_CFG_H
#define SYSBATCH_CFG_H

#include "sysbatch/core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sb_cfg_block {
    int candidates;      /* catalogue calls in the block */
    int npreds;
    const int *preds;    /* predecessor block numbers (function order) */
    bool abnormal_entry; /* an abnormal or EH edge leads into the block */
    bool unreachable;    /* no edge leads into it (and it is not the
                            function's entry): never joins */
};

struct sb_cfg {
    int nblocks;
    const struct sb_cfg_block *blocks;
    const bool *covered; /* per block: already in a region or batch (NULL:
                            none is) */
};

/* The region entered at block `entry`: its block numbers in order (entry
 * first) into out[0 .. return value - 1] (out holds SB_MAX_REGION_BLOCKS).
 * Returns 0 when no branchy region starts there (fewer than two blocks
 * with candidates, or an entry without candidates or with too many). */
int sb_cfg_form_region(const struct sb_cfg *cfg, int entry, int *out);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_CFG_H */
