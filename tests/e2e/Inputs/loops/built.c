/* Loop shapes whose call takes a name the loop builds each iteration into
 * one buffer (issue #12, rule 6): snprintf(path, sizeof path, "%s/%s",
 * dir, names[i]) then lstat(path, &st), strcpy + strcat then unlink, a
 * memcpy of a fixed prefix and a name then mkdir and rmdir.  The loop's
 * own code reads the buffer after the call (printed), so the shared buffer
 * must still be built as before.  Two loops that must not batch: a name
 * grown by strcat alone, and a write of more bytes than the string the loop
 * formats (the rest is an earlier iteration's).  Prints what it saw; the
 * file "padded" holds what was written. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N 20

static const char *const names[N] = {
    "b00", "b01", "b02", "b03", "b04", "b05", "b06", "b07", "b08", "b09",
    "b10", "b11", "mis", "b13", "b14", "b15", "b16", "b17", "b18", "b19",
};

static long sizes(const char *dir, int *missing)
{
    char path[256];
    struct stat st;
    long total = 0;
    int absent = 0;
    for (int i = 0; i < N; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (lstat(path, &st) == 0)
            total += st.st_size;
        else
            absent++;
    }
    *missing = absent;
    return total;
}

static int remove_all(const char *dir, int *failed_errno)
{
    char path[64];
    int gone = 0, last_errno = 0;
    for (int i = 0; i < N; i++) {
        strcpy(path, dir);
        strcat(path, names[i]);
        if (unlink(path) == 0)
            gone++;
        else
            last_errno = errno;
    }
    *failed_errno = last_errno;
    return gone;
}

static const char prefix[4] = {'d', 'i', 'r', '-'};

static int make_dirs(int n)
{
    char name[16];
    int made = 0;
    for (int i = 0; i < n; i++) {
        memcpy(name, prefix, sizeof prefix);
        memcpy(name + sizeof prefix, names[i], 4);
        if (mkdir(name, 0755) == 0)
            made++;
    }
    for (int i = 0; i < n; i++) {
        memcpy(name, prefix, sizeof prefix);
        memcpy(name + sizeof prefix, names[i], 4);
        rmdir(name);
    }
    return made;
}

/* Each iteration appends to the name the one before built (strcat alone):
 * d/gx, d/gxx, ...  The inspector cannot build a later name from one
 * iteration's code, so this loop must not batch. */
static int unlink_grown(void)
{
    char path[32] = "d/g";
    int gone = 0;
    for (int i = 0; i < 6; i++) {
        strcat(path, "x");
        if (unlink(path) == 0)
            gone++;
    }
    return gone;
}

/* write takes 8 bytes of a buffer the loop writes a shorter string into:
 * the bytes after the string are what the longer one before left there,
 * which a private copy would not hold.  Must not batch. */
static int write_padded(int fd)
{
    char buf[16];
    int wrote = 0;
    memset(buf, '.', sizeof buf);
    for (int i = 0; i < 6; i++) {
        snprintf(buf, sizeof buf, "%s\n", i % 2 ? "long-nam" : "ab");
        if (write(fd, buf, 8) == 8)
            wrote++;
    }
    return wrote;
}

int main(void)
{
    if (mkdir("d", 0755) != 0)
        return 2;
    for (int i = 0; i < N; i++) {
        if (i == 12)
            continue;
        char p[32];
        snprintf(p, sizeof p, "d/%s", names[i]);
        FILE *f = fopen(p, "w");
        if (!f)
            return 2;
        fprintf(f, "%*s", i + 1, "x");
        fclose(f);
    }
    char grown[32] = "d/g";
    for (int i = 0; i < 6; i += 2) {
        strcat(grown, "xx");
        FILE *f = fopen(grown, "w");
        if (!f)
            return 2;
        fclose(f);
    }
    printf("grown %d\n", unlink_grown());
    int fd = open("padded", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 2;
    printf("padded %d\n", write_padded(fd));
    close(fd);
    int missing = 0;
    long total = sizes("d", &missing);
    printf("sizes %ld missing %d\n", total, missing);
    printf("made %d\n", make_dirs(N));
    errno = 0;
    int failed_errno = 0;
    int gone = remove_all("d/", &failed_errno);
    printf("removed %d errno %d failed with %d\n", gone, errno, failed_errno);
    return 0;
}
