/* A load on a later path of a branchy region whose address the entry block
 * already read before the batch (gnulib's fts.c, restore_initial_cwd):
 *
 *     if (fchdir(sp->fts_rfd)) saved_errno = errno;
 *     if (close(sp->fts_rfd)) ...
 *
 * close's descriptor is loaded again after fchdir, on both of its paths.
 * Loading it where the batch is issued cannot fault (the entry block just
 * read that very address, with no call in between), and no code or call of
 * the region writes it, so fchdir and close are one batch.  The same holds
 * for a predicated branch on a reloaded field (`if (w->verbose)` after the
 * entry block read w->verbose).
 *
 *   branch_reload     runs both with descriptors that work and with ones
 *                     that fail, and prints results and errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct walk {
    int rfd;
    int verbose;
    int log_fd;
};

/* fts.c's restore_initial_cwd, reduced: both calls run on every path. */
static int restore(struct walk *sp)
{
    int saved_errno = 0;
    if (fchdir(sp->rfd))
        saved_errno = errno;
    if (close(sp->rfd) && saved_errno == 0)
        saved_errno = errno;
    return saved_errno;
}

/* The log write runs only when the flag, read before the batch, is set. */
static int sync_and_log(struct walk *w, int fd)
{
    if (w->verbose < 0)
        return -1;
    if (fsync(fd) != 0)
        return -2;
    if (w->verbose)
        write(w->log_fd, "synced\n", 7);
    return close(fd);
}

int main(void)
{
    struct walk w = {-1, 0, 1};
    w.rfd = open(".", O_RDONLY | O_DIRECTORY);
    printf("restore: %s\n", strerror(restore(&w)));
    w.rfd = 99; /* not open: fchdir and close both fail with EBADF */
    printf("restore bad: %s\n", strerror(restore(&w)));
    w.rfd = open("/dev/null", O_RDONLY); /* not a directory */
    printf("restore file: %s\n", strerror(restore(&w)));

    int fd = open("out", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    printf("quiet: %d\n", sync_and_log(&w, fd));
    w.verbose = 1;
    fd = open("out", O_WRONLY);
    printf("verbose: %d\n", sync_and_log(&w, fd));
    w.log_fd = 98; /* the log write fails; close still runs */
    fd = open("out", O_WRONLY);
    printf("bad log: %d\n", sync_and_log(&w, fd));
    printf("fsync bad: %d %s\n", sync_and_log(&w, 97), strerror(errno));
    return 0;
}
