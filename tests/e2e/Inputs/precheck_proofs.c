/* glibc's own answers (prechecks) proven where real code proves them:
 * (a) xz's io_copy_attrs - fchown, fchmod and futimens on one fd read
 *     from a struct field: an earlier call of the batch on the same fd
 *     stops the batch when it fails, so futimens' slot never runs on a
 *     negative fd;
 * (b) xz's io_open_src_real - the fd stored into a struct field, checked
 *     through a reload, then fstat of another reload;
 * (c) rsync's utimensat(AT_FDCWD, path, ...) with a path known non-NULL:
 *     a dominating NULL check, a dereference before the call, a string
 *     constant, a parameter declared nonnull; and a path that may be NULL
 *     at run time (refused: glibc answers EINVAL itself).
 * Every path runs: a file, a negative fd, a closed fd, a NULL path. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pair {
    const char *name;
    int src_fd;
    int dest_fd;
    struct stat src_st;
};

static struct timespec times2[2] = {{1000000000, 5}, {1000000001, 7}};

static void copy_attrs(const struct pair *pair, int warn)
{
    struct timespec tv[2];
    tv[0].tv_sec = pair->src_st.st_atime;
    tv[0].tv_nsec = 11;
    tv[1].tv_sec = pair->src_st.st_mtime;
    tv[1].tv_nsec = 13;
    int owner_failed = 0, mode_failed = 0;
    if (fchown(pair->dest_fd, pair->src_st.st_uid, (gid_t)-1) && warn)
        owner_failed = errno;
    if (fchmod(pair->dest_fd, pair->src_st.st_mode & 0777))
        mode_failed = errno;
    int r = futimens(pair->dest_fd, tv);
    int e = r ? errno : 0;
    printf("copy_attrs %d: owner %d mode %d times %d errno %d\n",
           pair->dest_fd, owner_failed, mode_failed, r, e);
}

static void attrs_in_a_row(int fd)
{
    int r1 = fchown(fd, (uid_t)-1, (gid_t)-1);
    int r2 = fchmod(fd, 0640);
    int r3 = futimens(fd, times2);
    int e = errno;
    printf("in_a_row %d: %d %d %d errno %d\n", fd, r1, r2, r3, e);
}

static int open_src(struct pair *pair)
{
    pair->src_fd = open(pair->name, O_RDONLY);
    if (pair->src_fd == -1) {
        printf("open %s: errno %d\n", pair->name, errno);
        return -1;
    }
    if (fstat(pair->src_fd, &pair->src_st)) {
        printf("fstat %s: errno %d\n", pair->name, errno);
        return -1;
    }
    printf("open %s: size %ld\n", pair->name, (long)pair->src_st.st_size);
    return 0;
}

static int touch_checked(const char *path)
{
    if (path == NULL)
        return -2;
    int r = utimensat(AT_FDCWD, path, times2, 0);
    int e = r ? errno : 0;
    int r2 = chmod(path, 0600);
    return r * 1000 + r2 * 100 + e;
}

static int touch_dereferenced(const char *path)
{
    size_t n = strlen(path);
    int r = utimensat(AT_FDCWD, path, times2, AT_SYMLINK_NOFOLLOW);
    int e = r ? errno : 0;
    int r2 = access(path, R_OK);
    return (int)n * 10000 + r * 1000 + r2 * 100 + e;
}

static int touch_constant(void)
{
    int r = utimensat(AT_FDCWD, "in.txt", times2, 0);
    int r2 = chmod("in.txt", 0644);
    return r * 10 + r2;
}

__attribute__((nonnull(1))) static int touch_declared(const char *path)
{
    int r = utimensat(AT_FDCWD, path, NULL, 0);
    int r2 = access(path, F_OK);
    return r * 10 + r2;
}

/* The path may be NULL here: glibc answers EINVAL itself, so the call is
 * not batched. */
__attribute__((noinline)) static int touch_maybe_null(const char *path)
{
    int r = utimensat(AT_FDCWD, path, times2, 0);
    int e = r ? errno : 0;
    int r2 = access("in.txt", F_OK);
    return r * 1000 + r2 * 100 + e;
}

/* rsync's do_utimensat_at: the name after the last slash, relative to the
 * directory opened before (bname = slash + 1 after `if (!slash)`). */
static int touch_in_dir(const char *dir, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return -3;
    const char *bname = slash + 1;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd < 0)
        return -4;
    int ret = utimensat(dfd, bname, times2, AT_SYMLINK_NOFOLLOW);
    int e = errno;
    close(dfd);
    errno = e;
    return ret < 0 ? -e : ret;
}

int main(void)
{
    FILE *f = fopen("in.txt", "w");
    fputs("twelve bytes", f);
    fclose(f);
    /* Fixed times: copy_attrs copies in.txt's into out.txt's. */
    utimensat(AT_FDCWD, "in.txt", times2, 0);
    struct pair p = {"in.txt", -1, -1, {0}};
    if (open_src(&p) == 0) {
        p.dest_fd = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        copy_attrs(&p, 1);
        attrs_in_a_row(p.dest_fd);
        close(p.dest_fd);
        close(p.src_fd);
    }
    struct pair missing = {"missing.txt", -1, -1, {0}};
    open_src(&missing);
    p.dest_fd = -1; /* a negative fd: fchown, fchmod fail in the kernel,
                       futimens in glibc */
    copy_attrs(&p, 1);
    attrs_in_a_row(-1);
    attrs_in_a_row(-100);
    attrs_in_a_row(1000); /* not negative, not open: EBADF from the kernel */
    p.dest_fd = 1000;
    copy_attrs(&p, 0);
    printf("touch_checked in.txt %d\n", touch_checked("in.txt"));
    printf("touch_checked missing %d\n", touch_checked("missing.txt"));
    printf("touch_checked NULL %d\n", touch_checked(NULL));
    printf("touch_dereferenced %d\n", touch_dereferenced("in.txt"));
    printf("touch_dereferenced missing %d\n", touch_dereferenced("nothere"));
    printf("touch_constant %d\n", touch_constant());
    printf("touch_declared %d\n", touch_declared("out.txt"));
    printf("touch_maybe_null in.txt %d\n", touch_maybe_null("in.txt"));
    printf("touch_maybe_null NULL %d\n", touch_maybe_null(NULL));
    printf("touch_in_dir %d\n", touch_in_dir(".", "./in.txt"));
    printf("touch_in_dir missing %d\n", touch_in_dir(".", "./nothere"));
    printf("touch_in_dir no dir %d\n", touch_in_dir("nodir", "nodir/x"));
    printf("touch_in_dir no slash %d\n", touch_in_dir(".", "in.txt"));
    return 0;
}
