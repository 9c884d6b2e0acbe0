/* config.c: the option table behind sysbatch/config.h.
 *
 * One row per key.  The row says what the key takes and where it lands in
 * struct sb_config; sb_config_set() is the only code that parses a value,
 * so a range or a spelling exists once for clang, opt, gcc and
 * sysbatch-plan alike.
 */
#include "sysbatch/config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The runtime's (and our kernel module's) cap on slots per batch. */
#define SB_CONFIG_MAX_SLOTS 1024

enum key_kind { KEY_INT, KEY_FLAG, KEY_CHOICE, KEY_HELP, KEY_PATH };

struct choice {
    const char *word;
    int value;
};

struct key_row {
    const char *name;
    enum key_kind kind;
    size_t offset;        /* of the int / bool / enum in struct sb_config */
    int lo, hi;           /* KEY_INT */
    const struct choice *choices; /* KEY_CHOICE, NULL-terminated */
    const char *help;
};

static const struct choice target_choices[] = {
    {"linux", SB_TARGET_LINUX}, {"tock", SB_TARGET_TOCK}, {NULL, 0}};
static const struct choice fill_choices[] = {
    {"stores", SB_FILL_MODE_STORES}, {"template", SB_FILL_MODE_TEMPLATE},
    {NULL, 0}};

static const struct choice placement_choices[] = {
    {"both", SB_PLACEMENT_BOTH}, {"early", SB_PLACEMENT_EARLY},
    {"late", SB_PLACEMENT_LATE}, {NULL, 0}};

#define AT(field) offsetof(struct sb_config, field)

static const struct key_row keys[] = {
    {"min-batch", KEY_INT, AT(plan.min_batch), 1, SB_MAX_REGION_CALLS, NULL,
     "smallest batch worth a crossing"},
    {"max-slots", KEY_INT, AT(plan.max_slots), 1, SB_CONFIG_MAX_SLOTS, NULL,
     "most slots (calls and word copies) in one batch"},
    {"blocking", KEY_FLAG, AT(plan.allow_blocking), 0, 0, NULL,
     "batch calls that may sleep (read, close...); no-blocking leaves them"},
    {"target", KEY_CHOICE, AT(target), 0, 0, target_choices,
     "kernel ABI: linux (sys_batch, x86_64 Linux) or tock (series call, "
     "Thumb/RV32); default linux on x86_64 Linux, nothing elsewhere"},
    {"fill", KEY_CHOICE, AT(fill), 0, 0, fill_choices,
     "how slots (Tock: frames) are filled"},
    {"verify", KEY_FLAG, AT(verify), 0, 0, NULL,
     "each batched call site checks at run time that its slot ran with the "
     "original arguments (aborts with file:line otherwise)"},
    {"print-plan", KEY_FLAG, AT(print_plan), 0, 0, NULL,
     "also print every region's plan to stderr"},
    {"tock-chains", KEY_FLAG, AT(tock_chains), 0, 0, NULL,
     "Tock: blocks linked by exact success tests are one run"},
    {"tock-yield", KEY_FLAG, AT(plan.series_yield), 0, 0, NULL,
     "Tock: a yield may close a series (default; no-tock-yield for a "
     "libtock-c older than June 2025, whose yield() may run a queued task)"},
    {"loops", KEY_FLAG, AT(plan.loops), 0, 0, NULL,
     "batch the calls of many iterations of a loop with one system call "
     "site"},
    {"join-split", KEY_FLAG, AT(plan.join_split), 0, 0, NULL,
     "copy a join block's first system call onto the edge from a path with "
     "a call, where that makes it batch (no-join-split leaves joins whole)"},
    {"loop-slots", KEY_INT, AT(plan.loop_slots), 1, SB_CONFIG_MAX_SLOTS, NULL,
     "iterations per loop batch (at most max-slots)"},
    {"placement", KEY_CHOICE, AT(placement), 0, 0, placement_choices,
     "where the pass looks: both (default: before inlining what batches "
     "there, the rest after inlining and at link time with LTO), early "
     "(before inlining only) or late (after inlining only; -O0 looks "
     "early)"},
    {"report", KEY_PATH, AT(report_dir), 0, 0, NULL,
     "write one record per translation unit into DIR (sysbatch-report DIR "
     "sums them up)"},
    {"help", KEY_HELP, AT(help), 0, 0, NULL, "print this text"},
};

