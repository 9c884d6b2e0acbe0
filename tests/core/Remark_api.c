/* The remark texts both compilers print (sysbatch/remark.h): a straight-
 * line batch, the same calls said over several blocks (a branchy region:
 * always; a chain of blocks: only when the batch spans more than one), a
 * refusal with and without detail, and callee lists cut with "...".
 * Exits 0 when every check holds, 1 (after printing the failures) otherwise.
 *
 * RUN: %gcc -std=c11 -Wall -Wextra -Werror -I%srcroot/core/include %s %objroot/core/libsysbatch_core.a -o %t
 * RUN: %t
 */
#include "sysbatch/remark.h"

#include <stdio.h>
#include <string.h>

#include "Inputs/check.h"

#define NCALLS 40

int main(void)
{
    static struct sb_event ev[NCALLS];
    static char names[NCALLS][40];
    for (int c = 0; c < NCALLS; c++) {
        ev[c].kind = SB_EV_CALL;
        snprintf(names[c], sizeof names[c], c < 3 ? "getuid" : "getpid_with_a_long_name_%d", c);
        ev[c].u.call.symbol = names[c];
        ev[c].u.call.row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "getuid");
    }
    struct sb_region region = {SB_ABI_LINUX_X86_64, 3, ev, 0, NULL, {0}};
    struct sb_options opts;
    sb_options_default(&opts);
    struct sb_plan plan;
    CHECK(sb_plan_region(&region, &opts, &plan) == 0 && plan.nbatches == 1);
    struct sb_batch_summary sum;
    char buf[1024];

    sb_summarize_batch(&region, &plan, 0, NULL, &sum);
    sb_remark_batched(buf, sizeof buf, &sum);
    CHECK(strcmp(buf, "batched 3 calls (getuid, getuid, getuid) into 3 slots with 0 chains") == 0);

    /* A chain of blocks (straight-line form): said only over several. */
    int same_block[NCALLS] = {0}, two_blocks[NCALLS] = {0, 0, 1};
    sb_summarize_batch(&region, &plan, 0, same_block, &sum);
    CHECK(sum.nblocks == 0);
    sb_summarize_batch(&region, &plan, 0, two_blocks, &sum);
    sb_remark_batched(buf, sizeof buf, &sum);
    CHECK(strcmp(buf, "batched 3 calls (getuid, getuid, getuid) into 3 slots with 0 chains over 2 blocks") == 0);
    sb_plan_free(&plan);

    /* Many long names are cut. */
    region.nevents = NCALLS;
    CHECK(sb_plan_region(&region, &opts, &plan) == 0 && plan.nbatches == 1);
    sb_summarize_batch(&region, &plan, 0, NULL, &sum);
    size_t n = strlen(sum.callees);
    CHECK(n < sizeof sum.callees && n > 3 && strcmp(sum.callees + n - 3, "...") == 0);
    CHECK(sum.ncalls == NCALLS);
    sb_plan_free(&plan);

    sb_remark_refusal(buf, sizeof buf, SB_WHY_BARRIER, "call to printf");
    CHECK(strncmp(buf, sb_why_text(SB_WHY_BARRIER), strlen(sb_why_text(SB_WHY_BARRIER))) == 0);
    CHECK(strstr(buf, ": call to printf") != NULL);
    sb_remark_refusal(buf, sizeof buf, SB_WHY_BELOW_MIN_BATCH, NULL);
    CHECK(strcmp(buf, sb_why_text(SB_WHY_BELOW_MIN_BATCH)) == 0);

    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
