/* The branchy-region API used directly, for what the text format cannot
 * express: an unknown terminator kind, a negative block count, a missing
 * block array, bad sb_cond_classes arguments; and the worked example of
 * core.h checked field by field (slots, jumps, copies, the branchy flag).
 * Exits 0 when every check holds, 1 (after printing the failures) otherwise.
 *
 * RUN: %gcc -std=c11 -Wall -Wextra -Werror -I%srcroot/core/include %s %objroot/core/libsysbatch_core.a -o %t
 * RUN: %t
 */
#include "sysbatch/core.h"

#include <string.h>

#include "Inputs/check.h"

static struct sb_event call(const char *symbol, int nargs)
{
    struct sb_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = SB_EV_CALL;
    ev.u.call.symbol = symbol;
    ev.u.call.row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, symbol);
    ev.u.call.nargs = nargs;
    for (int k = 0; k < nargs; k++)
        ev.u.call.args[k].kind = SB_OPND_AVAILABLE;
    return ev;
}

static struct sb_block block(int first, int n, int term, int cond_call,
                             int s0, int s1, int s2)
{
    struct sb_block b = {first, n, (uint8_t)term, cond_call, {s0, s1, s2}};
    return b;
}

/* Every call refused with front-end, a detail, no batch. */
static void expect_malformed(struct sb_region *region, const char *what)
{
    struct sb_plan plan;
    CHECK(sb_plan_region(region, NULL, &plan) == 0);
    CHECK(plan.nbatches == 0);
    for (int c = 0; c < plan.ncalls; c++) {
        CHECK(plan.calls[c].why == SB_WHY_FRONT_END);
        CHECK(plan.calls[c].detail && strstr(plan.calls[c].detail, what));
    }
    CHECK(sb_plan_check_hazards(&plan) == NULL);
    sb_plan_free(&plan);
}

static void malformed(void)
{
    struct sb_event evs[2] = {call("getpid", 0), call("getuid", 0)};
    struct sb_block blocks[2] = {block(0, 1, SB_TERM_GOTO, -1, 1, 0, 0),
                                 block(1, 1, SB_TERM_EXIT, -1, 0, 0, 0)};
    struct sb_region region = {SB_ABI_LINUX_X86_64, 2, evs, 2, blocks, {0}};
    struct sb_plan plan;
    CHECK(sb_plan_region(&region, NULL, &plan) == 0);
    CHECK(plan.nbatches == 1 && plan.batches[0].ncalls == 2);
    CHECK(!plan.batches[0].branchy); /* goto to the next slot: offset 0 */
    sb_plan_free(&plan);

    blocks[1].term = 7;
    expect_malformed(&region, "unknown terminator");
    blocks[1].term = SB_TERM_EXIT;
    region.nblocks = -1;
    expect_malformed(&region, "block count");
    region.nblocks = SB_MAX_REGION_BLOCKS + 1;
    expect_malformed(&region, "block count");
    region.nblocks = 2;
    region.blocks = NULL;
    expect_malformed(&region, "block count");
    region.blocks = blocks;
    blocks[1].nevents = -1;
    expect_malformed(&region, "contiguous");
    blocks[1].nevents = 1;
    blocks[0].term = SB_TERM_COND;
    blocks[0].cond_call = 1;
    expect_malformed(&region, "last call of its block");
}

