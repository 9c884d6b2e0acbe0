/* The planner API used directly, for what the text format cannot express:
 * NULL options, a RESULT naming a later call, more than 64 calls, the
 * syscall row passed as ev->row, catalogue look-ups and the call helpers.
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

static void catalogue(void)
{
    const struct sb_syscall *open = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "open");
    CHECK(open && strcmp(open->raw_name, "openat") == 0 && open->nr == 257);
    CHECK(sb_catalog_lookup(SB_ABI_LINUX_X86_64, "open64") == open);
    CHECK(sb_catalog_lookup(SB_ABI_TOCK, "open") == NULL);
    CHECK(sb_catalog_lookup(SB_ABI_LINUX_X86_64, "command") == NULL);
    CHECK(sb_catalog_lookup(SB_ABI_TOCK, "command") != NULL);
    CHECK(sb_catalog_lookup(SB_ABI_LINUX_X86_64, NULL) == NULL);
    CHECK(strcmp(sb_catalog_alias(open, 0), "open64") == 0);
    CHECK(sb_catalog_alias(open, 1) == NULL);
    /* syscall(262, ...) passes its arguments through: fstatat's row. */
    const struct sb_syscall *r262 = sb_catalog_by_nr(SB_ABI_LINUX_X86_64, 262);
    CHECK(r262 && strcmp(r262->name, "fstatat") == 0);
    CHECK(sb_catalog_by_nr(SB_ABI_LINUX_X86_64, 2) == NULL);
    CHECK(sb_catalog_by_nr(SB_ABI_LINUX_X86_64, -1) == NULL);
    CHECK(sb_catalog_is_raw_syscall_symbol("syscall"));
    CHECK(!sb_catalog_is_raw_syscall_symbol("syscall2"));
    /* Every row is reachable by its name, has argument counts in range and
     * a reason exactly when it is never batched. */
    for (size_t i = 0; i < sb_catalog_size(); i++) {
        const struct sb_syscall *row = sb_catalog_row(i);
        CHECK(sb_catalog_lookup((enum sb_abi)row->abi, row->name) == row);
        CHECK(row->libc_argc <= SB_MAX_ARGS && row->raw_argc <= SB_MAX_ARGS);
        CHECK(((row->flags & SB_ROW_NEVER) != 0) == (row->never_why != NULL));
        for (int a = 0; a < row->raw_argc; a++)
            if (row->raw_args[a].from == SB_RAW_LIBC_ARG)
                CHECK(row->raw_args[a].index < row->libc_argc);
    }
    CHECK(sb_catalog_row(sb_catalog_size()) == NULL);
}

static void helpers(void)
{
    struct sb_event ev = call("syscall", 2);
    ev.u.call.args[0].kind = SB_OPND_CONST;
    ev.u.call.args[0].value = 221; /* fadvise64: libc's wrapper differs */
    CHECK(sb_call_is_raw_syscall(&ev.u.call));
    const struct sb_syscall *row = sb_call_raw_row(SB_ABI_LINUX_X86_64, &ev.u.call);
    CHECK(row && strcmp(row->raw_name, "fadvise64") == 0);
    CHECK(sb_call_ret_conv(SB_ABI_LINUX_X86_64, &ev.u.call) == SB_RET_ERRNO);
    CHECK(sb_call_result_bits(SB_ABI_LINUX_X86_64, &ev.u.call) == 64);
    struct sb_event fa = call("posix_fadvise", 4);
    CHECK(sb_call_ret_conv(SB_ABI_LINUX_X86_64, &fa.u.call) ==
          SB_RET_POSITIVE_ERROR);
    CHECK(sb_call_result_bits(SB_ABI_LINUX_X86_64, &fa.u.call) == 32);
    /* The row pointer alone (symbol NULL) also marks syscall(). */
    ev.u.call.symbol = NULL;
    ev.u.call.row = sb_catalog_lookup(SB_ABI_LINUX_X86_64, "syscall");
    CHECK(sb_call_is_raw_syscall(&ev.u.call));
    ev.u.call.args[0].kind = SB_OPND_AVAILABLE;
    CHECK(sb_call_raw_row(SB_ABI_LINUX_X86_64, &ev.u.call) == NULL);
}

static void forward_result_and_defaults(void)
{
    struct sb_event evs[3] = {call("getpid", 0), call("close", 1),
                              call("getuid", 0)};
    evs[1].u.call.args[0].kind = SB_OPND_RESULT;
    evs[1].u.call.args[0].call = 2; /* a later call: a front-end bug */
    struct sb_region region = {SB_ABI_LINUX_X86_64, 3, evs, 0, NULL, {0}};
    struct sb_plan plan;
    CHECK(sb_plan_region(&region, NULL, &plan) == 0);
    CHECK(plan.ncalls == 3 && plan.nbatches == 0);
    CHECK(plan.calls[1].why == SB_WHY_FRONT_END && plan.calls[1].detail);
    CHECK(plan.calls[0].why == SB_WHY_BELOW_MIN_BATCH);
    CHECK(sb_plan_check_hazards(&plan) == NULL);
    sb_plan_free(&plan);
    sb_plan_free(&plan); /* freeing twice is harmless */
    CHECK(plan.calls == NULL && plan.batches == NULL);
}

static void long_region(void)
{
    enum { N = SB_MAX_REGION_CALLS + 6 };
    struct sb_event evs[N];
    for (int i = 0; i < N; i++)
        evs[i] = call("getpid", 0);
    struct sb_region region = {SB_ABI_LINUX_X86_64, N, evs, 0, NULL, {0}};
    struct sb_options opts;
    sb_options_default(&opts);
    CHECK(opts.min_batch == 2 && opts.max_slots == 64 && opts.allow_blocking);
    opts.max_slots = 1000;
    struct sb_plan plan;
    CHECK(sb_plan_region(&region, &opts, &plan) == 0);
    CHECK(plan.nbatches == 1 && plan.batches[0].ncalls == SB_MAX_REGION_CALLS);
    CHECK(plan.batches[0].end_call == SB_MAX_REGION_CALLS);
    for (int c = SB_MAX_REGION_CALLS; c < N; c++)
        CHECK(plan.calls[c].batch == -1 && plan.calls[c].why == SB_WHY_FRONT_END);
    CHECK(sb_plan_check_hazards(&plan) == NULL);
    sb_plan_free(&plan);
}

static void empty_region(void)
{
    struct sb_region region = {SB_ABI_LINUX_X86_64, 0, NULL, 0, NULL, {0}};
    struct sb_plan plan;
    CHECK(sb_plan_region(&region, NULL, &plan) == 0);
    CHECK(plan.ncalls == 0 && plan.nbatches == 0);
    CHECK(sb_plan_check_hazards(&plan) == NULL);
    sb_plan_free(&plan);
}

static void reasons(void)
{
    for (int a = 0; a < SB_WHY__COUNT; a++) {
        CHECK(sb_why_name((enum sb_why)a) && sb_why_text((enum sb_why)a));
        for (int b = 0; b < a; b++) {
            CHECK(strcmp(sb_why_name((enum sb_why)a), sb_why_name((enum sb_why)b)));
            CHECK(strcmp(sb_why_text((enum sb_why)a), sb_why_text((enum sb_why)b)));
        }
    }
    CHECK(strcmp(sb_why_name(SB_WHY__COUNT), "unknown") == 0);
}

int main(void)
{
    catalogue();
    helpers();
    forward_result_and_defaults();
    long_region();
    empty_region();
    reasons();
    if (failures)
        printf("%d checks failed\n", failures);
    return failures ? 1 : 0;
}
