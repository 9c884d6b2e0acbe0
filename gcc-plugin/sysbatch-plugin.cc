/* sysbatch-plugin.cc: the GCC plugin's entry point and pass driver.
 *
 *     gcc -fplugin=.../sysbatch.so [-fplugin-arg-sysbatch-KEY=VALUE ...]
 *
 * plugin_init does, in this order: check that the running GCC is the one
 * the plugin was built against; parse the arguments (core/config.c: the
 * same keys and errors as the LLVM pass and sysbatch-plan); publish the
 * help text; register sysbatch_rt's trees as GC roots; arrange for the runtime's declarations to be built once at the start of
 * the unit; register the pass right after GCC's "ssa" pass, so it sees SSA
 * form at every -O level before early inlining (the LLVM pass runs at the
 * start of its pipeline, so both see the same code).
 *
 * Targets: the host (x86_64) build rewrites for Linux's sys_batch; the
 * cross builds (arm-none-eabi, riscv64-unknown-elf) rewrite for Tock's
 * series call, but only when target=tock is given - a libtock-c app is not
 * recognisable from the triple alone - and otherwise say so once and
 * register no pass.
 *
 * Per function the pass walks the basic blocks.  A block with at least one
 * catalogue call first gets a try as the entry of a branchy region (Linux
 * only: several blocks, one batch with forward jumps; used only when the
 * batch takes calls from two blocks or more, whose blocks are then not
 * planned again); otherwise it is described to the core alone
 * (analysis.cc).  With target=tock and tock-chains a block first gets a
 * try as the entry of a checked chain (blocks linked by exact success
 * tests, planned as one straight-line run).  It is planned, the plan is
 * written to the dump file (and
 * to stderr with print-plan) under a line
 *
 *     function <name> block <k>:
 *
 * (k counts blocks with candidates, in block order; the LLVM pass prints
 * the same header), every batch and refusal is reported through
 * dump_printf_loc for -fopt-info, and once every region of the function
 * is planned (on the unchanged CFG) each batch is rewritten: rewrite.cc
 * for Linux, rewrite-tock.cc for Tock.
 */
#include "sysbatch-gcc.h"

int plugin_is_GPL_compatible;

struct sysbatch_config sysbatch_cfg;
struct sysbatch_runtime_decls sysbatch_rt;

/* Every member of sysbatch_rt is a tree, so one root entry covers them. */
static_assert(sizeof(sysbatch_rt) % sizeof(tree) == 0,
              "sysbatch_runtime_decls holds only trees");
