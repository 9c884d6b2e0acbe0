/* sysbatch core: the one printable plan format.  Both front ends and
 * sysbatch-plan print plans with this, so plans can be compared as text.
 *
 * Items appear in region order: a batch where its first call stood, a
 * refused call where it stood; calls inside a batch print as its slots.
 *
 *     batch 0: calls 0..2, 5 slots, 2 chains
 *       slot 0: call 0 openat(-100, a0, a1, 0)            fail=stop
 *       slot 1: copy ret[0] -> slot 2 arg 0
 *       slot 2: call 1 read(ret0, a1, 4096)
 *       slot 3: copy ret[0] -> slot 4 arg 0
 *       slot 4: call 2 close(ret0)
 *       ended before call 3 (execve): never-batch: replaces the process ...
 *     refused call 3 (execve): never-batch: this call is never batched: ...
 *
 * Raw arguments print as a decimal constant, aN (libc argument N of the
 * call, as written: for syscall() a1 is the first argument after NR), ""
 * (the runtime's empty string), retK (the result of slot K, put there by
 * the copy before the slot) or [sK.aN+OFF] (the word at byte OFF of the
 * buffer slot K's call wrote through its libc argument N, copied likewise;
 * its copy prints as "copy [slot K aN + OFF] -> ...").  Jump offsets print only when nonzero, from
 * column 52: fail=stop for a negative offset, fail=+K for a jump over K
 * slots; likewise zero= and pos=.  A batch that ended before the region did
 * says why in its `ended before` line.  A batch of a branchy region whose
 * slots jump (sb_batch_plan.branchy) says ", branchy" at the end of its
 * header line; its slots print the same way, and the calls of the region it
 * did not take print as refused calls where they stood (after the batch).
 * Nothing depends on addresses.
 */
#include "sysbatch/core.h"

#include <stdarg.h>
#include <string.h>

#define JUMP_COLUMN 52

struct line {
    char text[512];
    size_t len;
};

static void add(struct line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (l->len < sizeof l->text) {
        int n = vsnprintf(l->text + l->len, sizeof l->text - l->len, fmt, ap);
        if (n > 0)
            l->len += (size_t)n;
        if (l->len >= sizeof l->text)
            l->len = sizeof l->text - 1;
    }
    va_end(ap);
}

static const struct sb_call_event *call_event(const struct sb_region *region,
                                              int call)
{
    if (!region || !region->events)
        return NULL;
    for (int e = 0, c = 0; e < region->nevents; e++) {
        if (region->events[e].kind != SB_EV_CALL)
            continue;
        if (c == call)
            return &region->events[e].u.call;
        c++;
    }
    return NULL;
}

static const char *call_symbol(const struct sb_region *region, int call)
{
    const struct sb_call_event *ev = call_event(region, call);
    if (!ev)
        return "?";
    if (ev->symbol)
        return ev->symbol;
    return ev->row ? ev->row->name : "?";
}

static void to_jump_column(struct line *l)
{
    while (l->len < JUMP_COLUMN - 1)
        add(l, " ");
    add(l, " ");
}

/* The nonzero offsets of one jump set; "next" when all are 0 and `always`. */
static void add_jump_set(struct line *l, const short offs[3], bool always)
{
    static const char *const names[3] = {"fail", "zero", "pos"};
    bool first = true;
    for (int o = 0; o < 3; o++) {
        if (offs[o] == 0)
            continue;
        if (first && !always)
            to_jump_column(l);
        else if (!first)
            add(l, " ");
        first = false;
        if (offs[o] < 0)
            add(l, "%s=stop", names[o]);
        else
            add(l, "%s=+%d", names[o], offs[o]);
    }
    if (first && always)
        add(l, "next");
}

/* A predicated slot: "bK true: <jumps>; false: <jumps>" (block K's
 * condition as evaluated when the batch is filled). */
static void add_jumps(struct line *l, const struct sb_slot_plan *s)
{
    short offs[3] = {s->jump_fail, s->jump_zero, s->jump_pos};
    if (!s->predicated) {
        add_jump_set(l, offs, false);
        return;
    }
    to_jump_column(l);
    if (s->npreds <= 1) {
        short alt[3] = {s->alt_fail, s->alt_zero, s->alt_pos};
        add(l, "b%d true: ", s->pred_block);
        add_jump_set(l, offs, true);
        add(l, "; false: ");
        add_jump_set(l, alt, true);
        return;
    }
    /* Several predicates: "bK true bL false: <jumps>; ..." for every
     * assignment, bit i of the set's number clear when predicate i holds. */
    for (int v = 0; v < sb_slot_nvariants(s); v++) {
        short j[3];
        sb_slot_variant_jumps(s, v, j);
        if (v)
            add(l, "; ");
        for (int i = 0; i < s->npreds; i++)
            add(l, "%sb%d %s", i ? " " : "", s->pred_blocks[i],
                (v >> i) & 1 ? "false" : "true");
        add(l, ": ");
        add_jump_set(l, j, true);
    }
}

