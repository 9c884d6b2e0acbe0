/* sysbatch-plan: plan a region described in text and print the plan, so the
 * planner can be tested (and explored) without a compiler.
 *
 * Usage:
 *   sysbatch-plan [options] [FILE|-]     plan a region (stdin without FILE)
 *   sysbatch-plan --catalog              print every catalogue row
 *   sysbatch-plan --reasons              print every refusal reason
 * Options:
 *   --KEY[=VALUE]     every plugin option (sysbatch/config.h: min-batch=N,
 *                     max-slots=N, [no-]blocking, target=linux|tock, ...),
 *                     parsed by the same code as in both plugins;
 *                     --abi=linux|tock is --target=...
 *   --check-hazards   also check the plan against the sys_batch hazards;
 *                     prints "hazards: none" or the first violation (exit 1)
 *   --simulate        branchy regions: run the plan as the kernel would for
 *                     every combination of result sign classes (and of the
 *                     values of predicated branches) and compare
 *                     the calls made with the program's path (exit 1 on a
 *                     difference)
 *   --branch-end      branchy regions: after the plan, what a lone call of
 *                     the entry block says kept the calls after its branch
 *                     out (sb_branch_end_why, from the plan and the
 *                     terminators' why="..."): "branch end: TEXT" or
 *                     "branch end: none"
 *   --call-sites      after the plan, per batch: sysbatch_run's flags
 *                     (sb_rt_run_flags) and how its call sites take their
 *                     results (sb_rt_all_ran_test, with the region's events
 *                     from the first call to the last as the stretch a
 *                     front end would copy): "one all-ran test" or
 *                     "per-slot tests"
 *   --cond CONV BITS OP CONSTANT   print sb_cond_classes() (mask and names)
 *   --runtime-abi     print the runtime symbols rewritten code refers to
 *                     (sysbatch/runtime-abi.h) as C declarations, each
 *                     followed by a comment naming its ABI and version node
 *   --cfg FILE        print the branchy regions sb_cfg_form_region() forms
 *                     (lines `entry E`) and the join splits
 *                     sb_cfg_join_split_edge() picks (lines `join J [FROM]`)
 *                     over a CFG described one block per line, in function
 *                     order: `block calls=N [preds=I,J] [abnormal]
 *                     [covered] [unreachable]`, then `entry E` lines (one
 *                     region printed per entry: "entry E: blocks 0 1 2" or
 *                     "entry E: none")
 *   --tock-test ROW FIELD [STEP...] OP CONSTANT
 *                     print sb_tock_stop_test() for a test on word 0 of a
 *                     Tock call's result: FIELD and CONVERT steps are u8,
 *                     s8, u32, s1, ... (width, read unsigned or signed),
 *                     other steps `not` (~) and `lnot` (!); OP as for --cond
 *   --tock-test ROW CONVERTER FIELD [STEP...] OP CONSTANT
 *                     the same for a test on libtock-c's CONVERTER applied
 *                     to the call's result (sb_tock_converter_test; the
 *                     reason follows a not-exact class)
 *   --tock-template=words|bytes|compact   Tock regions: after the plan, each
 *                     batch's frame words (sb_tock_frame_words: constants,
 *                     aN for libc argument N) and its template bytes
 *                     (sb_tock_template)
 *   --libc            print every libc function that is code, not a barrier
 *                     (sysbatch/libc.h), with what it reads and writes
 *   --libc-call NAME NARGS [FORMAT]   the accesses of one call (FORMAT: its
 *                     constant printf format), or why it stays a barrier
 *   --addr-touches NAME [aK=const:N|aK=avail]...   whether a call of NAME
 *                     with those arguments changes memory that exists before
 *                     it (sb_call_addr_touches_memory)
 *   --libc-calls FILE the same for every line "NAME NARGS [FORMAT]" of FILE
 *                     (the format is the rest of the line; '#' lines and
 *                     empty ones are skipped)
 *
 * Region format, one item per line, in program order ('#' starts a comment):
 *
 *     abi linux                        optional, overrides --abi; must come
 *                                      before the first call
 *     call open a0=avail a1=const:0    a call; calls are numbered 0, 1, ...
 *     call read a0=ret:0 a1=avail a2=const:4096
 *     code conflicts=2 why="store to buf[0]"
 *     barrier why="call to printf"
 *     call close a0=ret:0
 *     call syscall a0=const:39         syscall(NR, ...): a0 is NR
 *     call foo why-not="front end said no"
 *
 * Argument values: const:N (decimal, 0x hex, 0 octal, negative), avail
 * (defined before the region), avail:nonneg (that, and proven to be in
 * 0..INT32_MAX at the call by a dominating branch), avail:nonnull (a
 * pointer proven not NULL at the call), avail:same=N (value number N: every
 * operand with the same N holds the same value where the batch is issued;
 * facts combine, avail:nonneg:same=1), ret:J (result of earlier call J; ret:J/W
 * when a conversion narrowed it to W bits on the way, as in (int)lseek()),
 * mem:J:A:OFF (the 8-byte word at byte OFF of the buffer call J wrote
 * through its argument A, e.g. st.st_size after fstat: mem:0:1:48), local
 * (computed inside the region).  Arguments a0..a6 must be given without
 * gaps; the call has as many arguments as the highest one given plus one.
 * A callee that is not in the catalogue is kept (and refused as
 * not-in-catalog).  `code` without conflicts= conflicts with nothing;
 * conflicts=J,K lists the calls it may not move across; `barrier` conflicts
 * with every call.
 *
 * Branchy regions (sb_region.nblocks > 0): `block` lines start blocks, and a
 * terminator line ends the open one (default: exit):
 *
 *     block                            block 0 (the entry; must have a call)
 *     call open a0=avail a1=const:0
 *     cond 0 neg=exit zero=1 pos=1     on call 0's sign class: block or exit
 *     block                            block 1
 *     call fstat a0=ret:0 a1=avail
 *     goto 2                           (or: exit)
 *     pred true=2 false=3              a branch on a value available where
 *                                      the batch is issued (SB_TERM_PRED):
 *                                      block or exit when it holds / not
 *     exit why="the branch's ..."      any terminator may end with why="...":
 *                                      the front end's reason the branch
 *                                      ends the region (--branch-end)
 *     block first=E events=N           overrides the block's event range
 *                                      (to describe malformed regions)
 *
 * A straight-line region may end with what follows its last call
 * (sb_region_end: the reason a lone call gives):
 *
 *     after branch back-edge           TERM is return, jump or branch;
 *                                      facts: only-call, split,
 *                                      no-call-follows, back-edge,
 *                                      loop-exit, barrier="call to free",
 *                                      branch-why="..." (sb_region_end.
 *                                      branch_why: why the branchy region
 *                                      at this block batched nothing past
 *                                      its branch), decided-next=SYM
 *                                      (sb_region_end.decided_next)
 *
 * A file without `block` lines is the straight-line form.  Block indices and
 * the cond call are passed to the planner unchecked (it validates them).
 *
 * Loops (sysbatch/loop.h): a file that starts with `loop` describes one
 * loop around one call site and prints its loop plan:
 *
 *     loop
 *     call lstat a0=avail a1=avail     the call, operands as above
 *     value a0=induction a1=invariant  across iterations: invariant,
 *                                      induction, carried, unrepeatable,
 *                                      built (size-aN=BYTES: the buffer's
 *                                      size) or built-otherwise
 *                                      (why-aN="..." says why)
 *     build string@0 append@0          rule 6: how the loop builds a
 *                                      `built` buffer, step by step
 *                                      (string@OFF, append@OFF,
 *                                      fixed@OFF:BYTES, other)
 *     path fail=next zero=next pos=leaves why-pos="break"
 *                                      per result class: next, leaves,
 *                                      conflict (default next) or exits
 *                                      (leaves on every path)
 *     guard always                     or repeated, unknown [why="..."]
 *     loads unproven why="p[i]"        or proven (the default)
 *     other-calls 0                    other call sites in the loop
 *     other-calls 2 barrier="call to error"
 *                                      ... and the first code in it that
 *                                      may touch anything
 *     calls strlen                     rule 8: the libc functions the
 *                                      inspector calls again to compute
 *                                      arguments
 *     stop-writes 1 classes=fail,pos [why="..."]
 *                                      rule 9: writes left out because
 *                                      only these classes reach them
 *     chase 1 [early="..."]           rule 10: pointer chases among the
 *                                      induction variables, and the exit
 *                                      test after the call that may leave
 *                                      before the link is loaded
 *     checked-writes 2 [why="..."] [paths=N] [reads=N] [strings=aK]
 *                                      writes the run-time check of
 *                                      `checked` values compares, and N
 *                                      conflicts on the paths it covers
 *                                      (rule 7); strings=a0[,aK...]: the
 *                                      names whose strings it measures
 *
 * Hand-written slots (for testing the hazard checker; no calls allowed):
 *
 *     slot call nr=0 argc=3 fail=-1 zero=0 pos=0 chained=0
 *     slot copy src=0 dst=2 arg=0 [srcarg=A offset=N]   (copy from memory)
 *
 * Malformed input is reported as FILE:LINE: message, exit status 2.
 */
#include "sysbatch/cfg.h"
#include "sysbatch/config.h"
#include "sysbatch/runtime-abi.h"
#include "sysbatch/core.h"
#include "sysbatch/tock.h"
#include "sysbatch/libc.h"
#include "sysbatch/loop.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096
#define MAX_TOKENS 32

struct input {
    const char *file;
    int line;
    struct sb_region region;
    int events_cap;
    int ncalls;
    bool saw_call;
    /* blocks (a branchy region); none: the straight-line form */
    struct sb_block *blocks;
    int blocks_cap;
    bool block_has_term;     /* the open block's terminator was given */
    const char *term_why[SB_MAX_REGION_BLOCKS]; /* terminators' why="..." */
    bool count_given;        /* block events=N given */
    /* hand-written slots */
    struct sb_slot_plan *slots;
    int nslots, slots_cap;
    /* a loop (the file starts with `loop`): its one call is events[0] */
    bool loop_mode;
    struct sb_loop loop;
    /* strings the region points to */
    char **strings;
    int nstrings, strings_cap;
};

static void die(const struct input *in, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "sysbatch-plan: %s:%d: ", in->file, in->line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(2);
}

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *q = realloc(p, (size_t)ncap * size);
    if (!q) {
        fprintf(stderr, "sysbatch-plan: out of memory\n");
        exit(2);
    }
    *cap = ncap;
    return q;
}

