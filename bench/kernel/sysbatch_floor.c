// SPDX-License-Identifier: GPL-2.0
/*
 * sysbatch_floor.ko - benchmark helper, never loaded outside the bench VM:
 * the in-kernel floor for a batch of system calls, i.e. a bare loop that
 * calls the dispatcher (x64_sys_call, or sys_call_table[nr]) count times
 * with one prepared register frame and nothing else per call.
 *
 *     echo "102 1000 0 0 0" > /sys/module/sysbatch_floor/parameters/run
 *     cat /sys/module/sysbatch_floor/parameters/last_ns     -- 1000 getuids
 *     echo "102 1000 0 0 0 table" > ...                     -- the same through
 *                                                              sys_call_table
 *
 * The second form is the floor for sysbatch.ko's default dispatch (an
 * indexed call of the handler); the first is the kernel's own dispatcher.
 *
 * The write runs in the writer's process context, so pointer arguments
 * (fstat's buffer, lstat's path) are the writer's user addresses, exactly
 * as in a batch.  Only the calls the benchmark uses are accepted.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

MODULE_DESCRIPTION("sysbatch benchmark: in-kernel syscall dispatch floor");
MODULE_LICENSE("GPL v2");

static long (*floor_x64_sys_call)(const struct pt_regs *, unsigned int);
static const sys_call_ptr_t *floor_table;
static unsigned long last_ns;
module_param(last_ns, ulong, 0444);
MODULE_PARM_DESC(last_ns, "nanoseconds the last run took");

static int floor_allowed(long nr)
{
	return nr == __NR_getuid || nr == __NR_fstat || nr == __NR_lstat || nr == 184;
}

static int floor_run(const char *val, const struct kernel_param *kp)
{
	long nr, count, a[3];
	char via[8] = "";
	struct pt_regs regs;
	bool table;
	u64 t0;
	long i;

	if (sscanf(val, "%ld %ld %ld %ld %ld %7s", &nr, &count, &a[0], &a[1], &a[2], via) < 5)
		return -EINVAL;
	if (!floor_allowed(nr) || count < 0 || count > 100000)
		return -EINVAL;
	if (via[0] && strcmp(via, "table"))
		return -EINVAL;
	table = via[0] || !floor_x64_sys_call;
	if (table && !floor_table)
		return -EINVAL;
	memset(&regs, 0, sizeof(regs));
	regs.orig_ax = nr;
	regs.di = a[0];
	regs.si = a[1];
	regs.dx = a[2];
	t0 = ktime_get_ns();
	if (!table)
		for (i = 0; i < count; i++)
			floor_x64_sys_call(&regs, nr);
	else
		for (i = 0; i < count; i++)
			floor_table[nr](&regs);
	last_ns = ktime_get_ns() - t0;
	return 0;
}

static const struct kernel_param_ops floor_run_ops = { .set = floor_run };
module_param_cb(run, &floor_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write \"nr count arg0 arg1 arg2 [table]\" to time count calls");

static int __init floor_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *);

	if (register_kprobe(&kp) < 0)
		return -ENOENT;
	lookup = (unsigned long (*)(const char *))kp.addr;
	unregister_kprobe(&kp);
	floor_x64_sys_call = (void *)lookup("x64_sys_call");
	floor_table = (const sys_call_ptr_t *)lookup("sys_call_table");
	return floor_x64_sys_call || floor_table ? 0 : -ENOENT;
}

static void __exit floor_exit(void)
{
}

module_init(floor_init);
module_exit(floor_exit);
