// SPDX-License-Identifier: GPL-2.0
/*
 * sysbatch.ko - sys_batch on x86_64 syscall 183 (the unused afs_syscall slot):
 * run an array of system calls, with forward jumps and word copies, in one
 * user/kernel crossing.
 *
 *     long rets[3];
 *     struct slot s[3] = {                          -- 64 bytes each
 *         { SYS_openat, -1, 0, 0, 3, {}, { AT_FDCWD, path, O_RDONLY } },
 *         { -2,          0, 0, 0, 2, {}, { &s[2].arg[0], &rets[0] } },
 *         { SYS_read,    0, 0, 0, 3, {}, { 0, buf, sizeof buf } },
 *     };
 *     syscall(183, rets, s, 3, 0, 0);   -- returns 2, the last slot run
 *
 * ABI (the c-blake/batch module's, so programs written for it run unchanged):
 * syscall(183, long *rets, struct slot *slots, unsigned long n, flags, size).
 * A slot is { short nr, jump_fail, jump_zero, jump_pos; char argc; pad[7];
 * long arg[6]; }.  After slot i runs, its result goes to rets[i] and the jump
 * chosen by result < 0 / == 0 / > 0 moves to slot i + 1 + jump; a negative
 * jump stops.  nr == -2 is the word copy: 8 bytes from address arg[1] to
 * address arg[0]; a source inside rets reads the in-flight result, a
 * destination inside the slot array patches the in-flight slot.  Returns the
 * index of the last slot run; n == 0 is the presence probe and returns 0.
 *
 * What this module adds to that ABI (docs/kernel.md has the reasons):
 *   - The whole batch is checked before anything runs: argc outside 0..6, or
 *     any jump that lands beyond slot n (exactly n means "end"), refuses the
 *     batch with -EINVAL.  A word copy that patches a slot header is checked
 *     on the spot and refused (-EINVAL in its own rets entry, no patch) if
 *     it would break that rule.  The run loop itself stops at any target
 *     >= n and masks argc, so even a slot rewritten behind the checks (by
 *     another thread, or a read() into the array) cannot make the kernel
 *     step outside the two arrays.
 *   - A word copy behaves like a call returning 0 (or -EFAULT / -EINVAL) and
 *     jumps on its own result, however it was reached.
 *   - n is capped at SB_MAX_SLOTS (1024, the runtime's SYSBATCH_MAX_SLOTS),
 *     checked before any size is multiplied, so no size can overflow.
 *   - flags must be 0 and size 0 or 64, else -EINVAL (room to extend; with
 *     n == 0 this doubles as a feature probe).  The one flag defined is the
 *     info query (SB_QUERY_INFO, n == 0): it writes SB_INFO_WORDS longs to
 *     rets - which hook is in use and the batch size from which a batch
 *     pays off (min_batch) - so the runtime can run smaller batches as
 *     their original calls.
 *   - Bad user pointers give -EFAULT, never an oops.  Unmapped or unreadable
 *     slots and unmapped or read-only rets are found before anything runs.
 *   - The slots and rets are the caller's memory throughout (read and
 *     written with unsafe_get_user / unsafe_put_user, no kernel copies):
 *     rets[i] is written as soon as slot i returns, entries of slots that
 *     do not run are left alone, a word copy's patch lands in the caller's
 *     slot array.  If rets stops being writable during the run (a call in
 *     it unmapped it) the batch stops there with -EFAULT.
 *   - Denied calls (they need the caller's real register frame, replace or
 *     end the task, or would recurse) get -ENOSYS in their rets entry and
 *     the batch goes on: clone, clone3, fork, vfork, execve, execveat, exit,
 *     exit_group, rt_sigreturn, 183 itself, arch_prctl, iopl, ioperm,
 *     sigaltstack, modify_ldt.
 *   - A call interrupted by a signal gets -EINTR (kernel-internal restart
 *     codes never reach user space); the signal is delivered after the
 *     batch.  A fatal signal stops the batch after the current slot.
 *   - Nobody loses sight of a call: inner calls are dispatched directly, so
 *     they would bypass seccomp filters, ptrace syscall stops (strace),
 *     audit and the sys_enter/sys_exit tracepoints (perf trace).  A task
 *     with any of that syscall work set gets -EPERM for every sys_batch
 *     call, probe included, and its runtime runs the batch as the original
 *     calls, which everybody sees.
 *
 * Hook: since 6.1.85 (stable) / 6.9, x86_64 dispatches through the compiled
 * switch x64_sys_call(regs, nr), so patching sys_call_table[183] does
 * nothing.  Default: an ftrace direct trampoline (sb_tramp) on the fentry
 * site of x64_sys_call; it compares nr with 183 and returns into
 * x64_sys_call for every other number (three instructions), and for 183
 * drops its own return address and jumps to sb_entry(regs), which then
 * returns straight to do_syscall_64 as x64_sys_call would have
 * (dispatch=switch: sb_tramp_switch and sb_entry_switch, the same code
 * with the other dispatch, so that no batch tests which one is in use).  Fallback
 * (no x64_sys_call, direct calls not configured, registration refused -
 * e.g. another direct trampoline is there - or hook=kprobe): a kprobe on
 * __x64_sys_ni_syscall, where every unimplemented number ends, whose
 * pre-handler moves regs->ip to sb_entry for 183 (a no-op post-handler
 * keeps it an int3: an optimised probe would ignore the new ip).  Either
 * way sb_entry runs in ordinary process context, so inner calls may block.
 * Inner calls go straight to their handlers through a private copy of
 * sys_call_table with the deny list filled in (sb_dispatch), or, where the
 * table cannot be found or with dispatch=switch, through x64_sys_call; both
 * are found with kallsyms_lookup_name, itself found through a kprobe since
 * it is no longer exported.  Why an indexed call is safe here although
 * x64_sys_call replaced the table for Branch History Injection: see
 * docs/kernel.md (the index is clamped with array_index_nospec and the call
 * is an ordinary retpoline/IBRS-protected indirect call, like the file
 * operations every handler makes).
 *
 * Unload: no module reference is taken per batch.  sb_entry counts itself
 * in a per-CPU counter on entry and out on return; unload removes the hook,
 * waits for an RCU-tasks grace period (every task that was between the hook
 * and the count-in has then counted in, since neither sleeps), waits for
 * the counters to sum to zero (a blocked batch delays rmmod until it
 * returns; new ones already get -ENOSYS) and waits for one more grace
 * period for the few instructions after the count-out.
 */