static const char *keep(struct input *in, const char *s)
{
    in->strings = grow(in->strings, &in->strings_cap, in->nstrings + 1,
                       sizeof *in->strings);
    size_t len = strlen(s) + 1;
    char *copy = malloc(len);
    if (copy)
        memcpy(copy, s, len);
    if (!copy) {
        fprintf(stderr, "sysbatch-plan: out of memory\n");
        exit(2);
    }
    in->strings[in->nstrings++] = copy;
    return copy;
}

/* Split a line into words; key="a b" stays one word with the quotes
 * removed.  Returns the number of words. */
static int tokenize(struct input *in, char *line, char **tok)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            break;
        if (n == MAX_TOKENS)
            die(in, "too many words on one line");
        tok[n++] = p;
        char *w = p;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1])
                        p++;
                    *w++ = *p++;
                }
                if (*p != '"')
                    die(in, "unterminated string");
                p++;
                continue;
            }
            *w++ = *p++;
        }
        bool more = *p != 0;
        if (more)
            p++;
        *w = 0;
        if (!more)
            break;
    }
    return n;
}

static long parse_long(const struct input *in, const char *s, const char *what)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (!*s || *end || errno)
        die(in, "%s: '%s' is not an integer", what, s);
    return v;
}

static struct sb_event *new_event(struct input *in)
{
    if (in->region.nblocks && in->block_has_term)
        die(in, "an event after the block's terminator (start a new 'block')");
    in->region.events = grow(in->region.events, &in->events_cap,
                             in->region.nevents + 1, sizeof(struct sb_event));
    struct sb_event *ev = &in->region.events[in->region.nevents++];
    memset(ev, 0, sizeof *ev);
    return ev;
}

static void parse_call(struct input *in, char **tok, int ntok)
{
    if (in->nslots)
        die(in, "'call' cannot be mixed with hand-written slots");
    if (ntok < 2)
        die(in, "'call' needs a callee name");
    struct sb_event *ev = new_event(in);
    ev->kind = SB_EV_CALL;
    struct sb_call_event *call = &ev->u.call;
    call->symbol = keep(in, tok[1]);
    call->row = sb_catalog_lookup(in->region.abi, tok[1]);
    /* A row of the other ABI is kept so the planner can say wrong-abi
     * rather than not-in-catalog (command() in a Linux region). */
    if (!call->row)
        call->row = sb_catalog_lookup(in->region.abi == SB_ABI_TOCK
                                          ? SB_ABI_LINUX_X86_64
                                          : SB_ABI_TOCK,
                                      tok[1]);
    bool given[SB_MAX_ARGS + 1] = {false};
    for (int t = 2; t < ntok; t++) {
        char *eq = strchr(tok[t], '=');
        if (!eq)
            die(in, "expected aN=VALUE or why-not=\"...\", got '%s'", tok[t]);
        *eq = 0;
        const char *key = tok[t], *val = eq + 1;
        if (strcmp(key, "why-not") == 0) {
            call->why_not = keep(in, val);
            continue;
        }
        if (key[0] != 'a' || key[1] < '0' || key[1] > '6' || key[2])
            die(in, "unknown call attribute '%s' (expected a0..a6 or why-not)",
                key);
        int k = key[1] - '0';
        if (given[k])
            die(in, "argument a%d given twice", k);
        given[k] = true;
        struct sb_operand *op = &call->args[k];
        if (strncmp(val, "const:", 6) == 0) {
            op->kind = SB_OPND_CONST;
            op->value = parse_long(in, val + 6, "const");
        } else if (strncmp(val, "avail", 5) == 0 &&
                   (val[5] == 0 || val[5] == ':')) {
            /* avail[:nonneg][:nonnull][:same=N]: the facts a front end
             * proves about a value defined before the region. */
            op->kind = SB_OPND_AVAILABLE;
            for (const char *f = val + 5; *f == ':';) {
                f++;
                size_t len = strcspn(f, ":");
                if (len == 6 && strncmp(f, "nonneg", 6) == 0) {
                    op->nonneg = true;
                } else if (len == 7 && strncmp(f, "nonnull", 7) == 0) {
                    op->nonnull = true;
                } else if (len > 5 && strncmp(f, "same=", 5) == 0) {
                    char num[32];
                    snprintf(num, sizeof num, "%.*s", (int)(len - 5), f + 5);
                    long n = parse_long(in, num, "avail:same=N");
                    if (n < 1 || n > 65535)
                        die(in, "a%d: avail:same=N: N out of range "
                                "1..65535", k);
                    op->same = (uint16_t)n;
                } else {
                    die(in, "a%d: unknown fact '%.*s' (expected nonneg, "
                            "nonnull or same=N)", k, (int)len, f);
                }
                f += len;
            }
        } else if (strcmp(val, "local") == 0) {
            op->kind = SB_OPND_LOCAL;
        } else if (strncmp(val, "mem:", 4) == 0) {
            long j, a, off;
            char extra;
            if (sscanf(val + 4, "%ld:%ld:%ld%c", &j, &a, &off, &extra) != 3)
                die(in, "a%d: expected mem:J:A:OFFSET, got '%s'", k, val);
            if (j < 0 || j >= in->ncalls)
                die(in, "mem:%ld does not name an earlier call (this is call "
                        "%d)", j, in->ncalls);
            if (a < 0 || a > SB_MAX_ARGS)
                die(in, "mem: argument %ld out of range 0..%d", a,
                    SB_MAX_ARGS);
            op->kind = SB_OPND_MEMORY;
            op->call = (int)j;
            op->arg = (int)a;
            op->value = off;
        } else if (strncmp(val, "ret:", 4) == 0) {
            /* ret:J/W: converted through W bits on the way ((int)lseek). */
            char num[32];
            const char *slash = strchr(val + 4, '/');
            size_t len = slash ? (size_t)(slash - (val + 4)) : strlen(val + 4);
            snprintf(num, sizeof num, "%.*s", (int)len, val + 4);
            long j = parse_long(in, num, "ret");
            if (slash) {
                long w = parse_long(in, slash + 1, "ret:J/W");
                if (w < 1 || w > 64)
                    die(in, "ret:J/W: width %ld out of range 1..64", w);
                op->narrowest_bits = (uint8_t)(w == 64 ? 0 : w);
            }
            if (j < 0 || j >= in->ncalls)
                die(in, "ret:%ld does not name an earlier call (this is call "
                        "%d)", j, in->ncalls);
            op->kind = SB_OPND_RESULT;
            op->call = (int)j;
        } else {
            die(in, "a%d: unknown value '%s' (expected const:N, avail, "
                    "avail[:nonneg][:nonnull][:same=N], "
                    "ret:J[/W], mem:J:A:OFFSET or local)", k, val);
        }
        if (k + 1 > call->nargs)
            call->nargs = k + 1;
    }
    for (int k = 0; k < call->nargs; k++)
        if (!given[k])
            die(in, "argument a%d missing (arguments must not have gaps)", k);
    in->ncalls++;
    in->saw_call = true;
}

static void parse_code(struct input *in, char **tok, int ntok, bool barrier)
{
    if (in->nslots)
        die(in, "'%s' cannot be mixed with hand-written slots", tok[0]);
    struct sb_event *ev = new_event(in);
    ev->kind = SB_EV_CODE;
    struct sb_code_event *code = &ev->u.code;
    code->barrier = barrier;
    for (int t = 1; t < ntok; t++) {
        char *eq = strchr(tok[t], '=');
        if (!eq)
            die(in, "expected key=value, got '%s'", tok[t]);
        *eq = 0;
        const char *key = tok[t];
        char *val = eq + 1;
        if (strcmp(key, "why") == 0) {
            code->why = keep(in, val);
        } else if (strcmp(key, "conflicts") == 0 && !barrier) {
            for (char *item = strtok(val, ","); item;
                 item = strtok(NULL, ",")) {
                long j = parse_long(in, item, "conflicts");
                if (j < 0 || j >= SB_MAX_REGION_CALLS)
                    die(in, "conflicts: call %ld out of range 0..%d", j,
                        SB_MAX_REGION_CALLS - 1);
                code->conflicts |= (uint64_t)1 << j;
            }
        } else {
            die(in, "unknown %s attribute '%s'", tok[0], key);
        }
    }
}

/* `after TERM [fact...]`: what follows a straight-line region's last call
 * (sb_region_end), for the reasons of lone calls. */
static void parse_after(struct input *in, char **tok, int ntok)
{
    static const char *const terms[] = {"unsaid", "return", "jump", "branch"};
    struct sb_region_end *end = &in->region.end;
    if (in->region.nblocks)
        die(in, "'after' describes a straight-line region only");
    if (ntok < 2)
        die(in, "'after' takes a terminator: return, jump or branch");
    bool known = false;
    for (int i = 1; i < 4; i++)
        if (strcmp(tok[1], terms[i]) == 0) {
            end->term = (uint8_t)i;
            known = true;
        }
    if (!known)
        die(in, "unknown terminator '%s' (expected return, jump or branch)",
            tok[1]);
    for (int t = 2; t < ntok; t++) {
        if (strcmp(tok[t], "only-call") == 0)
            end->only_call = true;
        else if (strcmp(tok[t], "split") == 0)
            end->split = true;
        else if (strcmp(tok[t], "no-call-follows") == 0)
            end->no_call_follows = true;
        else if (strcmp(tok[t], "back-edge") == 0)
            end->back_edge = true;
        else if (strcmp(tok[t], "loop-exit") == 0)
            end->loop_exit = true;
        else if (strncmp(tok[t], "barrier=", 8) == 0)
            end->barrier = keep(in, tok[t] + 8);
        else if (strncmp(tok[t], "branch-why=", 11) == 0)
            end->branch_why = keep(in, tok[t] + 11);
        else if (strncmp(tok[t], "decided-next=", 13) == 0)
            end->decided_next = keep(in, tok[t] + 13);
        else
            die(in, "unknown 'after' fact '%s' (expected only-call, split, "
                    "no-call-follows, back-edge, loop-exit, barrier=\"...\", "
                    "branch-why=\"...\" or decided-next=SYMBOL)",
                tok[t]);
    }
}

