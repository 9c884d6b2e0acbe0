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
 *     again on the spot and refused (-EINVAL in its own rets entry, no
 *     patch) if it would break that rule, so no executed jump is unchecked.
 *   - A word copy behaves like a call returning 0 (or -EFAULT / -EINVAL) and
 *     jumps on its own result, however it was reached.
 *   - n is capped at SB_MAX_SLOTS (1024, the runtime's SYSBATCH_MAX_SLOTS):
 *     the cap bounds the kernel copy of the slots (64 KiB) and is checked
 *     before any size is multiplied, so no size computation can overflow.
 *   - flags must be 0 and size 0 or 64, else -EINVAL (room to extend; with
 *     n == 0 this doubles as a feature probe).
 *   - Bad user pointers give -EFAULT, never an oops.  Unmapped, unreadable
 *     or (rets) read-only arrays are found before anything runs.
 *   - rets and slots are copied in before the run and rets is copied back
 *     after it (whole, so entries of slots that did not run come back
 *     unchanged); word copies work on those copies.  If rets stops being
 *     writable during the run (a call in it unmapped it) the batch returns
 *     -EFAULT.  Calls in the batch that touch the two arrays' memory
 *     directly do not see in-flight results or patches.
 *   - Denied calls (they need the caller's real register frame, replace or
 *     end the task, or would recurse) get -ENOSYS in their rets entry and
 *     the batch goes on: clone, clone3, fork, vfork, execve, execveat, exit,
 *     exit_group, rt_sigreturn, 183 itself, arch_prctl, iopl, ioperm,
 *     sigaltstack, modify_ldt.
 *   - A call interrupted by a signal gets -EINTR (kernel-internal restart
 *     codes never reach user space); the signal is delivered after the
 *     batch.  A fatal signal stops the batch after the current slot.
 *   - Tasks under a seccomp filter get -EPERM for every sys_batch call,
 *     probe included, so their runtime falls back to separate calls.
 *
 * Visibility: inner calls are dispatched directly, so they bypass seccomp
 * filters (hence the refusal above), ptrace syscall stops (strace shows only
 * syscall 183), audit and the sys_enter/sys_exit tracepoints.
 *
 * Hook: since 6.1.85 (stable) / 6.9, x86_64 dispatches through the compiled
 * switch x64_sys_call(), so patching sys_call_table[183] does nothing.
 * Every unimplemented number ends in __x64_sys_ni_syscall(regs); a kprobe
 * there whose pre-handler sees orig_ax == 183 from a 64-bit task moves
 * regs->ip to sb_entry() (same signature), which then runs in ordinary
 * process context, so inner calls may block.  A (no-op) post-handler keeps
 * the kprobe from being optimised into a jump, which would ignore the new
 * ip.  Inner calls go through x64_sys_call() (found with kallsyms_lookup_name,
 * itself found through a kprobe since it is no longer exported) or, on older
 * kernels without it, sys_call_table.  Each batch holds a module reference,
 * so rmmod fails while a batch is running and 183 is -ENOSYS again after it.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seccomp.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

MODULE_DESCRIPTION("sys_batch: run a batch of system calls in one crossing (syscall 183)");
MODULE_AUTHOR("sysbatch project");
MODULE_LICENSE("GPL v2");

#define SB_NR_BATCH 183          /* __NR_afs_syscall */
#define SB_NR_WORDCOPY (-2)
#define SB_MAX_SLOTS 1024        /* == SYSBATCH_MAX_SLOTS in runtime/include/sysbatch.h */
#define SB_STACK_SLOTS 8         /* batches this small need no allocation */

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

/* One batch in flight: the user addresses and the kernel copies, which are
 * what word copies read and patch while the batch runs. */
struct sb_batch {
	unsigned long urets;     /* user address of rets[0] */
	unsigned long uslots;    /* user address of slots[0] */
	unsigned long nbytes;    /* n * 64 */
	unsigned int n;
	struct sb_slot *slots;   /* checked copy of the slot array */
	long *rets;              /* copy of rets, written back at the end */
};

static const sys_call_ptr_t *sb_sys_call_table;

static long sb_table_call(const struct pt_regs *regs, unsigned int nr)
{
	return sb_sys_call_table[nr](regs);
}

/* x64_sys_call, or sb_table_call on kernels without it. */
static long (*sb_call)(const struct pt_regs *, unsigned int) __read_mostly;

/* Row argc keeps arguments 0..argc-1: arguments past argc are passed as 0
 * at the cost of one load and one and per argument, no branches. */
static const unsigned long sb_argmask[7][6] = {
	{ 0, 0, 0, 0, 0, 0 },
	{ ~0UL, 0, 0, 0, 0, 0 },
	{ ~0UL, ~0UL, 0, 0, 0, 0 },
	{ ~0UL, ~0UL, ~0UL, 0, 0, 0 },
	{ ~0UL, ~0UL, ~0UL, ~0UL, 0, 0 },
	{ ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, 0 },
	{ ~0UL, ~0UL, ~0UL, ~0UL, ~0UL, ~0UL },
};

/* Nonzero for numbers answered with -ENOSYS without dispatching: the deny
 * list, and (when the table is visible) numbers that are unimplemented
 * anyway, so they do not trip our own kprobe from inside a batch. */
static u8 sb_enosys[NR_syscalls] __read_mostly;

static const int sb_denied[] = {
	__NR_clone, __NR_clone3, __NR_fork, __NR_vfork, __NR_execve,
	__NR_execveat, __NR_exit, __NR_exit_group, __NR_rt_sigreturn,
	SB_NR_BATCH, __NR_arch_prctl, __NR_iopl, __NR_ioperm,
	__NR_sigaltstack, __NR_modify_ldt,
};

/* A slot is valid when argc is 0..6 and no jump lands beyond slot n.  A
 * negative jump lands at or before i, so testing the largest of the three
 * covers them all; most slots have no jump at all, which one load of the
 * first 8 bytes (nr and the jumps) tells. */
static int sb_check_slot(const struct sb_slot *s, int i, int n)
{
	u64 head;

	if ((unsigned char)s->argc > 6)
		return -EINVAL;
	memcpy(&head, s, sizeof(head));
	if (likely((head >> 16) == 0))
		return 0;
	if (i + 1 + max3(s->jump_fail, s->jump_zero, s->jump_pos) > n)
		return -EINVAL;
	return 0;
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

/* Writes one word into the kernel copy of the slots at byte offset off and
 * re-checks the (one or two) slots it touched; undone if one fails. */
static long sb_patch_slots(struct sb_batch *b, unsigned long off, u64 val)
{
	unsigned int first = off / sizeof(struct sb_slot);
	unsigned int last = (off + 7) / sizeof(struct sb_slot);
	struct sb_slot saved[2];
	unsigned int k;

	memcpy(saved, &b->slots[first], (last - first + 1) * sizeof(struct sb_slot));
	memcpy((char *)b->slots + off, &val, 8);
	for (k = first; k <= last; k++) {
		if (sb_check_slot(&b->slots[k], k, b->n)) {
			memcpy(&b->slots[first], saved,
			       (last - first + 1) * sizeof(struct sb_slot));
			return -EINVAL;
		}
	}
	return 0;
}

/* nr == -2: *(u64 *)arg[0] = *(u64 *)arg[1].  While the batch runs, the
 * caller's rets and slot arrays live in kernel copies, so addresses inside
 * them are redirected there: a source in rets reads the in-flight result, a
 * destination in the slots patches the in-flight slot.  A word straddling
 * the edge of either array is refused. */
static long sb_word_copy(struct sb_batch *b, const struct sb_slot *s)
{
	unsigned long dst = s->arg[0], src = s->arg[1], off;
	unsigned long rbytes = b->n * sizeof(long);
	int in_slots, in_rets;
	u64 val;

	in_slots = sb_word_in(src, b->uslots, b->nbytes, &off);
	if (in_slots == 1) {
		memcpy(&val, (char *)b->slots + off, 8);
	} else {
		in_rets = sb_word_in(src, b->urets, rbytes, &off);
		if (in_slots < 0 || in_rets < 0)
			return -EINVAL;
		if (in_rets == 1)
			memcpy(&val, (char *)b->rets + off, 8);
		else if (get_user(val, (u64 __user *)src))
			return -EFAULT;
	}
	in_slots = sb_word_in(dst, b->uslots, b->nbytes, &off);
	if (in_slots == 1)
		return sb_patch_slots(b, off, val);
	in_rets = sb_word_in(dst, b->urets, rbytes, &off);
	if (in_slots < 0 || in_rets < 0)
		return -EINVAL;
	if (in_rets == 1) {
		memcpy((char *)b->rets + off, &val, 8);
		return 0;
	}
	return put_user(val, (u64 __user *)dst) ? -EFAULT : 0;
}

/* The record loop.  Per slot: one bounds/deny lookup, six argument loads
 * masked by argc, the dispatch, the result stored in the kernel copy of
 * rets, and the jump.  Every jump target was checked before the run. */
static long sb_run(struct sb_batch *b)
{
	struct pt_regs regs;
	unsigned int i = 0, last = 0;

	memset(&regs, 0, sizeof(regs));
	regs.ax = -ENOSYS;
	for (;;) {
		const struct sb_slot *s = &b->slots[i];
		unsigned int nr = (unsigned short)s->nr;
		long ret;
		int jump;

		if (likely(nr < NR_syscalls) &&
		    likely(!sb_enosys[nr = array_index_nospec(nr, NR_syscalls)])) {
			/* argc was checked: 0..6 */
			const unsigned long *m = sb_argmask[(unsigned char)s->argc];

			regs.orig_ax = nr;
			regs.di = s->arg[0] & m[0];
			regs.si = s->arg[1] & m[1];
			regs.dx = s->arg[2] & m[2];
			regs.r10 = s->arg[3] & m[3];
			regs.r8 = s->arg[4] & m[4];
			regs.r9 = s->arg[5] & m[5];
			ret = sb_call(&regs, nr);
			if (unlikely(ret >= -ERESTART_RESTARTBLOCK && ret <= -ERESTARTSYS))
				ret = -EINTR;
		} else if (s->nr == SB_NR_WORDCOPY) {
			ret = sb_word_copy(b, s);
		} else {
			ret = -ENOSYS;
		}
		b->rets[i] = ret;
		last = i;
		jump = ret < 0 ? s->jump_fail : ret == 0 ? s->jump_zero : s->jump_pos;
		if (jump < 0)
			break;
		i += 1 + jump;           /* checked: i <= n */
		if (i >= b->n || unlikely(fatal_signal_pending(current)))
			break;
	}
	return last;
}

/* rets must be writable before anything runs: touch each page it spans
 * (read a byte, write it back) so an unmapped or read-only array is
 * refused up front instead of after the first call. */
static int sb_probe_rets(unsigned long start, unsigned long len)
{
	unsigned long p = start, end = start + len;
	u8 v;

	while (p < end) {
		if (get_user(v, (u8 __user *)p) || put_user(v, (u8 __user *)p))
			return -EFAULT;
		p = (p & PAGE_MASK) + PAGE_SIZE;
	}
	return 0;
}

static long sb_batch(unsigned long urets, unsigned long uslots, unsigned long n,
		     unsigned long flags, unsigned long size)
{
	struct sb_slot stack_slots[SB_STACK_SLOTS];
	long stack_rets[SB_STACK_SLOTS];
	struct sb_batch b;
	unsigned int i;
	long r;

	if (flags != 0 || (size != 0 && size != sizeof(struct sb_slot)))
		return -EINVAL;
#ifdef CONFIG_SECCOMP
	if (READ_ONCE(current->seccomp.mode) != SECCOMP_MODE_DISABLED)
		return -EPERM;
#endif
	if (n == 0)
		return 0;
	if (n > SB_MAX_SLOTS)
		return -EINVAL;
	/* n <= 1024 from here, so n * 64 cannot overflow. */
	b.n = n;
	b.nbytes = n * sizeof(struct sb_slot);
	b.urets = urets;
	b.uslots = uslots;
	if (!urets || !uslots || !access_ok((void __user *)urets, n * sizeof(long)) ||
	    !access_ok((void __user *)uslots, b.nbytes))
		return -EFAULT;

	if (n <= SB_STACK_SLOTS) {
		b.slots = stack_slots;
		b.rets = stack_rets;
	} else {
		/* one block: n slots, then n rets */
		b.slots = kvmalloc_array(n, sizeof(struct sb_slot) + sizeof(long),
					 GFP_KERNEL_ACCOUNT);
		if (!b.slots)
			return -ENOMEM;
		b.rets = (long *)(b.slots + n);
	}
	r = -EFAULT;
	if (copy_from_user(b.slots, (const void __user *)uslots, b.nbytes) ||
	    copy_from_user(b.rets, (const void __user *)urets, n * sizeof(long)))
		goto out;
	r = -EINVAL;
	for (i = 0; i < n; i++)
		if (sb_check_slot(&b.slots[i], i, n))
			goto out;
	r = sb_probe_rets(urets, n * sizeof(long));
	if (r)
		goto out;
	r = sb_run(&b);
	/* entries of slots that did not run go back as they came */
	if (copy_to_user((void __user *)urets, b.rets, n * sizeof(long)))
		r = -EFAULT;
out:
	if (b.slots != stack_slots)
		kvfree(b.slots);
	return r;
}

/* Where the kprobe sends syscall 183: same signature as the
 * __x64_sys_ni_syscall it replaces.  The pre-handler took a module
 * reference for us. */
static long sb_entry(const struct pt_regs *regs)
{
	long r = sb_batch(regs->di, regs->si, regs->dx, regs->r10, regs->r8);

	module_put(THIS_MODULE);
	return r;
}

static int sb_ni_pre(struct kprobe *p, struct pt_regs *kregs)
{
	const struct pt_regs *uregs = (const struct pt_regs *)kregs->di;

	if (uregs->orig_ax != SB_NR_BATCH || in_compat_syscall())
		return 0;
	if (!try_module_get(THIS_MODULE))   /* unloading: plain -ENOSYS */
		return 0;
	kregs->ip = (unsigned long)sb_entry;
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

static int __init sb_init(void)
{
	unsigned long ni;
	unsigned int i;
	int r;

	sb_call = (void *)sb_lookup_symbol("x64_sys_call");
	sb_sys_call_table = (const sys_call_ptr_t *)sb_lookup_symbol("sys_call_table");
	ni = sb_lookup_symbol("__x64_sys_ni_syscall");
	if (!sb_call && sb_sys_call_table)
		sb_call = sb_table_call;
	if (!sb_call) {
		pr_err("sysbatch: neither x64_sys_call nor sys_call_table found "
		       "(needs CONFIG_KPROBES and CONFIG_KALLSYMS_ALL)\n");
		return -ENOENT;
	}
	for (i = 0; i < ARRAY_SIZE(sb_denied); i++)
		sb_enosys[sb_denied[i]] = 1;
	if (sb_sys_call_table && ni)
		for (i = 0; i < NR_syscalls; i++)
			if ((unsigned long)sb_sys_call_table[i] == ni)
				sb_enosys[i] = 1;

	r = register_kprobe(&sb_ni_probe);
	if (r < 0) {
		pr_err("sysbatch: cannot probe __x64_sys_ni_syscall: %d\n", r);
		return r;
	}
	pr_info("sysbatch: sys_batch on syscall %d, dispatch through %s\n",
		SB_NR_BATCH, sb_call == sb_table_call ? "sys_call_table" : "x64_sys_call");
	return 0;
}

static void __exit sb_exit(void)
{
	unregister_kprobe(&sb_ni_probe);
	pr_info("sysbatch: removed, syscall %d is -ENOSYS again\n", SB_NR_BATCH);
}

module_init(sb_init);
module_exit(sb_exit);
