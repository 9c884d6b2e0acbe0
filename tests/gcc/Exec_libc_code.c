/* libc code between batched calls (core/libc.c): strlen, strtol (setting
 * errno to ERANGE between two calls' own errno values), snprintf, memcmp,
 * isdigit and strcpy run where they stood, and see the memory they would
 * have seen; with the input present and missing (open fails inside the
 * batch, the rest runs unbatched).
 *
 * REQUIRES: gcc-host
 * RUN: sh %S/Inputs/exec-compare.sh %t %s "%gcc" "%sbgcc" %sbruntime | %FileCheck %s
 * CHECK: sb-O0-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK: sb-O2-emul stats: sysbatch: kernel 0 batches 0 slots; emulated {{[1-9][0-9]*}} batches
 * CHECK-NOT: DIFFERENT
 * CHECK: 4 runs compared, 0 different
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void look(const char *path, const char *num)
{
    char buf[64], line[48], copy[64];
    char *end;
    errno = 0;
    int fd = open(path, O_RDONLY);
    int e_open = errno;
    size_t len = strlen(path);
    long v = strtol(num, &end, 10);
    int e_strtol = errno;
    long n = read(fd, buf, sizeof buf - 1);
    int e_read = errno;
    int printed = snprintf(line, sizeof line, "%s:%d:%03x", path, (int)len,
                           (unsigned)v & 0xfff);
    int r_close = close(fd);
    int e_close = errno;
    if (n > 0)
        buf[n] = 0;
    else
        strcpy(buf, "-");
    strcpy(copy, buf);
    printf("%s: open %d/%d strtol %ld/%d/%d read %ld/%d close %d/%d\n", path,
           fd >= 0, e_open, v, e_strtol, (int)(end - num), n, e_read, r_close,
           e_close);
    printf("line %d %s digit %d same %d data %s\n", printed, line,
           isdigit((unsigned char)copy[0]) != 0,
           memcmp(copy, buf, strlen(buf) + 1) == 0, copy);
}

/* strcpy writes the buffer read then fills: it must stay before read. */
static void overwrite(const char *path)
{
    char buf[32];
    int fd = open(path, O_RDONLY);
    strcpy(buf, "before-read");
    long n = read(fd, buf, 4);
    close(fd);
    printf("overwrite %ld %.11s\n", n, buf);
}

int main(void)
{
    FILE *f = fopen("in.txt", "w");
    fputs("42 is the answer\n", f);
    fclose(f);
    look("in.txt", "123");
    look("in.txt", "99999999999999999999999");
    look("missing.txt", "-7x");
    overwrite("in.txt");
    overwrite("missing.txt");
    return 0;
}
