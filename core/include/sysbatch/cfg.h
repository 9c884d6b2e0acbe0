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

/* Tock chains (the tock-chains option): blocks linked by exact success
 * tests are one straight-line run.  The front end walks from the entry
 * block: while the chain's last block ends in an exact stop test (its IR
 * question), it asks whether the success target `next` joins the chain
 * chain[0..n-1], which holds `calls` candidates: `next` must be a block
 * (not -1: no target, or an abnormal edge), not covered or already in the
 * chain, entered only from the chain's last block, hold candidates, and
 * keep the chain within SB_MAX_REGION_BLOCKS blocks and SB_MAX_REGION_CALLS
 * calls.  A chain of fewer than two blocks is no chain. */
bool sb_cfg_chain_joins(const struct sb_cfg *cfg, const int *chain, int n,
                        int calls, int next);

/* ----------------------------------------------------------- join splits
 *
 * A call in a join block cannot batch with a call on one of the paths into
 * it: the join is entered from outside that path's region, so it never
 * joins the region, and its operands come through phis (glibc's fd
 * precheck then fails on the phi):
 *
 *     if (reading_stdin) fd = 0;             block 0: 0 calls
 *     else { fd = open(p, O_RDONLY);         block 1: 1 call, preds 0
 *            if (fd < 0) return -1; }        block 2: no call, preds 1
 *     if (fstat(fd, &st) < 0) ...            block 3: 1 call, preds 0,1
 *
 * Splitting the join for the edge 1 -> 3 (tail duplication of the code
 * before fstat and fstat itself into a new block on that edge; the rest of
 * the join stays shared and takes the results through phis) gives open a
 * successor that only it enters: open, fstat become one branchy batch, and
 * the path from block 0 runs the original fstat.  Every path runs the same
 * calls with the same arguments in the same order; only code is copied.
 *
 * sb_cfg_join_split_edge() decides which join and which incoming edge; the
 * front end copies at most the block's prefix and its first candidate,
 * then plans the function again and keeps the split only when the copied
 * call is in a batch (else it undoes it: no code grows for nothing). */
#define SB_JOIN_MAX_PREFIX 8
#define SB_JOIN_MAX_PREFIX_TEXT "8"

struct sb_join_info {
    int prefix;                /* instructions before the block's first
                                  candidate call (phis and debug markers
                                  not counted): all of them are copied */
    const char *prefix_effect; /* NULL, or what in the prefix has an effect
                                  the split does not copy ("call to
                                  printf", "store", "volatile load") */
    bool address_taken;        /* the block's label address is taken */
    bool returns_twice;        /* the function calls setjmp or the like:
                                  abnormal edges may enter any block */
    bool loop_header;          /* the block heads a loop (the front end's
                                  loop analysis: block order alone misses
                                  a GCC loop whose latch comes first) */
    bool never_batched;        /* the first candidate is a never-batch row
                                  (exit, _exit, fork, execve): no copy of
                                  it can batch, so the join is no split
                                  site and costs no trial */
};

/* The predecessor whose edge into join block `j` the split takes (an
 * index into its preds) - taking the edges in the order of their source
 * blocks, the first one from a block numbered `from` or later (a front
 * end that tried block p's edge asks again with p + 1) that is an earlier
 * block than j (no back
 * edge), enters j by one edge only, and holds a candidate call itself or
 * is reached from one through blocks of one predecessor each (the region
 * the call would batch with) - or -1.  With -1, *why is NULL when j is no
 * split site at all (no candidate, a never-batched first call, fewer than
 * two predecessors, covered, no predecessor from a region with a call),
 * else why the split is not
 * taken (a static string). */
int sb_cfg_join_split_edge(const struct sb_cfg *cfg, int j,
                           const struct sb_join_info *info, int from,
                           const char **why);

