/* sysbatch/loop.h: loop batching ("syscall vectorisation") - the calls of
 * many iterations of a loop become one batch.  The rules live here, once;
 * a front end describes the loop around one call site in an sb_loop, asks
 * sb_plan_loop() and rewrites its IR from the sb_loop_plan.
 *
 * Before:
 *
 *     struct stat st;
 *     for (i = 0; i < n; i++)
 *         if (lstat(p[i], &st) == 0)
 *             total += st.st_size;
 *
 * After (K = the loop-slots option; every name below is the front end's):
 *
 *     struct stat priv[K]; long rets[K]; struct sysbatch_slot slots[K];
 *     int next = 0, filled = 0;
 *     for (i = 0; i < n; i++) {
 *         long r;
 *         if (sysbatch_active && (next == filled || rets[next] == NOT_RUN)) {
 *             // refill, at the call site: the INSPECTOR repeats only what
 *             // decides the calls (the induction variables, the exit test,
 *             // the guard, the arguments) for this and the next K-1
 *             // iterations, without the loop's other code
 *             filled = 0;
 *             for (t = 0, j = i; t < K && j < i + SCAN && (t == 0 || j < n);
 *                  j++) {
 *                 if (t > 0 && !guard(j))  continue;    // no slot: see 2.
 *                 if (t > 0 && !precheck_passes(p[j]))  break;  // see below
 *                 slots[t] = newfstatat(AT_FDCWD, p[j], &priv[t], NOFOLLOW)
 *                            with the jumps of plan->jump_*;
 *                 filled++, t++;
 *             }
 *             if (plan->runtime_check && the bytes the loads of iterations
 *                 1..filled-1 read meet the bytes iterations 0..filled-1
 *                 write)                                   // rule 7
 *                 filled = 0;                // the call site calls itself
 *             sysbatch_run(rets, slots, filled, 0);     // NOT_RUN prefilled
 *             next = 0;
 *         }
 *         if (sysbatch_active && next < filled && rets[next] != NOT_RUN) {
 *             r = convert(rets[next]);           // errno set here, in order
 *             if (r succeeded) memcpy(&st, &priv[next], 144);   // copy back
 *             next++;
 *         } else
 *             r = lstat(p[i], &st);              // the original call
 *         if (r == 0)
 *             total += st.st_size;               // the loop's code, unchanged
 *     }
 *
 * The loop's own code runs exactly as before, in the same order; only the
 * kernel effect of the next K-1 iterations' calls moves up to the first
 * call of the group.  That is correct when, for every iteration the batch
 * runs:
 *
 *   1. the inspector computes the same arguments the iteration will pass:
 *      every argument is loop-invariant, or an induction value recomputed
 *      from induction variables, invariants and memory no code in the loop
 *      (nor the call) writes, by code without effects - never from the
 *      call's own earlier results (loop-carried) or from code the inspector
 *      cannot repeat (a call, a load of memory the loop writes);
 *   2. the inspector knows whether the iteration happens and reaches the
 *      call: the exit tests and the guard it repeats depend on such values
 *      only.  An iteration whose guard is false fills no slot (the body
 *      evaluates the same guard and does not reach the call, so the slots
 *      are still consumed in order); the code such an iteration runs
 *      instead is on the paths below like any other, and the inspector
 *      looks at no more than plan->scan iterations per refill.  Every other way out of an iteration (a branch on the call's
 *      result, a branch on anything else that may leave the loop, code that
 *      may not move below a later iteration's call: a diagnostic, a store to
 *      a name the next call reads) is reached only from some sign classes of
 *      the call's result; the slot STOPS the batch on those classes, so the
 *      later slots never run and the next iteration refills from its own
 *      call site;
 *   3. a buffer every iteration shares (&st above) is private per slot and
 *      copied back at the call site, in order, before the code reads it; the
 *      copy is exactly what the kernel wrote (the row's fixed size on
 *      success, or the result's byte count for read-like rows);
 *   4. the inspector's loads for iteration t > 0 happen before iteration
 *      t-1's result is known: when any class stops (rule 2), the original
 *      might not have reached iteration t, so such loads must be of memory
 *      known to be dereferenceable (the front end proves it, or the loop is
 *      refused as speculative);
 *   5. glibc's argument prechecks (fstat(-1) is EBADF without a system call)
 *      are tested by the inspector: it ends the group before an iteration
 *      whose argument fails them (that call then runs from its call site);
 *   6. a buffer the call only reads that the loop fills each iteration
 *      (a name formatted by snprintf, built by strcpy/strcat/memcpy) is
 *      built again by the inspector for iteration t into a private buffer
 *      per slot, by the same code with the private buffer as destination,
 *      errno saved and restored around it; the slot points there.  The
 *      body's own code still fills the shared buffer as before.  Only when
 *      that code is all that writes the buffer in the loop, its inputs are
 *      repeatable (rule 1), and the buffer's size is known and at most
 *      4096 bytes (the private copies' size).  The private buffer must then
 *      hold exactly what the call would read in the shared one: the front
 *      end lists the building steps in order (sb_loop_build_step) and the
 *      core accepts a string written at the start (strcpy, snprintf) and
 *      appended to (strcat), for a name the kernel reads up to its NUL; or
 *      writes of fixed sizes at fixed places (memcpy of a constant count,
 *      a store), over a copy of the shared buffer taken by the inspector
 *      (plan->built_copy_in: bytes no step writes are never written in the
 *      loop, so the shared buffer holds them for every iteration).  An
 *      append first (strcat of what an earlier iteration left), a count
 *      known only at run time, or a string for a call that reads a byte
 *      count (write) is refused.
 *   7. an argument loaded from memory that code in the loop (or the call's
 *      output) may write, where the compiler cannot prove the two apart
 *      (-O0, a parameter array next to a result array: `fd[i] =
 *      open(names[i], ...)`), is still repeatable when the front end knows
 *      every such write's address and size per iteration (a store, the
 *      call's output buffer): the inspector then checks at run time, for
 *      the group it fills, that the bytes its loads for iterations 1..K-1
 *      read miss the bytes the group's iterations 0..K-1 write (union of
 *      the per-iteration ranges, each address computed for its iteration;
 *      the vectorizer's run-time alias check).  When they overlap it fills
 *      nothing and the iteration at hand calls from its call site.
 *      The same check covers code between two iterations' calls that
 *      would be a conflict of rule 2 only if addresses met: a store of the
 *      loop (`rc[i] = fstat(fd[i], &st[i])` with rc and st parameters)
 *      against the buffers later iterations' calls read or write at batch
 *      time (each a range over iterations 1..K-1), when the front end knows
 *      both per iteration (checked_paths counts them).
 *      The strings later iterations pass as names (`fd[i] =
 *      open(names[i], ...)` with fd and names parameters: the store may
 *      reach the bytes of a later name) join the check when the front end
 *      knows every write that may reach them (checked_strings): the
 *      inspector takes SB_LOOP_NAME_MAX bytes from each name it passes
 *      for iterations 1..K-1 (none for NULL), the most the kernel reads
 *      of a name, and checks them against every write of the group, the
 *      stores and the calls' output buffers alike.  When none of
 *      iterations 0..j-1 (nor j's own stores before its call) writes any
 *      of those bytes, the kernel reads at batch time exactly the string
 *      the original call would read.  Iteration 0's name is read by the
 *      first slot before any write, as in the original.  The inspector
 *      never reads a name (the original does not in user space, and a
 *      pointer the kernel answers with EFAULT must not fault there).  Only
 *      when no class stops (rule 4: the pointers of iterations the
 *      original might never reach).
 *   8. an argument computed by a call to a libc function of the table
 *      (sysbatch/libc.h) that makes no system call, writes no memory and
 *      leaves errno alone, only reading its arguments' memory (strlen,
 *      strnlen, strcmp, memchr; `write(fd, parts[i], strlen(parts[i]))`),
 *      is repeatable like a load: its inputs repeatable (rule 1) and the
 *      memory it reads written by no code in the loop nor the call, the
 *      front end's part; the inspector calls it again for each later
 *      iteration (repeated_call names each function, the core checks it
 *      against the table).  What it reads for a later iteration is a load
 *      ahead for rule 4 (a string of a constant table is proven).
 *   9. writes in the loop that only classes which stop the group reach (a
 *      diagnostic after a failed call: `if (mkdir(path, 0755) != 0)
 *      printf("cannot %s\n", path)`) do not make an argument, a guard or
 *      an exit test unrepeatable.  When slot t's result is of such a
 *      class the runtime runs no later slot (their rets stay NOT_RUN), so
 *      the next iteration refills from its own call site, computing its
 *      values after that code ran; a slot s > 0 runs only when every slot
 *      before it had a class that goes on, and the code between the
 *      refill and slot s's call is then only code those classes reach.
 *      The front end leaves such writes out of rules 1, 6 and 7 and says
 *      which classes reach them (stop_write_classes); the core refuses
 *      unless every one of those classes stops.
 *  10. an induction variable may be a pointer chase (`for (p = head; p;
 *      p = p->next)`): no closed form gives iteration t's node, so the
 *      inspector follows the list from the node at hand, one link per
 *      iteration it looks at, loading node t's link after filling (or, under
 *      a guard, skipping) iteration t.  Those are the loads the original
 *      makes on the way round, from nodes of iterations that happen, when
 *      (a) no class stops the group: otherwise the original may leave (or
 *      cross code that may free or relink the list) before iteration t
 *      goes round, and node t's link - and the nodes after it, which may be
 *      freed or never initialised - would be read ahead of it (refused as
 *      loop-speculative-load, whatever the front end proves of the other
 *      loads); (b) the link's load comes before every repeated exit test
 *      after the call (a rotated loop's `p->next != NULL` tests the link
 *      itself), so no iteration leaves before loading it (chase_early
 *      otherwise); (c) the link, like any argument's load, is memory no
 *      code in the loop nor the call writes (rule 1; `close(p->fd)`,
 *      `stat(p->name, &p->st)` write `st`, not `next`), or rule 7's check
 *      covers it: then the links of iterations 0..K-1 are read ranges from
 *      iteration 0 on (the original loads node 0's link after iteration 0's
 *      writes, unlike an argument's load of iteration 0, made at the call).
 *      The front end says how many chases it follows (chases); the core
 *      applies (a) and (b).
 *
 * The first slot of a group is the iteration at hand; the plan is the same
 * for every group.  A group that stopped early is refilled from the first
 * iteration that did not run.  Tock's series call has no loops: loops are
 * refused there (wrong-abi) and planned as straight-line code.
 */