#include <linux/build_bug.h>
#include <linux/jiffies.h>
#include <linux/errno.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/linkage.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nospec.h>
#include <linux/objtool.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/thread_info.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

MODULE_DESCRIPTION("sys_batch: run a batch of system calls in one crossing (syscall 183)");
MODULE_AUTHOR("sysbatch project");
MODULE_LICENSE("GPL v2");

#define SB_NR_BATCH 183          /* __NR_afs_syscall */
#define SB_NR_WORDCOPY (-2)
#define SB_MAX_SLOTS 1024        /* == SYSBATCH_MAX_SLOTS in runtime/include/sysbatch.h */
/* Below this both arrays of any batch end inside every x86_64 user address
 * space (the 4-level one, TASK_SIZE_MAX there, is the smallest). */
#define SB_FAST_USER_LIMIT (((1UL << 47) - PAGE_SIZE) - SB_MAX_SLOTS * 64UL)

/* The info query (== SYSBATCH_QUERY_INFO in runtime/include/sysbatch.h):
 * syscall(183, long info[SB_INFO_WORDS], NULL, 0, SB_QUERY_INFO, 0). */
#define SB_QUERY_INFO 0x100
enum { SB_INFO_VERSION, SB_INFO_HOOK, SB_INFO_MIN_BATCH, SB_INFO_RESERVED, SB_INFO_WORDS };
enum sb_hook { SB_HOOK_NONE, SB_HOOK_FTRACE, SB_HOOK_KPROBE };

/* Syscall work that must see every call: a task with any of it set gets
 * -EPERM (seccomp filters and strict mode, ptrace syscall stops and
 * emulation, single-step exit traps, audit, the raw_syscalls/syscalls
 * tracepoints, syscall user dispatch). */
#define SB_REFUSE_WORK (SYSCALL_WORK_SECCOMP | SYSCALL_WORK_SYSCALL_TRACEPOINT |          \
			SYSCALL_WORK_SYSCALL_TRACE | SYSCALL_WORK_SYSCALL_EMU |            \
			SYSCALL_WORK_SYSCALL_AUDIT | SYSCALL_WORK_SYSCALL_USER_DISPATCH |  \
			SYSCALL_WORK_SYSCALL_EXIT_TRAP)

struct sb_slot {
	short nr;
	short jump_fail;
	short jump_zero;
	short jump_pos;
	char argc;
	char pad[7];
	long arg[6];
};
static_assert(sizeof(struct sb_slot) == 64, "slot layout is ABI");
static_assert(offsetof(struct sb_slot, arg) == 16, "slot layout is ABI");

/* The slot's first two words: nr and the three jumps, then argc (low byte). */
#define SB_HEAD_NR(h) ((short)(h))
#define SB_HEAD_JUMP(h, k) ((short)((h) >> (16 * (k))))  /* k = 1 fail, 2 zero, 3 pos */

static char *hook = "auto";
module_param(hook, charp, 0444);
MODULE_PARM_DESC(hook, "auto (ftrace direct call on x64_sys_call, else kprobe), ftrace or kprobe");

static char *hook_in_use = "none";
module_param(hook_in_use, charp, 0444);
MODULE_PARM_DESC(hook_in_use, "the hook the module installed (read-only)");

/* Batch sizes from which one batch beats its separate calls, measured with
 * qemu -icount on the getuid row (docs/kernel-bench.md): the module
 * reports the one for the hook in use unless min_batch overrides it. */
