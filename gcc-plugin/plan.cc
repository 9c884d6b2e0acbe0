/* plan.cc: the planning half of the pass - for every region of a function
 * (a branchy region, a Tock checked chain, or each part of a basic block),
 * describe it (block-analysis.cc, regions.cc, tock-analysis.cc), ask the
 * core for a plan, and report it: the plan text in the dump file (and on
 * stderr with print-plan) under "function <name> block <k>:", and every
 * batch and refusal through dump_printf_loc for -fopt-info, in the LLVM
 * pass's words (llvm-pass/Plan.cpp).  Nothing is rewritten here: the pass
 * rewrites the queue once every region is planned on the unchanged CFG.
 */
#include "sysbatch-gcc.h"
#include "sysbatch/remark.h"
#include "loop-batching.h"

namespace {

/* Blocks whose calls a branchy batch already covers (this function). */
hash_set<basic_block> *covered_blocks;

/* Where a call came from: file and line, 0 without line information. */
void report_site(const gimple *stmt, const char **file, unsigned *line)
{
    location_t loc = sysbatch_remark_location(stmt);
    *file = LOCATION_FILE(loc) ? LOCATION_FILE(loc) : main_input_filename;
    *line = LOCATION_FILE(loc) ? (unsigned)LOCATION_LINE(loc) : 0;
}

dump_user_location_t remark_site(const gimple *stmt)
{
    return dump_user_location_t::from_location_t(
        sysbatch_remark_location(stmt));
}

const char *report_function(void)
{
    return IDENTIFIER_POINTER(DECL_NAME(current_function_decl));
}

/* -fopt-info: the same words as the LLVM pass's remarks; and the record
 * for report=DIR (the same batches and refusals). */
void report_plan(const struct sysbatch_block &blk, const struct sb_plan &plan)
{
    struct sb_report *unit_report = sysbatch_unit_report;
    if (!dump_enabled_p() && !unit_report)
        return;
    for (int b = 0; b < plan.nbatches; b++) {
        const struct sb_batch_plan &bp = plan.batches[b];
        struct sb_batch_summary sum;
        sb_summarize_batch(&blk.region, &plan, b,
                           blk.bbs.is_empty() ? NULL
                                              : blk.block_of_call.address(),
                           &sum);
        const char *names = sum.callees;
        char blocks[48];
        sb_remark_blocks(blocks, sizeof blocks, &sum);
        if (unit_report) {
            const char *file;
            unsigned line;
            report_site(blk.calls[bp.first_call], &file, &line);
            sb_report_batch(unit_report, file, line, report_function(),
                            bp.ncalls, bp.nslots, names);
        }
        if (!dump_enabled_p())
            continue;
        /* Tock: a yield closes its series, so the call after it is not
         * refused but cannot join either; say so where the next series
         * starts (as the LLVM pass does). */
        if (bp.end_why == SB_WHY_SERIES_ENDED && bp.end_call >= 0)
            dump_printf_loc(MSG_MISSED_OPTIMIZATION,
                            remark_site(blk.calls[bp.end_call]),
                            "sysbatch: %s not in the series before it: %s "
                            "(%s)\n",
                            sysbatch_call_event(blk, bp.end_call).symbol,
                            sb_why_name(SB_WHY_SERIES_ENDED),
                            sb_why_text(SB_WHY_SERIES_ENDED));
        dump_printf_loc(MSG_OPTIMIZED_LOCATIONS,
                        remark_site(blk.calls[bp.first_call]),
                        "sysbatch: batched %d calls (%s) into %d slots with "
                        "%d chains%s\n",
                        bp.ncalls, names, bp.nslots,
                        bp.nchains, blocks);
    }
    for (int i = 0; i < plan.ncalls; i++) {
        const struct sb_call_plan &cp = plan.calls[i];
        if (cp.batch >= 0)
            continue;
        /* A branchy region's calls outside the blocks its batch covers are
         * planned again on their own and reported there; a refusal with a
         * reason of its own (a chain the layout cannot keep, a failure arm
         * cut off) is said here too, or only the printed plan would show
         * what kept the call out of the batch. */
        if (blk.region.nblocks &&
            !covered_blocks->contains(blk.bbs[blk.block_of_call[i]])) {
            if (cp.detail && plan.nbatches && dump_enabled_p())
                dump_printf_loc(
                    MSG_MISSED_OPTIMIZATION, remark_site(blk.calls[i]),
                    "sysbatch: %s left out of the batch at line %d: %s "
                    "(%s: %s)\n",
                    sysbatch_call_event(blk, i).symbol,
                    LOCATION_LINE(sysbatch_remark_location(
                        blk.calls[plan.batches[0].first_call])),
                    sb_why_name(cp.why), sb_why_text(cp.why), cp.detail);
            continue;
        }
        if (unit_report) {
            const char *file;
            unsigned line;
            report_site(blk.calls[i], &file, &line);
            sb_report_refused(unit_report, file, line, report_function(),
                              sysbatch_call_event(blk, i).symbol,
                              sb_why_name(cp.why));
        }
        if (!dump_enabled_p())
            continue;
        char text[1024];
        sb_remark_refusal(text, sizeof text, cp.why, cp.detail);
        dump_printf_loc(MSG_MISSED_OPTIMIZATION,
                        remark_site(blk.calls[i]),
                        "sysbatch: %s not batched: %s (%s)\n",
                        sysbatch_call_event(blk, i).symbol, sb_why_name(cp.why),
                        text);
    }
}

void print_plan(FILE *out, int block_number, const struct sysbatch_block &blk,
                const struct sb_plan &plan)
{
    const char *name = IDENTIFIER_POINTER(DECL_NAME(current_function_decl));
    if (blk.part)
        fprintf(out, "function %s block %d part %d:\n", name, block_number,
                blk.part);
    else
        fprintf(out, "function %s block %d:\n", name, block_number);
    sb_plan_print(out, &blk.region, &plan);
}


/* Plan one region; false (with a warning) when memory ran out. */
bool plan_region(struct sysbatch_block &blk, struct sb_plan *plan)
{
    if (sb_plan_region(&blk.region, &sysbatch_cfg.core.plan, plan) != 0) {
        warning(0, "sysbatch: out of memory planning %qs; left unbatched",
                IDENTIFIER_POINTER(DECL_NAME(current_function_decl)));
        return false;
    }
    return true;
}

/* An early look under placement=both decides a region that batches: its
 * refusals (in the blocks a branchy batch covers) are reported now and
 * marked, so that the look after inlining does not plan them again. */
void mark_decided_calls(const struct sysbatch_block &blk,
                        const struct sb_plan &plan)
{
    for (int i = 0; i < plan.ncalls; i++)
        if (plan.calls[i].batch < 0 &&
            (!blk.region.nblocks ||
             covered_blocks->contains(blk.bbs[blk.block_of_call[i]])))
            sysbatch_mark_rewritten(blk.calls[i]);
}

void publish_plan(const struct sysbatch_block &blk, const struct sb_plan &plan,
                  int block_number)
{
    if (sysbatch_planning_trial)
        return;
    if (!sysbatch_say_refusals && !plan.nbatches)
        return;
    if (!sysbatch_say_refusals)
        mark_decided_calls(blk, plan);
    if (dump_file)
        print_plan(dump_file, block_number, blk, plan);
    if (sysbatch_cfg.core.print_plan)
        print_plan(stderr, block_number, blk, plan);
    report_plan(blk, plan);
}

bool covered_p(basic_block bb)
{
    return covered_blocks->contains(bb);
}

/* Branches already reported as ending a region (this function). */
hash_set<gimple *> *reported_branches;

/* -fopt-info-missed: a branch after a call that ends the region although
 * a later block of the region holds calls. */
void report_branches(const struct sysbatch_block &blk)
{
    if (sysbatch_planning_trial || !sysbatch_say_refusals || !dump_enabled_p())
        return;
    for (unsigned b = 0; b < blk.term_why.length(); b++) {
        if (!blk.term_why[b] || reported_branches->contains(blk.term_stmt[b]))
            continue;
        bool later_calls = false;
        for (unsigned c = 0; c < blk.calls.length(); c++)
            later_calls |= blk.block_of_call[c] > (int)b;
        if (!later_calls)
            continue;
        reported_branches->add(blk.term_stmt[b]);
        dump_printf_loc(MSG_MISSED_OPTIMIZATION, remark_site(blk.term_stmt[b]),
                        "sysbatch: branch ends the region: %s\n",
                        blk.term_why[b]);
    }
}

/* Form, describe and plan the branchy region entered at `entry`.  It is
 * used (published, queued, its blocks covered) only when its batch holds
 * calls from at least two blocks; otherwise the caller plans `entry`
 * straight-line. */
bool try_branchy(basic_block entry, int block_number,
                 auto_vec<struct sysbatch_planned_region> *queue,
                 char *branch_why, size_t branch_why_size)
{
    struct sysbatch_block *blk = new sysbatch_block;
    int ncalls = 0;
    if (sysbatch_form_region(entry, sysbatch_cfg.abi, covered_p, &blk->bbs) >= 2)
        ncalls = sysbatch_analyze_region(sysbatch_cfg.abi, blk);
    struct sysbatch_planned_region pr;
    pr.blk = blk;
    if (ncalls == 0 || ncalls > SB_MAX_REGION_CALLS || !blk->region.nblocks ||
        !plan_region(*blk, &pr.plan)) {
        delete blk;
        return false;
    }
    report_branches(*blk);
    bool several = sb_plan_spans_blocks(&pr.plan, blk->block_of_call.address());
    if (!several) {
        if (!sb_branch_end_why(&blk->region, &pr.plan, blk->term_why.address(),
                               branch_why, branch_why_size))
            branch_why[0] = '\0';
        sb_plan_free(&pr.plan);
        delete blk;
        return false;
    }
    for (int c = 0; c < pr.plan.ncalls; c++)
        if (pr.plan.calls[c].batch == 0)
            covered_blocks->add(blk->bbs[blk->block_of_call[c]]);
    publish_plan(*blk, pr.plan, block_number);
    queue->safe_push(pr);
    return true;
}

/* Form, describe and plan the checked chain entered at `entry` (Tock,
 * tock-chains); its blocks are covered whatever the plan. */
bool try_tock_chain(basic_block entry, int block_number,
                    auto_vec<struct sysbatch_planned_region> *queue)
{
    struct sysbatch_block *blk = new sysbatch_block;
    sysbatch_form_tock_chain(entry, covered_p, &blk->bbs);
    if (blk->bbs.length() < 2) {
        delete blk;
        return false;
    }
    for (basic_block bb : blk->bbs)
        covered_blocks->add(bb);
    struct sysbatch_planned_region pr;
    pr.blk = blk;
    int ncalls = sysbatch_analyze_tock_chain(blk);
    if (ncalls == 0 || ncalls > SB_MAX_REGION_CALLS ||
        !plan_region(*blk, &pr.plan)) {
        delete blk;
        return true;
    }
    publish_plan(*blk, pr.plan, block_number);
    queue->safe_push(pr);
    return true;
}

/* Catalogue calls in the function (for "no other system call"). */
int function_calls;

/* Plan block `b` straight-line, in parts of SB_MAX_REGION_CALLS calls;
 * `branch_why` (may be empty): why the branchy region entered at `b`
 * batched nothing past its branch (sb_region_end.branch_why). */
void plan_block(basic_block b, int number,
                auto_vec<struct sysbatch_planned_region> *queue,
                const char *branch_why)
{
    /* Every part of a block is described before any is rewritten. */
    int first = 0, candidates;
    do {
        struct sysbatch_block *blk = new sysbatch_block;
        blk->part = first / SB_MAX_REGION_CALLS;
        candidates = sysbatch_analyze_block(b, sysbatch_cfg.abi, first, blk);
        struct sysbatch_planned_region pr;
        pr.blk = blk;
        if (candidates > first) {
            sysbatch_describe_region_end(
                blk, function_calls,
                candidates <= first + SB_MAX_REGION_CALLS);
            if (blk->region.end.term == SB_ENDT_BRANCH && branch_why[0]) {
                snprintf(blk->end_branch_why, sizeof blk->end_branch_why,
                         "%s", branch_why);
                blk->region.end.branch_why = blk->end_branch_why;
            }
        }
        if (candidates > first && plan_region(*blk, &pr.plan)) {
            publish_plan(*blk, pr.plan, number);
            queue->safe_push(pr);
        } else {
            delete blk;
        }
        first += SB_MAX_REGION_CALLS;
    } while (candidates > first);
}

} // namespace

