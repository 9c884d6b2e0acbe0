/* sbk_fuzz: thousands of random, mostly malformed batches.  Each one runs
 * twice - through the module, then through an independent user-space model
 * of the documented rules (below; the module works on the caller's arrays
 * in place) - from the same starting memory, and the
 * two must agree on the return value, every rets entry, the caller's slot
 * array and a scratch buffer the calls and copies write into.  The calls
 * are drawn from a harmless, order-independent set (and denied or unknown
 * numbers); pointers come from a pool of good, unmapped, read-only, kernel,
 * NULL and edge-straddling addresses, so the kernel's fault paths get
 * exercised too.  The VM's dmesg check afterwards catches any oops/WARNING.
 *     sbk_fuzz [iterations [seed]]
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sbk.h"

enum { CAP = SYSBATCH_MAX_SLOTS, MAXN = 48, SCRATCH = 512 };

static long rets[CAP + 8];
static struct sysbatch_slot slots[CAP + 8];
static unsigned char scratch[SCRATCH];
static int devzero;
static char *unmapped, *readonly;

static unsigned long long rng_state;
static unsigned long rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned long)rng_state;
}
static long pick(long lo, long hi) { return lo + (long)(rnd() % (unsigned long)(hi - lo + 1)); }

/* ---- the model: what docs/kernel.md says the module does ---- */

static int model_slot_ok(const struct sysbatch_slot *s, long i, long n)
{
    if ((unsigned char)s->argc > 6)
        return 0;
    short j[3] = { s->jump_fail, s->jump_zero, s->jump_pos };
    for (int k = 0; k < 3; k++)
        if (j[k] >= 0 && i + 1 + j[k] > n)
            return 0;
    return 1;
}

static int model_is_denied(long nr)
{
    static const long denied[] = { SYS_clone, SYS_clone3, SYS_fork, SYS_vfork, SYS_execve,
                                   SYS_execveat, SYS_exit, SYS_exit_group, SYS_rt_sigreturn,
                                   SYSBATCH_NR_BATCH, SYS_arch_prctl, SYS_iopl, SYS_ioperm,
                                   SYS_sigaltstack, SYS_modify_ldt };
    for (unsigned k = 0; k < sizeof denied / sizeof denied[0]; k++)
        if (nr == denied[k])
            return 1;
    return 0;
}

/* Memory the model may touch directly: our own arrays.  Everything else in
 * the pool is a bad address the kernel must refuse with -EFAULT. */
static int model_good(unsigned long a)
{
    return (a >= (unsigned long)rets && a + 8 <= (unsigned long)(rets + CAP + 8)) ||
           (a >= (unsigned long)slots && a + 8 <= (unsigned long)(slots + CAP + 8)) ||
           (a >= (unsigned long)scratch && a + 8 <= (unsigned long)(scratch + SCRATCH));
}

static int model_word_in(unsigned long a, unsigned long base, unsigned long len, unsigned long *off)
{
    *off = a - base;
    if (*off <= len - 8)
        return 1;
    if (*off < len || base - a < 8)
        return -1;
    return 0;
}

/* The module works on the caller's arrays themselves: a word copy's
 * source or destination inside rets or the slots is that memory, except
 * that a word straddling either array's edge is refused, and a patch of
 * the slot array that would leave a slot invalid is refused unwritten. */
static long model_copy(struct sysbatch_slot *k, const long *r, long n, const struct sysbatch_slot *s)
{
    unsigned long base = (unsigned long)k, len = n * sizeof *k, off, roff;
    unsigned long dst = s->arg[0], src = s->arg[1];
    long v;
    int where = model_word_in(src, base, len, &off);
    int in_rets = model_word_in(src, (unsigned long)r, n * sizeof(long), &roff);
    if (where < 0 || in_rets < 0)
        return -EINVAL;
    if (!model_good(src) && !((unsigned long)src - (unsigned long)readonly <= 4096 - 8))
        return -EFAULT;
    memcpy(&v, (void *)src, 8);
    where = model_word_in(dst, base, len, &off);
    in_rets = model_word_in(dst, (unsigned long)r, n * sizeof(long), &roff);
    if (where < 0 || in_rets < 0)
        return -EINVAL;
    if (where == 1) {
        struct sysbatch_slot patched[2];
        long first = off / 64, last = (off + 7) / 64;
        memcpy(patched, &k[first], (last - first + 1) * 64);
        memcpy((char *)patched + (off - first * 64), &v, 8);
        for (long i = first; i <= last; i++)
            if (!model_slot_ok(&patched[i - first], i, n))
                return -EINVAL;
    }
    if (!model_good(dst))
        return -EFAULT;
    memcpy((void *)dst, &v, 8);
    return 0;
}