static void parse_slot(struct input *in, char **tok, int ntok)
{
    if (in->saw_call || in->region.nevents)
        die(in, "'slot' cannot be mixed with calls or code");
    if (in->region.nblocks)
        die(in, "'slot' cannot be mixed with blocks");
    if (ntok < 2 || (strcmp(tok[1], "call") && strcmp(tok[1], "copy")))
        die(in, "'slot' needs a kind: call or copy");
    in->slots = grow(in->slots, &in->slots_cap, in->nslots + 1,
                     sizeof *in->slots);
    struct sb_slot_plan *s = &in->slots[in->nslots++];
    memset(s, 0, sizeof *s);
    bool copy = strcmp(tok[1], "copy") == 0;
    s->kind = copy ? SB_SLOT_COPY : SB_SLOT_CALL;
    s->call = copy ? -1 : in->nslots - 1;
    s->nr = copy ? -2 : 0;
    s->argc = copy ? 2 : 0;
    s->copy_src_slot = s->copy_dst_slot = s->copy_dst_arg = -1;
    s->copy_src_arg = -1;
    for (int t = 2; t < ntok; t++) {
        char *eq = strchr(tok[t], '=');
        if (!eq)
            die(in, "expected key=value, got '%s'", tok[t]);
        *eq = 0;
        const char *key = tok[t];
        char *val = eq + 1;
        if (strcmp(key, "chained") == 0 && !copy) {
            for (char *item = strtok(val, ","); item;
                 item = strtok(NULL, ",")) {
                long a = parse_long(in, item, "chained");
                if (a < 0 || a >= SB_MAX_ARGS)
                    die(in, "chained: argument %ld out of range 0..5", a);
                s->args[a].fill = SB_FILL_CHAINED;
            }
            continue;
        }
        long v = parse_long(in, val, key);
        if (strcmp(key, "fail") == 0)
            s->jump_fail = (short)v;
        else if (strcmp(key, "zero") == 0)
            s->jump_zero = (short)v;
        else if (strcmp(key, "pos") == 0)
            s->jump_pos = (short)v;
        else if (strcmp(key, "nr") == 0)
            s->nr = (int)v;
        else if (strcmp(key, "argc") == 0)
            s->argc = (int)v;
        else if (copy && strcmp(key, "src") == 0)
            s->copy_src_slot = (int)v;
        else if (copy && strcmp(key, "dst") == 0)
            s->copy_dst_slot = (int)v;
        else if (copy && strcmp(key, "arg") == 0)
            s->copy_dst_arg = (int)v;
        else if (copy && strcmp(key, "srcarg") == 0)
            s->copy_src_arg = (int)v;
        else if (copy && strcmp(key, "offset") == 0)
            s->copy_src_offset = v;
        else
            die(in, "unknown slot attribute '%s'", key);
    }
}

/* Close the open block: it owns the events since its `block` line unless
 * first=/events= said otherwise (for describing malformed regions). */
static void end_block(struct input *in)
{
    if (!in->region.nblocks)
        return;
    struct sb_block *b = &in->region.blocks[in->region.nblocks - 1];
    if (!in->count_given)
        b->nevents = in->region.nevents - b->first_event;
}

static void parse_block(struct input *in, char **tok, int ntok)
{
    if (in->nslots)
        die(in, "'block' cannot be mixed with hand-written slots");
    if (!in->region.nblocks && in->region.nevents)
        die(in, "events before the first 'block' line (a region with blocks "
                "starts with one)");
    end_block(in);
    in->blocks = grow(in->blocks, &in->blocks_cap, in->region.nblocks + 1,
                      sizeof *in->blocks);
    in->region.blocks = in->blocks;
    struct sb_block *b = &in->blocks[in->region.nblocks++];
    memset(b, 0, sizeof *b);
    b->first_event = in->region.nevents;
    b->term = SB_TERM_EXIT;
    b->cond_call = -1;
    b->succ[0] = b->succ[1] = b->succ[2] = SB_BLOCK_EXIT;
    in->block_has_term = false;
    in->count_given = false;
    for (int t = 1; t < ntok; t++) {
        char *eq = strchr(tok[t], '=');
        if (!eq)
            die(in, "expected first=N or events=N, got '%s'", tok[t]);
        *eq = 0;
        long v = parse_long(in, eq + 1, tok[t]);
        if (strcmp(tok[t], "first") == 0) {
            b->first_event = (int)v;
        } else if (strcmp(tok[t], "events") == 0) {
            b->nevents = (int)v;
            in->count_given = true;
        } else {
            die(in, "unknown block attribute '%s' (expected first or events)",
                tok[t]);
        }
    }
}

/* A successor: a block index (checked by the planner) or `exit`. */
static int parse_target(const struct input *in, const char *s)
{
    if (strcmp(s, "exit") == 0)
        return SB_BLOCK_EXIT;
    return (int)parse_long(in, s, "target block");
}

static void parse_terminator(struct input *in, char **tok, int ntok)
{
    if (!in->region.nblocks)
        die(in, "'%s' outside a block (start one with 'block')", tok[0]);
    if (in->block_has_term)
        die(in, "the block already has a terminator");
    struct sb_block *b = &in->blocks[in->region.nblocks - 1];
    if (ntok > 1 && strncmp(tok[ntok - 1], "why=", 4) == 0) {
        if (in->region.nblocks <= SB_MAX_REGION_BLOCKS)
            in->term_why[in->region.nblocks - 1] = keep(in, tok[ntok - 1] + 4);
        ntok--;
    }
    if (strcmp(tok[0], "exit") == 0) {
        if (ntok != 1)
            die(in, "'exit' takes no arguments");
        b->term = SB_TERM_EXIT;
    } else if (strcmp(tok[0], "goto") == 0) {
        if (ntok != 2)
            die(in, "'goto' takes one target: a block index or exit");
        b->term = SB_TERM_GOTO;
        b->succ[0] = parse_target(in, tok[1]);
    } else if (strcmp(tok[0], "pred") == 0) {
        if (ntok != 3)
            die(in, "'pred' needs two targets: pred true=B false=B");
        b->term = SB_TERM_PRED;
        static const char *const keys[2] = {"true", "false"};
        for (int k = 0; k < 2; k++) {
            char *eq = strchr(tok[1 + k], '=');
            if (!eq)
                die(in, "expected %s=B, got '%s'", keys[k], tok[1 + k]);
            *eq = 0;
            if (strcmp(tok[1 + k], keys[k]) != 0)
                die(in, "expected %s=B, got '%s=' (targets go true, "
                        "false)", keys[k], tok[1 + k]);
            b->succ[k] = parse_target(in, eq + 1);
        }
    } else {
        if (ntok != 5)
            die(in, "'cond' needs a call and three targets: cond J neg=B "
                    "zero=B pos=B");
        b->term = SB_TERM_COND;
        b->cond_call = (int)parse_long(in, tok[1], "cond call");
        static const char *const keys[3] = {"neg", "zero", "pos"};
        for (int k = 0; k < 3; k++) {
            char *eq = strchr(tok[2 + k], '=');
            if (!eq)
                die(in, "expected %s=B, got '%s'", keys[k], tok[2 + k]);
            *eq = 0;
            if (strcmp(tok[2 + k], keys[k]) != 0)
                die(in, "expected %s=B, got '%s=' (targets go neg, zero, "
                        "pos)", keys[k], tok[2 + k]);
            b->succ[k] = parse_target(in, eq + 1);
        }
    }
    in->block_has_term = true;
}

/* One loop item: value / path / guard / loads / checked-writes /
 * other-calls. */
