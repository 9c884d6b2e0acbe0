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
 * Per function the pass walks the basic blocks (plan.cc).  A block with
 * at least one catalogue call first gets a try as the entry of a branchy
 * region (Linux only: several blocks, one batch with forward jumps; used
 * only when the batch takes calls from two blocks or more, whose blocks are
 * then not planned again; regions.cc); otherwise it is described to the
 * core alone (block-analysis.cc).  With target=tock and tock-chains a block
 * first gets a try as the entry of a checked chain (blocks linked by exact
 * success tests, planned as one straight-line run; tock-analysis.cc).  It
 * is planned, the plan is written to the dump file (and to stderr with
 * print-plan) under a line
 *
 *     function <name> block <k>:
 *
 * (k counts blocks with candidates, in block order; the LLVM pass prints
 * the same header), every batch and refusal is reported through
 * dump_printf_loc for -fopt-info, and once every region of the function
 * is planned (on the unchanged CFG) each batch is rewritten:
 * rewrite-linux.cc for Linux, rewrite-tock.cc for Tock.
 *
 * Forming, describing, planning and reporting the regions is plan.cc;
 * this file keeps the entry, options, registration and execute().
 */
#include "sysbatch-gcc.h"
#include "loop-batching.h"

#include "attribs.h"

int plugin_is_GPL_compatible;

struct sysbatch_config sysbatch_cfg;
bool sysbatch_say_refusals = true;
struct sysbatch_runtime_decls sysbatch_rt;
/* report=DIR: this unit's record (core/report.c), begun at the start of
 * the unit and written at its end. */
struct sb_report *sysbatch_unit_report;
hash_set<gimple *> *sysbatch_loop_calls;

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

void finish_unit(void *, void *)
{
    if (!sysbatch_unit_report)
        return;
    char err[512];
    if (seen_error())
        sb_report_discard(sysbatch_unit_report);
    else if (sb_report_end(sysbatch_unit_report, err, sizeof err) < 0)
        error("%s", err);
    sysbatch_unit_report = NULL;
}