/* ------------------------------------------------------------ terminators
 *
 * How a region block's terminator becomes its sb_block term (core.h,
 * "branchy regions").  The front end says what the terminator is and, for a
 * two-way branch, whether its condition is `value OP constant` on the
 * block's last call's value; the core decides COND / GOTO / EXIT and, when
 * the terminator ends a region that had more to offer, why:
 *
 *     fd = open(p, O_RDONLY);
 *     if (fd < 0) ...         BRANCH, compare, value RESULT, SLT 0
 *                             -> COND on open: neg -> true target, else false
 *     n = read(fd, b, 8);
 *     if (n == 5) ...         -> EXIT: "the sign of read's result does not
 *                                decide the compare"
 */
enum sb_term_shape_kind {
    SB_TS_OTHER = 0, /* return, unreachable, a call that does not return... */
    SB_TS_SWITCH,
    SB_TS_JUMP,      /* one plain successor (no abnormal or EH edge) */
    SB_TS_BRANCH,    /* a two-way conditional branch */
};

/* What the compared value is, relative to the block's last call. */
enum sb_cond_value {
    SB_CV_OTHER = 0,     /* anything else (a computed value, another call) */
    SB_CV_RESULT,        /* the call site's value itself, at the call's width
                            (through copies and stack slots) */
    SB_CV_EXTENDED,      /* the value widened by an extension of its own
                            signedness (int -> long) */
};

struct sb_term_shape {
    uint8_t kind;        /* enum sb_term_shape_kind */
    /* JUMP: succ[0]; BRANCH: succ[0] when true, succ[1] when false - each
     * the region block number of the target, or -1 outside the region */
    int succ[2];
    /* BRANCH only: the condition */
    bool is_compare;     /* an integer compare of a value with a constant
                            (the constant on the right, op swapped to match) */
    uint8_t value;       /* enum sb_cond_value */
    uint8_t op;          /* enum sb_cmp */
    bool unsigned_result;/* the call's result type is unsigned */
    long constant;       /* as the compare reads it (signed or unsigned) */
    bool constant_fits;  /* the constant is a value of the result's type */
    /* BRANCH only: the condition as a whole, for a predicated branch
     * (core.h, SB_TERM_PRED) when it is not a sign test of the last call */
    uint8_t pred;        /* enum sb_pred_avail */
    const char *pred_what; /* SB_PA_RESULT: the call's symbol; SB_PA_WRITTEN:
                              what may write it ("call to fstat", "store");
                              may be NULL */
};

/* Whether a branch condition is available where the batch is issued: an IR
 * fact the front end establishes (the alias queries are its own). */
enum sb_pred_avail {
    SB_PA_UNKNOWN = 0,   /* not described: the branch ends the region */
    SB_PA_AVAILABLE,     /* defined or read before the batch point (or
                            recomputable there from such values by pure code
                            and loads that cannot fault) and nothing in the
                            region before the branch writes what it reads */
    SB_PA_RESULT,        /* depends on a result of a call of the region */
    SB_PA_WRITTEN,       /* reads memory the region may write before the
                            branch (code or a call's buffer) */
    SB_PA_UNSAFE_LOAD,   /* loads through a pointer that may not be valid
                            where the batch is issued */
    SB_PA_COMPUTED,      /* computed in the region in another way (a call
                            that is not a candidate, a division, ...) */
};

/* Fill block b's term, cond_call and succ from its terminator: COND for a
 * sign test of the block's last call, PRED for a branch on an available
 * value (sb_term_shape.pred), GOTO or EXIT.  `last_call`
 * is the region call index of the block's last call (-1: none); the block's
 * events must already be in region->events.  Returns NULL, or the reason
 * the terminator ends the region (a static string, or one written into
 * buf). */
const char *sb_describe_terminator(const struct sb_region *region, int b,
                                   int last_call,
                                   const struct sb_term_shape *shape,
                                   struct sb_block *out, char *buf,
                                   size_t bufsize);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_CFG_H */