static void parse_loop_item(struct input *in, char **tok, int ntok)
{
    struct sb_loop *lp = &in->loop;
    if (strcmp(tok[0], "value") == 0) {
        static const char *const names[] = {"invariant", "induction",
                                            "carried", "unrepeatable",
                                            "built", "built-otherwise",
                                            "checked"};
        for (int t = 1; t < ntok; t++) {
            char *eq = strchr(tok[t], '=');
            bool why = strncmp(tok[t], "why-a", 5) == 0;
            bool size = strncmp(tok[t], "size-a", 6) == 0;
            const char *key = why ? tok[t] + 4 : size ? tok[t] + 5 : tok[t];
            if (!eq || key[0] != 'a' || key[1] < '0' || key[1] > '6' ||
                key + 2 != eq)
                die(in, "value: expected aN=invariant|induction|carried|"
                        "unrepeatable|built|built-otherwise|checked, "
                        "why-aN=\"...\" or size-aN=BYTES, got '%s'", tok[t]);
            int k = key[1] - '0';
            if (why) {
                lp->arg_why[k] = keep(in, eq + 1);
                continue;
            }
            if (size) {
                char *end;
                long bytes = strtol(eq + 1, &end, 0);
                if (*end || end == eq + 1)
                    die(in, "value: size-a%d: expected a byte count, got "
                            "'%s'", k, eq + 1);
                lp->built_size[k] = bytes;
                continue;
            }
            int v = -1;
            for (int i = 0; i < 7; i++)
                if (strcmp(eq + 1, names[i]) == 0)
                    v = i;
            if (v < 0)
                die(in, "value: a%d: unknown '%s' (expected invariant, "
                        "induction, carried, unrepeatable, built, "
                        "built-otherwise or checked)", k, eq + 1);
            lp->arg_value[k] = (uint8_t)v;
        }
    } else if (strcmp(tok[0], "build") == 0) {
        /* Rule 6's steps, in order: string@OFF, append@OFF,
         * fixed@OFF:BYTES or other. */
        for (int t = 1; t < ntok; t++) {
            struct sb_loop_build_step st = {SB_BUILD_OTHER, 0, 0};
            char *at = strchr(tok[t], '@'), *end = NULL;
            if (at)
                *at = 0;
            if (strcmp(tok[t], "string") == 0)
                st.kind = SB_BUILD_STRING;
            else if (strcmp(tok[t], "append") == 0)
                st.kind = SB_BUILD_APPEND;
            else if (strcmp(tok[t], "fixed") == 0)
                st.kind = SB_BUILD_FIXED;
            else if (strcmp(tok[t], "other") != 0 || at)
                die(in, "build: expected string@OFF, append@OFF, "
                        "fixed@OFF:BYTES or other, got '%s'", tok[t]);
            if (st.kind != SB_BUILD_OTHER) {
                if (!at)
                    die(in, "build: %s needs @OFFSET", tok[t]);
                st.offset = strtol(at + 1, &end, 0);
                if (end == at + 1 ||
                    (st.kind == SB_BUILD_FIXED ? *end != ':' : *end != 0))
                    die(in, "build: %s@%s: expected %s", tok[t], at + 1,
                        st.kind == SB_BUILD_FIXED ? "OFFSET:BYTES" : "OFFSET");
                if (st.kind == SB_BUILD_FIXED) {
                    char *count = end + 1;
                    st.bytes = strtol(count, &end, 0);
                    if (end == count || *end)
                        die(in, "build: fixed@%s: expected OFFSET:BYTES",
                            at + 1);
                }
            }
            if (lp->build_steps < SB_LOOP_MAX_BUILD_STEPS)
                lp->build_step[lp->build_steps] = st;
            lp->build_steps++;
        }
    } else if (strcmp(tok[0], "path") == 0) {
        static const char *const classes[3] = {"fail", "zero", "pos"};
        /* exits: leaves on every path (class_exits), not only may leave */
        static const char *const paths[] = {"next", "leaves", "conflict",
                                            "exits"};
        for (int t = 1; t < ntok; t++) {
            char *eq = strchr(tok[t], '=');
            if (!eq)
                die(in, "path: expected CLASS=next|leaves|conflict or "
                        "why-CLASS=\"...\", got '%s'", tok[t]);
            *eq = 0;
            bool why = strncmp(tok[t], "why-", 4) == 0;
            const char *key = why ? tok[t] + 4 : tok[t];
            int c = -1;
            for (int i = 0; i < 3; i++)
                if (strcmp(key, classes[i]) == 0)
                    c = i;
            if (c < 0)
                die(in, "path: unknown class '%s' (expected fail, zero or "
                        "pos)", key);
            if (why) {
                lp->class_why[c] = keep(in, eq + 1);
                continue;
            }
            int v = -1;
            for (int i = 0; i < 4; i++)
                if (strcmp(eq + 1, paths[i]) == 0)
                    v = i;
            if (v < 0)
                die(in, "path: %s: unknown '%s' (expected next, leaves, "
                        "conflict or exits)", key, eq + 1);
            if (v == 3) {
                lp->class_exits |= (uint8_t)(1u << c);
                v = SB_LP_LEAVES;
            }
            lp->class_path[c] = (uint8_t)v;
        }
    } else if (strcmp(tok[0], "guard") == 0) {
        static const char *const guards[] = {"always", "repeated", "unknown"};
        int v = -1;
        for (int i = 0; ntok >= 2 && i < 3; i++)
            if (strcmp(tok[1], guards[i]) == 0)
                v = i;
        if (v < 0)
            die(in, "guard: expected always, repeated or unknown");
        lp->guard = (uint8_t)v;
        if (ntok > 2 && strncmp(tok[2], "why=", 4) == 0)
            lp->guard_why = keep(in, tok[2] + 4);
    } else if (strcmp(tok[0], "loads") == 0) {
        if (ntok < 2 || (strcmp(tok[1], "unproven") && strcmp(tok[1], "proven")))
            die(in, "loads: expected proven or unproven");
        lp->unproven_loads = strcmp(tok[1], "unproven") == 0;
        if (ntok > 2 && strncmp(tok[2], "why=", 4) == 0)
            lp->loads_why = keep(in, tok[2] + 4);
    } else if (strcmp(tok[0], "calls") == 0) {
        for (int t = 1; t < ntok; t++) {
            if (lp->repeated_calls < SB_LOOP_MAX_REPEATED_CALLS)
                lp->repeated_call[lp->repeated_calls] = keep(in, tok[t]);
            lp->repeated_calls++;
        }
    } else if (strcmp(tok[0], "stop-writes") == 0) {
        static const char *const classes[3] = {"fail", "zero", "pos"};
        if (ntok < 2)
            die(in, "stop-writes: expected a count");
        long n = parse_long(in, tok[1], "stop-writes");
        if (n < 0)
            die(in, "stop-writes: negative count");
        lp->stop_writes = (int)n;
        for (int t = 2; t < ntok; t++) {
            if (strncmp(tok[t], "why=", 4) == 0) {
                lp->stop_write_why = keep(in, tok[t] + 4);
                continue;
            }
            if (strncmp(tok[t], "classes=", 8) != 0)
                die(in, "stop-writes: expected classes=CLASS,... or "
                        "why=\"...\", got '%s'", tok[t]);
            for (char *c = strtok(tok[t] + 8, ","); c; c = strtok(NULL, ",")) {
                int k = -1;
                for (int i = 0; i < 3; i++)
                    if (strcmp(c, classes[i]) == 0)
                        k = i;
                if (k < 0)
                    die(in, "stop-writes: unknown class '%s' (expected fail, "
                            "zero or pos)", c);
                lp->stop_write_classes |= (uint8_t)(1u << k);
            }
        }
    } else if (strcmp(tok[0], "checked-writes") == 0) {
        if (ntok < 2)
            die(in, "checked-writes: expected a count");
        long n = parse_long(in, tok[1], "checked-writes");
        if (n < 0)
            die(in, "checked-writes: negative count");
        lp->checked_writes = (int)n;
        for (int t = 2; t < ntok; t++) {
            if (strncmp(tok[t], "why=", 4) == 0)
                lp->checked_why = keep(in, tok[t] + 4);
            else if (strncmp(tok[t], "paths=", 6) == 0)
                lp->checked_paths = (int)parse_long(in, tok[t] + 6, "paths");
            else if (strncmp(tok[t], "reads=", 6) == 0)
                lp->checked_reads = (int)parse_long(in, tok[t] + 6, "reads");
            else if (strncmp(tok[t], "strings=", 8) == 0) {
                /* strings=a0[,a2...]: the names measured for the check */
                char *item = tok[t] + 8;
                for (;;) {
                    char *end;
                    long k = item[0] == 'a' ? strtol(item + 1, &end, 10) : -1;
                    if (k < 0 || k > SB_MAX_ARGS || end == item + 1 ||
                        (*end != ',' && *end != '\0'))
                        die(in, "checked-writes: strings= expects aK[,aK...], "
                                "got '%s'", tok[t] + 8);
                    lp->checked_strings |= 1u << k;
                    if (*end == '\0')
                        break;
                    item = end + 1;
                }
            } else
                die(in, "checked-writes: expected why=\"...\", paths=N, "
                        "reads=N or strings=aK, got '%s'", tok[t]);
        }
    } else if (strcmp(tok[0], "chase") == 0) {
        if (ntok < 2 || ntok > 3)
            die(in, "chase: expected a count and at most early=\"...\"");
        long n = parse_long(in, tok[1], "chase");
        if (n < 0)
            die(in, "chase: negative count");
        lp->chases = (int)n;
        if (ntok > 2) {
            if (strncmp(tok[2], "early=", 6) != 0)
                die(in, "chase: expected early=\"...\", got '%s'", tok[2]);
            lp->chase_early = keep(in, tok[2] + 6);
        }
    } else { /* other-calls */
        if (ntok < 2 || ntok > 3)
            die(in, "other-calls: expected a count and at most barrier=\"...\"");
        long n = parse_long(in, tok[1], "other-calls");
        if (n < 0)
            die(in, "other-calls: negative count");
        lp->other_call_sites = (int)n;
        if (ntok > 2) {
            if (strncmp(tok[2], "barrier=", 8) != 0)
                die(in, "other-calls: expected barrier=\"...\", got '%s'",
                    tok[2]);
            lp->several_barrier = keep(in, tok[2] + 8);
        }
    }
}

static enum sb_abi parse_abi(const struct input *in, const char *s)
{
    if (strcmp(s, "linux") == 0)
        return SB_ABI_LINUX_X86_64;
    if (strcmp(s, "tock") == 0)
        return SB_ABI_TOCK;
    die(in, "unknown abi '%s' (expected linux or tock)", s);
    return SB_ABI_LINUX_X86_64;
}

static void read_input(struct input *in, FILE *f)
{
    char buf[MAX_LINE];
    char *tok[MAX_TOKENS];
    while (fgets(buf, sizeof buf, f)) {
        in->line++;
        size_t len = strlen(buf);
        if (len && buf[len - 1] == '\n')
            buf[--len] = 0;
        else if (len == sizeof buf - 1)
            die(in, "line longer than %d characters", MAX_LINE - 2);
        int ntok = tokenize(in, buf, tok);
        if (ntok == 0)
            continue;
        if (strcmp(tok[0], "loop") == 0) {
            if (ntok != 1 || in->saw_call || in->loop_mode)
                die(in, "'loop' takes nothing and must come before the call");
            in->loop_mode = true;
        } else if (in->loop_mode &&
                   (strcmp(tok[0], "value") == 0 ||
                    strcmp(tok[0], "build") == 0 ||
                    strcmp(tok[0], "path") == 0 ||
                    strcmp(tok[0], "guard") == 0 ||
                    strcmp(tok[0], "loads") == 0 ||
                    strcmp(tok[0], "checked-writes") == 0 ||
                    strcmp(tok[0], "calls") == 0 ||
                    strcmp(tok[0], "stop-writes") == 0 ||
                    strcmp(tok[0], "chase") == 0 ||
                    strcmp(tok[0], "other-calls") == 0)) {
            parse_loop_item(in, tok, ntok);
        } else if (in->loop_mode && strcmp(tok[0], "call") != 0 &&
                   strcmp(tok[0], "abi") != 0) {
            die(in, "a loop takes one call and value, build, path, guard, "
                    "loads, calls, stop-writes, checked-writes, chase and "
                    "other-calls lines, not '%s'",
                tok[0]);
        } else if (strcmp(tok[0], "call") == 0) {
            if (in->loop_mode && in->saw_call)
                die(in, "a loop describes one call site (other-calls N "
                        "counts the rest)");
            parse_call(in, tok, ntok);
        } else if (strcmp(tok[0], "code") == 0) {
            parse_code(in, tok, ntok, false);
        } else if (strcmp(tok[0], "barrier") == 0) {
            parse_code(in, tok, ntok, true);
        } else if (strcmp(tok[0], "slot") == 0) {
            parse_slot(in, tok, ntok);
        } else if (strcmp(tok[0], "block") == 0) {
            parse_block(in, tok, ntok);
        } else if (strcmp(tok[0], "exit") == 0 ||
                   strcmp(tok[0], "goto") == 0 ||
                   strcmp(tok[0], "pred") == 0 ||
                   strcmp(tok[0], "cond") == 0) {
            parse_terminator(in, tok, ntok);
        } else if (strcmp(tok[0], "after") == 0) {
            parse_after(in, tok, ntok);
        } else if (strcmp(tok[0], "abi") == 0) {
            if (ntok != 2)
                die(in, "'abi' takes one word: linux or tock");
            if (in->saw_call)
                die(in, "'abi' must come before the first call");
            in->region.abi = parse_abi(in, tok[1]);
        } else {
            die(in, "unknown item '%s' (expected call, code, barrier, slot, "
                    "after or abi); a branchy region also takes block, exit, goto "
                    "cond and pred", tok[0]);
        }
    }
    end_block(in);
    if (ferror(f))
        die(in, "read error");
}

