// SPDX-License-Identifier: GPL-2.0
/*
 * sbk_occupy.ko - test helper for the VM tier, never loaded elsewhere:
 * takes the one ftrace direct-call slot of x64_sys_call with a trampoline
 * that does nothing, so that sysbatch.ko loaded after it (hook=auto) finds
 * the registration refused and must fall back to its kprobe hook.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/linkage.h>
#include <linux/module.h>
#include <linux/objtool.h>

MODULE_DESCRIPTION("sysbatch test helper: occupy the direct call on x64_sys_call");
MODULE_LICENSE("GPL v2");

asm(
"	.pushsection .text, \"ax\", @progbits\n"
"	.type occupy_tramp, @function\n"
"occupy_tramp:\n"
	ASM_RET
"	.size occupy_tramp, .-occupy_tramp\n"
"	.popsection\n");
void occupy_tramp(void);
STACK_FRAME_NON_STANDARD(occupy_tramp);

static unsigned long occupy_ip;

static int __init occupy_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *);
	int r;

	if (register_kprobe(&kp) < 0)
		return -ENOENT;
	lookup = (unsigned long (*)(const char *))kp.addr;
	unregister_kprobe(&kp);
	occupy_ip = lookup("x64_sys_call");
	if (!occupy_ip)
		return -ENOENT;
	r = register_ftrace_direct(occupy_ip, (unsigned long)occupy_tramp);
	if (r)
		pr_err("sbk_occupy: register_ftrace_direct: %d\n", r);
	return r;
}

static void __exit occupy_exit(void)
{
	unregister_ftrace_direct(occupy_ip, (unsigned long)occupy_tramp);
	synchronize_rcu_tasks();
}

module_init(occupy_init);
module_exit(occupy_exit);