#define NKEYS (sizeof keys / sizeof keys[0])

void sb_config_default(struct sb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    sb_options_default(&cfg->plan);
    cfg->target = SB_TARGET_DEFAULT;
    cfg->fill = SB_FILL_MODE_STORES;
    cfg->placement = SB_PLACEMENT_BOTH;
    cfg->tock_chains = true;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const struct key_row *find_key(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

static void choice_words(const struct choice *c, char *out, size_t len)
{
    out[0] = 0;
    for (; c->word; c++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s'%s'", used ? " or " : "",
                 c->word);
    }
}

static int known_keys(char *err, size_t errlen, const char *key)
{
    char list[256] = "";
    for (size_t i = 0; i < NKEYS; i++) {
        size_t used = strlen(list);
        const char *pre = keys[i].kind == KEY_FLAG ? "[no-]" : "";
        const char *post = keys[i].kind == KEY_INT      ? "=N"
                           : keys[i].kind == KEY_CHOICE ? "=..."
                           : keys[i].kind == KEY_PATH   ? "=DIR"
                                                        : "";
        snprintf(list + used, sizeof list - used, "%s%s%s%s",
                 used ? ", " : "", pre, keys[i].name, post);
    }
    return fail(err, errlen, "sysbatch: unknown option '%s' (known: %s)", key,
                list);
}

int sb_config_set(struct sb_config *cfg, const char *key, const char *value,
                  char *err, size_t errlen)
{
    bool negated = false;
    const struct key_row *row = find_key(key);
    if (!row && strncmp(key, "no-", 3) == 0) {
        row = find_key(key + 3);
        negated = row != NULL;
        if (row && row->kind != KEY_FLAG)
            return known_keys(err, errlen, key);
    }
    if (!row)
        return known_keys(err, errlen, key);
    char *field = (char *)cfg + row->offset;
    switch (row->kind) {
    case KEY_FLAG:
    case KEY_HELP:
        if (value)
            return fail(err, errlen, "sysbatch: '%s' takes no value (got '%s')",
                        key, value);
        *(bool *)field = !negated;
        return 0;
    case KEY_INT: {
        if (!value || !*value)
            return fail(err, errlen,
                        "sysbatch: '%s' wants an integer from %d to %d",
                        key, row->lo, row->hi);
        char *end;
        errno = 0;
        long v = strtol(value, &end, 10);
        if (*end || errno || v < row->lo || v > row->hi)
            return fail(err, errlen,
                        "sysbatch: bad value '%s' for '%s': expected an "
                        "integer from %d to %d",
                        value, key, row->lo, row->hi);
        *(int *)field = (int)v;
        return 0;
    }
    case KEY_PATH: {
        size_t cap = sizeof ((struct sb_config *)0)->report_dir;
        if (!value || !*value)
            return fail(err, errlen, "sysbatch: '%s' wants a directory", key);
        if (strlen(value) >= cap)
            return fail(err, errlen,
                        "sysbatch: '%s': directory name longer than %zu bytes",
                        key, cap - 1);
        memcpy(field, value, strlen(value) + 1);
        return 0;
    }
    case KEY_CHOICE: {
        for (const struct choice *c = row->choices; value && c->word; c++)
            if (strcmp(c->word, value) == 0) {
                memcpy(field, &c->value, sizeof c->value);
                return 0;
            }
        char words[128];
        choice_words(row->choices, words, sizeof words);
        return fail(err, errlen, "sysbatch: bad value '%s' for '%s': expected %s",
                    value ? value : "", key, words);
    }
    }
    return fail(err, errlen, "sysbatch: internal error: key '%s'", key);
}

int sb_config_set_list(struct sb_config *cfg, const char *list, char sep,
                       char *err, size_t errlen)
{
    struct sb_config next = *cfg; /* all or nothing */
    const char *p = list;
    while (p && *p) {
        const char *end = strchr(p, sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len) {
            char item[256];
            if (len >= sizeof item)
                return fail(err, errlen, "sysbatch: option '%.32s...' is too long",
                            p);
            memcpy(item, p, len);
            item[len] = 0;
            char *eq = strchr(item, '=');
            if (eq)
                *eq++ = 0;
            if (sb_config_set(&next, item, eq, err, errlen) < 0)
                return -1;
        }
        p = end ? end + 1 : NULL;
    }
    *cfg = next;
    return 0;
}

size_t sb_config_key_count(void) { return NKEYS; }

const char *sb_config_key_name(size_t i)
{
    return i < NKEYS ? keys[i].name : NULL;
}

bool sb_config_key_is_flag(size_t i)
{
    return i < NKEYS && keys[i].kind == KEY_FLAG;
}

const char *sb_config_key_help(size_t i)
{
    return i < NKEYS ? keys[i].help : NULL;
}

const char *sb_config_help(void)
{
    static char text[2048];
    if (text[0])
        return text;
    struct sb_config d;
    sb_config_default(&d);
    size_t used = 0;
    for (size_t i = 0; i < NKEYS && used < sizeof text; i++) {
        const struct key_row *row = &keys[i];
        char name[48], dflt[48] = "";
        const char *field = (const char *)&d + row->offset;
        switch (row->kind) {
        case KEY_INT:
            snprintf(name, sizeof name, "%s=%d..%d", row->name, row->lo,
                     row->hi);
            snprintf(dflt, sizeof dflt, " (default %d)", *(const int *)field);
            break;
        case KEY_FLAG:
            snprintf(name, sizeof name, "[no-]%s", row->name);
            snprintf(dflt, sizeof dflt, " (default %s)",
                     *(const bool *)field ? "on" : "off");
            break;
        case KEY_CHOICE: {
            int v;
            memcpy(&v, field, sizeof v);
            size_t n = (size_t)snprintf(name, sizeof name, "%s=", row->name);
            for (const struct choice *c = row->choices; c->word; c++) {
                n += (size_t)snprintf(name + n, sizeof name - n, "%s%s",
                                      c == row->choices ? "" : "|", c->word);
                if (c->value == v)
                    snprintf(dflt, sizeof dflt, " (default %s)", c->word);
            }
            break;
        }
        case KEY_HELP:
            snprintf(name, sizeof name, "%s", row->name);
            break;
        case KEY_PATH:
            snprintf(name, sizeof name, "%s=DIR", row->name);
            snprintf(dflt, sizeof dflt, " (default none)");
            break;
        }
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "  %-24s %s%s\n", name, row->help, dflt);
    }
    return text;
}

