/* Arguments built per iteration: names formatted into one buffer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calls of the loops every plugged build batches (tests/tools/sbcompare.py
 * --expect-calls-printed checks that at least these ran inside batches). */
static long claimed;

static const char *base[] = { "alpha", "beta", "gamma", "delta", "eps" };

int main(void)
{
    char path[64];
    mkdir("out", 0755);

    for (int i = 0; i < 12; i++) {
        snprintf(path, sizeof path, "out/dir%02d", i);
        if (mkdir(path, 0750) != 0)
            printf("mkdir %s: errno %d\n", path, errno);
    }
    /* again: every one exists now */
    claimed += 12;
    int exists = 0;
    for (int i = 0; i < 12; i++) {
        snprintf(path, sizeof path, "out/dir%02d", i);
        if (mkdir(path, 0750) != 0 && errno == EEXIST)
            exists++;
    }
    printf("exist %d\n", exists);

    char name[128];
    for (size_t i = 0; i < 5; i++) {
        sprintf(name, "out/%s.dat", base[i]);
        int fd = open(name, O_CREAT | O_WRONLY, 0600);
        close(fd);
    }

    struct stat st;
    int found = 0;
    for (int i = 0; i < 5; i++) {
        strcpy(name, "out/");
        strcat(name, base[i]);
        strcat(name, ".dat");
        if (stat(name, &st) == 0)
            found++;
    }
    printf("found %d\n", found);

    int removed = 0;
    for (int i = 4; i >= 0; i--) {
        snprintf(name, sizeof name, "out/%s.dat", base[i]);
        if (unlink(name) == 0)
            removed++;
        else
            printf("unlink %s errno %d\n", name, errno);
    }
    printf("removed %d\n", removed);

    for (int i = 0; i < 12; i += 2) {
        snprintf(path, sizeof path, "out/dir%02d", i);
        rmdir(path);
    }
    claimed += 6;
    int rc = 0;
    for (int i = 0; i < 13; i++) {
        snprintf(path, sizeof path, "out/dir%02d", i);
        rc = rmdir(path);
    }
    claimed += 13;
    printf("last rmdir %d errno %d\n", rc, errno);
    printf("calls in batched loops: %ld\n", claimed);
    return 0;
}
