/* report.c: collects one translation unit's batches and refusals and writes
 * them as one record file (format in sysbatch/report.h). */
#define _GNU_SOURCE
#include "sysbatch/report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct sb_report {
    char *dir;
    char *source;
    char *compiler;
    char *text; /* the lines after the header, as they will be written */
    size_t len, cap;
    int failed; /* out of memory while collecting: end reports it */
};

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

struct sb_report *sb_report_begin(const char *dir, const char *source,
                                  const char *compiler)
{
    struct sb_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->dir = dup_or_empty(dir);
    r->source = dup_or_empty(source);
    r->compiler = dup_or_empty(compiler);
    r->cap = 4096;
    r->text = malloc(r->cap);
    if (!r->dir || !r->source || !r->compiler || !r->text) {
        sb_report_discard(r);
        return NULL;
    }
    return r;
}

static void append(struct sb_report *r, const char *s, size_t n)
{
    if (r->failed)
        return;
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap * 2 > r->len + n + 1 ? r->cap * 2 : r->len + n + 1;
        char *t = realloc(r->text, cap);
        if (!t) {
            r->failed = 1;
            return;
        }
        r->text = t;
        r->cap = cap;
    }
    memcpy(r->text + r->len, s, n);
    r->len += n;
}

/* One field: tabs and newlines would break the line format. */
static void field(struct sb_report *r, const char *s)
{
    append(r, "\t", 1);
    for (const char *p = s ? s : ""; *p; p++) {
        char c = *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p;
        append(r, &c, 1);
    }
}

static void number(struct sb_report *r, long v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "\t%ld", v);
    append(r, buf, (size_t)n);
}

void sb_report_batch(struct sb_report *r, const char *file, unsigned line,
                     const char *function, int ncalls, int nslots,
                     const char *callees)
{
    if (!r)
        return;
    append(r, "batch", 5);
    field(r, file);
    number(r, (long)line);
    field(r, function);
    number(r, ncalls);
    number(r, nslots);
    field(r, callees);
    append(r, "\n", 1);
}

void sb_report_loop(struct sb_report *r, const char *file, unsigned line,
                    const char *function, const char *callee, int iterations)
{
    if (!r)
        return;
    append(r, "loop", 4);
    field(r, file);
    number(r, (long)line);
    field(r, function);
    field(r, callee);
    number(r, iterations);
    append(r, "\n", 1);
}

void sb_report_refused(struct sb_report *r, const char *file, unsigned line,
                       const char *function, const char *callee,
                       const char *reason)
{
    if (!r)
        return;
    append(r, "refused", 7);
    field(r, file);
    number(r, (long)line);
    field(r, function);
    field(r, callee);
    field(r, reason);
    append(r, "\n", 1);
}

void sb_report_discard(struct sb_report *r)
{
    if (!r)
        return;
    free(r->dir);
    free(r->source);
    free(r->compiler);
    free(r->text);
    free(r);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "sysbatch: report: ");
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int sb_report_end(struct sb_report *r, char *err, size_t errlen)
{
    if (!r)
        return fail(err, errlen, "out of memory");
    if (r->failed) {
        sb_report_discard(r);
        return fail(err, errlen, "out of memory");
    }

    struct stat st;
    if (mkdir(r->dir, 0777) != 0 && errno != EEXIST) {
        int e = errno;
        fail(err, errlen, "cannot create %s: %s", r->dir, strerror(e));
        sb_report_discard(r);
        return -1;
    }
    if (stat(r->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fail(err, errlen, "%s is not a directory", r->dir);
        sb_report_discard(r);
        return -1;
    }

    /* Name: the source's base name, then a hash of its full path and this
     * process, so two units with one base name (or one unit compiled
     * twice, as libtool does for PIC and non-PIC) keep separate records. */
    const char *base = strrchr(r->source, '/');
    base = base ? base + 1 : r->source;
    if (!*base)
        base = "unit";
    uint64_t h = 1469598103934665603ULL;
    char pid[32];
    snprintf(pid, sizeof pid, ":%ld", (long)getpid());
    for (const char *p = r->source; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    for (const char *p = pid; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    char *path = NULL, *tmp = NULL;
    if (asprintf(&path, "%s/%s.%016llx.sbrec", r->dir, base,
                 (unsigned long long)h) < 0 ||
        asprintf(&tmp, "%s.tmp", path) < 0) {
        free(path);
        sb_report_discard(r);
        return fail(err, errlen, "out of memory");
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int e = errno;
        fail(err, errlen, "cannot write %s: %s", tmp, strerror(e));
        free(path);
        free(tmp);
        sb_report_discard(r);
        return -1;
    }
    fprintf(f, "sysbatch-record 1\nunit\t");
    for (const char *p = r->source; *p; p++)
        fputc(*p == '\t' || *p == '\n' ? ' ' : *p, f);
    fputc('\t', f);
    fputs(r->compiler, f);
    fputc('\n', f);
    fwrite(r->text, 1, r->len, f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        fail(err, errlen, "cannot write %s: %s", path, strerror(e));
        free(path);
        free(tmp);
        sb_report_discard(r);
        return -1;
    }
    free(path);
    free(tmp);
    sb_report_discard(r);
    return 0;
}