void sysbatch_plan_function(function *fun,
                            auto_vec<struct sysbatch_planned_region> *queue)
{
    /* Blocks are collected first: rewriting splits them. */
    auto_vec<basic_block> blocks;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
        blocks.safe_push(bb);

    if (sysbatch_cfg.abi == SB_ABI_TOCK)
        sysbatch_scan_addresses(fun);
    hash_set<basic_block> covered;
    covered_blocks = &covered;
    hash_set<gimple *> reported;
    reported_branches = &reported;
    int block_number = 0;
    function_calls = sysbatch_count_catalogue_calls(fun, sysbatch_cfg.abi);
    for (basic_block b : blocks) {
        int candidates = sysbatch_count_candidates(b, sysbatch_cfg.abi);
        if (!candidates && !sysbatch_count_loop_calls(b))
            continue;
        /* Numbers stay those of the straight-line plans, whatever branchy
         * regions or loop batches cover. */
        int number = block_number++;
        if (!candidates || covered.contains(b))
            continue;
        /* Tock's series call only stops or continues: no branchy plans. */
        char branch_why[768] = "";
        if (sysbatch_cfg.abi == SB_ABI_LINUX_X86_64 &&
            try_branchy(b, number, queue, branch_why, sizeof branch_why))
            continue;
        /* Opt-in: blocks linked by exact success tests are one run (the
         * stop policy takes the tests' failing edges). */
        if (sysbatch_cfg.abi == SB_ABI_TOCK && sysbatch_cfg.core.tock_chains &&
            try_tock_chain(b, number, queue))
            continue;
        plan_block(b, number, queue, branch_why);
    }
    covered_blocks = NULL;
    reported_branches = NULL;
}

location_t sysbatch_remark_location(const gimple *stmt)
{
    location_t loc = gimple_location(stmt);
    if (loc == UNKNOWN_LOCATION || !in_system_header_at(loc))
        return loc;
    /* The blocks of inlined bodies, innermost first, each know the
     * location of the call they replaced. */
    for (tree block = gimple_block(stmt);
         block && TREE_CODE(block) == BLOCK; block = BLOCK_SUPERCONTEXT(block)) {
        if (!inlined_function_outer_scope_p(block))
            continue;
        location_t site = BLOCK_SOURCE_LOCATION(block);
        if (!in_system_header_at(site))
            return site;
    }
    return loc;
}
