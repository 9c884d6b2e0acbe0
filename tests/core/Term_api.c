/* Terminators as the core decides them (sysbatch/cfg.h,
 * sb_describe_terminator): every shape both compilers hand over, with the
 * block term, targets and reason text checked.  Exits 0 when every check
 * holds, 1 (after printing the failures) otherwise.
 *
 * RUN: %gcc -std=c11 -Wall -Wextra -Werror -I%srcroot/core/include %s %objroot/core/libsysbatch_core.a -o %t
 * RUN: %t
 */
#include "sysbatch/cfg.h"

#include <string.h>

#include "Inputs/check.h"

static struct sb_event events[3];
static struct sb_block blocks[4];
static struct sb_region region = {SB_ABI_LINUX_X86_64, 3, events, 4, blocks, {0}};

static struct sb_term_shape branch(int on_true, int on_false, int value,
                                   enum sb_cmp op, long constant)
{
    struct sb_term_shape s;
    memset(&s, 0, sizeof s);
    s.kind = SB_TS_BRANCH;
    s.succ[0] = on_true;
    s.succ[1] = on_false;
    s.is_compare = true;
    s.value = (uint8_t)value;
    s.op = (uint8_t)op;
    s.constant = constant;
    s.constant_fits = true;
    return s;
}

static const char *describe(int b, int call, struct sb_term_shape s,
                            struct sb_block *out, char *buf)
{
    return sb_describe_terminator(&region, b, call, &s, out, buf, 256);
}