/* --catalog: one line per row, key=value words, stable for scripts. */
static void print_catalog(FILE *out)
{
    static const char *const kinds[] = {"none", "value", "fd", "path", "in",
                                        "out", "addr", "opaque", "iovec-in",
                                        "iovec-out"};
    static const char *const rets[] = {"errno", "map-failed",
                                       "positive-error", "never-fails",
                                       "tock"};
    static const struct {
        unsigned bit;
        const char *name;
    } flags[] = {
        {SB_ROW_MAY_BLOCK, "may-block"},   {SB_ROW_NEVER, "never"},
        {SB_ROW_VARIADIC, "variadic"},     {SB_ROW_RAW_SYSCALL, "raw-syscall"},
        {SB_ROW_FD_TABLE, "fd-table"},     {SB_ROW_OPEN_MODE, "open-mode"},
        {SB_ROW_SERIES_LAST, "series-last"}, {SB_ROW_SHARED_MEMORY, "shared-memory"},
        {SB_ROW_FRESH_MAPPING, "fresh-mapping"},
        {SB_ROW_RUNTIME_CONVERTED, "runtime-converted"},
        {SB_ROW_FD0_FAILS_NEGATIVE, "fd0-fails-negative"},
    };
    for (size_t r = 0; r < sb_catalog_size(); r++) {
        const struct sb_syscall *row = sb_catalog_row(r);
        fprintf(out, "row %s abi=%s nr=%d raw=%s", row->name,
                row->abi == SB_ABI_TOCK ? "tock" : "linux", row->nr,
                row->raw_name);
        fprintf(out, " args=");
        for (int a = 0; a < row->libc_argc; a++) {
            const struct sb_arg_desc *d = &row->libc_args[a];
            fprintf(out, "%s%s", a ? "," : "",
                    d->kind < sizeof kinds / sizeof *kinds ? kinds[d->kind]
                                                           : "?");
            if (d->kind == SB_ARG_IN_BUF || d->kind == SB_ARG_OUT_BUF ||
                d->kind == SB_ARG_IOVEC_IN || d->kind == SB_ARG_IOVEC_OUT) {
                if (d->size_arg >= 0)
                    fprintf(out, "[a%d]", d->size_arg);
                else if (d->fixed_size)
                    fprintf(out, "[%u]", d->fixed_size);
                else
                    fprintf(out, "[?]"); /* a run-time size */
            }
        }
        if (!row->libc_argc)
            fprintf(out, "-");
        fprintf(out, " raw_args=");
        for (int a = 0; a < row->raw_argc; a++) {
            const struct sb_raw_arg *ra = &row->raw_args[a];
            fprintf(out, "%s", a ? "," : "");
            if (ra->from == SB_RAW_LIBC_ARG)
                fprintf(out, "a%d", ra->index);
            else if (ra->from == SB_RAW_CONST)
                fprintf(out, "%ld", ra->value);
            else
                fprintf(out, "\"\"");
        }
        if (!row->raw_argc)
            fprintf(out, "-");
        fprintf(out, " ret=%s bits=%d flags=",
                row->ret < sizeof rets / sizeof *rets ? rets[row->ret] : "?",
                row->result_bits);
        bool any = false;
        for (size_t f = 0; f < sizeof flags / sizeof *flags; f++)
            if (row->flags & flags[f].bit) {
                fprintf(out, "%s%s", any ? "," : "", flags[f].name);
                any = true;
            }
        if (!any)
            fprintf(out, "-");
        fprintf(out, " aliases=");
        const char *alias;
        size_t i = 0;
        for (; (alias = sb_catalog_alias(row, i)); i++)
            fprintf(out, "%s%s", i ? "," : "", alias);
        if (!i)
            fprintf(out, "-");
        if (row->never_why)
            fprintf(out, " never=\"%s\"", row->never_why);
        fprintf(out, "\n");
    }
}

/* One access of a libc-table function: "-", "r[a2]", "w[8]", "rw[str]". */
static void print_libc_access(FILE *out, const struct sb_libc_access *a)
{
    static const char *const kinds[] = {"-", "r", "w", "rw"};
    fprintf(out, "%s", kinds[a->access & 3]);
    if (a->access == SB_LIBC_NO_ACCESS)
        return;
    if (a->size_arg >= 0)
        fprintf(out, "[a%d]", a->size_arg);
    else if (a->fixed_size)
        fprintf(out, "[%u]", a->fixed_size);
    else
        fprintf(out, "[str]");
}

static void print_libc_flags(FILE *out, unsigned flags)
{
    fprintf(out, " flags=");
    if (!flags)
        fprintf(out, "-");
    fprintf(out, "%s%s%s", flags & SB_LIBC_SETS_ERRNO ? "sets-errno" : "",
            (flags & SB_LIBC_SETS_ERRNO) && (flags & SB_LIBC_PRINTF) ? "," : "",
            flags & SB_LIBC_PRINTF ? "printf" : "");
}

/* --libc: one line per function of the table. */
static void print_libc(FILE *out)
{
    for (size_t i = 0; i < sb_libc_size(); i++) {
        const struct sb_libc_function *fn = sb_libc_row(i);
        fprintf(out, "libc %s args=", fn->name);
        for (int k = 0; k < fn->argc; k++) {
            fprintf(out, "%s", k ? "," : "");
            print_libc_access(out, &fn->args[k]);
        }
        if (!fn->argc)
            fprintf(out, "none");
        print_libc_flags(out, fn->flags);
        fprintf(out, "\n");
    }
}

/* --libc-call NAME NARGS [FORMAT]: sb_libc_call_effects() as text. */
static int print_libc_call(int argc, char **argv)
{
    char *end;
    errno = 0;
    long nargs = strtol(argv[1], &end, 10);
    if (!*argv[1] || *end || errno || nargs < 0 || nargs > 64) {
        fprintf(stderr, "sysbatch-plan: --libc-call NAME NARGS [FORMAT]: "
                        "NARGS is a count of arguments (0..64)\n");
        return 2;
    }
    const struct sb_libc_function *fn = sb_libc_lookup(argv[0]);
    struct sb_libc_access acc[SB_LIBC_MAX_ARGS];
    char buf[160];
    const char *why = sb_libc_call_effects(fn, (int)nargs,
                                           argc > 2 ? argv[2] : NULL, acc, buf,
                                           sizeof buf);
    if (why) {
        printf("%s: barrier: %s\n", argv[0], why);
        return 0;
    }
    printf("%s: code: args=", argv[0]);
    for (int k = 0; k < nargs; k++) {
        printf("%s", k ? "," : "");
        print_libc_access(stdout, &acc[k]);
    }
    if (!nargs)
        printf("none");
    print_libc_flags(stdout, fn->flags);
    printf("\n");
    return 0;
}

/* --addr-touches NAME [aK=const:N|aK=avail]...: "touches existing memory"
 * or "touches no existing memory". */
static int print_addr_touches(int argc, char **argv)
{
    const struct sb_syscall *row =
        sb_catalog_lookup(SB_ABI_LINUX_X86_64, argv[0]);
    if (!row) {
        fprintf(stderr, "sysbatch-plan: --addr-touches: %s is not in the "
                        "catalogue\n", argv[0]);
        return 2;
    }
    bool is_const[SB_MAX_ARGS] = {false};
    long value[SB_MAX_ARGS] = {0};
    int nargs = row->libc_argc;
    for (int i = 1; i < argc; i++) {
        char *end;
        const char *a = argv[i];
        long k = a[0] == 'a' ? strtol(a + 1, &end, 10) : -1;
        if (k < 0 || k >= row->libc_argc || *end != '=') {
            fprintf(stderr, "sysbatch-plan: --addr-touches: '%s' is not "
                            "aK=const:N or aK=avail with K < %d\n", a,
                    row->libc_argc);
            return 2;
        }
        const char *v = end + 1;
        if (strcmp(v, "avail") == 0)
            continue;
        errno = 0;
        if (strncmp(v, "const:", 6) != 0 ||
            (value[k] = strtol(v + 6, &end, 0), !v[6] || *end || errno)) {
            fprintf(stderr, "sysbatch-plan: --addr-touches: '%s': the value "
                            "is const:N or avail\n", a);
            return 2;
        }
        is_const[k] = true;
    }
    printf("%s: %s\n", argv[0],
           sb_call_addr_touches_memory(row, nargs, is_const, value)
               ? "touches existing memory"
               : "touches no existing memory");
    return 0;
}

/* --libc-calls FILE: print_libc_call() per line. */
static int print_libc_calls(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "sysbatch-plan: cannot open %s: %s\n", path,
                strerror(errno));
        return 2;
    }
    char line[MAX_LINE];
    int lineno = 0, status = 0;
    while (status == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *words[3] = {line, NULL, NULL};
        char *sp = strchr(line, ' ');
        if (sp) {
            *sp = 0;
            words[1] = sp + 1;
            if ((sp = strchr(words[1], ' '))) {
                *sp = 0;
                words[2] = sp + 1;
            }
        }
        if (!words[1]) {
            fprintf(stderr, "%s:%d: expected NAME NARGS [FORMAT]\n", path,
                    lineno);
            status = 2;
            break;
        }
        status = print_libc_call(words[2] ? 3 : 2, words);
    }
    fclose(f);
    return status;
}

/* --cond CONV BITS OP CONSTANT: sb_cond_classes() as text, e.g. "5 neg pos",
 * "0 none" or "-1 undecided". */
static int print_cond(char **argv)
{
    static const char *const convs[] = {"errno", "map-failed",
                                        "positive-error", "never-fails",
                                        "tock"};
    static const char *const ops[] = {"eq", "ne", "slt", "sle", "sgt",
                                      "sge", "ult", "ule", "ugt", "uge"};
    int conv = -1, op = -1;
    for (int i = 0; i < (int)(sizeof convs / sizeof *convs); i++)
        if (strcmp(argv[0], convs[i]) == 0)
            conv = i;
    for (int i = 0; i < (int)(sizeof ops / sizeof *ops); i++)
        if (strcmp(argv[2], ops[i]) == 0)
            op = i;
    char *end;
    errno = 0;
    long bits = strtol(argv[1], &end, 10);
    bool bits_ok = *argv[1] && !*end && !errno;
    errno = 0;
    long constant = strtol(argv[3], &end, 0);
    bool constant_ok = *argv[3] && !*end && !errno;
    if (conv < 0 || op < 0 || !bits_ok || !constant_ok) {
        fprintf(stderr, "sysbatch-plan: --cond CONV BITS OP CONSTANT: CONV "
                        "is errno, map-failed, positive-error, never-fails "
                        "or tock; OP is eq, ne, slt, sle, sgt, sge, ult, "
                        "ule, ugt or uge; BITS and CONSTANT are integers\n");
        return 2;
    }
    int mask = sb_cond_classes((enum sb_ret_conv)conv, (int)bits,
                               (enum sb_cmp)op, constant);
    printf("%d", mask);
    if (mask < 0)
        printf(" undecided");
    else if (mask == 0)
        printf(" none");
    if (mask > 0 && (mask & SB_CLASS_NEG))
        printf(" neg");
    if (mask > 0 && (mask & SB_CLASS_ZERO))
        printf(" zero");
    if (mask > 0 && (mask & SB_CLASS_POS))
        printf(" pos");
    printf("\n");
    return 0;
}

