/* Predicated slots at run time (core.h, SB_TERM_PRED): branches on a flag
 * parameter, a global, a struct field read before the batch, an if/else
 * on a flag, and a flag after a chained open - each with argv[1] choosing
 * the flags ("1": every flag set, "0": none), so both arms of every
 * predicated branch run in the compared builds.  Every call's result and
 * errno are printed, and the files left behind are compared by the
 * harness.  Also a predicate that IS written between the batch point and
 * the branch (the planner must refuse it; its result would differ if the
 * batch had evaluated it early).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int verbose_flag;

/* errno is read once, after the calls: reading it between them would be
 * code that no batch crosses. */
static void show(const char *what, long r)
{
    printf("%s %ld\n", what, r);
}

static void show_errno(const char *what)
{
    printf("%s errno %d\n", what, errno);
    errno = 0;
}

static void flag_param(const char *p, int remove)
{
    long a = access(p, F_OK);
    long u = 0;
    if (remove)
        u = unlink(p);
    long m = mkdir(p, 0750);
    show("flag_param access", a);
    show("flag_param unlink", u);
    show("flag_param mkdir", m);
    show_errno("flag_param");
}

static void global_flag(const char *p)
{
    long a = getuid() >= 0;
    long u = -2;
    if (verbose_flag)
        u = rmdir(p);
    long m = mkdir(p, 0700);
    show("global_flag uid", a);
    show("global_flag rmdir", u);
    show("global_flag mkdir", m);
    show_errno("global_flag");
}

static void preserve(const char *p, int keep_mode)
{
    int fd = open(p, O_WRONLY | O_CREAT, 0600);
    if (fd < 0) {
        show("preserve open", fd);
        show_errno("preserve");
        return;
    }
    long c = -2;
    if (keep_mode)
        c = fchmod(fd, 0640);
    long w = write(fd, "data\n", 5);
    long cl = close(fd);
    show("preserve fchmod", c);
    show("preserve write", w);
    show("preserve close", cl);
    show_errno("preserve");
}

static void if_else(const char *p, int as_dir)
{
    long a = access(p, F_OK);
    long r;
    if (as_dir)
        r = mkdir(p, 0755);
    else
        r = rmdir(p);
    long g = getpid() > 0;
    show("if_else access", a);
    show("if_else mk/rmdir", r);
    show("if_else pid", g);
    show_errno("if_else");
}

static void field_before(const char *probe, const char *target)
{
    struct stat st;
    if (stat(probe, &st) < 0) {
        show("field_before stat", -1);
        show_errno("field_before");
        return;
    }
    puts("field_before probed");
    long a = access(target, F_OK);
    long r;
    if (S_ISDIR(st.st_mode))
        r = rmdir(target);
    else
        r = unlink(target);
    long m = mkdir(target, 0711);
    show("field_before access", a);
    show("field_before remove", r);
    show("field_before mkdir", m);
    show_errno("field_before");
}

/* The flag is rewritten between the batch point and the branch: the
 * branch must see the new value. */
static void written_between(const char *p, int flag)
{
    int local = flag;
    long a = access(p, F_OK);
    local = a == 0 ? !local : local;
    long u = -2;
    if (local)
        u = rmdir(p);
    long m = mkdir(p, 0755);
    show("written access", a);
    show("written rmdir", u);
    show("written mkdir", m);
    show_errno("written");
}

int main(int argc, char **argv)
{
    int on = argc > 1 && atoi(argv[1]) != 0;
    verbose_flag = on;
    int fd = open("plain.txt", O_WRONLY | O_CREAT, 0644);
    if (fd >= 0)
        close(fd);
    flag_param("plain.txt", on);
    flag_param("missing.txt", on);
    global_flag("gdir");
    global_flag("gdir");
    preserve("kept.txt", on);
    preserve("nodir/kept.txt", on);
    if_else("ie", on);
    if_else("ie", !on);
    field_before(on ? "gdir" : "kept.txt", "target");
    field_before(on ? "kept.txt" : "gdir", "target");
    field_before("no-such-probe", "target");
    written_between("wdir", on);
    written_between("wdir", on);
    return 0;
}