#define SB_MIN_BATCH_FTRACE 2
#define SB_MIN_BATCH_KPROBE 4
static uint min_batch;
module_param(min_batch, uint, 0644);
MODULE_PARM_DESC(min_batch, "batch size reported as break-even (0: the measured one for the hook)");

static enum sb_hook sb_hook_used;

static char *dispatch = "auto";
module_param(dispatch, charp, 0444);
MODULE_PARM_DESC(dispatch, "auto (sys_call_table if found, else x64_sys_call), table or switch "
		 "(x64_sys_call, the kernel's own dispatcher; for side-by-side measurements)");

static char *dispatch_in_use = "none";
module_param(dispatch_in_use, charp, 0444);
MODULE_PARM_DESC(dispatch_in_use, "how inner calls are dispatched: table or switch (read-only)");

static const sys_call_ptr_t *sb_sys_call_table;
static long (*sb_x64_sys_call)(const struct pt_regs *, unsigned int) __ro_after_init;

/* sb_argmask[j][argc] keeps argument j when j < argc: arguments past argc
 * are passed as 0 at the cost of one AND with a memory operand per
 * argument, no branches.  Column argc 7 serves an argc rewritten behind the
 * check (the loop masks argc with 7).  Indexed [argument][argc] so that
 * the entry's address is a constant plus argc * 8, which x86 addressing
 * scales for free. */
static const unsigned long sb_argmask[6][8] __aligned(64) = {
	{ 0, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL },
	{ 0, 0, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL },
	{ 0, 0, 0, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL },
	{ 0, 0, 0, 0, ~0UL, ~0UL, ~0UL, ~0UL },
	{ 0, 0, 0, 0, 0, ~0UL, ~0UL, ~0UL },
	{ 0, 0, 0, 0, 0, 0, ~0UL, ~0UL },
};

static const int sb_denied[] = {
	__NR_clone, __NR_clone3, __NR_fork, __NR_vfork, __NR_execve,
	__NR_execveat, __NR_exit, __NR_exit_group, __NR_rt_sigreturn,
	SB_NR_BATCH, __NR_arch_prctl, __NR_iopl, __NR_ioperm,
	__NR_sigaltstack, __NR_modify_ldt,
};

static long sb_enosys(const struct pt_regs *regs)
{
	return -ENOSYS;
}

/* dispatch=switch: every number through the kernel's own dispatcher (it
 * reads the number from orig_ax, which the loop sets for this). */
static long sb_via_switch(const struct pt_regs *regs)
{
	return sb_x64_sys_call(regs, regs->orig_ax);
}

/* What the slot loop calls for a number below SB_DISPATCH_SIZE: the
 * kernel's handler (copied from sys_call_table at load), or sb_enosys for
 * the deny list, for numbers from NR_syscalls up and - when the table is
 * visible - for numbers the kernel has no handler for (they must not trip
 * the kprobe hook from inside a batch).  One masked index, one load and
 * one call per slot: the policy is in the table, so the loop has no lookup
 * of its own, and it skips x64_sys_call's compare tree and the trampoline
 * on its entry.  The handlers are the ones x64_sys_call calls, and
 * sys_call_table is read-only after boot, so the copy cannot go stale.  A
 * power of two, so that the index is masked rather than compared under
 * speculation. */
#define SB_DISPATCH_SIZE 512
static_assert(NR_syscalls <= SB_DISPATCH_SIZE, "the dispatch table covers every number");
static sys_call_ptr_t sb_dispatch[SB_DISPATCH_SIZE] __ro_after_init;
static bool sb_dispatch_is_table;

/* Batches inside sb_entry, per CPU (a task may count in on one CPU and out
 * on another: only the sum means anything). */
static DEFINE_PER_CPU(long, sb_inflight);

/* One batch in flight: the caller's arrays. */
struct sb_batch {
	struct sb_slot __user *slots;
	long __user *rets;
	unsigned int n;
};

/* A slot is valid when argc is 0..6 and no jump lands beyond slot n.  A
 * negative jump lands at or before i, so testing the largest of the three
 * covers them all; most slots have no jump at all, which the head word
 * (nr and the jumps) tells with one test. */
static __always_inline bool sb_head_ok(u64 head, u64 argc_word, unsigned int i, unsigned int n)
{
	if ((u8)argc_word > 6)
		return false;
	if (likely((head >> 16) == 0))
		return true;
	return (long)i + 1 + max3(SB_HEAD_JUMP(head, 1), SB_HEAD_JUMP(head, 2),
				  SB_HEAD_JUMP(head, 3)) <= (long)n;
}

/* Where an 8-byte word at addr lies relative to [base, base + len):
 * 1 inside, 0 outside, -1 straddling an edge.  Wrap-safe. */
static int sb_word_in(unsigned long addr, unsigned long base, unsigned long len,
		      unsigned long *offset)
{
	*offset = addr - base;
	if (*offset <= len - 8)
		return 1;
	if (*offset < len || base - addr < 8)
		return -1;
	return 0;
}