static const char *const cmp_names[] = {"eq", "ne", "slt", "sle", "sgt",
                                        "sge", "ult", "ule", "ugt", "uge"};

/* "u8", "s32", ...: a width of 1..64 read unsigned or signed. */
static bool parse_width(const char *w, uint8_t *bits, bool *is_signed)
{
    if ((w[0] != 'u' && w[0] != 's') || !w[1])
        return false;
    char *end;
    errno = 0;
    long n = strtol(w + 1, &end, 10);
    if (*end || errno || n < 1 || n > 64)
        return false;
    *bits = (uint8_t)n;
    *is_signed = w[0] == 's';
    return true;
}

/* --tock-test ROW FIELD [STEP...] OP CONSTANT: the stop-test class. */
static int print_tock_test(int n, char **argv)
{
    struct sb_tock_test t;
    memset(&t, 0, sizeof t);
    const struct sb_syscall *row =
        n >= 4 ? sb_catalog_lookup(SB_ABI_TOCK, argv[0]) : NULL;
    /* ROW CONVERTER FIELD ...: the test is on the converter's result. */
    const struct sb_tock_converter *conv =
        n >= 5 ? sb_tock_converter_lookup(argv[1]) : NULL;
    if (conv) {
        argv[1] = argv[0];
        argv++;
        n--;
    }
    bool ok = row && parse_width(argv[1], &t.field_bits, &t.field_signed) &&
              n - 4 <= SB_TOCK_MAX_STEPS;
    for (int i = 2; ok && i < n - 2; i++) {
        struct sb_tock_step *step = &t.steps[t.nsteps++];
        if (strcmp(argv[i], "not") == 0)
            step->kind = SB_TOCK_STEP_NOT_BITS;
        else if (strcmp(argv[i], "lnot") == 0)
            step->kind = SB_TOCK_STEP_NOT_BOOL;
        else
            ok = parse_width(argv[i], &step->bits, &step->is_signed);
    }
    int op = -1;
    for (int i = 0; ok && i < (int)(sizeof cmp_names / sizeof *cmp_names); i++)
        if (strcmp(argv[n - 2], cmp_names[i]) == 0)
            op = i;
    char *end = NULL;
    if (ok && op >= 0) {
        errno = 0;
        t.constant = strtoll(argv[n - 1], &end, 0);
        ok = *argv[n - 1] && !*end && !errno;
    }
    if (!ok || op < 0) {
        fprintf(stderr, "sysbatch-plan: --tock-test ROW FIELD [STEP...] OP "
                        "CONSTANT: ROW is a Tock catalogue row, FIELD and "
                        "conversion steps uN or sN (N = 1..64), other steps "
                        "not or lnot (at most %d steps), OP as for --cond\n",
                SB_TOCK_MAX_STEPS);
        return 2;
    }
    t.cmp = (uint8_t)op;
    static const char *const names[] = {"none", "not-exact",
                                        "true-is-failure", "true-is-success"};
    if (!conv) {
        printf("%s\n", names[sb_tock_stop_test(row, &t)]);
        return 0;
    }
    char buf[320];
    const char *why = NULL;
    enum sb_tock_stop_class cls =
        sb_tock_converter_test(conv, row, &t, &why, buf, sizeof buf);
    printf("%s%s%s\n", names[cls], why ? ": " : "", why ? why : "");
    return 0;
}

/* --tock-template: every batch's frame words and template bytes. */
static int print_tock_templates(const struct sb_plan *plan,
                                enum sb_tock_template_encoding enc)
{
    int status = 0;
    for (int b = 0; b < plan->nbatches; b++) {
        const struct sb_batch_plan *bp = &plan->batches[b];
        int nwords = SB_TOCK_WORDS_PER_FRAME * bp->nslots;
        struct sb_tock_word *words = calloc((size_t)nwords + 1, sizeof *words);
        if (!words)
            return 2;
        printf("template %d words:", b);
        for (int s = 0; s < bp->nslots; s++) {
            const char *why;
            if (sb_tock_frame_words(bp, s, words + SB_TOCK_WORDS_PER_FRAME * s,
                                    &why) != 0) {
                printf(" error: frame %d: %s\n", s, why);
                status = 1;
                goto next;
            }
        }
        for (int w = 0; w < nwords; w++) {
            if (words[w].constant)
                printf(" %u", (unsigned)words[w].value);
            else
                printf(" a%d", words[w].libc_arg);
        }
        int npatches;
        size_t size = sb_tock_template(words, bp->nslots, enc, NULL, 0,
                                       &npatches);
        uint8_t *bytes = size ? malloc(size) : NULL;
        if (size && !bytes) {
            free(words);
            return 2;
        }
        if (size)
            sb_tock_template(words, bp->nslots, enc, bytes, size, &npatches);
        printf("\ntemplate %d %s: %zu bytes, %d patches:", b,
               enc == SB_TOCK_TEMPLATE_WORDS ? "words" : enc == SB_TOCK_TEMPLATE_BYTES ? "bytes" : "compact", size,
               npatches);
        for (size_t i = 0; i < size; i++)
            printf(" %02x", bytes[i]);
        printf("\n");
        free(bytes);
    next:
        free(words);
    }
    return status;
}

/* --simulate: run the plan of a branchy region the way the kernel would,
 * for every combination of raw sign classes of the calls (impossible
 * classes of a convention left out), and compare with the program: the
 * calls the kernel makes must be the first calls the original makes on that
 * path, in order; every word copy must read a call that ran and did not
 * fail; every chained argument must have been written on that run; no call
 * the kernel runs may cross code (between the batch point and the call, on
 * that path) that conflicts with it or is a barrier.  Prints
 * a summary or the first difference; returns 0 when none. */
static bool sim_class_possible(enum sb_ret_conv conv, int k)
{
    return !((conv == SB_RET_MAP_FAILED && k == 1) ||
             (conv == SB_RET_POSITIVE_ERROR && k == 2) ||
             (conv == SB_RET_NEVER_FAILS && k == 0));
}

/* Value numbers (sb_operand.same): the simulation also runs each value an
 * fd operand can have with its sign, negative or not.  The bit of call
 * c's fd (libc argument 0) among nums[0..nnums), or -1. */
static int sim_fd_bit(const struct sb_call_event *ev, const uint16_t *nums,
                      int nnums)
{
    if (!ev->row || sb_call_is_raw_syscall(ev) || ev->nargs < 1 ||
        ev->row->libc_argc < 1 || ev->row->libc_args[0].kind != SB_ARG_FD ||
        ev->args[0].kind != SB_OPND_AVAILABLE || !ev->args[0].same)
        return -1;
    for (int b = 0; b < nnums; b++)
        if (nums[b] == ev->args[0].same)
            return b;
    return -1;
}

/* glibc answers the call itself when its fd is negative (no kernel call). */
static bool sim_glibc_checks_fd(const struct sb_call_event *ev)
{
    return ev->row->precheck == SB_PRE_FD_NONNEG &&
           ev->row->precheck_arg == 0;
}

