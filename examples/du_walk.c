/* du_walk: a du-like directory walk (apparent sizes), written the way a
 * batching-friendly program would: per directory open, fstat, read every
 * entry (getdents64 until it returns 0, names collected into an array),
 * then one fstatat per entry, then recurse into subdirectories, close.
 *
 *     fd = openat(parent, name, O_RDONLY | O_DIRECTORY);
 *     if (fd < 0) { perror(path); return 0; }
 *     if (fstat(fd, &st) < 0) { close(fd); return 0; }
 *     n = getdents64(fd, buf, sizeof buf);  ...collect names...
 *     for (i = 0; i < count; i++)
 *         rc[i] = fstatat(fd, names[i], &est[i], AT_SYMLINK_NOFOLLOW);
 *     for (i = 0; i < count; i++) ...sizes, perror, recursion...
 *     close(fd);
 *
 * What the plugins batch: the directory's opening - openat, fstat, the close
 * on fstat's error path and the first getdents64 - is one branchy batch
 * (openat's fd is chained into the other three by word copies; a failed
 * openat stops the batch and perror runs).  At -O0 and -O2 the per-entry loop is a loop
 * batch (docs/loops.md): its one call takes the same fd, a name the loop
 * does not write and a buffer of its own per iteration, and every result
 * goes on to the next entry, so up to loop-slots entries' fstatat calls
 * are one crossing.  (Written the usual way - fstatat inside the
 * getdents64 loop, with the recursion right after it - every successful
 * stat may lead to the recursive call, which the next entry's stat may not
 * move above, so nothing would batch.)
 *
 * usage: du_walk [dir]      (default: .)  prints "<bytes>\t<path>" for every
 * directory, deepest first, like du -b; entries in getdents64 order.  A
 * directory with more than MAX_ENTRIES entries is read in several rounds. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ENTRIES 64

static int is_dot(const char *name)
{
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

static long long sum_entries(int fd, const char *path,
                             const char *const *names, int count);

static long long walk(int parent, const char *name, const char *path)
{
    char buf[4096];
    const char *names[MAX_ENTRIES];
    struct stat st;
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        perror(path);
        return 0;
    }
    if (fstat(fd, &st) < 0) {
        close(fd);
        return 0;
    }
    long long total = st.st_size;
    ssize_t n = getdents64(fd, buf, sizeof buf);
    while (n > 0) {
        int count = 0;
        for (ssize_t off = 0; off < n && count < MAX_ENTRIES;) {
            struct dirent64 *d = (struct dirent64 *)(buf + off);
            off += d->d_reclen;
            if (!is_dot(d->d_name))
                names[count++] = d->d_name;
        }
        total += sum_entries(fd, path, names, count);
        n = getdents64(fd, buf, sizeof buf);
    }
    if (n < 0)
        perror(path);
    close(fd);
    printf("%lld\t%s\n", total, path);
    return total;
}

/* One buffer's worth of entries: stat them all (each into its own
 * buffer, results and errno kept per entry), then add them up. */
static long long sum_entries(int fd, const char *path,
                             const char *const *names, int count)
{
    struct stat st[MAX_ENTRIES];
    int rc[MAX_ENTRIES], err[MAX_ENTRIES];
    long long total = 0;
    for (int i = 0; i < count; i++) {
        rc[i] = fstatat(fd, names[i], &st[i], AT_SYMLINK_NOFOLLOW);
        err[i] = errno;
    }
    for (int i = 0; i < count; i++) {
        if (rc[i] < 0) {
            fprintf(stderr, "%s: %s\n", names[i], strerror(err[i]));
        } else if (S_ISDIR(st[i].st_mode)) {
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
            total += walk(fd, names[i], sub);
        } else {
            total += st[i].st_size;
        }
    }
    return total;
}

int main(int argc, char **argv)
{
    const char *top = argc > 1 ? argv[1] : ".";
    walk(AT_FDCWD, top, top);
    return 0;
}