/* Would writing val at byte offset off of the slot array leave the one or
 * two slots it touches valid?  0, -EINVAL, or -EFAULT. */
static int sb_patch_ok(const struct sb_batch *b, unsigned long off, u64 val)
{
	unsigned int k, first = off / sizeof(struct sb_slot), last = (off + 7) / sizeof(struct sb_slot);

	for (k = first; k <= last; k++) {
		u8 bytes[16];
		long at = (long)off - (long)k * (long)sizeof(struct sb_slot);
		u64 head, argc_word;
		int j;

		if (at >= 16 || at + 8 <= 0)
			continue;                /* only arguments: always valid */
		if (copy_from_user(bytes, &b->slots[k], sizeof(bytes)))
			return -EFAULT;
		for (j = 0; j < 8; j++)
			if (at + j >= 0 && at + j < 16)
				bytes[at + j] = (u8)(val >> (8 * j));
		memcpy(&head, bytes, 8);
		memcpy(&argc_word, bytes + 8, 8);
		if (!sb_head_ok(head, argc_word, k, b->n))
			return -EINVAL;
	}
	return 0;
}

/* nr == -2: *(u64 *)dst = *(u64 *)src.  The arrays are the caller's
 * memory, so a source in rets reads the in-flight result and a destination
 * in the slots patches the in-flight slot by themselves; a word straddling
 * the edge of either array is refused, and so is a patch that would make a
 * slot invalid.  Kept out of line: the hot loop stays free of its stack. */
static noinline long sb_word_copy(struct sb_slot __user *slots, long __user *rets,
				  unsigned int n, const struct sb_slot __user *s)
{
	/* the batch by value in the loop's registers, here in memory: the
	 * loop's frame holds no copy of it */
	const struct sb_batch batch = { .slots = slots, .rets = rets, .n = n }, *b = &batch;
	unsigned long sbytes = b->n * sizeof(struct sb_slot), rbytes = b->n * sizeof(long), off;
	unsigned long dst, src;
	int in_slots, in_rets;
	u64 val;

	/* its operands as they are, whatever argc says (read here, not in
	 * the loop, which keeps only masked arguments) */
	if (get_user(dst, &s->arg[0]) || get_user(src, &s->arg[1]))
		return -EFAULT;

	in_slots = sb_word_in(src, (unsigned long)b->slots, sbytes, &off);
	in_rets = sb_word_in(src, (unsigned long)b->rets, rbytes, &off);
	if (in_slots < 0 || in_rets < 0)
		return -EINVAL;
	if (get_user(val, (u64 __user *)src))
		return -EFAULT;
	in_rets = sb_word_in(dst, (unsigned long)b->rets, rbytes, &off);
	in_slots = sb_word_in(dst, (unsigned long)b->slots, sbytes, &off);
	if (in_slots < 0 || in_rets < 0)
		return -EINVAL;
	if (in_slots == 1) {
		int bad = sb_patch_ok(b, off, val);

		if (bad)
			return bad;
	}
	return put_user(val, (u64 __user *)dst) ? -EFAULT : 0;
}

/* acc |= the user word at ptr, in one instruction (an OR from memory); a
 * fault sets err to -EFAULT and goes on, so that a loop of these tests err
 * once at its end.  Inside a user-access window only. */
#define sb_or_user(acc, err, ptr)						\
	asm volatile("1:	orq %[sb_m], %[sb_a]\n"				\
		     "2:\n"							\
		     _ASM_EXTABLE_TYPE_REG(1b, 2b, EX_TYPE_EFAULT_REG, %[sb_e])	\
		     : [sb_a] "+r" (acc), [sb_e] "+r" (err)				\
		     : [sb_m] "m" (*(const u64 __force *)(ptr)) : "cc")

/* The same with acc itself as err. */
#define sb_or_user_fault_in_acc(acc, ptr)					\
	asm volatile("1:	orq %[sb_m], %[sb_a]\n"				\
		     "2:\n"							\
		     _ASM_EXTABLE_TYPE_REG(1b, 2b, EX_TYPE_EFAULT_REG, %[sb_a])	\
		     : [sb_a] "+r" (acc)					\
		     : [sb_m] "m" (*(const u64 __force *)(ptr)) : "cc")

/* Before anything runs: every slot readable and valid, and every page of
 * rets writable (a byte read and written back).  Every page of the slot
 * array holds the start of a slot, except perhaps the last one, which the
 * array's last word covers.  The common batch - argc 0..6 and no jump
 * anywhere - is told by ORing every slot's two header words together (an
 * OR of argc values is at least each of them; of the jumps, zero only if
 * all are): two instructions per slot.  Any other batch is looked at slot
 * by slot.  Opens the user-access window and leaves it open when the batch
 * is valid (the record loop runs in it); closes it otherwise. */