static int simulate(const struct sb_region *r, const struct sb_plan *plan)
{
    enum { MAX_SIM_CALLS = 10 };
    int n = plan->ncalls;
    if (r->nblocks <= 0 || n > MAX_SIM_CALLS || plan->nbatches > 1) {
        printf("simulation: skipped (straight-line, more than %d calls or "
               "several batches)\n", MAX_SIM_CALLS);
        return 0;
    }
    /* A malformed region is refused whole; its program path may loop. */
    bool malformed = r->nblocks > SB_MAX_REGION_BLOCKS;
    for (int b = 0; b < r->nblocks && !malformed; b++) {
        const struct sb_block *bl = &r->blocks[b];
        int nsucc = bl->term == SB_TERM_COND   ? 3
                    : bl->term == SB_TERM_PRED ? 2
                                               : bl->term == SB_TERM_GOTO;
        for (int k = 0; k < nsucc; k++)
            if (bl->succ[k] != SB_BLOCK_EXIT &&
                (bl->succ[k] <= b || bl->succ[k] >= r->nblocks))
                malformed = true;
        if (bl->first_event < 0 || bl->nevents < 0 ||
            bl->first_event + bl->nevents > r->nevents ||
            (bl->term == SB_TERM_COND &&
             (bl->cond_call < 0 || bl->cond_call >= n)))
            malformed = true;
    }
    for (int c = 0; c < n && !malformed; c++)
        malformed = plan->calls[c].why == SB_WHY_FRONT_END;
    if (malformed) {
        printf("simulation: skipped (malformed region)\n");
        return 0;
    }
    const struct sb_call_event *ev[MAX_SIM_CALLS];
    int block_call0[SB_MAX_REGION_BLOCKS + 1];
    for (int e = 0, c = 0, b = 0; e < r->nevents; e++) {
        while (b < r->nblocks && e == r->blocks[b].first_event)
            block_call0[b++] = c;
        if (r->events[e].kind == SB_EV_CALL)
            ev[c++] = &r->events[e].u.call;
    }
    int cls[MAX_SIM_CALLS] = {0};
    long paths = 0, kernel_calls = 0;
    /* Up to 4 value numbers; bit b of `negs`: value nums[b] is negative. */
    uint16_t nums[4];
    int nnums = 0;
    for (int c = 0; c < n; c++) {
        if (!ev[c]->row || sb_call_is_raw_syscall(ev[c]) || ev[c]->nargs < 1 ||
            ev[c]->args[0].kind != SB_OPND_AVAILABLE || !ev[c]->args[0].same ||
            sim_fd_bit(ev[c], nums, nnums) >= 0)
            continue;
        if (nnums == 4) {
            printf("simulation: skipped (more than 4 value numbers)\n");
            return 0;
        }
        nums[nnums++] = ev[c]->args[0].same;
    }
    unsigned negs = 0, all_negs = (1u << nnums) - 1;
    int fd_bit[MAX_SIM_CALLS];
    for (int c = 0; c < n; c++)
        fd_bit[c] = sim_fd_bit(ev[c], nums, nnums);
    /* Predicated branches: bit b of `preds` is block b's condition (one
     * value for the whole run: it is known when the batch is filled). */
    uint64_t pred_blocks = 0, preds = 0;
    for (int b = 0; b < r->nblocks; b++)
        if (r->blocks[b].term == SB_TERM_PRED)
            pred_blocks |= (uint64_t)1 << b;
    if (__builtin_popcountll(pred_blocks) > 6) {
        printf("simulation: skipped (more than 6 predicated branches)\n");
        return 0;
    }
    for (;;) {
        bool possible = true;
        for (int c = 0; c < n; c++)
            if (!sim_class_possible(sb_call_ret_conv(r->abi, ev[c]), cls[c]))
                possible = false;
        /* A negative fd: proven impossible (nonneg), or the call fails -
         * glibc answers it, or the kernel fails it. */
        for (int c = 0; c < n; c++) {
            if (fd_bit[c] < 0 || !((negs >> fd_bit[c]) & 1))
                continue;
            if (ev[c]->args[0].nonneg)
                possible = false;
            if ((sim_glibc_checks_fd(ev[c]) ||
                 (ev[c]->row->flags & SB_ROW_FD0_FAILS_NEGATIVE)) &&
                cls[c] != 0)
                possible = false;
        }
        if (possible) {
            paths++;
            /* The program's calls on this path. */
            int prog[MAX_SIM_CALLS], np = 0;
            /* What code the program runs between the batch point (the
             * first call) and each call: the kernel runs the call before
             * that code, so it must commute with it. */
            uint64_t crossed[MAX_SIM_CALLS], mask = 0;
            bool crossed_all[MAX_SIM_CALLS], barrier = false;
            for (int b = 0; b != SB_BLOCK_EXIT;) {
                const struct sb_block *bl = &r->blocks[b];
                int c = block_call0[b];
                for (int e = bl->first_event;
                     e < bl->first_event + bl->nevents; e++) {
                    if (r->events[e].kind == SB_EV_CALL &&
                        fd_bit[c] >= 0 && ((negs >> fd_bit[c]) & 1) &&
                        sim_glibc_checks_fd(ev[c])) {
                        c++; /* answered in libc: no kernel call */
                    } else if (r->events[e].kind == SB_EV_CALL) {
                        crossed[np] = mask;
                        crossed_all[np] = barrier;
                        prog[np++] = c++;
                    } else if (np > 0) {
                        mask |= r->events[e].u.code.conflicts;
                        barrier |= r->events[e].u.code.barrier;
                    }
                }
                if (bl->term == SB_TERM_COND)
                    b = bl->succ[cls[bl->cond_call]];
                else if (bl->term == SB_TERM_PRED)
                    b = bl->succ[(preds >> b) & 1 ? 0 : 1];
                else if (bl->term == SB_TERM_GOTO)
                    b = bl->succ[0];
                else
                    b = SB_BLOCK_EXIT;
            }
            /* The kernel's, following the slots (a copy keeps the
             * previous slot's offset, as the c-blake module does). */
            const struct sb_batch_plan *bp =
                plan->nbatches ? &plan->batches[0] : NULL;
            int nk = 0, off = 0;
            bool ran[1024] = {false}, fed[1024][SB_MAX_ARGS];
            memset(fed, 0, sizeof fed);
            for (int i = 0; bp && i < bp->nslots && i < 1024;) {
                const struct sb_slot_plan *s = &bp->slots[i];
                const char *bad = NULL;
                if (s->kind == SB_SLOT_COPY) {
                    int src = s->copy_src_slot;
                    if (src < 0 || src >= i || !ran[src])
                        bad = "a word copy reads a slot that did not run";
                    else if (cls[bp->slots[src].call] == 0)
                        bad = "a word copy reads a failed call";
                    else if (s->copy_dst_slot > i && s->copy_dst_slot < 1024 &&
                             s->copy_dst_arg >= 0 &&
                             s->copy_dst_arg < SB_MAX_ARGS)
                        fed[s->copy_dst_slot][s->copy_dst_arg] = true;
                } else {
                    for (int a = 0; a < s->argc && a < SB_MAX_ARGS; a++)
                        if (s->args[a].fill == SB_FILL_CHAINED && !fed[i][a])
                            bad = "a chained argument was not written";
                    if (nk >= np || prog[nk] != s->call)
                        bad = "the kernel makes a call the program does not "
                              "make there";
                    else if (crossed_all[nk] ||
                             (s->call < 64 && (crossed[nk] >> s->call) & 1))
                        bad = "the kernel runs a call before code it may not "
                              "move across";
                    nk++;
                    kernel_calls++;
                    ran[i] = true;
                    int k = cls[s->call];
                    int v = 0;
                    if (s->predicated) {
                        int np = s->npreds < 1 ? 1 : s->npreds;
                        for (int q = 0; q < np && q < SB_MAX_SLOT_PREDS; q++) {
                            int pb = q == 0 && s->npreds < 1
                                         ? s->pred_block
                                         : s->pred_blocks[q];
                            if (!((preds >> pb) & 1))
                                v |= 1 << q;
                        }
                    }
                    short j[3];
                    sb_slot_variant_jumps(s, v, j);
                    off = j[k];
                }
                if (bad) {
                    printf("simulation: difference at slot %d, classes", i);
                    for (int c = 0; c < n; c++)
                        printf(" %s", cls[c] == 0 ? "neg"
                                      : cls[c] == 1 ? "zero" : "pos");
                    for (int pb = 0; pb < r->nblocks; pb++)
                        if ((pred_blocks >> pb) & 1)
                            printf(" b%d=%s", pb,
                                   (preds >> pb) & 1 ? "true" : "false");
                    printf(": %s\n", bad);
                    return 1;
                }
                if (off < 0)
                    break;
                i += 1 + off;
            }
        }
        int c = 0;
        while (c < n && ++cls[c] == 3)
            cls[c++] = 0;
        if (c == n) {
            /* Every class combination done: the next predicate values,
             * then the next signs of the fd values. */
            if (preds == pred_blocks) {
                if (negs == all_negs)
                    break;
                negs++;
                preds = 0;
            } else {
                preds = ((preds | ~pred_blocks) + 1) & pred_blocks;
            }
        }
    }
    printf("simulation: %ld paths, %ld kernel calls, no difference\n", paths,
           kernel_calls);
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sysbatch-plan [--KEY[=VALUE]...] [--check-hazards] "
            "[--simulate] [FILE|-]\n"
            "       sysbatch-plan --catalog | --reasons | --help\n"
            "       sysbatch-plan --cond CONV BITS OP CONSTANT\n"
            "       sysbatch-plan --tock-test ROW [CONVERTER] FIELD [STEP...] OP CONSTANT\n"
            "       sysbatch-plan --abi=tock --tock-template=words|bytes|compact "
            "[FILE|-]\n"
            "       sysbatch-plan --libc | --libc-call NAME NARGS [FORMAT] | "
            "--libc-calls FILE\n"
            "       sysbatch-plan --addr-touches NAME [aK=const:N|aK=avail]...\n"
            "KEYs are the plugins' options (--abi=X is --target=X):\n%s",
            sb_config_help());
}

/* --runtime-abi: the table as C declarations. */
static int print_runtime_abi(void)
{
    for (int i = 0; i < SB_RT__COUNT; i++) {
        const struct sb_rt_entry *e = sb_runtime_abi((enum sb_rt_symbol)i);
        const char *abi = e->abi == SB_ABI_TOCK ? "tock" : "linux";
        const char *version = e->version ? e->version : "-";
        if (e->object) {
            printf("extern %s %s%s; /* %s %s */\n",
                   sb_rt_type_c((enum sb_rt_type)e->ret), e->name,
                   e->ret == SB_RT_CONST_CHAR_1 ? "[1]" : "", abi, version);
            continue;
        }
        printf("%s %s(", sb_rt_type_c((enum sb_rt_type)e->ret), e->name);
        for (int k = 0; k < e->nparams; k++)
            printf("%s%s", k ? ", " : "",
                   sb_rt_type_c((enum sb_rt_type)e->params[k]));
        printf("%s); /* %s %s */\n", e->nparams ? "" : "void", abi, version);
    }
    /* the values rewritten code passes as sysbatch_run's flags */
    printf("_Static_assert(SYSBATCH_RUN_PLANNED == %d && SYSBATCH_RUN_JUMPS == %d && "
           "SYSBATCH_RUN_CANCEL == %d, \"sysbatch_run flags\");\n",
           SB_RT_RUN_PLANNED, SB_RT_RUN_JUMPS, SB_RT_RUN_CANCEL);
    return 0;
}

/* --cfg FILE: sb_cfg_form_region() over a textual CFG. */
static int print_cfg_regions(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "sysbatch-plan: cannot open %s: %s\n", path,
                strerror(errno));
        return 2;
    }
    static struct sb_cfg_block blocks[1024];
    static int preds[1024][16];
    static bool covered[1024];
    static struct sb_join_info join[1024];
    struct input in;
    memset(&in, 0, sizeof in);
    in.file = path;
    int n = 0;
    char buf[MAX_LINE];
    char *tok[MAX_TOKENS];
    while (fgets(buf, sizeof buf, f)) {
        in.line++;
        buf[strcspn(buf, "\n")] = 0;
        int ntok = tokenize(&in, buf, tok);
        if (ntok == 0)
            continue;
        if (strcmp(tok[0], "block") == 0) {
            if (n == 1024)
                die(&in, "more than 1024 blocks");
            struct sb_cfg_block *b = &blocks[n];
            memset(b, 0, sizeof *b);
            b->preds = preds[n];
            memset(&join[n], 0, sizeof join[n]);
            for (int t = 1; t < ntok; t++) {
                if (strncmp(tok[t], "calls=", 6) == 0) {
                    b->candidates = (int)parse_long(&in, tok[t] + 6, "calls");
                } else if (strncmp(tok[t], "preds=", 6) == 0) {
                    for (char *p = strtok(tok[t] + 6, ","); p;
                         p = strtok(NULL, ",")) {
                        if (b->npreds == 16)
                            die(&in, "more than 16 predecessors");
                        long v = parse_long(&in, p, "preds");
                        if (v < 0 || v >= 1024)
                            die(&in, "predecessor %ld out of range", v);
                        preds[n][b->npreds++] = (int)v;
                    }
                } else if (strcmp(tok[t], "abnormal") == 0) {
                    b->abnormal_entry = true;
                } else if (strcmp(tok[t], "covered") == 0) {
                    covered[n] = true;
                } else if (strcmp(tok[t], "unreachable") == 0) {
                    b->unreachable = true;
                } else if (strncmp(tok[t], "prefix=", 7) == 0) {
                    join[n].prefix = (int)parse_long(&in, tok[t] + 7, "prefix");
                } else if (strcmp(tok[t], "prefix-effect") == 0) {
                    join[n].prefix_effect = "effect";
                } else if (strcmp(tok[t], "address-taken") == 0) {
                    join[n].address_taken = true;
                } else if (strcmp(tok[t], "returns-twice") == 0) {
                    join[n].returns_twice = true;
                } else if (strcmp(tok[t], "loop-header") == 0) {
                    join[n].loop_header = true;
                } else if (strcmp(tok[t], "never-batched") == 0) {
                    join[n].never_batched = true;
                } else {
                    die(&in, "unknown block attribute '%s' (expected calls=N, "
                             "preds=I,J, abnormal, covered, unreachable, "
                             "prefix=N, prefix-effect, address-taken, "
                             "returns-twice, loop-header or never-batched)",
                        tok[t]);
                }
            }
            n++;
        } else if (strcmp(tok[0], "entry") == 0 && ntok == 2) {
            struct sb_cfg cfg = {n, blocks, covered};
            int e = (int)parse_long(&in, tok[1], "entry");
            int out[SB_MAX_REGION_BLOCKS];
            int k = sb_cfg_form_region(&cfg, e, out);
            printf("entry %d:", e);
            if (k == 0)
                printf(" none");
            for (int i = 0; i < k; i++)
                printf(" %d", out[i]);
            printf("\n");
        } else if (strcmp(tok[0], "join") == 0 && (ntok == 2 || ntok == 3)) {
            /* join J [FROM]: sb_cfg_join_split_edge() */
            struct sb_cfg cfg = {n, blocks, covered};
            int j = (int)parse_long(&in, tok[1], "join");
            int from = ntok == 3 ? (int)parse_long(&in, tok[2], "from") : 0;
            static const struct sb_join_info none;
            const char *why;
            int k = sb_cfg_join_split_edge(&cfg, j,
                                           j >= 0 && j < n ? &join[j] : &none,
                                           from, &why);
            if (k >= 0)
                printf("join %d: split the edge from %d\n", j,
                       blocks[j].preds[k]);
            else
                printf("join %d: %s\n", j, why ? why : "no split site");
        } else {
            die(&in, "expected 'block ...', 'entry E' or 'join J [FROM]', "
                     "got '%s'", tok[0]);
        }
    }
    fclose(f);
    return 0;
}

