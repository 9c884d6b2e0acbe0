/* sysbatch-report: what a whole build batched and missed.
 *
 *     make CC=sysbatch-cc SYSBATCH_OPTIONS=report=$PWD/sbrep
 *     sysbatch-report sbrep [--top N] [--svg chart.svg]
 *
 * Reads every record (*.sbrec, format in core/include/sysbatch/report.h)
 * the plugins wrote with report=DIR and prints: units, candidate call
 * sites seen, sites batched, batches and slots, refusals by reason, and
 * the files and functions with the most sites (batched / seen).  --svg
 * draws the same per-file and per-reason numbers as bar charts.  A record
 * that is not in the format is an error naming the file and line; nothing
 * is printed from a partial read.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct count {
    char *name;
    long seen, batched;
};

struct table {
    struct count *v;
    size_t n, cap;
};

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "sysbatch-report: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static struct count *entry(struct table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->v[i].name, name) == 0)
            return &t->v[i];
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->v = realloc(t->v, t->cap * sizeof *t->v);
        if (!t->v)
            die("out of memory");
    }
    struct count *c = &t->v[t->n++];
    c->name = strdup(name);
    if (!c->name)
        die("out of memory");
    c->seen = c->batched = 0;
    return c;
}

static int by_seen(const void *a, const void *b)
{
    const struct count *x = a, *y = b;
    if (x->seen != y->seen)
        return x->seen < y->seen ? 1 : -1;
    if (x->batched != y->batched)
        return x->batched < y->batched ? 1 : -1;
    return strcmp(x->name, y->name);
}

struct totals {
    long units, batches, slots, batched, refused, loops;
    struct table compilers, files, functions, reasons;
};

/* Splits a line at tabs in place; returns the number of fields. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = 0;
            f[n++] = p + 1;
        }
    return n;
}

static long number(const char *s, const char *path, long lineno)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0)
        die("%s:%ld: '%s' is not a count", path, lineno, s);
    return v;
}

static void read_record(const char *path, struct totals *t)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len && line[len - 1] == '\n')
            line[--len] = 0;
        char *fld[8];
        int n = split(line, fld, 8);
        if (lineno == 1) {
            if (strcmp(line, "sysbatch-record 1") != 0)
                die("%s: not a sysbatch record (first line '%s')", path, line);
            continue;
        }
        if (strcmp(fld[0], "unit") == 0 && n == 3) {
            t->units++;
            entry(&t->compilers, fld[2])->seen++;
        } else if (strcmp(fld[0], "batch") == 0 && n == 7) {
            long calls = number(fld[4], path, lineno);
            long slots = number(fld[5], path, lineno);
            t->batches++;
            t->slots += slots;
            t->batched += calls;
            struct count *file = entry(&t->files, fld[1]);
            file->seen += calls;
            file->batched += calls;
            char *fn;
            if (asprintf(&fn, "%s (%s)", fld[3], fld[1]) < 0)
                die("out of memory");
            struct count *func = entry(&t->functions, fn);
            func->seen += calls;
            func->batched += calls;
            free(fn);
        } else if (strcmp(fld[0], "loop") == 0 && n == 6) {
            /* One call site batched in groups of iterations. */
            number(fld[5], path, lineno);
            t->loops++;
            t->batched++;
            struct count *file = entry(&t->files, fld[1]);
            file->seen++;
            file->batched++;
            char *fn;
            if (asprintf(&fn, "%s (%s)", fld[3], fld[1]) < 0)
                die("out of memory");
            struct count *func = entry(&t->functions, fn);
            func->seen++;
            func->batched++;
            free(fn);
        } else if (strcmp(fld[0], "refused") == 0 && n == 6) {
            t->refused++;
            entry(&t->files, fld[1])->seen++;
            char *fn;
            if (asprintf(&fn, "%s (%s)", fld[3], fld[1]) < 0)
                die("out of memory");
            entry(&t->functions, fn)->seen++;
            free(fn);
            entry(&t->reasons, fld[5])->seen++;
        } else {
            die("%s:%ld: unknown line kind '%s' or wrong field count", path, lineno, fld[0]);
        }
    }
    if (lineno == 0)
        die("%s: empty record", path);
    free(line);
    fclose(f);
}

