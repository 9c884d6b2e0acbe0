/* sysbatch/config.h: the one definition of every user-facing option.
 *
 * Both compiler plugins and sysbatch-plan take the same keys, with the same
 * ranges, defaults, spellings and error texts, because all three hand each
 * key=value pair they are given to sb_config_set():
 *
 *     clang  -fpass-plugin=...  -mllvm -sysbatch-max-slots=100
 *     opt    -passes='sysbatch<max-slots=100;no-blocking>'
 *     gcc    -fplugin=... -fplugin-arg-sysbatch-max-slots=100
 *     sysbatch-plan --max-slots=100
 *
 * all reach sb_config_set(cfg, "max-slots", "100", ...).  A boolean key
 * takes no value and has a "no-" form (verify / no-verify); a later key
 * wins over an earlier one.  An unknown key, a value where none is taken,
 * a missing value, or a value out of range is an error whose text names
 * the key and what it expects; the configuration is then left as it was.
 *
 * Which kernel ABI a run rewrites for is also decided here once
 * (sb_config_resolve_target): the front end only says what its target
 * triple can run.
 */
#ifndef SYSBATCH_CONFIG_H
#define SYSBATCH_CONFIG_H

#include "sysbatch/core.h"

#ifdef __cplusplus
extern "C" {
#endif

enum sb_target {
    SB_TARGET_DEFAULT = 0, /* Linux where the triple is x86_64 Linux,
                              otherwise nothing */
    SB_TARGET_LINUX,       /* sys_batch: x86_64 Linux only */
    SB_TARGET_TOCK,        /* the Tock series call: Thumb and RV32 only */
};

/* How a front end fills a batch's slot (Linux) or frame (Tock) array. */
enum sb_fill_mode {
    SB_FILL_MODE_STORES = 0, /* one store per meaningful word */
    SB_FILL_MODE_TEMPLATE,   /* copy a constant template, then patch */
};

/* Where in the compiler's pipeline the region pass looks (the plugins'
 * registration; the planner does not care).  A function is decided by one
 * look only: the first that batches something in it, or the last. */
enum sb_placement {
    SB_PLACEMENT_BOTH = 0, /* early (before inlining) batches what plans
                              there; what does not is decided late, after
                              the wrappers were inlined */
    SB_PLACEMENT_EARLY,    /* before inlining only (each wrapper alone) */
    SB_PLACEMENT_LATE,     /* after inlining only (-O0, which inlines
                              nothing, still looks early) */
};

struct sb_config {
    struct sb_options plan; /* what the planner is given */
    enum sb_target target;
    enum sb_fill_mode fill;
    enum sb_placement placement;
    bool print_plan;        /* also print every region's plan to stderr */
    bool tock_chains;       /* Tock: blocks linked by exact success tests
                               are one straight-line run */
    bool verify;            /* every batched call site also hands the
                               original arguments to the runtime, which
                               aborts when the slot ran with others */
    bool help;              /* "help" was given: print sb_config_help() */
    char report_dir[512];   /* report=DIR: write this unit's record
                               (sysbatch/report.h) there; "" = none */
};

void sb_config_default(struct sb_config *cfg);

/* Apply one key (value NULL when none was written).  Returns 0, or -1 with
 * a one-line message in err ("sysbatch: ..."), cfg unchanged. */
int sb_config_set(struct sb_config *cfg, const char *key, const char *value,
                  char *err, size_t errlen);

/* Apply a list "key[=value]<sep>key[=value]..." (the LLVM pass parameter
 * form uses ';').  Empty items are skipped.  Stops at the first error. */
int sb_config_set_list(struct sb_config *cfg, const char *list, char sep,
                       char *err, size_t errlen);

/* The keys, for a front end that registers one flag per key (the LLVM
 * pass's -sysbatch-KEY): its name, whether it is a flag (no value, and a
 * "no-" form), and its one-line help. */
size_t sb_config_key_count(void);
const char *sb_config_key_name(size_t i);
bool sb_config_key_is_flag(size_t i);
const char *sb_config_key_help(size_t i);

/* Every key, one per line, with its range and default: the text behind
 * "help" in both plugins and sysbatch-plan --help. */
const char *sb_config_help(void);

/* What a front end's target can run. */
struct sb_target_facts {
    const char *triple;     /* for messages */
    bool linux_x86_64;      /* sys_batch's ABI exists there */
    bool series_isa;        /* Thumb or RV32: Tock's series call exists */
};

/* Decide the ABI: 1 and *abi when the run rewrites, 0 when it has nothing
 * to do (a Tock-capable triple without target=tock; *why says so), -1 with
 * a message in err when the requested target cannot run there. */
int sb_config_resolve_target(const struct sb_config *cfg,
                             const struct sb_target_facts *facts,
                             enum sb_abi *abi, const char **why, char *err,
                             size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_CONFIG_H */
