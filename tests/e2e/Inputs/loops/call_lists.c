/* sigaction over signals, pread at offsets, writes of parts, mkdir/rmdir/unlink, fstat over fds. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

static volatile sig_atomic_t got;
static void on_signal(int s) { got = s; }

static const int sigs[] = { SIGHUP, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGKILL, SIGWINCH };

static const char *parts[] = { "head:", "one,", "two,", "three", "\n" };

struct part { const char *p; size_t len; };

static int write_all_parts(int fd, const struct part *ps, int n)
{
    for (int i = 0; i < n; i++)
        if (write(fd, ps[i].p, ps[i].len) < 0)
            return -1;
    return 0;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    int bad = 0;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], &sa, NULL) < 0)
            bad++;
    claimed += sizeof sigs / sizeof sigs[0];
    printf("sigaction failures %d errno %d\n", bad, errno);
    raise(SIGUSR2);
    printf("got %d\n", got == SIGUSR2);
    struct sigaction old[4];
    const int more[] = { SIGUSR1, SIGUSR2, SIGHUP, SIGTERM };
    sa.sa_handler = SIG_IGN;
    for (int i = 0; i < 4; i++)
        sigaction(more[i], &sa, &old[i]);
    claimed += 4;
    printf("old handlers ours %d %d %d %d\n", old[0].sa_handler == on_signal, old[1].sa_handler == on_signal,
           old[2].sa_handler == on_signal, old[3].sa_handler == on_signal);

    int fd = open("parts.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    ssize_t wrote = 0;
    for (int i = 0; i < 5; i++)
        wrote += write(fd, parts[i], strlen(parts[i]));
    claimed += 5;
    printf("wrote %zd\n", wrote);
    struct part ps[] = { { "abc", 3 }, { "defgh", 5 }, { "ij", 2 }, { "\n", 1 } };
    printf("parts %d\n", write_all_parts(fd, ps, 4));
    int prc = write_all_parts(77, ps, 4);
    printf("parts to bad fd %d errno %d\n", prc, errno);

    char blocks[6][8];
    ssize_t got_n[6];
    for (int i = 0; i < 6; i++)
        got_n[i] = pread(fd, blocks[i], 4, (off_t)i * 4);
    claimed += 6;
    for (int i = 0; i < 6; i++)
        printf("pread %d: %zd '%.*s'\n", i, got_n[i], got_n[i] > 0 ? (int)got_n[i] : 0, blocks[i]);
    char one[8];
    long sum = 0;
    for (off_t off = 0; off < 32; off += 8) {
        ssize_t r = pread(fd, one, sizeof one, off);
        if (r > 0)
            sum += r + one[0];
    }
    claimed += 4;
    printf("sum %ld\n", sum);

    const char *dirs[] = { "m1", "m2", "m3", "m1", "m4" };
    int rcs[5], errs[5];
    for (int i = 0; i < 5; i++) {
        rcs[i] = mkdir(dirs[i], 0700);
        errs[i] = rcs[i] ? errno : 0;
    }
    claimed += 5;
    for (int i = 0; i < 5; i++)
        printf("mkdir %s %d %d\n", dirs[i], rcs[i], errs[i]);
    const char *files[] = { "u1", "u2", "u3" };
    for (int i = 0; i < 3; i++)
        close(open(files[i], O_CREAT | O_WRONLY, 0600));
    const char *victims[] = { "u1", "nope", "u3", "m2", "u2" };
    for (int i = 0; i < 5; i++)
        if (unlink(victims[i]) != 0)
            printf("unlink %s errno %d\n", victims[i], errno);
    int removed = 0;
    for (int i = 4; i >= 0; i--)
        removed += rmdir(dirs[i]) == 0;
    claimed += 5;
    printf("rmdir removed %d errno %d\n", removed, errno);

    int fds[6] = { 0, 1, 2, fd, 55, fd };
    struct stat sts[6];
    int frc[6];
    for (int i = 0; i < 6; i++)
        frc[i] = fstat(fds[i], &sts[i]);
    claimed += 6;
    for (int i = 0; i < 6; i++)
        printf("fstat %d -> %d %s\n", i, frc[i], frc[i] == 0 ? (S_ISREG(sts[i].st_mode) ? "reg" : "other") : "-");
    struct stat one_st;
    long long size = 0;
    int fds2[] = { fd, -1, fd, 3 };
    for (int i = 0; i < 4; i++)
        if (fstat(fds2[i], &one_st) == 0)
            size += one_st.st_size;
        else
            printf("fstat %d errno %d\n", fds2[i], errno);
    printf("size %lld\n", size);
    printf("calls in batched loops: %ld\n", claimed);
    close(fd);
    return 0;
}