/* --call-sites: each batch's run flags and whether its call sites take
 * their results on one all-ran test.  The stretch is counted in the
 * region's events (calls and code) from the batch's first call to its
 * last, in one block only (a planned region given as blocks: its calls
 * may sit in several, which a front end does not copy). */
static void print_call_sites(const struct sb_region *region,
                             const struct sb_plan *plan, bool verify)
{
    for (int b = 0; b < plan->nbatches; b++) {
        const struct sb_batch_plan *bp = &plan->batches[b];
        int copied = 0, call = -1;
        bool inside = false;
        for (int e = 0; e < region->nevents; e++) {
            if (region->events[e].kind == SB_EV_CALL)
                call++;
            if (region->events[e].kind == SB_EV_CALL && call == bp->first_call)
                inside = true;
            copied += inside;
            if (region->events[e].kind == SB_EV_CALL && call == bp->last_call)
                break;
        }
        if (region->nblocks > 1)
            copied = -1; /* the test input does not say which block */
        printf("batch %d: run flags %#lx, call sites: %s\n", b,
               (unsigned long)sb_rt_run_flags(bp),
               sb_rt_all_ran_test(bp, copied, verify) ? "one all-ran test"
                                                      : "per-slot tests");
    }
}

int main(int argc, char **argv)
{
    struct sb_config cfg;
    sb_config_default(&cfg);
    struct input in;
    memset(&in, 0, sizeof in);
    bool check = false, sim = false, call_sites = false, branch_end = false;
    int tock_template = -1; /* enum sb_tock_template_encoding */
    const char *path = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (0) {
        } else if (strcmp(a, "--check-hazards") == 0) {
            check = true;
        } else if (strcmp(a, "--simulate") == 0) {
            sim = true;
        } else if (strcmp(a, "--call-sites") == 0) {
            call_sites = true;
        } else if (strcmp(a, "--branch-end") == 0) {
            branch_end = true;
        } else if (strcmp(a, "--catalog") == 0) {
            print_catalog(stdout);
            return 0;
        } else if (strcmp(a, "--reasons") == 0) {
            for (int w = 0; w < SB_WHY__COUNT; w++)
                printf("%d %s: %s\n", w, sb_why_name((enum sb_why)w),
                       sb_why_text((enum sb_why)w));
            return 0;
        } else if (strcmp(a, "--libc") == 0) {
            print_libc(stdout);
            return 0;
        } else if (strcmp(a, "--libc-call") == 0) {
            if (argc - i - 1 != 2 && argc - i - 1 != 3) {
                fprintf(stderr, "sysbatch-plan: --libc-call takes NAME NARGS "
                                "[FORMAT]\n");
                return 2;
            }
            return print_libc_call(argc - i - 1, argv + i + 1);
        } else if (strcmp(a, "--addr-touches") == 0) {
            if (argc - i - 1 < 1) {
                fprintf(stderr, "sysbatch-plan: --addr-touches takes NAME "
                                "[aK=const:N|aK=avail]...\n");
                return 2;
            }
            return print_addr_touches(argc - i - 1, argv + i + 1);
        } else if (strcmp(a, "--libc-calls") == 0) {
            if (argc - i - 1 != 1) {
                fprintf(stderr, "sysbatch-plan: --libc-calls takes FILE\n");
                return 2;
            }
            return print_libc_calls(argv[i + 1]);
        } else if (strcmp(a, "--cond") == 0) {
            if (argc - i - 1 != 4) {
                fprintf(stderr, "sysbatch-plan: --cond takes exactly four "
                                "words: CONV BITS OP CONSTANT\n");
                return 2;
            }
            return print_cond(argv + i + 1);
        } else if (strcmp(a, "--runtime-abi") == 0) {
            return print_runtime_abi();
        } else if (strcmp(a, "--cfg") == 0) {
            if (argc - i - 1 != 1) {
                fprintf(stderr, "sysbatch-plan: --cfg takes one file\n");
                return 2;
            }
            return print_cfg_regions(argv[i + 1]);
        } else if (strcmp(a, "--tock-test") == 0) {
            return print_tock_test(argc - i - 1, argv + i + 1);
        } else if (strcmp(a, "--tock-template=words") == 0) {
            tock_template = SB_TOCK_TEMPLATE_WORDS;
        } else if (strcmp(a, "--tock-template=bytes") == 0) {
            tock_template = SB_TOCK_TEMPLATE_BYTES;
        } else if (strcmp(a, "--tock-template=compact") == 0) {
            tock_template = SB_TOCK_TEMPLATE_COMPACT;
        } else if (strncmp(a, "--tock-template", 15) == 0) {
            fprintf(stderr, "sysbatch-plan: --tock-template takes =words, "
                            "=bytes or =compact\n");
            return 2;
        } else if (strncmp(a, "--", 2) == 0 && a[2]) {
            /* Everything else is a plugin option, parsed by the core. */
            char key[64], err[512];
            const char *eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            snprintf(key, sizeof key, "%.*s", (int)len, a + 2);
            if (strcmp(key, "abi") == 0)
                strcpy(key, "target");
            if (sb_config_set(&cfg, key, eq ? eq + 1 : NULL, err,
                              sizeof err) < 0) {
                fprintf(stderr, "%s\n", err);
                return 2;
            }
            if (cfg.help) {
                usage(stdout);
                return 0;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sysbatch-plan: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (path) {
            fprintf(stderr, "sysbatch-plan: more than one input file\n");
            return 2;
        } else {
            path = a;
        }
    }

    in.region.abi = cfg.target == SB_TARGET_TOCK ? SB_ABI_TOCK
                                                 : SB_ABI_LINUX_X86_64;
    FILE *f = stdin;
    in.file = "<stdin>";
    if (path && strcmp(path, "-") != 0) {
        f = fopen(path, "r");
        if (!f) {
            fprintf(stderr, "sysbatch-plan: cannot open %s: %s\n", path,
                    strerror(errno));
            return 2;
        }
        in.file = path;
    }
    read_input(&in, f);
    if (f != stdin)
        fclose(f);

    if (in.loop_mode) {
        if (!in.saw_call)
            die(&in, "a loop needs its call");
        in.loop.abi = in.region.abi;
        in.loop.call = in.region.events[0].u.call;
        struct sb_loop_plan lplan;
        if (sb_plan_loop(&in.loop, &cfg.plan, &lplan) != 0) {
            fprintf(stderr, "sysbatch-plan: out of memory while planning\n");
            return 2;
        }
        sb_loop_plan_print(stdout, &in.loop, &lplan);
        free(in.region.events);
        for (int i = 0; i < in.nstrings; i++)
            free(in.strings[i]);
        free(in.strings);
        return 0;
    }

    int status = 0;
    struct sb_plan plan;
    memset(&plan, 0, sizeof plan);
    struct sb_batch_plan hand;
    const struct sb_region *region = &in.region;
    if (in.nslots) {
        memset(&hand, 0, sizeof hand);
        hand.first_call = 0;
        hand.last_call = in.nslots - 1;
        hand.nslots = in.nslots;
        hand.slots = in.slots;
        hand.end_call = -1;
        for (int i = 0; i < in.nslots; i++) {
            if (in.slots[i].kind == SB_SLOT_COPY)
                hand.nchains++;
            else
                hand.ncalls++;
        }
        plan.nbatches = 1;
        plan.batches = &hand;
        region = NULL;
    } else if (sb_plan_region(&in.region, &cfg.plan, &plan) != 0) {
        fprintf(stderr, "sysbatch-plan: out of memory while planning\n");
        return 2;
    }

    sb_plan_print(stdout, region, &plan);
    if (check) {
        int batch, slot;
        const char *why = sb_plan_find_hazard(&plan, &batch, &slot);
        if (why) {
            printf("hazard: batch %d slot %d: %s\n", batch, slot, why);
            status = 1;
        } else {
            printf("hazards: none\n");
        }
    }

    if (call_sites)
        print_call_sites(&in.region, &plan, cfg.verify);
    if (branch_end) {
        char text[768];
        const char *why =
            in.region.nblocks
                ? sb_branch_end_why(&in.region, &plan, in.term_why, text,
                                    sizeof text)
                : NULL;
        printf("branch end: %s\n", why ? why : "none");
    }
    if (sim && !in.nslots && simulate(&in.region, &plan) != 0)
        status = 1;
    if (tock_template >= 0) {
        int st = in.region.abi == SB_ABI_TOCK
                     ? print_tock_templates(
                           &plan, (enum sb_tock_template_encoding)tock_template)
                     : (fprintf(stderr, "sysbatch-plan: --tock-template "
                                        "needs a Tock region (--abi=tock)\n"),
                        2);
        if (st > status)
            status = st;
    }
    if (!in.nslots)
        sb_plan_free(&plan);
    free(in.slots);
    free(in.region.events);
    free(in.blocks);
    for (int i = 0; i < in.nstrings; i++)
        free(in.strings[i]);
    free(in.strings);
    return status;
}