static __always_inline long sb_check(const struct sb_batch *b)
{
	unsigned long p = (unsigned long)b->rets, end = p + b->n * sizeof(long);
	const struct sb_slot __user *s = b->slots, *stop = b->slots + b->n;
	u64 heads = 0, argcs = 0;
	u8 v;

	/* a fault makes heads -EFAULT, which sends the batch to the slot by
	 * slot loop below, where the same read faults again (or, if another
	 * thread has mapped the page since, the batch is just checked) */
	__uaccess_begin_nospec();
	/* by a negative offset from the end, so that the add that steps it
	 * also tells the end (n >= 1, so the loop runs at least once) */
	{
		const char __user *end = (const char __user *)stop;
		long off = -(long)(b->n * sizeof(struct sb_slot));

		do {
			sb_or_user_fault_in_acc(heads, end + off);
			sb_or_user(argcs, heads, end + off + offsetof(struct sb_slot, argc));
		} while ((off += sizeof(struct sb_slot)) != 0);
	}
	if (unlikely(((u8)argcs > 6) | ((heads >> 16) != 0))) {
		unsigned int i = 0;

		for (s = b->slots; s < stop; s++, i++) {
			u64 head, argc_word;

			unsafe_get_user(head, (const u64 __user *)s, fault);
			unsafe_get_user(argc_word, (const u64 __user *)&s->argc, fault);
			if (!sb_head_ok(head, argc_word, i, b->n)) {
				user_access_end();
				return -EINVAL;
			}
		}
	}
	unsafe_get_user(v, (const u8 __user *)stop - 1, fault);
	do {
		unsafe_get_user(v, (u8 __user *)p, fault);
		unsafe_put_user(v, (u8 __user *)p, fault);
		p = (p & PAGE_MASK) + PAGE_SIZE;
	} while (p < end);
	return 0;
fault:
	user_access_end();
	return -EFAULT;
}

/* Close the user-access window and run the handler of number (u16)head
 * from sb_dispatch (its result may be a restart code: sb_restart_code).  The index
 * is masked, not just tested: under a mispredicted test of head the mask
 * keeps the load inside the table (OPTIMIZER_HIDE_VAR stops the compiler
 * from dropping the mask where it has seen that test). */
static __always_inline long sb_call(u64 head, struct pt_regs *regs, bool via_switch)
{
	unsigned long index = head;
	long ret;

	user_access_end();
	if (via_switch)
		regs->orig_ax = (u16)head;
	OPTIMIZER_HIDE_VAR(index);
	ret = sb_dispatch[index & (SB_DISPATCH_SIZE - 1)](regs);
	return ret;
}

/* Kernel-internal restart codes (-ERESTARTSYS .. -ERESTART_RESTARTBLOCK)
 * must not reach user space: the slot gets -EINTR.  A call returns one only
 * because a signal (or signal-like task work) is pending - the kernel's own
 * exit path translates them only then, too - so the loop looks for them
 * only when its signal test, which it makes after every slot anyway, finds
 * work: no test on the common slot. */
#define SB_SIGNAL_WORK (_TIF_SIGPENDING | _TIF_NOTIFY_SIGNAL)
static __always_inline bool sb_restart_code(long ret)
{
	return unlikely(ret < 0) &&
	       unlikely((unsigned long)(ret + ERESTART_RESTARTBLOCK) <=
			ERESTART_RESTARTBLOCK - ERESTARTSYS);
}

/* The signal test every slot passes after its result is stored at r,
 * inside the user-access window, on each of the loop's three ways on
 * (common slot, slot with jumps, the rest): with signal work pending, a
 * restart code there becomes -EINTR, and the verdict is whether the batch
 * stops here (a fatal signal).  One load and one test on the common slot.
 * A macro, because the fix-up store jumps to the loop's fault label. */
#define sb_signal_stops(task, ret, r, fault) ({				\
	bool __sb_stop = false;						\
	if (unlikely(task_thread_info(task)->flags & SB_SIGNAL_WORK)) {	\
		if (sb_restart_code(ret))				\
			unsafe_put_user(-EINTR, r, fault);		\
		__sb_stop = __fatal_signal_pending(task);		\
	}								\
	__sb_stop;							\
})

/* The record loop.  Per slot: one user-access window that stores the
 * previous result and loads this slot (head, argc, three arguments, six
 * when argc > 3), the arguments masked by argc into one register frame,
 * one indexed call through sb_dispatch (which holds the deny list), the
 * signal test, the jump; the first window is the one sb_check opened.
 * The frame is
 * reused: x86_64 syscall handlers read only the six argument registers of
 * the frame they are given (sb_via_switch also orig_ax, which only the
 * via_switch instance of the loop sets), so the other fields are never
 * initialised.  Numbers from SB_DISPATCH_SIZE up (as unsigned 16-bit
 * values) are the word copy or -ENOSYS, off the hot path; so is a slot
 * with any jump. */