static const struct ggc_root_tab sysbatch_gc_roots[] = {
    {&sysbatch_rt.slot_type, sizeof(sysbatch_rt) / sizeof(tree), sizeof(tree),
     &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB};

namespace {

/* Filled by build_help_text() from the core's key table. */
char help_text[4096];

struct plugin_info sysbatch_info = {
    SYSBATCH_VERSION_STRING,
    help_text,
};

bool version_ok(struct plugin_gcc_version *running)
{
    const struct plugin_gcc_version *built = sysbatch_built_for_gcc();
    if (plugin_default_version_check(running,
                                     const_cast<plugin_gcc_version *>(built)))
        return true;
    if (strcmp(built->basever, running->basever) != 0 ||
        strcmp(built->datestamp, running->datestamp) != 0)
        error("sysbatch: plugin built for GCC %s (%s) targeting %qs, but "
              "loaded by GCC %s (%s); rebuild it against the plugin headers "
              "of this compiler (%<-print-file-name=plugin%>)",
              built->basever, built->datestamp, SYSBATCH_GCC_TRIPLE,
              running->basever, running->datestamp);
    else
        error("sysbatch: plugin built for GCC %s targeting %qs, but loaded "
              "by a GCC %s configured differently; rebuild it against the "
              "plugin headers of this compiler (%<-print-file-name=plugin%>)",
              built->basever, SYSBATCH_GCC_TRIPLE, running->basever);
    return false;
}

/* The x86_64 Linux build (the only one whose default target is linux). */
bool host_build(void)
{
    return strcmp(SYSBATCH_GCC_DEFAULT_TARGET, "linux") == 0;
}

/* The keys and their help come from the core (sb_config_help), so the
 * text is the same in both plugins and sysbatch-plan. */
void build_help_text(void)
{
    snprintf(help_text, sizeof help_text,
             "sysbatch: batch system calls into one kernel crossing.\n"
             "Arguments (-fplugin-arg-sysbatch-KEY[=VALUE]); this plugin is "
             "built for %s, target=%s by default:\n%s"
             "Reports: -fopt-info-optimized (batches), -fopt-info-missed "
             "(refusals)\n",
             SYSBATCH_GCC_TRIPLE,
             host_build() ? "linux" : "(none: give target=tock)",
             sb_config_help());
}

bool parse_args(int argc, struct plugin_argument *argv)
{
    bool ok = true;
    sb_config_default(&sysbatch_cfg.core);
    for (int i = 0; i < argc; i++) {
        char err[512];
        if (sb_config_set(&sysbatch_cfg.core, argv[i].key, argv[i].value, err,
                          sizeof err) < 0) {
            error("%s", err);
            ok = false;
        }
    }
    if (!ok)
        return false;
    /* The host build defaults to Linux; a cross build does nothing until
     * it is told the code is a Tock app. */
    struct sb_target_facts facts = {SYSBATCH_GCC_TRIPLE, host_build(),
                                    !host_build()};
    const char *why;
    char err[512];
    int use = sb_config_resolve_target(&sysbatch_cfg.core, &facts,
                                       &sysbatch_cfg.abi, &why, err,
                                       sizeof err);
    if (use < 0) {
        error("%s", err);
        return false;
    }
    sysbatch_cfg.enabled = use > 0;
    return true;
}

/* report=DIR: this unit's record (core/report.c), begun at the start of
 * the unit and written at its end. */
struct sb_report *unit_report;

void finish_unit(void *, void *)
{
    if (!unit_report)
        return;
    char err[512];
    if (seen_error())
        sb_report_discard(unit_report);
    else if (sb_report_end(unit_report, err, sizeof err) < 0)
        error("%s", err);
    unit_report = NULL;
}

void start_unit(void *, void *)
{
    if (sysbatch_cfg.core.report_dir[0])
        unit_report = sb_report_begin(sysbatch_cfg.core.report_dir,
                                      main_input_filename,
                                      "gcc " SYSBATCH_GCC_MAJOR_STRING);
    /* A frame word holds a pointer argument (allow's buffer, subscribe's
     * upcall): riscv64-unknown-elf-gcc can also compile for RV64. */
    if (sysbatch_cfg.abi == SB_ABI_TOCK && TYPE_PRECISION(ptr_type_node) != 32)
        error("sysbatch: %<target=tock%> needs 32-bit pointers (Thumb or "
              "RV32, %<-mabi=ilp32%>); this unit has %d-bit pointers",
              (int)TYPE_PRECISION(ptr_type_node));
    sysbatch_build_runtime_decls();
}

/* Blocks whose calls a branchy batch already covers (this function). */
hash_set<basic_block> *covered_blocks;

/* Where a call came from: file and line, 0 without line information. */
void report_site(const gimple *stmt, const char **file, unsigned *line)
{
    location_t loc = gimple_location(stmt);
    *file = LOCATION_FILE(loc) ? LOCATION_FILE(loc) : main_input_filename;
    *line = LOCATION_FILE(loc) ? (unsigned)LOCATION_LINE(loc) : 0;
}

const char *report_function(void)
{
    return IDENTIFIER_POINTER(DECL_NAME(current_function_decl));
}

/* -fopt-info: the same words as the LLVM pass's remarks; and the record
 * for report=DIR (the same batches and refusals). */
void report_plan(const struct sysbatch_block &blk, const struct sb_plan &plan)
{
    if (!dump_enabled_p() && !unit_report)
        return;
    for (int b = 0; b < plan.nbatches; b++) {
        const struct sb_batch_plan &bp = plan.batches[b];
        /* Callee names, "open, read, close" (truncated with "..."); a
         * branchy batch's range may hold calls of arms it does not
         * include. */
        char names[512];
        size_t len = 0;
        bool first = true;
        for (int c = bp.first_call; c <= bp.last_call; c++) {
            if (plan.calls[c].batch != b)
                continue;
            const char *sym = sysbatch_call_event(blk, c).symbol;
            size_t need = strlen(sym) + 2;
            if (len + need + 4 >= sizeof names) {
                memcpy(names + len, "...", 4);
                len += 3;
                break;
            }
            if (!first) {
                memcpy(names + len, ", ", 2);
                len += 2;
            }
            first = false;
            memcpy(names + len, sym, need - 2);
            len += need - 2;
            names[len] = '\0';
        }
        names[len] = '\0';
        /* Branchy regions and Tock chains: over how many blocks the
         * batched calls sit (a chain's batch within one of its blocks
         * reads as usual, as in the LLVM pass). */
        char blocks[48] = "";
        if (!blk.bbs.is_empty()) {
            int nblocks = 0, prev = -1;
            for (int c = bp.first_call; c <= bp.last_call; c++)
                if (plan.calls[c].batch == b && blk.block_of_call[c] != prev) {
                    prev = blk.block_of_call[c];
                    nblocks++;
                }
            if (blk.region.nblocks || nblocks > 1)
                snprintf(blocks, sizeof blocks, " over %d blocks%s", nblocks,
                         bp.branchy ? " (branchy)" : "");
        }
        /* Tock: a yield closes its series, so the call after it is not
         * refused but cannot join either; say so where the next series
         * starts (as the LLVM pass does). */
        if (unit_report) {
            const char *file;
            unsigned line;
            report_site(blk.calls[bp.first_call], &file, &line);
            sb_report_batch(unit_report, file, line, report_function(),
                            bp.ncalls, bp.nslots, names);
        }
        if (!dump_enabled_p())
            continue;
        if (bp.end_why == SB_WHY_SERIES_ENDED && bp.end_call >= 0)
            dump_printf_loc(MSG_MISSED_OPTIMIZATION, blk.calls[bp.end_call],
                            "sysbatch: %s not in the series before it: %s "
                            "(%s)\n",
                            sysbatch_call_event(blk, bp.end_call).symbol,
                            sb_why_name(SB_WHY_SERIES_ENDED),
                            sb_why_text(SB_WHY_SERIES_ENDED));
        dump_printf_loc(MSG_OPTIMIZED_LOCATIONS, blk.calls[bp.first_call],
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
         * planned again on their own and reported there. */
        if (blk.region.nblocks &&
            !covered_blocks->contains(blk.bbs[blk.block_of_call[i]]))
            continue;
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
        dump_printf_loc(MSG_MISSED_OPTIMIZATION, blk.calls[i],
                        "sysbatch: %s not batched: %s (%s%s%s)\n",
                        sysbatch_call_event(blk, i).symbol, sb_why_name(cp.why),
                        sb_why_text(cp.why), cp.detail ? ": " : "",
                        cp.detail ? cp.detail : "");
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

const pass_data sysbatch_pass_data = {
    GIMPLE_PASS,
    "sysbatch",           /* name (dump file suffix) */
    OPTGROUP_OTHER,       /* so -fopt-info shows the reports */
    TV_NONE,
    PROP_cfg | PROP_ssa,  /* properties_required */
    0, 0, 0,
    0,                    /* todo_flags_finish: returned by execute */
};

class sysbatch_pass : public gimple_opt_pass {
public:
    explicit sysbatch_pass(gcc::context *ctx)
        : gimple_opt_pass(sysbatch_pass_data, ctx) {}
    unsigned int execute(function *fun) final override;
};

/* A planned region waiting for its rewrite: every region of a function is
 * formed and planned on the unchanged CFG first, then rewritten. */
struct planned_region {
    struct sysbatch_block *blk;
    struct sb_plan plan;
};

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

void publish_plan(const struct sysbatch_block &blk, const struct sb_plan &plan,
                  int block_number)
{
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
    if (!dump_enabled_p())
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
        dump_printf_loc(MSG_MISSED_OPTIMIZATION, blk.term_stmt[b],
                        "sysbatch: branch ends the region: %s\n",
                        blk.term_why[b]);
    }
}

/* Form, describe and plan the branchy region entered at `entry`.  It is
 * used (published, queued, its blocks covered) only when its batch holds
 * calls from at least two blocks; otherwise the caller plans `entry`
 * straight-line. */
bool try_branchy(basic_block entry, int block_number,
                 auto_vec<struct planned_region> *queue)
{
    struct sysbatch_block *blk = new sysbatch_block;
    int ncalls = 0;
    if (sysbatch_form_region(entry, sysbatch_cfg.abi, covered_p, &blk->bbs) >= 2)
        ncalls = sysbatch_analyze_region(sysbatch_cfg.abi, blk);
    struct planned_region pr;
    pr.blk = blk;
    if (ncalls == 0 || ncalls > SB_MAX_REGION_CALLS || !blk->region.nblocks ||
        !plan_region(*blk, &pr.plan)) {
        delete blk;
        return false;
    }
    report_branches(*blk);
    bool several = false;
    if (pr.plan.nbatches == 1) {
        int block = -1;
        for (int c = 0; c < pr.plan.ncalls; c++) {
            if (pr.plan.calls[c].batch != 0)
                continue;
            if (block >= 0 && blk->block_of_call[c] != block)
                several = true;
            block = blk->block_of_call[c];
        }
    }
    if (!several) {
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
                    auto_vec<struct planned_region> *queue)
{
    struct sysbatch_block *blk = new sysbatch_block;
    sysbatch_form_tock_chain(entry, covered_p, &blk->bbs);
    if (blk->bbs.length() < 2) {
        delete blk;
        return false;
    }
    for (basic_block bb : blk->bbs)
        covered_blocks->add(bb);
    struct planned_region pr;
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

unsigned int sysbatch_pass::execute(function *fun)
{
    /* The runtime's own functions are never batched. */
    const char *self = IDENTIFIER_POINTER(DECL_NAME(fun->decl));
    if (startswith(self, "sysbatch_"))
        return 0;

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
    auto_vec<struct planned_region> queue;
    int block_number = 0;
    for (basic_block b : blocks) {
        if (!sysbatch_count_candidates(b, sysbatch_cfg.abi))
            continue;
        /* Numbers stay those of the straight-line plans, whatever branchy
         * regions cover. */
        int number = block_number++;
        if (covered.contains(b))
            continue;
        /* Tock's series call only stops or continues: no branchy plans. */
        if (sysbatch_cfg.abi == SB_ABI_LINUX_X86_64 &&
            try_branchy(b, number, &queue))
            continue;
        /* Opt-in: blocks linked by exact success tests are one run (the
         * stop policy takes the tests' failing edges). */
        if (sysbatch_cfg.abi == SB_ABI_TOCK && sysbatch_cfg.core.tock_chains &&
            try_tock_chain(b, number, &queue))
            continue;
        /* Every part of a block is described before any is rewritten. */
        int first = 0, candidates;
        do {
            struct sysbatch_block *blk = new sysbatch_block;
            blk->part = first / SB_MAX_REGION_CALLS;
            candidates = sysbatch_analyze_block(b, sysbatch_cfg.abi, first, blk);
            struct planned_region pr;
            pr.blk = blk;
            if (candidates > first && plan_region(*blk, &pr.plan)) {
                publish_plan(*blk, pr.plan, number);
                queue.safe_push(pr);
            } else {
                delete blk;
            }
            first += SB_MAX_REGION_CALLS;
        } while (candidates > first);
    }
    covered_blocks = NULL;
    reported_branches = NULL;

    bool changed = false;
    for (struct planned_region &pr : queue) {
        if (pr.plan.nbatches) {
            if (const char *hazard = sb_plan_check_hazards(&pr.plan))
                internal_error("sysbatch: core produced a plan that breaks "
                               "the batch rules: %s", hazard);
            for (int i = 0; i < pr.plan.nbatches; i++)
                if (sysbatch_cfg.abi == SB_ABI_TOCK)
                    sysbatch_rewrite_tock_batch(pr.blk, &pr.plan, i);
                else
                    sysbatch_rewrite_batch(pr.blk, &pr.plan, i);
            changed = true;
        }
        sb_plan_free(&pr.plan);
        delete pr.blk;
    }
    if (!changed)
        return 0;
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
    mark_virtual_operands_for_renaming(fun);
    cgraph_edge::rebuild_edges();
    return TODO_update_ssa | TODO_cleanup_cfg;
}

} // namespace

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
    if (!version_ok(version))
        return 1;
    if (!parse_args(info->argc, info->argv))
        return 1;
    build_help_text();
    if (sysbatch_cfg.core.help)
        fputs(help_text, stderr);
    register_callback(info->base_name, PLUGIN_INFO, NULL, &sysbatch_info);
    /* sysbatch_rt's trees are built once per unit and used by every later
     * function: without roots a collection between two functions frees
     * them. */
    register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                      const_cast<ggc_root_tab *>(sysbatch_gc_roots));
    if (!sysbatch_cfg.enabled) {
        inform(UNKNOWN_LOCATION,
               "sysbatch: no target given, so nothing is batched; this "
               "plugin was built for %qs: add "
               "%<-fplugin-arg-sysbatch-target=tock%> for a Tock app",
               SYSBATCH_GCC_TRIPLE);
        return 0;
    }
    register_callback(info->base_name, PLUGIN_START_UNIT, start_unit, NULL);
    if (sysbatch_cfg.core.report_dir[0])
        register_callback(info->base_name, PLUGIN_FINISH_UNIT, finish_unit,
                          NULL);

    struct register_pass_info pass;
    pass.pass = new sysbatch_pass(g);
    pass.reference_pass_name = "ssa";
    pass.ref_pass_instance_number = 1;
    pass.pos_op = PASS_POS_INSERT_AFTER;
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
    return 0;
}