#ifndef SYSBATCH_LOOP_H
#define SYSBATCH_LOOP_H

#include "sysbatch/core.h"
#include "sysbatch/libc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one libc argument of the loop's call is, across iterations. */
enum sb_loop_value {
    SB_LV_INVARIANT = 0, /* the same value in every iteration, defined before
                            the loop (a constant: give it as SB_OPND_CONST in
                            call.args as well) */
    SB_LV_INDUCTION,     /* recomputed per iteration by the inspector (rule 1) */
    SB_LV_CARRIED,       /* depends on the call's result in an earlier
                            iteration (a read loop's offset, a reused fd) */
    SB_LV_UNREPEATABLE,  /* depends on code the inspector cannot repeat;
                            arg_why says what */
    SB_LV_BUILT,         /* the address of a buffer (the same every
                            iteration) the loop fills in each iteration
                            before the call only by code with known effects
                            (core/libc.c) on invariant and induction values
                            and memory nothing in the loop writes
                            (snprintf(path, sizeof path, "%s/%s", dir,
                            names[i])): built_size[k] is its size in bytes,
                            0 when not known (rule 6) */
    SB_LV_BUILT_OTHERWISE, /* such a buffer, but also written by other code
                              or from inputs the inspector cannot repeat;
                              arg_why says what */
    SB_LV_CHECKED,       /* an induction value loaded from memory the loop
                            may write (rule 7): repeatable when the run-time
                            check passes; checked_writes says how many
                            writes the check compares with */
};