void start_unit(void *, void *)
{
    if (sysbatch_cfg.core.report_dir[0])
        sysbatch_unit_report = sb_report_begin(
            sysbatch_cfg.core.report_dir, main_input_filename,
            "gcc " SYSBATCH_GCC_MAJOR_STRING);
    /* A frame word holds a pointer argument (allow's buffer, subscribe's
     * upcall): riscv64-unknown-elf-gcc can also compile for RV64. */
    if (sysbatch_cfg.abi == SB_ABI_TOCK && TYPE_PRECISION(ptr_type_node) != 32)
        error("sysbatch: %<target=tock%> needs 32-bit pointers (Thumb or "
              "RV32, %<-mabi=ilp32%>); this unit has %d-bit pointers",
              (int)TYPE_PRECISION(ptr_type_node));
    sysbatch_build_runtime_decls();
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

/* The second look, after IPA inlining: its own dump file (sysbatch_late). */
const pass_data sysbatch_late_pass_data = {
    GIMPLE_PASS,
    "sysbatch_late",
    OPTGROUP_OTHER,
    TV_NONE,
    PROP_cfg | PROP_ssa,
    0, 0, 0,
    0,
};

/* Set on a function once a look has decided it (planned, reported,
 * rewritten): no later look plans it again.  A declaration attribute, so
 * it travels with the function into -flto's LTRANS stage; the space keeps
 * it out of reach of source code. */
const char *const decided_attr = "sysbatch decided";

bool decided_p(function *fun)
{
    return lookup_attribute(decided_attr, DECL_ATTRIBUTES(fun->decl));
}

void mark_decided(function *fun)
{
    DECL_ATTRIBUTES(fun->decl) = tree_cons(get_identifier(decided_attr),
                                           NULL_TREE,
                                           DECL_ATTRIBUTES(fun->decl));
}

/* The late look runs in the optimizing pipeline only: at -O0 and -Og (and
 * in a function optimized at -O0) the early look is the only one. */
bool late_look_runs(function *fun)
{
    return opt_for_fn(fun->decl, optimize) > 0 &&
           !opt_for_fn(fun->decl, optimize_debug);
}

class sysbatch_pass : public gimple_opt_pass {
public:
    sysbatch_pass(gcc::context *ctx, bool late)
        : gimple_opt_pass(late ? sysbatch_late_pass_data : sysbatch_pass_data,
                          ctx),
          late(late) {}
    bool gate(function *fun) final override;
    unsigned int execute(function *fun) final override;

private:
    bool late;
};

/* Rewrite every planned batch; true when any was. */
bool rewrite_queue(auto_vec<struct sysbatch_planned_region> *queue)
{
    bool changed = false;
    for (struct sysbatch_planned_region &pr : *queue) {
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
    return changed;
}

/* Whether this look plans `fun` (docs/gcc.md, placement): the early one
 * unless placement=late (and a late look runs); the late one unless
 * placement=early; neither once a look has decided the function. */
bool sysbatch_pass::gate(function *fun)
{
    enum sb_placement where = sysbatch_cfg.core.placement;
    if (decided_p(fun))
        return false;
    if (late)
        return where != SB_PLACEMENT_EARLY;
    return where != SB_PLACEMENT_LATE || !late_look_runs(fun);
}

unsigned int sysbatch_pass::execute(function *fun)
{
    /* The runtime's own functions are never batched. */
    const char *self = IDENTIFIER_POINTER(DECL_NAME(fun->decl));
    if (startswith(self, "sysbatch_"))
        return 0;
    /* libtock-c's raw calls (libtock/tock.c) that a series can hold stay
     * out of line and unchanged (noipa: no inlining, no constprop clone),
     * so that under -flto their call sites are still calls with all their
     * arguments.  A never-batched row's definition (yield_for, tock_exit,
     * ...) is inlined as the unplugged build inlines it: a call to it is a
     * barrier either way, and keeping yield_for out of line cost every app
     * that waits a copy of it and a call per wait. */
    const struct sb_syscall *own_row =
        sysbatch_cfg.abi == SB_ABI_TOCK ? sb_catalog_lookup(SB_ABI_TOCK, self) : NULL;
    if (own_row && !(own_row->flags & SB_ROW_NEVER)) {
        tree decl = fun->decl;
        DECL_UNINLINABLE(decl) = 1;
        for (const char *attr : {"noipa", "noinline", "noclone"})
            if (!lookup_attribute(attr, DECL_ATTRIBUTES(decl)))
                DECL_ATTRIBUTES(decl) = tree_cons(get_identifier(attr), NULL_TREE,
                                                  DECL_ATTRIBUTES(decl));
        return 0;
    }
    /* Before inlining under placement=both: batch, and say, what plans
     * here; the rest of the function is the late look's to decide. */
    bool final = late || sysbatch_cfg.core.placement != SB_PLACEMENT_BOTH ||
                 !late_look_runs(fun);
    if (sysbatch_cfg.abi == SB_ABI_TOCK && !late && late_look_runs(fun) &&
        sysbatch_cfg.core.placement != SB_PLACEMENT_EARLY)
        sysbatch_tock_inline_wrappers(fun);
    /* A wrapper the unit inlines becomes a candidate only after inlining:
     * the whole function is the late look's, so that its call can join
     * the calls around it. */
    if (!final && sysbatch_cfg.abi == SB_ABI_LINUX_X86_64 &&
        sysbatch_calls_inlined_wrapper(fun, sysbatch_cfg.abi))
        return 0;
    if (final)
        mark_decided(fun);
    sysbatch_say_refusals = final;

    sysbatch_look_through_transparent_unions(fun, sysbatch_cfg.abi);
    /* Loops first (loop-analysis.cc); the calls they batch are no
     * region's candidates. */
    hash_set<gimple *> loop_calls;
    bool loops_changed = sysbatch_batch_loops(fun, &loop_calls);
    sysbatch_loop_calls = &loop_calls;
    /* Join splits (join-split.cc) before the regions are formed: a kept
     * split is a block the regions see; each is tried by planning the
     * function again without a word. */
    bool joins_split = sysbatch_cfg.core.plan.join_split &&
                       sysbatch_split_joins(fun, final) > 0;
    auto_vec<struct sysbatch_planned_region> queue;
    sysbatch_plan_function(fun, &queue);
    bool regions_changed = rewrite_queue(&queue) || joins_split;
    sysbatch_loop_calls = NULL;
    sysbatch_say_refusals = true;
    if (!regions_changed && !loops_changed)
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
    pass.pass = new sysbatch_pass(g, false);
    pass.reference_pass_name = "ssa";
    pass.ref_pass_instance_number = 1;
    pass.pos_op = PASS_POS_INSERT_AFTER;
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
    /* After IPA inlining, in the optimizing pipeline (also lto1's LTRANS
     * stage): after value ranges and jump threading have folded a
     * wrapper's own result test into its caller's, before the loop
     * passes. */
    struct register_pass_info late_pass;
    late_pass.pass = new sysbatch_pass(g, true);
    late_pass.reference_pass_name = "vrp";
    late_pass.ref_pass_instance_number = 1;
    late_pass.pos_op = PASS_POS_INSERT_AFTER;
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
                      &late_pass);
    return 0;
}