static long model_batch(long *r, struct sysbatch_slot *k, unsigned long n, long flags, long size)
{
    if (flags || (size != 0 && size != 64))
        return -EINVAL;
    if (n == 0)
        return 0;
    if (n > CAP)
        return -EINVAL;
    if (!r || !k)
        return -EFAULT;
    for (unsigned long i = 0; i < n; i++)
        if (!model_slot_ok(&k[i], i, n))
            return -EINVAL;
    unsigned long i = 0, last = 0;
    for (;;) {
        /* the module reads a slot once, before running it: a call that
         * writes into its own slot changes nothing until the next visit */
        struct sysbatch_slot cur = k[i], *s = &cur;
        long ret;
        if (s->nr == SYSBATCH_NR_WORDCOPY) {
            ret = model_copy(k, r, n, s);
        } else if (s->nr < 0 || model_is_denied(s->nr)) {
            ret = -ENOSYS;
        } else {
            long a[6];
            for (int j = 0; j < 6; j++)
                a[j] = j < s->argc ? s->arg[j] : 0;
            ret = sbk_raw6(s->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
        }
        r[i] = ret;           /* written as soon as the slot returns */
        last = i;
        int jump = ret < 0 ? s->jump_fail : ret == 0 ? s->jump_zero : s->jump_pos;
        if (jump < 0)
            break;
        i += 1 + jump;
        if (i >= n)
            break;
    }
    return (long)last;
}

/* ---- the generator ---- */

static long random_pointer(long n)
{
    switch (pick(0, 11)) {
    case 0: return (long)&rets[pick(0, n)];
    case 1: return (long)&rets[pick(0, n)] + pick(1, 7);
    case 2: return (long)slots + pick(0, n * 64);       /* incl. straddling the end */
    case 3: return (long)&slots[pick(0, n)].arg[pick(0, 5)];
    case 4: return (long)slots - pick(1, 7);             /* straddling the start */
    case 5: return (long)scratch + pick(0, SCRATCH - 8);
    case 6: return (long)unmapped + pick(0, 4000);
    case 7: return (long)readonly + pick(0, 4000);
    case 8: return 0;
    case 9: return (long)0xffffffff81000000UL + pick(0, 4096);
    case 10: return (long)0x0000900000000000UL;
    default: return (long)scratch;
    }
}

static void random_slot(struct sysbatch_slot *s, long i, long n)
{
    memset(s, 0, sizeof *s);
    for (int k = 0; k < 7; k++)
        s->pad_[k] = (char)rnd();
    switch (pick(0, 13)) {
    case 0: case 1: case 2:
        s->nr = SYSBATCH_NR_WORDCOPY;
        s->argc = 2;
        s->arg[0] = random_pointer(n);
        s->arg[1] = random_pointer(n);
        break;
    case 3: s->nr = SYS_getpid; break;
    case 4: s->nr = SYS_getuid; break;      /* 0 in the VM: the zero jump */
    /* Calls whose effects do not depend on run order, whatever a word copy
     * patches into their arguments (fds 0-4 are /dev/null, the output
     * file, /dev/null, /dev/zero, /dev/null): nothing here closes, seeks or
     * writes. */
    case 5: s->nr = SYS_fsync; s->argc = 1; s->arg[0] = pick(0, 300); break;
    case 6: case 7: s->nr = SYS_read; s->argc = 3; s->arg[0] = devzero;
            s->arg[1] = random_pointer(n); s->arg[2] = pick(0, 16); break;
    case 8: s->nr = SYS_getuid; break;
    case 9: s->nr = (short)pick(-40, 40); s->nr = s->nr == SYSBATCH_NR_WORDCOPY ? -3 : s->nr;
            s->nr = s->nr >= 0 ? 184 : s->nr; break;                   /* ENOSYS */
    case 10: { static const short d[] = { SYS_fork, SYS_vfork, SYS_exit_group, SYS_exit,
                                          SYS_execve, SYS_clone, SYSBATCH_NR_BATCH };
               s->nr = d[pick(0, 6)]; break; }
    case 11: s->nr = (short)pick(451, 32767); break;
    default: s->nr = SYS_getppid; break;
    }
    if (pick(0, 6) == 0)
        s->argc = (char)pick(0, 6);
    short *j[3] = { &s->jump_fail, &s->jump_zero, &s->jump_pos };
    for (int k = 0; k < 3; k++) {
        long r = pick(0, 40);
        *j[k] = r < 28 ? 0 : r < 36 ? (short)pick(0, n - i - 1) : (short)pick(-32768, -1);
    }
}

/* Makes a valid batch invalid in one or two fields of random slots. */
static void corrupt(struct sysbatch_slot *s, long n)
{
    for (long c = pick(1, 2); c > 0; c--) {
        long i = pick(0, n - 1);
        switch (pick(0, 3)) {
        case 0: s[i].argc = (char)(pick(0, 1) ? pick(7, 127) : pick(-128, -1)); break;
        case 1: s[i].jump_fail = (short)pick(n - i, 32767); break;
        case 2: s[i].jump_zero = (short)(n - i); break;
        default: s[i].jump_pos = (short)pick(n - i, n - i + 3); break;
        }
    }
}

static long random_n(void)
{
    long r = pick(0, 100);
    if (r < 90) return pick(1, MAXN);
    if (r < 93) return 0;
    if (r < 96) return pick(CAP - 2, CAP + 2);
    if (r < 98) return (long)(rnd() | (1UL << 40));
    return -1;
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 3000;
    rng_state = argc > 2 ? strtoull(argv[2], 0, 0) : 0x5eed5eedULL;
    printf("sbk_fuzz: %ld batches, seed %#llx\n", iterations, rng_state);
    sbk_require_module();
    devzero = open("/dev/zero", O_RDONLY);
    unmapped = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(unmapped, 4096);
    readonly = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (devzero < 0 || readonly == MAP_FAILED)
        return 1;

    static long rets0[CAP + 8], rets_k[CAP + 8];
    static struct sysbatch_slot slots0[CAP + 8], slots_k[CAP + 8];
    static unsigned char scratch0[SCRATCH], scratch_k[SCRATCH];
    long counts[4] = { 0 }; /* ran, -EINVAL, -EFAULT, other */
    for (long it = 0; it < iterations && sbk_failures < 10; it++) {
        long n = random_n();
        long gen = n > 0 && n <= CAP + 2 ? n : MAXN;
        for (long i = 0; i < gen; i++)
            random_slot(&slots[i], i, n > 0 && n <= CAP ? n : gen);
        if (pick(0, 3) == 0)
            corrupt(slots, gen);
        for (long i = 0; i < CAP + 8; i++)
            rets[i] = (long)rnd();
        for (int i = 0; i < SCRATCH; i++)
            scratch[i] = (unsigned char)rnd();
        long flags = pick(0, 30) == 0 ? (long)rnd() : 0;
        long size = pick(0, 30) == 0 ? pick(0, 128) : pick(0, 1) * 64;
        long *r = pick(0, 60) == 0 ? 0 : rets;
        struct sysbatch_slot *sp = pick(0, 60) == 0 ? 0 : slots;
        memcpy(rets0, rets, sizeof rets);
        memcpy(slots0, slots, sizeof slots);
        memcpy(scratch0, scratch, sizeof scratch);

        long got = sbk_batch(r, sp, (unsigned long)n, flags, size);
        memcpy(rets_k, rets, sizeof rets);
        memcpy(slots_k, slots, sizeof slots);
        memcpy(scratch_k, scratch, sizeof scratch);
        memcpy(rets, rets0, sizeof rets);
        memcpy(slots, slots0, sizeof slots);
        memcpy(scratch, scratch0, sizeof scratch);
        long want = model_batch(r, sp, (unsigned long)n, flags, size);

        counts[got >= 0 ? 0 : got == -EINVAL ? 1 : got == -EFAULT ? 2 : 3]++;
        SBK_EXPECT(got == want, "batch %ld (n %ld): module %ld, model %ld", it, n, got, want);
        for (long i = 0; i < CAP + 8; i++)
            SBK_EXPECT(rets_k[i] == rets[i], "batch %ld: rets[%ld] module %ld, model %ld", it, i,
                       rets_k[i], rets[i]);
        SBK_EXPECT(memcmp(slots_k, slots, sizeof slots) == 0, "batch %ld: slot arrays differ", it);
        SBK_EXPECT(memcmp(scratch_k, scratch, sizeof scratch) == 0, "batch %ld: scratch differs", it);
    }
    printf("sbk_fuzz: ran %ld, -EINVAL %ld, -EFAULT %ld, other %ld\n", counts[0], counts[1],
           counts[2], counts[3]);
    SBK_EXPECT(counts[0] > iterations / 10 && counts[1] > iterations / 10,
               "generator too lopsided to mean anything");
    return sbk_finish("sbk_fuzz");
}