/* Rule 6: what one step of the code that builds a buffer does to it. */
enum sb_loop_build_kind {
    SB_BUILD_OTHER = 0, /* something the core does not model */
    SB_BUILD_STRING,    /* writes a NUL-terminated string at `offset`
                           (strcpy, stpcpy, sprintf, snprintf with a
                           constant size above 0) */
    SB_BUILD_APPEND,    /* appends to the string at `offset` (strcat) */
    SB_BUILD_FIXED,     /* writes exactly `bytes` bytes at `offset` (memcpy
                           of a constant count, strncpy, a store) */
};

struct sb_loop_build_step {
    uint8_t kind;  /* enum sb_loop_build_kind */
    long offset;   /* where in the buffer the step writes */
    long bytes;    /* SB_BUILD_FIXED: how many (<= 0: not known) */
};

#define SB_LOOP_MAX_BUILD_STEPS 8

/* Rule 7: the most bytes the kernel reads of a name (PATH_MAX, the NUL
 * included; a longer one is ENAMETOOLONG after that many): the extent the
 * run-time check gives each later name, which the inspector never reads. */
#define SB_LOOP_NAME_MAX 4096

/* Rule 7: the most writes per iteration the inspector compares at run
 * time with its loads (each comparison is a few instructions per slot). */
#define SB_LOOP_MAX_CHECKED_WRITES 8

/* Rule 8: the most libc calls the inspector makes per slot to compute
 * arguments. */
#define SB_LOOP_MAX_REPEATED_CALLS 4

/* Where one sign class of the call's result leads before the next
 * iteration's call (rule 2). */
