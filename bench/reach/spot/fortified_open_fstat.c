/* Reach, not correctness: tar 1.34's open_output_file (extract.c:1178)
 * reduced.  Compiled plainly, the GCC plugin's early look batches
 * openat, fstat, close (branchy, 2 chains).  With -D_FORTIFY_SOURCE=2
 * (which tar's and coreutils' config.h turn on when optimizing), openat is
 * glibc's always-inline fortified wrapper in the early look, so that look
 * batches fstat, close alone, and the late look, where the wrapper has
 * become __openat_alias, finds them taken and leaves openat alone:
 *
 *   gcc -O2 [-D_FORTIFY_SOURCE=2] -fplugin=.../sysbatch.so \
 *       -fopt-info-optimized-missed -c fortified_open_fstat.c
 *
 * (bench/reach/notes.md, session 10, "tar -xf fell from 1985".) */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern int old_files_option;
extern mode_t current_umask;

int open_output(int dir_fd, const char *name, int flags, mode_t mode, mode_t *current_mode)
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
