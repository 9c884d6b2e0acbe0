/* libsysbatch: converted slots - sigaction(sig, act, oact) in a batch.
 *
 * glibc's sigaction is not the raw call (glibc 2.36, x86_64):
 *   - sig outside 1..64, and glibc's internal SIGCANCEL (32) and SIGSETXID
 *     (33), are EINVAL without entering the kernel;
 *   - act is converted to the kernel's struct {handler, unsigned long flags,
 *     restorer, 8-byte mask}: flags = act->sa_flags | SA_RESTORER (the int,
 *     sign-extended), restorer = glibc's own __restore_rt, mask = the first
 *     8 bytes of act->sa_mask;
 *   - rt_sigaction(sig, &kact or NULL, &koact or NULL, 8) is issued;
 *   - on success *oact gets handler, all 128 bytes of sa_mask (the kernel's
 *     8 and the rest of glibc's uninitialised local), sa_flags (truncated to
 *     int) and sa_restorer; its padding is left alone.
 *
 * A SYSBATCH_NR_SIGACTION slot does the same here.  On the kernel path
 * sb__sigaction_to_kernel() copies the batch to runtime-owned slots whose
 * sigaction slots are rt_sigaction over runtime-owned kernel structs (act is
 * read now, when the batch is issued), and sb__sigaction_from_kernel()
 * writes each *oact after the batch.  The planner puts a converted call
 * only into batches whose other calls take no pointers, so nothing else in
 * the batch can read or write those structs; what this file cannot prove
 * (a signal glibc answers itself, a word copy into a converted slot, one
 * slot's oact being a later slot's act, a batch larger than the scratch)
 * makes it answer "emulate", and the batch runs as its original calls,
 * glibc's sigaction among them (sb__sigaction_call).
 *
 * The restorer: the kernel returns from a handler into sa_restorer, which
 * must issue rt_sigreturn.  Ours is exactly `mov $15,%rax; syscall` (48 c7 c0
 * 0f 00 00 00 0f 05), the bytes libgcc's x86_64 fallback unwinder
 * (linux-unwind.h) and gdb's amd64-linux signal-trampoline test recognise, so
 * backtraces from a handler reach the interrupted code.  The byte before it
 * is a nop outside any FDE: unwinders look up the return address minus one.
 * Its name contains "sigaction", which is what gdb asks of a named
 * trampoline before it checks the bytes.  The one visible difference: an
 * oact read back for a handler installed through a batch shows this
 * restorer's address, not glibc's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sb_internal.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>

/* glibc's internal signals (nptl: SIGCANCEL = SIGRTMIN, SIGSETXID =
 * SIGRTMIN + 1 of the kernel's numbering) and _NSIG. */
#define SB__SIGCANCEL 32
#define SB__SIGSETXID 33
#define SB__NSIG 65

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

long sb__sigaction_call(long sig, long act, long oact)
{
    int saved = errno;
    int r = sigaction((int)sig, (const struct sigaction *)act, (struct sigaction *)oact);
    long ret = r < 0 ? -(long)errno : r;
    errno = saved;
    return ret;
}

#if SB__HAVE_KERNEL_PATH

__asm__(".text\n"
        ".align 16\n"
        "nop\n"
        ".type sb__sigaction_restorer,@function\n"
        "sb__sigaction_restorer:\n"
        "movq $15, %rax\n"
        "syscall\n"
        ".size sb__sigaction_restorer, .-sb__sigaction_restorer\n");
extern void sb__sigaction_restorer(void) __attribute__((visibility("hidden")));

const void *sb__sigaction_restorer_address(void)
{
    return (const void *)sb__sigaction_restorer;
}

static int sb__glibc_answers(long word)
{
    int sig = (int)word;
    return sig <= 0 || sig >= SB__NSIG || sig == SB__SIGCANCEL || sig == SB__SIGSETXID;
}

static int sb__overlap(const void *a, const void *b, size_t bytes)
{
    unsigned long x = (unsigned long)a, y = (unsigned long)b;
    return x < y + bytes && y < x + bytes;
}

int sb__sigaction_to_kernel(const struct sysbatch_slot *slots, long n,
                            struct sb__sigaction_work *w)
{
    size_t slot_bytes = (size_t)n * sizeof *slots;
    long i, m;
    if (n > SB__CONVERT_MAX_SLOTS) {
        return -1;
    }
    memcpy(w->slots, slots, slot_bytes);
    for (i = 0; i < n; i++) {
        const struct sysbatch_slot *s = &slots[i];
        if (s->nr == SYSBATCH_NR_WORDCOPY) {
            unsigned long dst = (unsigned long)s->arg[0], base = (unsigned long)slots;
            if ((unsigned long)s->arg[1] - base < slot_bytes) {
                return -1;
            }
            if (dst - base < slot_bytes) {
                /* The copy patches the runtime's copy of that slot, unless
                 * the slot is converted: its words are read here, now. */
                if (slots[(dst - base) / sizeof *slots].nr == SYSBATCH_NR_SIGACTION) {
                    return -1;
                }
                w->slots[i].arg[0] = (long)((char *)w->slots + (dst - base));
            }
            continue;
        }
        if (s->nr != SYSBATCH_NR_SIGACTION) {
            continue;
        }
        const struct sigaction *act = (const struct sigaction *)s->arg[1];
        if (s->argc != 3 || sb__glibc_answers(s->arg[0])) {
            return -1;
        }
        /* An earlier slot's oact is written only after the batch. */
        for (m = 0; act && m < i; m++) {
            if (slots[m].nr == SYSBATCH_NR_SIGACTION && slots[m].arg[2] &&
                sb__overlap(act, (const void *)slots[m].arg[2], sizeof *act)) {
                return -1;
            }
        }
        struct sysbatch_slot *k = &w->slots[i];
        if (act) {
            struct sb__kernel_sigaction *ka = &w->act[i];
            ka->handler = (unsigned long)act->sa_handler;
            ka->flags = (unsigned long)(long)(act->sa_flags | SA_RESTORER);
            ka->restorer = (unsigned long)sb__sigaction_restorer;
            memcpy(&ka->mask, &act->sa_mask, sizeof ka->mask);
        }
        k->nr = __NR_rt_sigaction;
        k->argc = 4;
        k->arg[0] = (long)(int)s->arg[0];
        k->arg[1] = act ? (long)&w->act[i] : 0;
        k->arg[2] = s->arg[2] ? (long)&w->oact[i] : 0;
        k->arg[3] = sizeof w->act[i].mask;
    }
    return 0;
}

void sb__sigaction_from_kernel(const long *rets, const struct sysbatch_slot *slots, long n,
                               const struct sb__sigaction_work *w)
{
    long i;
    for (i = 0; i < n; i++) {
        struct sigaction *oact = (struct sigaction *)slots[i].arg[2];
        const struct sb__kernel_sigaction *ko = &w->oact[i];
        /* rets of a slot that did not run is SYSBATCH_NOT_RUN (< 0). */
        if (slots[i].nr != SYSBATCH_NR_SIGACTION || !oact || rets[i] < 0) {
            continue;
        }
        oact->sa_handler = (void (*)(int))ko->handler;
        memset(&oact->sa_mask, 0, sizeof oact->sa_mask);
        memcpy(&oact->sa_mask, &ko->mask, sizeof ko->mask);
        oact->sa_flags = (int)ko->flags;
        oact->sa_restorer = (void (*)(void))ko->restorer;
    }
}

#endif /* SB__HAVE_KERNEL_PATH */