enum sb_loop_path {
    SB_LP_NEXT = 0,  /* on to the next iteration through code that commutes
                        with later iterations' calls, or out through an exit
                        test the inspector repeats */
    SB_LP_LEAVES,    /* may leave the loop another way (break, return, a
                        test on the result or on something the inspector does
                        not know) */
    SB_LP_CONFLICT,  /* may cross code later iterations' calls may not move
                        above (class_why says what) */
};

/* How the inspector knows whether an iteration reaches the call. */
enum sb_loop_guard {
    SB_LG_ALWAYS = 0,    /* every iteration that does not exit calls it */
    SB_LG_REPEATED,      /* under a condition the inspector repeats */
    SB_LG_UNKNOWN,       /* under a condition it cannot repeat (guard_why) */
};

struct sb_loop {
    enum sb_abi abi;
    /* The one catalogued call site of the loop.  Operand kinds are those of
     * core.h (CONST, AVAILABLE, LOCAL); arg_value says what each argument
     * is across iterations. */
    struct sb_call_event call;
    uint8_t arg_value[SB_MAX_ARGS + 1]; /* enum sb_loop_value */
    const char *arg_why[SB_MAX_ARGS + 1];
    /* Other catalogued call sites in the loop (inner loops included):
     * loops with more than one are not batched this way. */
    int other_call_sites;
    /* With other call sites: the first code in the loop that may touch
     * anything (an unknown call, a volatile access; the core's barrier
     * text, "call to error"), NULL when there is none.  Later
     * iterations' calls could not move above it on the paths that run it,
     * which is why such loops, common in real programs, stay straight-line
     * code; the refusal names it. */
    const char *several_barrier;
    /* Per raw sign class of the result (index 0 < 0, 1 == 0, 2 > 0):
     * enum sb_loop_path, and what the code on that path is. */
    uint8_t class_path[3];
    const char *class_why[3];
    /* Bit c: the front end proved that no path from the call with a result
     * of class c leads round to the next iteration (every one leaves the
     * loop; class_path[c] is then SB_LP_LEAVES).  0: nothing proven. */
    uint8_t class_exits;
    uint8_t guard;           /* enum sb_loop_guard */
    const char *guard_why;
    /* The inspector loads memory that is not known to be dereferenceable
     * for every iteration it looks at (rule 4). */
    bool unproven_loads;
    const char *loads_why;
    /* SB_LV_BUILT arguments: the buffer's size in bytes (0: not known). */
    long built_size[SB_MAX_ARGS + 1];
    /* Rule 6: the steps that build the SB_LV_BUILT argument's buffer, in
     * the order every iteration runs them (build_steps > the array's
     * size: too many to list). */
    int build_steps;
    struct sb_loop_build_step build_step[SB_LOOP_MAX_BUILD_STEPS];
    /* Rule 7: the writes (stores, the call's output buffers) whose address
     * and size the front end computes per iteration for the run-time check
     * of SB_LV_CHECKED arguments; checked_why names them (for remarks). */
    int checked_writes;
    const char *checked_why;
    /* Rule 7: code on the paths between calls that commutes with later
     * calls only under that check (counted; the writes are in
     * checked_writes). */
    int checked_paths;
    /* Rule 7: the loads the check compares, whatever they feed (an
     * argument, an exit test, the paths): any at all and the check is
     * needed, since a value read ahead from memory the loop writes is only
     * what the iteration will see when the check passes. */
    int checked_reads;
    /* Rule 7: bit k set when the front end checks the string libc
     * argument k (a name, SB_ARG_PATH) points to in iterations 1..K-1
     * (SB_LOOP_NAME_MAX bytes from the pointer, which is never read)
     * against every write of the group, because a write of
     * the loop may reach it: a store (in checked_writes) and the call's
     * output buffers (in checked_writes too, each with its size). */
    uint32_t checked_strings;
    /* Rule 8: the libc functions the inspector calls again to compute an
     * argument for a later iteration (repeated_calls > the array's size:
     * too many to list). */
    int repeated_calls;
    const char *repeated_call[SB_LOOP_MAX_REPEATED_CALLS];
    /* Rule 9: writes left out of rules 1, 6 and 7 because only the classes
     * in stop_write_classes (bit c: sign class c) reach them;
     * stop_write_why names the first (for remarks). */
    int stop_writes;
    uint8_t stop_write_classes;
    const char *stop_write_why;
    /* Rule 10: induction variables that are pointer chases (`p = p->next`)
     * the inspector follows one link per later iteration; chase_early,
     * when set, says which repeated exit test after the call may leave
     * before the link is loaded. */
    int chases;
    const char *chase_early;
};

