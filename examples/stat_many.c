/* stat_many: look up the metadata of a fixed set of files, as a build tool
 * checking freshness does.  Each stat() writes its own struct and needs
 * nothing from the others, so the run is one batch of independent slots;
 * missing files fail inside the batch with ENOENT and the rest go on.
 *
 * usage: stat_many          (stats a.txt .. h.txt in the current directory) */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

int main(void)
{
    struct stat st[8];
    int rc[8], err[8];

    rc[0] = stat("a.txt", &st[0]); err[0] = errno;
    rc[1] = stat("b.txt", &st[1]); err[1] = errno;
    rc[2] = stat("c.txt", &st[2]); err[2] = errno;
    rc[3] = stat("d.txt", &st[3]); err[3] = errno;
    rc[4] = stat("e.txt", &st[4]); err[4] = errno;
    rc[5] = stat("f.txt", &st[5]); err[5] = errno;
    rc[6] = stat("g.txt", &st[6]); err[6] = errno;
    rc[7] = stat("h.txt", &st[7]); err[7] = errno;

    int present = 0;
    for (int i = 0; i < 8; i++) {
        if (rc[i] == 0) {
            present++;
            printf("%c.txt: %lld bytes\n", 'a' + i, (long long)st[i].st_size);
        } else {
            printf("%c.txt: missing (errno %d)\n", 'a' + i, err[i]);
        }
    }
    printf("%d of 8 present\n", present);
    return 0;
}