int main(void)
{
    memset(events, 0, sizeof events);
    events[0].kind = SB_EV_CALL;
    events[0].u.call.symbol = "open";
    events[0].u.call.row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "open");
    events[0].u.call.nargs = 2;
    events[1].kind = SB_EV_CALL;
    events[1].u.call.symbol = "read";
    events[1].u.call.row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "read");
    events[1].u.call.nargs = 3;
    events[2].kind = SB_EV_CODE;
    events[2].u.code.conflicts = 0;
    events[2].u.code.why = "a store";
    blocks[0] = (struct sb_block){0, 1, 0, -1, {0, 0, 0}};
    blocks[1] = (struct sb_block){1, 2, 0, -1, {0, 0, 0}};
    blocks[2] = (struct sb_block){3, 0, 0, -1, {0, 0, 0}};
    blocks[3] = (struct sb_block){3, 0, 0, -1, {0, 0, 0}};
    struct sb_block out;
    char buf[256];
    const char *why;

    /* fd = open(...); if (fd < 0) -> block 2 else block 1 */
    why = describe(0, 0, branch(2, 1, SB_CV_RESULT, SB_CMP_SLT, 0), &out, buf);
    CHECK(why == NULL);
    CHECK(out.term == SB_TERM_COND && out.cond_call == 0);
    CHECK(out.succ[0] == 2 && out.succ[1] == 1 && out.succ[2] == 1);

    /* the same through a sign extension (int -> long) */
    why = describe(0, 0, branch(2, 1, SB_CV_EXTENDED, SB_CMP_SLT, 0), &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_COND);
    /* an unsigned compare of a sign-extended signed result: not the result */
    why = describe(0, 0, branch(2, 1, SB_CV_EXTENDED, SB_CMP_ULT, 5), &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why && strstr(why, "not the result of open"));
    /* a constant the result's type cannot hold */
    struct sb_term_shape wide = branch(2, 1, SB_CV_EXTENDED, SB_CMP_SLT, 1L << 40);
    wide.constant_fits = false;
    why = describe(0, 0, wide, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why && strstr(why, "not the result of open"));
    /* another value compared */
    why = describe(0, 0, branch(2, 1, SB_CV_OTHER, SB_CMP_SLT, 0), &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why && strstr(why, "(the block's last call)"));
    /* n == 5 after read: the sign class does not decide it */
    why = describe(1, 1, branch(2, 3, SB_CV_RESULT, SB_CMP_EQ, 5), &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why &&
          strcmp(why, "the sign of read's result does not decide the compare") == 0);
    /* a conflicting code event between read and the branch */
    events[2].u.code.conflicts = 1;
    why = describe(1, 1, branch(2, 3, SB_CV_RESULT, SB_CMP_SLT, 0), &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why &&
          strcmp(why, "code between read and the branch may not move (a store)") == 0);
    events[2].u.code.conflicts = 0;
    /* a target before the block, or outside the region, is an exit; an
     * edge back to the entry says it is a loop */
    why = describe(1, 1, branch(0, -1, SB_CV_RESULT, SB_CMP_SGT, 0), &out, buf);
    CHECK(out.term == SB_TERM_COND && out.succ[2] == SB_BLOCK_EXIT &&
          out.succ[0] == SB_BLOCK_EXIT);
    CHECK(why && strcmp(why, "a loop: an edge goes back to the region's entry") == 0);
    /* no call in the block: a branch simply exits, silently */
    why = describe(2, -1, branch(3, 3, SB_CV_RESULT, SB_CMP_SLT, 0), &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why == NULL);

    /* Predicated branches (SB_TERM_PRED): a condition available where the
     * batch is issued, in a block without calls or after a call whose
     * result the branch does not test */
    struct sb_term_shape flag = branch(2, 3, SB_CV_OTHER, SB_CMP_NE, 0);
    flag.is_compare = false;
    flag.pred = SB_PA_AVAILABLE;
    why = describe(1, -1, flag, &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_PRED && out.succ[0] == 2 &&
          out.succ[1] == 3 && out.succ[2] == SB_BLOCK_EXIT);
    why = describe(1, 1, flag, &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_PRED && out.succ[0] == 2 &&
          out.succ[1] == 3);
    /* code after the call does not stop a predicated branch (the walk
     * crosses it like any code) */
    events[2].u.code.conflicts = 1;
    why = describe(1, 1, flag, &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_PRED);
    events[2].u.code.conflicts = 0;
    /* a sign test of the call's result stays COND even when available */
    struct sb_term_shape sign = branch(2, 3, SB_CV_RESULT, SB_CMP_SLT, 0);
    sign.pred = SB_PA_AVAILABLE;
    why = describe(1, 1, sign, &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_COND);
    /* both arms to one place: a goto; both outside: an exit */
    struct sb_term_shape same = flag;
    same.succ[1] = 2;
    why = describe(1, -1, same, &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_GOTO && out.succ[0] == 2);
    same.succ[0] = same.succ[1] = -1;
    why = describe(1, -1, same, &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_EXIT);
    /* an arm back to the entry leaves the region, with the loop named */
    struct sb_term_shape back = flag;
    back.succ[0] = 0;
    why = describe(1, 1, back, &out, buf);
    CHECK(out.term == SB_TERM_PRED && out.succ[0] == SB_BLOCK_EXIT &&
          out.succ[1] == 3 && why &&
          strcmp(why, "a loop: an edge goes back to the region's entry") == 0);
    /* conditions that are not available say why, in call-free blocks too */
    struct sb_term_shape written = flag;
    written.pred = SB_PA_WRITTEN;
    written.pred_what = "call to fstat";
    why = describe(1, -1, written, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why &&
          strcmp(why, "the branch's condition is not available where the "
                      "batch is issued: it reads memory the region may "
                      "write before the branch (call to fstat)") == 0);
    why = describe(1, 1, written, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why &&
          strstr(why, "the branch is not the result of read (the block's "
                      "last call) compared with a constant; the branch's "
                      "condition is not available") == why);
    struct sb_term_shape from_call = flag;
    from_call.pred = SB_PA_RESULT;
    from_call.pred_what = "open";
    why = describe(2, -1, from_call, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why &&
          strcmp(why, "the branch depends on the result of open, and only a "
                      "sign test of the block's last call maps onto the "
                      "batch") == 0);
    struct sb_term_shape unsafe = flag;
    unsafe.pred = SB_PA_UNSAFE_LOAD;
    why = describe(2, -1, unsafe, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why && strstr(why, "may not be valid"));
    unsafe.pred = SB_PA_COMPUTED;
    why = describe(2, -1, unsafe, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why && strstr(why, "computed in the region"));

    /* jumps */
    struct sb_term_shape jump;
    memset(&jump, 0, sizeof jump);
    jump.kind = SB_TS_JUMP;
    jump.succ[0] = 3;
    why = describe(1, 1, jump, &out, buf);
    CHECK(why == NULL && out.term == SB_TERM_GOTO && out.succ[0] == 3);
    jump.succ[0] = 0;
    why = describe(1, 1, jump, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why &&
          strcmp(why, "a loop: the edge goes back to the region's entry") == 0);
    why = describe(2, -1, jump, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why == NULL);

    /* a switch ends the region when the block has a call; a return too, silently */
    struct sb_term_shape other;
    memset(&other, 0, sizeof other);
    other.kind = SB_TS_SWITCH;
    why = describe(1, 1, other, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why && strcmp(why, "a switch") == 0);
    other.kind = SB_TS_OTHER;
    why = describe(1, 1, other, &out, buf);
    CHECK(out.term == SB_TERM_EXIT && why == NULL);

    /* Tock chains: the success target joins when only the chain's last
     * block enters it, it holds calls, and it is not in the chain yet. */
    static const int p1[] = {0}, p2[] = {1}, p3[] = {0, 1}, p4[] = {3};
    struct sb_cfg_block cb[5] = {
        {1, 0, NULL, false, false}, {1, 1, p1, false, false},
        {1, 1, p2, false, false},   {1, 2, p3, false, false},
        {0, 1, p4, false, false}};
    bool cov[5] = {false, false, false, false, false};
    struct sb_cfg cfg = {5, cb, cov};
    int chain[4] = {0, 1};
    CHECK(sb_cfg_chain_joins(&cfg, chain, 1, 1, 1));
    CHECK(sb_cfg_chain_joins(&cfg, chain, 2, 2, 2));
    CHECK(!sb_cfg_chain_joins(&cfg, chain, 2, 2, 3)); /* two ways in */
    CHECK(!sb_cfg_chain_joins(&cfg, chain, 1, 1, 2)); /* entered from 1, not 0 */
    CHECK(!sb_cfg_chain_joins(&cfg, chain, 2, 2, 0)); /* already in */
    CHECK(!sb_cfg_chain_joins(&cfg, chain, 2, 2, -1)); /* no target */
    chain[2] = 3;
    CHECK(!sb_cfg_chain_joins(&cfg, chain, 3, 3, 4)); /* no calls */
    cov[1] = true;
    CHECK(!sb_cfg_chain_joins(&cfg, chain, 1, 1, 1)); /* covered */
    CHECK(!sb_cfg_chain_joins(&cfg, chain, 1, SB_MAX_REGION_CALLS, 2));

    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