/* What happens to a shared output buffer (rule 3). */
enum sb_copy_back {
    SB_COPY_BACK_NONE = 0,  /* no shared output buffer */
    SB_COPY_BACK_FIXED,     /* copy_size bytes when the call succeeded */
    SB_COPY_BACK_RESULT,    /* as many bytes as the (successful) result says */
};

struct sb_loop_plan {
    enum sb_why why;           /* SB_WHY_NONE: batched */
    const char *detail;        /* refused: the front end's or row's text */
    int group;                 /* iterations per batch (slots) */
    /* The slot every iteration fills: the raw call, its arguments (the
     * fill kinds of core.h; never CHAINED), and per class 0 (go on) or -1
     * (stop the batch after this slot). */
    int nr;
    int argc;
    struct sb_fill_arg args[SB_MAX_ARGS];
    short jump_fail, jump_zero, jump_pos;
    /* Rule 5: the libc argument the inspector tests before filling a slot
     * for iteration t > 0, and the test (enum sb_precheck; SB_PRE_NONE:
     * no test).  Only FD_NONNEG, NONNULL and PAGE_ALIGNED occur. */
    uint8_t precheck;
    int precheck_arg;
    /* Rule 3: the libc argument that is a private buffer per slot. */
    int private_arg;           /* -1: none */
    uint8_t copy_back;         /* enum sb_copy_back */
    long private_size;         /* bytes per slot */
    /* Rule 2: iterations the inspector looks at per refill (group, or
     * more under a repeated guard: iterations whose guard is false fill
     * no slot, and a refill must end however rarely the guard holds). */
    int scan;
    /* Rule 6: the libc argument the inspector builds into a private buffer
     * per slot by repeating the loop's own code (-1: none), and its size. */
    int built_arg;
    long built_size;
    /* Rule 6: each private buffer starts as a copy of the shared one (the
     * steps write fixed places only). */
    bool built_copy_in;
    /* Rule 7: the inspector fills a group only when the group's writes miss
     * the memory its loads for later iterations read. */
    bool runtime_check;
    /* Rule 7: bit k set when the check also reads the string libc argument
     * k names in iterations 1..K-1, measured by the inspector up to its
     * NUL (NULL: no bytes) before any of the group's writes. */
    uint32_t measured_strings;
    /* Rule 10: the inspector follows a list (a pointer chase) from the
     * node at hand. */
    bool chase;
    /* Storage for a detail the core words itself (loop-several-calls);
     * plan->detail may point here, so a plan is not copied by value. */
    char detail_text[320];
};

/* Plan one loop.  The loop is not modified.  Returns 0 (plan->why says
 * whether it is batched). */
int sb_plan_loop(const struct sb_loop *loop, const struct sb_options *opts,
                 struct sb_loop_plan *plan);

/* Rule 6: the step a call to libc function `fn` (sysbatch/libc.h) makes
 * when it writes the buffer as its first argument, `offset` bytes in;
 * `count` is the value of its size argument (-1: not a constant).  The
 * front ends describe stores themselves (SB_BUILD_FIXED). */
struct sb_loop_build_step sb_loop_libc_build_step(
    const struct sb_libc_function *fn, long offset, long count);

/* Rule 8: NULL when the inspector may call libc function `fn` again for
 * a later iteration to compute an argument (it writes no memory, sets no
 * errno, is no printf), else why not. */
const char *sb_loop_libc_repeatable(const struct sb_libc_function *fn);

/* The one printable form, shared by both front ends and sysbatch-plan:
 *
 *     loop call lstat: 16 iterations per batch
 *       slot: newfstatat(-100, a0, private, 256)  fail=next zero=next pos=next
 *       private a1: 144 bytes per slot, copied back on success
 *       guard repeated: up to 64 iterations looked at per batch
 *       built a0: 256 bytes per slot, by the loop's own code
 *       run-time check: the group's writes miss what it reads ahead
 *       measured a0: later iterations' names count as 4096 bytes in the check
 *       inspector calls strlen for each later iteration
 *       writes only after fail pos (which stop the group) not read ahead
 *       chase: later iterations' nodes followed from the one at hand
 *
 * (the guard line only under a repeated guard, the built line for rule 6,
 * ending ", over a copy of the buffer" under built_copy_in,
 * the check for rule 7, the measured line when it reads names' strings,
 * the calls for rule 8, the classes for rule 9, the chase for rule 10)
 * or "loop call read: refused: loop-carried: ...". */
void sb_loop_plan_print(FILE *out, const struct sb_loop *loop,
                        const struct sb_loop_plan *plan);

#ifdef __cplusplus
}
#endif

#endif /* SYSBATCH_LOOP_H */