static __always_inline long sb_run(const struct sb_batch *b, struct task_struct *task,
				   bool via_switch)
{
	struct pt_regs regs __uninitialized;
	const struct sb_slot __user *s = b->slots, *last = b->slots + b->n - 1;
	long __user *r = b->rets;
	long ret;

	/* the user-access window sb_check left open */
	for (;;) {
		unsigned long a, argc;
		u64 head, argc_word;
		int jump;

		/* each argument loaded, masked and stored in turn: few live
		 * registers, so that none of them is spilled */
		unsafe_get_user(head, (const u64 __user *)s, fault);
		unsafe_get_user(argc_word, (const u64 __user *)&s->argc, fault);
		argc = argc_word & 7;
		unsafe_get_user(a, &s->arg[0], fault);
		regs.di = a & sb_argmask[0][argc];
		unsafe_get_user(a, &s->arg[1], fault);
		regs.si = a & sb_argmask[1][argc];
		unsafe_get_user(a, &s->arg[2], fault);
		regs.dx = a & sb_argmask[2][argc];
		/* most calls take at most three arguments (read, write,
		 * close, fstat, lseek, getuid, ...): the other three are
		 * zero without being read */
		if (likely(!(argc & 4))) {
			regs.r10 = 0;
			regs.r8 = 0;
			regs.r9 = 0;
		} else {
			unsafe_get_user(a, &s->arg[3], fault);
			regs.r10 = a & sb_argmask[3][argc];
			unsafe_get_user(a, &s->arg[4], fault);
			regs.r8 = a & sb_argmask[4][argc];
			unsafe_get_user(a, &s->arg[5], fault);
			regs.r9 = a & sb_argmask[5][argc];
		}

		if (likely(!(head & ~(u64)(SB_DISPATCH_SIZE - 1)))) {
			/* the common slot: a number in the table, no jump */
			ret = sb_call(head, &regs, via_switch);
			__uaccess_begin();
			unsafe_put_user(ret, r, fault);
			if (sb_signal_stops(task, ret, r, fault))
				break;
			if (s >= last)
				break;
			s++;
			r++;
			continue;
		}
		if (likely(!(head & (u16)~(SB_DISPATCH_SIZE - 1)))) {
			ret = sb_call(head, &regs, via_switch);
		} else if ((u16)head == (u16)SB_NR_WORDCOPY) {
			user_access_end();
			ret = sb_word_copy(b->slots, b->rets, b->n, s);
		} else {
			user_access_end();
			ret = -ENOSYS;
		}
		/* No speculation barrier here: the slot a mispredicted bound
		 * lets through is at most 32768 slots (2 MiB) past a user array
		 * that access_ok placed below TASK_SIZE_MAX, i.e. still user
		 * memory or the non-canonical hole, never kernel data. */
		__uaccess_begin();
		unsafe_put_user(ret, r, fault);
		/* a target beyond n was refused up front; stopping at >= n
		 * keeps a slot rewritten since then inside the arrays.  s stays
		 * on the slot that ran until the batch goes on. */
		if (unlikely(head > 0xffff)) {
			jump = ret < 0 ? SB_HEAD_JUMP(head, 1) : ret == 0 ? SB_HEAD_JUMP(head, 2)
								       : SB_HEAD_JUMP(head, 3);
			if (sb_signal_stops(task, ret, r, fault))
				break;
			if (jump < 0 || s + jump >= last)
				break;
			s += 1 + jump;
			r += 1 + jump;
			continue;
		}
		if (sb_signal_stops(task, ret, r, fault))
			break;
		if (s >= last)
			break;
		s++;
		r++;
	}
	/* (every way out of the loop passed sb_signal_stops for the slot that
	 * ran last, which fixed its restart code) */
	user_access_end();
	return s - b->slots;
fault:
	user_access_end();
	return -EFAULT;
}