static void print_table(const char *title, struct table *t, size_t top,
                        int with_batched)
{
    qsort(t->v, t->n, sizeof *t->v, by_seen);
    printf("%s\n", title);
    if (!t->n)
        printf("  (none)\n");
    for (size_t i = 0; i < t->n && i < top; i++) {
        if (with_batched)
            printf("  %6ld / %-6ld %s\n", t->v[i].batched, t->v[i].seen,
                   t->v[i].name);
        else
            printf("  %6ld  %s\n", t->v[i].seen, t->v[i].name);
    }
    if (t->n > top)
        printf("  ... %zu more\n", t->n - top);
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

/* Two horizontal bar charts: per file, batched (dark) within seen (light);
 * per refusal reason, its count. */
static void write_svg(const char *path, struct totals *t, size_t top)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    size_t nf = t->files.n < top ? t->files.n : top;
    size_t nr = t->reasons.n < top ? t->reasons.n : top;
    const int row = 18, label = 360, width = 360, top_pad = 40;
    long max = 1;
    for (size_t i = 0; i < nf; i++)
        if (t->files.v[i].seen > max)
            max = t->files.v[i].seen;
    for (size_t i = 0; i < nr; i++)
        if (t->reasons.v[i].seen > max)
            max = t->reasons.v[i].seen;
    int height = top_pad + (int)(nf + nr) * row + 3 * row;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
               "height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            label + width + 80, height);
    fprintf(f, "<text x=\"4\" y=\"16\" font-size=\"14\">sysbatch: %ld of %ld "
               "call sites batched (%ld batches, %ld slots, %ld units)</text>\n",
            t->batched, t->batched + t->refused, t->batches, t->slots, t->units);
    int y = top_pad;
    fprintf(f, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">sites per file: "
               "batched (dark) of seen</text>\n", y - 6);
    for (size_t i = 0; i < nf; i++, y += row) {
        const struct count *c = &t->files.v[i];
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label - 6,
                y + 13);
        xml_text(f, c->name);
        fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%ld\" height=\"14\" "
                   "fill=\"#b8cce4\"/>\n<rect x=\"%d\" y=\"%d\" width=\"%ld\" "
                   "height=\"14\" fill=\"#1f4e79\"/>\n<text x=\"%ld\" y=\"%d\">%ld/%ld</text>\n",
                label, y + 2, c->seen * width / max, label, y + 2,
                c->batched * width / max, label + c->seen * width / max + 4,
                y + 13, c->batched, c->seen);
    }
    y += row;
    fprintf(f, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">refusals by reason</text>\n",
            y + 6);
    y += row;
    for (size_t i = 0; i < nr; i++, y += row) {
        const struct count *c = &t->reasons.v[i];
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", label - 6,
                y + 13);
        xml_text(f, c->name);
        fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%ld\" height=\"14\" "
                   "fill=\"#c0504d\"/>\n<text x=\"%ld\" y=\"%d\">%ld</text>\n",
                label, y + 2, c->seen * width / max,
                label + c->seen * width / max + 4, y + 13, c->seen);
    }
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
}

static int is_record(const char *name)
{
    size_t n = strlen(name);
    return n > 6 && strcmp(name + n - 6, ".sbrec") == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *svg = NULL;
    size_t top = 10;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
            svg = argv[++i];
        else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1)
                die("--top wants a positive number, got '%s'", argv[i]);
            top = (size_t)v;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: sysbatch-report DIR [--top N] [--svg FILE]\n"
                   "Sums up the records the sysbatch plugins wrote with "
                   "report=DIR.\n");
            return 0;
        } else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else
            die("unknown argument '%s' (usage: sysbatch-report DIR [--top N] "
                "[--svg FILE])", argv[i]);
    }
    if (!dir)
        die("usage: sysbatch-report DIR [--top N] [--svg FILE]");

    DIR *d = opendir(dir);
    if (!d)
        die("cannot read directory %s: %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_record(e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                die("out of memory");
        }
        if (asprintf(&names[n++], "%s/%s", dir, e->d_name) < 0)
            die("out of memory");
    }
    closedir(d);
    if (!n)
        die("no records (*.sbrec) in %s: was the build run with "
            "report=%s?", dir, dir);
    qsort(names, n, sizeof *names, by_name);

    struct totals t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < n; i++)
        read_record(names[i], &t);

    long seen = t.batched + t.refused;
    printf("sysbatch report: %s\n", dir);
    printf("units            %ld\n", t.units);
    printf("sites seen       %ld\n", seen);
    printf("sites batched    %ld (%.1f %%)\n", t.batched,
           seen ? 100.0 * (double)t.batched / (double)seen : 0.0);
    printf("batches          %ld\n", t.batches);
    printf("slots            %ld\n", t.slots);
    printf("loop sites       %ld (batched in groups of iterations)\n",
           t.loops);
    printf("sites refused    %ld\n", t.refused);
    print_table("compilers (units)", &t.compilers, top, 0);
    print_table("refusals by reason", &t.reasons, top, 0);
    print_table("top files (sites batched / seen)", &t.files, top, 1);
    print_table("top functions (sites batched / seen)", &t.functions, top, 1);
    if (svg) {
        write_svg(svg, &t, top);
        printf("chart: %s\n", svg);
    }
    return 0;
}