static void worked_example(void)
{
    /* open / perror-exit / fstat / close-on-error (core.h). */
    struct sb_event evs[4] = {call("open", 2), call("perror", 0),
                              call("fstat", 2), call("close", 1)};
    evs[0].u.call.args[1].kind = SB_OPND_CONST; /* O_RDONLY */
    evs[1].kind = SB_EV_CODE;
    memset(&evs[1].u, 0, sizeof evs[1].u);
    evs[1].u.code.barrier = true;
    evs[1].u.code.why = "call to perror";
    evs[2].u.call.args[0].kind = SB_OPND_RESULT;
    evs[2].u.call.args[0].call = 0;
    evs[3].u.call.args[0].kind = SB_OPND_RESULT;
    evs[3].u.call.args[0].call = 0;
    struct sb_block blocks[4] = {
        block(0, 1, SB_TERM_COND, 0, 1, 2, 2),
        block(1, 1, SB_TERM_EXIT, -1, 0, 0, 0),
        block(2, 1, SB_TERM_COND, 1, 3, SB_BLOCK_EXIT, SB_BLOCK_EXIT),
        block(3, 1, SB_TERM_EXIT, -1, 0, 0, 0)};
    struct sb_region region = {SB_ABI_LINUX_X86_64, 4, evs, 4, blocks, {0}};
    struct sb_plan plan;
    CHECK(sb_plan_region(&region, NULL, &plan) == 0);
    CHECK(plan.ncalls == 3 && plan.nbatches == 1);
    if (plan.nbatches != 1)
        return;
    const struct sb_batch_plan *b = &plan.batches[0];
    CHECK(b->branchy && b->nslots == 5 && b->ncalls == 3 && b->nchains == 2);
    CHECK(b->first_call == 0 && b->last_call == 2 && b->end_call == -1);
    CHECK(plan.calls[0].slot == 0 && plan.calls[1].slot == 3 &&
          plan.calls[2].slot == 4);
    const struct sb_slot_plan *s = b->slots;
    CHECK(s[0].kind == SB_SLOT_CALL && s[0].nr == 257);
    CHECK(s[0].jump_fail == -1 && s[0].jump_zero == 0 && s[0].jump_pos == 0);
    CHECK(s[1].kind == SB_SLOT_COPY && s[1].copy_src_slot == 0 &&
          s[1].copy_dst_slot == 3 && s[1].copy_dst_arg == 0);
    CHECK(s[2].kind == SB_SLOT_COPY && s[2].copy_src_slot == 0 &&
          s[2].copy_dst_slot == 4 && s[2].copy_dst_arg == 0);
    CHECK(s[3].nr == 262 && s[3].args[0].fill == SB_FILL_CHAINED);
    CHECK(s[3].jump_fail == 0 && s[3].jump_zero < 0 && s[3].jump_pos < 0);
    CHECK(s[4].nr == 3 && s[4].jump_fail == 0 && s[4].jump_zero == 0 &&
          s[4].jump_pos == 0);
    CHECK(sb_plan_check_hazards(&plan) == NULL);
    sb_plan_free(&plan);

    /* The same region on Tock: refused as a whole. */
    region.abi = SB_ABI_TOCK;
    CHECK(sb_plan_region(&region, NULL, &plan) == 0);
    CHECK(plan.nbatches == 0 && plan.calls[0].why == SB_WHY_WRONG_ABI &&
          plan.calls[0].detail);
    sb_plan_free(&plan);
}

static void cond_arguments(void)
{
    CHECK(sb_cond_classes(SB_RET_ERRNO, 16, SB_CMP_EQ, 0) == -1);
    CHECK(sb_cond_classes(SB_RET_ERRNO, 32, (enum sb_cmp)99, 0) == -1);
    CHECK(sb_cond_classes(SB_RET_TOCK, 32, SB_CMP_EQ, 0) == -1);
    CHECK(sb_cond_classes((enum sb_ret_conv)42, 32, SB_CMP_EQ, 0) == -1);
    CHECK(sb_cond_classes(SB_RET_ERRNO, 32, SB_CMP_SLT, 0) ==
          (int)SB_CLASS_NEG);
    CHECK(sb_cond_classes(SB_RET_ERRNO, 64, SB_CMP_NE, -1) ==
          (int)(SB_CLASS_ZERO | SB_CLASS_POS));
    CHECK(strcmp(sb_why_name(SB_WHY_NOT_REACHED), "not-reached") == 0);
}

int main(void)
{
    malformed();
    worked_example();
    cond_arguments();
    return failures ? 1 : 0;
}