static noinline long sb_info(unsigned long urets, unsigned long n, unsigned long size)
{
	long info[SB_INFO_WORDS] = {
		[SB_INFO_VERSION] = 1,
		[SB_INFO_HOOK] = sb_hook_used,
		[SB_INFO_MIN_BATCH] = min_batch ? min_batch :
			sb_hook_used == SB_HOOK_FTRACE ? SB_MIN_BATCH_FTRACE : SB_MIN_BATCH_KPROBE,
	};

	if (n != 0 || (size != 0 && size != sizeof(struct sb_slot)))
		return -EINVAL;
	if (!urets || copy_to_user((void __user *)urets, info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static __always_inline long sb_batch(unsigned long urets, unsigned long uslots, unsigned long n,
				     unsigned long flags, unsigned long size, bool via_switch)
{
	struct sb_batch b __uninitialized;
	/* current read once, kept for the loop's signal tests */
	struct task_struct *task = current;
	long r;

	if (unlikely(READ_ONCE(task_thread_info(task)->syscall_work) & SB_REFUSE_WORK))
		return -EPERM;
	/* size is 0 or 64 exactly when no bit but 64's is set */
	if (unlikely(flags | (size & ~(unsigned long)sizeof(struct sb_slot))))
		return flags == SB_QUERY_INFO ? sb_info(urets, n, size) : -EINVAL;
	if (unlikely(n - 1 >= SB_MAX_SLOTS))
		return n == 0 ? 0 : -EINVAL;
	/* 1 <= n <= 1024 from here, so no size below can overflow */
	b.n = n;
	b.slots = (struct sb_slot __user *)uslots;
	b.rets = (long __user *)urets;
	/* Both pointers nonzero and low enough that no array of up to
	 * SB_MAX_SLOTS slots from them reaches the top of a 4-level user
	 * address space, in one test (p - 1 turns NULL into the largest
	 * value; an OR is at least each operand).  Only arrays near or above
	 * that line - a stack at the very top without randomisation, 5-level
	 * addresses - take the exact tests. */
	if (unlikely(((urets - 1) | (uslots - 1)) >= SB_FAST_USER_LIMIT) &&
	    (!urets || !uslots || !access_ok(b.rets, n * sizeof(long)) ||
	     !access_ok(b.slots, n * sizeof(struct sb_slot))))
		return -EFAULT;
	r = sb_check(&b);
	if (unlikely(r))
		return r;
	/* two instances of the loop, so that the default one does not set
	 * orig_ax for nothing */
	return sb_run(&b, task, via_switch);
}

/* Where either hook sends syscall 183 (same signature as the handlers).
 * The whole batch runs in this one frame: not traced (it is the hook),
 * and without a stack canary, since its only stack data are the register
 * frame and the batch description, filled field by field, no buffers. */
static notrace __attribute__((__no_stack_protector__)) long sb_entry(const struct pt_regs *regs)
{
	long r;

	this_cpu_inc(sb_inflight);
	r = sb_batch(regs->di, regs->si, regs->dx, regs->r10, regs->r8, false);
	this_cpu_dec(sb_inflight);
	return r;
}

/* The same for dispatch=switch (a separate instance, so that sb_entry
 * does not test which dispatch is in use on every batch). */
static notrace __attribute__((__no_stack_protector__)) long
sb_entry_switch(const struct pt_regs *regs)
{
	long r;

	this_cpu_inc(sb_inflight);
	r = sb_batch(regs->di, regs->si, regs->dx, regs->r10, regs->r8, true);
	this_cpu_dec(sb_inflight);
	return r;
}

/*
 * The ftrace direct trampoline, called from the fentry site of
 * x64_sys_call(regs, nr) with that function's return address above its own.
 * Not 183: back into x64_sys_call.  183: pop our return address, so that
 * sb_entry(regs) returns to x64_sys_call's caller with its result, as
 * x64_sys_call would have.  Neither path touches any register but flags
 * and rsp, nor sleeps (which the unload's RCU-tasks wait relies on).
 */
#define SB_TRAMPOLINE(name, entry)						\
asm(									\
"	.pushsection .text, \"ax\", @progbits\n"				\
"	.type " #name ", @function\n"					\
#name ":\n"								\
"	cmpl $" __stringify(SB_NR_BATCH) ", %esi\n"				\
"	je 1f\n"								\
	ASM_RET								\
"1:	addq $8, %rsp\n"							\
"	jmp " #entry "\n"							\
"	.size " #name ", .-" #name "\n"					\
"	.popsection\n");							\
void name(void);							\
/* objtool cannot follow a return address being dropped */		\
STACK_FRAME_NON_STANDARD(name)

SB_TRAMPOLINE(sb_tramp, sb_entry);
SB_TRAMPOLINE(sb_tramp_switch, sb_entry_switch);

/* The trampoline and entry of the dispatch in use. */
static unsigned long sb_tramp_used, sb_entry_used;

static unsigned long sb_ftrace_ip;

static int sb_ni_pre(struct kprobe *p, struct pt_regs *kregs)
{
	const struct pt_regs *uregs = (const struct pt_regs *)kregs->di;

	if (uregs->orig_ax != SB_NR_BATCH || in_compat_syscall())
		return 0;
	kregs->ip = sb_entry_used;
	return 1;
}

/* Never needed for our work; its presence keeps the probe an int3. */
static void sb_ni_post(struct kprobe *p, struct pt_regs *kregs, unsigned long flags)
{
}

static struct kprobe sb_ni_probe = {
	.symbol_name = "__x64_sys_ni_syscall",
	.pre_handler = sb_ni_pre,
	.post_handler = sb_ni_post,
};

static unsigned long sb_lookup_symbol(const char *name)
{
	static unsigned long (*lookup)(const char *);

	if (!lookup) {
		struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

		if (register_kprobe(&kp) < 0)
			return 0;
		lookup = (unsigned long (*)(const char *))kp.addr;
		unregister_kprobe(&kp);
	}
	return lookup ? lookup(name) : 0;
}

static int sb_install_ftrace(unsigned long x64_sys_call)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	int r;

	if (!x64_sys_call)
		return -ENOENT;
	r = register_ftrace_direct(x64_sys_call, sb_tramp_used);
	if (r == 0)
		sb_ftrace_ip = x64_sys_call;
	return r;
#else
	return -EOPNOTSUPP;
#endif
}

static long sb_inflight_sum(void)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(sb_inflight, cpu);
	return sum;
}

static int __init sb_init(void)
{
	unsigned long ni, x64 = 0;
	unsigned int i;
	int r = -EINVAL;

	if (strcmp(hook, "auto") && strcmp(hook, "ftrace") && strcmp(hook, "kprobe")) {
		pr_err("sysbatch: hook=%s: want auto, ftrace or kprobe\n", hook);
		return -EINVAL;
	}
	if (strcmp(dispatch, "auto") && strcmp(dispatch, "table") && strcmp(dispatch, "switch")) {
		pr_err("sysbatch: dispatch=%s: want auto, table or switch\n", dispatch);
		return -EINVAL;
	}
	x64 = sb_lookup_symbol("x64_sys_call");
	sb_x64_sys_call = (void *)x64;
	sb_sys_call_table = (const sys_call_ptr_t *)sb_lookup_symbol("sys_call_table");
	ni = sb_lookup_symbol("__x64_sys_ni_syscall");
	sb_dispatch_is_table = sb_sys_call_table && strcmp(dispatch, "switch");
	if (!sb_dispatch_is_table && !(x64 && strcmp(dispatch, "table"))) {
		pr_err("sysbatch: dispatch=%s: %s not found (needs CONFIG_KPROBES and "
		       "CONFIG_KALLSYMS_ALL)\n", dispatch,
		       !strcmp(dispatch, "auto") ? "neither sys_call_table nor x64_sys_call" :
		       !strcmp(dispatch, "table") ? "sys_call_table" : "x64_sys_call");
		return -ENOENT;
	}
	for (i = 0; i < SB_DISPATCH_SIZE; i++) {
		if (i >= NR_syscalls ||
		    (sb_sys_call_table && ni && (unsigned long)sb_sys_call_table[i] == ni))
			sb_dispatch[i] = sb_enosys;
		else
			sb_dispatch[i] = sb_dispatch_is_table ? sb_sys_call_table[i] : sb_via_switch;
	}
	for (i = 0; i < ARRAY_SIZE(sb_denied); i++)
		sb_dispatch[sb_denied[i]] = sb_enosys;
	dispatch_in_use = sb_dispatch_is_table ? "table" : "switch";
	sb_tramp_used = sb_dispatch_is_table ? (unsigned long)sb_tramp : (unsigned long)sb_tramp_switch;
	sb_entry_used = sb_dispatch_is_table ? (unsigned long)sb_entry : (unsigned long)sb_entry_switch;

	if (strcmp(hook, "kprobe")) {
		r = sb_install_ftrace(x64);
		if (r == 0) {
			sb_hook_used = SB_HOOK_FTRACE;
			hook_in_use = "ftrace";
		} else if (!strcmp(hook, "ftrace")) {
			pr_err("sysbatch: hook=ftrace: no direct call on x64_sys_call: %d\n", r);
			return r;
		} else {
			pr_info("sysbatch: no ftrace direct call on x64_sys_call (%d), "
				"falling back to the kprobe\n", r);
		}
	}
	if (sb_hook_used == SB_HOOK_NONE) {
		r = register_kprobe(&sb_ni_probe);
		if (r < 0) {
			pr_err("sysbatch: cannot probe __x64_sys_ni_syscall: %d\n", r);
			return r;
		}
		sb_hook_used = SB_HOOK_KPROBE;
		hook_in_use = "kprobe";
	}
	pr_info("sysbatch: sys_batch on syscall %d, hook %s, dispatch through %s\n",
		SB_NR_BATCH,
		sb_hook_used == SB_HOOK_FTRACE ? "ftrace direct call on x64_sys_call"
					       : "kprobe on __x64_sys_ni_syscall",
		sb_dispatch_is_table ? "a copy of sys_call_table" : "x64_sys_call");
	return 0;
}

static void __exit sb_exit(void)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	if (sb_hook_used == SB_HOOK_FTRACE)
		unregister_ftrace_direct(sb_ftrace_ip, sb_tramp_used);
#endif
	if (sb_hook_used == SB_HOOK_KPROBE)
		unregister_kprobe(&sb_ni_probe);
	/* 183 is -ENOSYS from here on; see the header for why this is enough */
	synchronize_rcu_tasks();
	/* TASK_IDLE: a batch blocked for long must not make the hung-task
	 * detector warn about rmmod, and signals cannot end the wait */
	while (sb_inflight_sum() != 0)
		schedule_timeout_idle(msecs_to_jiffies(20));
	synchronize_rcu_tasks();
	pr_info("sysbatch: removed, syscall %d is -ENOSYS again\n", SB_NR_BATCH);
}

module_init(sb_init);
module_exit(sb_exit);