static void print_slot(FILE *out, const struct sb_region *region,
                       const struct sb_batch_plan *b, int i)
{
    const struct sb_slot_plan *s = &b->slots[i];
    struct line l = {{0}, 0};
    add(&l, "  slot %d: ", i);
    if (s->kind == SB_SLOT_COPY && s->copy_src_arg >= 0) {
        add(&l, "copy [slot %d a%d + %ld] -> slot %d arg %d", s->copy_src_slot,
            s->copy_src_arg, s->copy_src_offset, s->copy_dst_slot,
            s->copy_dst_arg);
    } else if (s->kind == SB_SLOT_COPY) {
        add(&l, "copy ret[%d] -> slot %d arg %d", s->copy_src_slot,
            s->copy_dst_slot, s->copy_dst_arg);
    } else {
        const struct sb_call_event *ev = call_event(region, s->call);
        const struct sb_syscall *row =
            ev ? sb_call_raw_row(region->abi, ev) : NULL;
        add(&l, "call %d ", s->call);
        if (row)
            add(&l, "%s(", row->raw_name);
        else
            add(&l, "nr%d(", s->nr);
        for (int a = 0; a < s->argc && a < SB_MAX_ARGS; a++) {
            const struct sb_fill_arg *f = &s->args[a];
            if (a)
                add(&l, ", ");
            switch (f->fill) {
            case SB_FILL_CONST:
                add(&l, "%ld", f->value);
                break;
            case SB_FILL_LIBC_ARG:
                add(&l, "a%d", f->index);
                break;
            case SB_FILL_EMPTY_STRING:
                add(&l, "\"\"");
                break;
            case SB_FILL_CHAINED: {
                const struct sb_slot_plan *copy = NULL;
                for (int c = 0; c < i; c++)
                    if (b->slots[c].kind == SB_SLOT_COPY &&
                        b->slots[c].copy_dst_slot == i &&
                        b->slots[c].copy_dst_arg == a)
                        copy = &b->slots[c];
                if (!copy)
                    add(&l, "chained");
                else if (copy->copy_src_arg >= 0)
                    add(&l, "[s%d.a%d+%ld]", copy->copy_src_slot,
                        copy->copy_src_arg, copy->copy_src_offset);
                else
                    add(&l, "ret%d", copy->copy_src_slot);
                break;
            }
            default:
                add(&l, "?");
            }
        }
        add(&l, ")");
    }
    add_jumps(&l, s);
    fprintf(out, "%s\n", l.text);
}

static void print_reason(FILE *out, enum sb_why why, const char *detail)
{
    fprintf(out, "%s", sb_why_name(why));
    if (detail)
        fprintf(out, ": %s", detail);
}

static void print_batch(FILE *out, const struct sb_region *region,
                        const struct sb_plan *plan, int bi)
{
    const struct sb_batch_plan *b = &plan->batches[bi];
    fprintf(out, "batch %d: calls %d..%d, %d slot%s, %d chain%s%s\n", bi,
            b->first_call, b->last_call, b->nslots, b->nslots == 1 ? "" : "s",
            b->nchains, b->nchains == 1 ? "" : "s",
            b->branchy ? ", branchy" : "");
    for (int i = 0; i < b->nslots; i++)
        print_slot(out, region, b, i);
    if (b->end_call >= 0 && region) {
        fprintf(out, "  ended before call %d (%s): ", b->end_call,
                call_symbol(region, b->end_call));
        print_reason(out, b->end_why, b->end_detail);
        fprintf(out, "\n");
    }
}

void sb_plan_print(FILE *out, const struct sb_region *region,
                   const struct sb_plan *plan)
{
    if (!region) {
        /* A plan without its region (hand-written slots): batches only. */
        for (int bi = 0; bi < plan->nbatches; bi++)
            print_batch(out, NULL, plan, bi);
        return;
    }
    if (plan->ncalls == 0) {
        fprintf(out, "no calls\n");
        return;
    }
    int next_batch = 0;
    for (int c = 0; c < plan->ncalls; c++) {
        const struct sb_call_plan *cp = &plan->calls[c];
        if (cp->batch >= 0) {
            if (next_batch < plan->nbatches &&
                plan->batches[next_batch].first_call == c)
                print_batch(out, region, plan, next_batch++);
            continue;
        }
        fprintf(out, "refused call %d (%s): %s: %s", c,
                call_symbol(region, c), sb_why_name(cp->why),
                sb_why_text(cp->why));
        if (cp->detail)
            fprintf(out, ": %s", cp->detail);
        fprintf(out, "\n");
    }
}
