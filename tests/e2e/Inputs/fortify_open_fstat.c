/* tar 1.34's open_output_file (extract.c) reduced: openat, then fstat and
 * close on the new descriptor.  Under _FORTIFY_SOURCE openat is glibc's
 * always-inline wrapper until inlining, a barrier to GCC's early look;
 * that look must leave the function to the late one (which sees the plain
 * openat) instead of batching fstat and close around it.  Run on a file
 * that exists (overwriting: fstat and close), one that does not, a
 * directory (fstat says it is not a regular file), and without
 * overwriting (O_EXCL fails on the existing file).
 *
 * Run by tests/e2e/Fortify_wrappers.test, plugged against unplugged.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int old_files_option;
mode_t current_umask = 022;

__attribute__((noinline)) static int open_output(int dir_fd, const char *name,
                                                 int flags, mode_t mode,
                                                 mode_t *current_mode)
{
    _Bool overwriting = old_files_option == 3;
    flags |= overwriting ? 0 : O_EXCL;
    int fd = openat(dir_fd, name, flags, mode);
    if (fd >= 0) {
        if (overwriting) {
            struct stat st;
            if (fstat(fd, &st) != 0) {
                int e = errno;
                close(fd);
                errno = e;
                return -1;
            }
            if (!S_ISREG(st.st_mode)) {
                close(fd);
                errno = EEXIST;
                return -1;
            }
            *current_mode = st.st_mode;
        } else {
            *current_mode = mode & ~current_umask;
        }
    }
    return fd;
}

static void try(const char *name, int flags)
{
    mode_t m = 0;
    errno = 0;
    int fd = open_output(AT_FDCWD, name, flags, 0640, &m);
    printf("%s: fd %s errno %s mode %o\n", name, fd >= 0 ? ">=0" : "-1",
           fd >= 0 ? "-" : strerror(errno), (unsigned)m);
    if (fd >= 0)
        close(fd);
}

int main(void)
{
    int fd = open("exists", O_CREAT | O_WRONLY | O_TRUNC, 0600);
    close(fd);
    mkdir("dir", 0755);
    old_files_option = 3;
    try("exists", O_WRONLY | O_CREAT);
    try("new", O_WRONLY | O_CREAT);
    try("dir", O_RDONLY);
    try("missing/x", O_WRONLY | O_CREAT);
    old_files_option = 0;
    try("exists", O_WRONLY | O_CREAT);
    try("new2", O_WRONLY | O_CREAT);
    return 0;
}