int sb_config_resolve_target(const struct sb_config *cfg,
                             const struct sb_target_facts *facts,
                             enum sb_abi *abi, const char **why, char *err,
                             size_t errlen)
{
    const char *triple = facts->triple ? facts->triple : "?";
    *why = NULL;
    switch (cfg->target) {
    case SB_TARGET_DEFAULT:
        if (!facts->linux_x86_64) {
            *why = "not x86_64 Linux and no target given (target=tock for "
                   "Tock apps)";
            return 0;
        }
        *abi = SB_ABI_LINUX_X86_64;
        return 1;
    case SB_TARGET_LINUX:
        if (!facts->linux_x86_64)
            return fail(err, errlen,
                        "sysbatch: target=linux needs an x86_64 Linux target "
                        "(the only sys_batch ABI), not '%s'",
                        triple);
        *abi = SB_ABI_LINUX_X86_64;
        return 1;
    case SB_TARGET_TOCK:
        if (!facts->series_isa)
            return fail(err, errlen,
                        "sysbatch: target=tock needs a Thumb or riscv32 "
                        "target, where the series call exists, not '%s'",
                        triple);
        *abi = SB_ABI_TOCK;
        return 1;
    }
    return fail(err, errlen, "sysbatch: internal error: target %d",
                (int)cfg->target);
}
