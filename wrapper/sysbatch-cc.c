/* sysbatch-cc / sysbatch-c++: run the real C or C++ compiler with the
 * sysbatch plugin that matches it, and link the static runtime whenever the
 * command links.  One variable puts sysbatch into an existing build:
 *
 *     make CC=sysbatch-cc                     real compiler: $SYSBATCH_CC or cc
 *     ./configure CC=sysbatch-cc              (sysbatch-c++: $SYSBATCH_CXX or c++)
 *     SYSBATCH_CC=clang-16 make CC=sysbatch-cc
 *     cmake -DCMAKE_C_COMPILER_LAUNCHER=sysbatch-cc   first argument is the compiler
 *     sysbatch-cc gcc -O2 -c x.c              same, by hand
 *
 * What it adds, and when (docs/usage.md, man sysbatch-cc):
 *   - compiling a C/C++ source (-c, -S, or a compile-and-link):
 *       gcc:   -fplugin=<libdir>/sysbatch/gcc-<major>/sysbatch.so
 *       clang: -fpass-plugin=<libdir>/sysbatch/clang-<major>/SysbatchPass.so
 *     plus the options in SYSBATCH_OPTIONS, spelled for that compiler;
 *   - linking (no -c/-S/-E/-M/-r): <libdir>/libsysbatch.a at the end, kept
 *     out of a shared object's exports; an archive member is only taken
 *     when something calls it, so links that batch nothing are unchanged;
 *   - anything else (-E, -M, -MM, -fsyntax-only, --version, -v, -print-*,
 *     -dumpmachine, no input files): nothing - the command runs exactly as
 *     the real compiler would run it.
 * SYSBATCH_DISABLE=1 runs the real compiler unchanged.  A compiler that is
 * neither GCC nor clang, or a GCC/clang major version without an installed
 * plugin, is an error that names the fix; it never silently builds
 * without the batching the user asked for.
 *
 * The install layout is found from this program's own path (relocatable:
 * <prefix>/<bindir>/sysbatch-cc -> <prefix>/<libdir>), so the same binary
 * works under /usr, /usr/local or any --prefix.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SB_INSTALL_BINDIR
#define SB_INSTALL_BINDIR "bin"
#endif
#ifndef SB_INSTALL_LIBDIR
#define SB_INSTALL_LIBDIR "lib"
#endif
#ifndef SB_INSTALL_INCLUDEDIR
#define SB_INSTALL_INCLUDEDIR "include"
#endif
#ifndef SB_HOST_TRIPLE
#define SB_HOST_TRIPLE "x86_64-linux-gnu"
#endif
#ifndef SB_VERSION
#define SB_VERSION "0"
#endif

static const char *prog = "sysbatch-cc";

static void die(int status, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(status);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die(1, "out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        die(1, "out of memory");
    return p;
}

static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        die(1, "out of memory");
    return s;
}

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- argument vector ------------------------------------------------- */

struct argv_buf {
    char **v;
    int n, cap;
};

static void push(struct argv_buf *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 64;
        char **nv = realloc(a->v, (size_t)a->cap * sizeof *nv);
        if (!nv)
            die(1, "out of memory");
        a->v = nv;
    }
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

/* ---- finding programs and the install tree --------------------------- */

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* NAME resolved like execvp does, or NULL. */
static char *find_in_path(const char *name)
{
    if (strchr(name, '/'))
        return is_executable_file(name) ? xstrdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    const char *p = path;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        char *cand = len ? xasprintf("%.*s/%s", (int)len, p, name)
                         : xasprintf("./%s", name);
        if (is_executable_file(cand))
            return cand;
        free(cand);
        if (!colon)
            return NULL;
        p = colon + 1;
    }
}

/* The install prefix: this executable's directory minus SB_INSTALL_BINDIR. */
static char *install_prefix(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0)
        die(1, "cannot find my own path (/proc/self/exe: %s)", strerror(errno));
    exe[n] = 0;
    char *dir = xstrdup(exe);
    *strrchr(dir, '/') = 0; /* readlink gives an absolute path */
    int depth = 1;
    for (const char *c = SB_INSTALL_BINDIR; *c; c++)
        depth += *c == '/' && c[1] && c[1] != '/';
    for (int i = 0; i < depth; i++) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            break;
        *slash = 0;
    }
    if (!*dir)
        strcpy(dir, "/");
    return dir;
}

static char *under_prefix(const char *prefix, const char *rel)
{
    if (rel[0] == '/')
        return xstrdup(rel);
    return xasprintf("%s%s%s", prefix, strcmp(prefix, "/") ? "/" : "", rel);
}

/* ---- which compiler is it -------------------------------------------- */

enum family { FAMILY_UNKNOWN, FAMILY_GCC, FAMILY_CLANG };

struct compiler {
    const char *name;  /* as given (argv or SYSBATCH_CC) */
    char *path;        /* resolved */
    enum family family;
    int major;
    char *target;      /* "Target:" of -v */
    char *plugin_id;   /* clang-14, gcc-12, arm-none-eabi-gcc-12 */
};

/* Runs `compiler -v` (driver only: it compiles nothing) and returns what it
 * printed on stdout and stderr. */
static char *run_dash_v(const char *compiler)
{
    int fds[2];
    if (pipe(fds) != 0)
        die(1, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0)
        die(1, "fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        /* English output, whatever the user's locale. */
        setenv("LC_ALL", "C", 1);
        execl(compiler, compiler, "-v", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 4096, len = 0;
    char *out = xmalloc(cap);
    for (;;) {
        if (len + 1024 > cap) {
            cap *= 2;
            char *n = realloc(out, cap);
            if (!n)
                die(1, "out of memory");
            out = n;
        }
        ssize_t r = read(fds[0], out + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    out[len] = 0;
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return out;
}

static char *line_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        return NULL;
    p += strlen(key);
    size_t n = strcspn(p, "\n");
    char *s = xmalloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* ---- remembering what a compiler is --------------------------------- */

/* Starting clang costs about 40 ms (its shared libraries), as much as
 * compiling a small file, so what `-v` said is kept per compiler binary:
 * <cache>/<hash>.id, keyed by the binary's real path, inode, size and
 * mtime (a reinstalled or upgraded compiler is asked again).  The cache
 * is SYSBATCH_CACHE_DIR (empty: none), else $XDG_CACHE_HOME/sysbatch-cc,
 * else ~/.cache/sysbatch-cc; any failure to read or write it just means
 * asking the compiler. */
static char *cache_file(const struct compiler *c)
{
    const char *dir = getenv("SYSBATCH_CACHE_DIR");
    char *base;
    if (dir)
        base = *dir ? xstrdup(dir) : NULL;
    else if ((dir = getenv("XDG_CACHE_HOME")) && *dir)
        base = xasprintf("%s/sysbatch-cc", dir);
    else if ((dir = getenv("HOME")) && *dir)
        base = xasprintf("%s/.cache/sysbatch-cc", dir);
    else
        base = NULL;
    char real[PATH_MAX];
    struct stat st;
    if (!base || !realpath(c->path, real) || stat(real, &st) != 0) {
        free(base);
        return NULL;
    }
    char *key = xasprintf("%s|%lu|%lu|%lld|%lld.%09ld", real,
                          (unsigned long)st.st_dev, (unsigned long)st.st_ino,
                          (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                          st.st_mtim.tv_nsec);
    unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
    for (const char *k = key; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211ULL;
    free(key);
    char *file = xasprintf("%s/%016llx.id", base, h);
    free(base);
    return file;
}

static int cache_read(const char *file, struct compiler *c)
{
    FILE *f = file ? fopen(file, "r") : NULL;
    if (!f)
        return 0;
    char family[16], target[256];
    int major, ok = fscanf(f, "sysbatch-cc-id 1 %15s %d %255s", family, &major,
                           target) == 3;
    fclose(f);
    if (!ok)
        return 0;
    if (strcmp(family, "gcc") == 0)
        c->family = FAMILY_GCC;
    else if (strcmp(family, "clang") == 0)
        c->family = FAMILY_CLANG;
    else
        return 0;
    c->major = major;
    c->target = strcmp(target, "-") ? xstrdup(target) : NULL;
    return 1;
}

static void cache_write(const char *file, const struct compiler *c)
{
    if (!file || c->family == FAMILY_UNKNOWN)
        return;
    char *dir = xstrdup(file);
    *strrchr(dir, '/') = 0;
    /* Parents first: ~/.cache may not exist yet. */
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    mkdir(dir, 0755);
    free(dir);
    char *tmp = xasprintf("%s.%ld.tmp", file, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (f) {
        int ok = fprintf(f, "sysbatch-cc-id 1 %s %d %s\n",
                         c->family == FAMILY_GCC ? "gcc" : "clang", c->major,
                         c->target && *c->target ? c->target : "-") > 0;
        if (fclose(f) == 0 && ok)
            rename(tmp, file); /* atomic: parallel builds see all or nothing */
        else
            unlink(tmp);
    }
    free(tmp);
}

static void identify_by_asking(struct compiler *c)
{
    char *out = run_dash_v(c->path);
    const char *p;
    c->target = line_after(out, "Target: ");
    if ((p = strstr(out, "clang version ")) != NULL) {
        c->family = FAMILY_CLANG;
        c->major = atoi(p + strlen("clang version "));
    } else if ((p = strstr(out, "\ngcc version ")) != NULL) {
        c->family = FAMILY_GCC;
        c->major = atoi(p + strlen("\ngcc version "));
    }
    free(out);
}

static void identify(struct compiler *c)
{
    char *file = cache_file(c);
    if (!cache_read(file, c)) {
        identify_by_asking(c);
        cache_write(file, c);
    }
    free(file);
    if (c->family == FAMILY_CLANG)
        c->plugin_id = xasprintf("clang-%d", c->major);
    else if (c->family == FAMILY_GCC) {
        /* A GCC plugin is built for one GCC and one target. */
        if (c->target && strcmp(c->target, SB_HOST_TRIPLE) != 0)
            c->plugin_id = xasprintf("%s-gcc-%d", c->target, c->major);
        else
            c->plugin_id = xasprintf("gcc-%d", c->major);
    }
}

/* ---- what the command does ------------------------------------------- */

/* Options whose value is the next argument (GCC's and clang's drivers). */
static int takes_separate_value(const char *a)
{
    static const char *const opts[] = {
        "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-T", "-u", "-e", "-z",
        "-include", "-imacros", "-isystem", "-idirafter", "-iprefix",
        "-iwithprefix", "-iwithprefixbefore", "-iquote", "-isysroot",
        "-imultilib", "-MF", "-MT", "-MQ", "-MJ", "-Xlinker", "-Xassembler",
        "-Xpreprocessor", "-Xclang", "-Xopenmp-target", "-mllvm", "-aux-info",
        "-dumpbase", "-dumpbase-ext", "-dumpdir", "--param", "-target",
        "-arch", "-gcc-toolchain", "-B", "-F", "-V", "-b", "--sysroot",
        "-working-directory", "-ivfsoverlay", "-resource-dir",
        "--serialize-diagnostics", "-A", NULL,
    };
    for (int i = 0; opts[i]; i++)
        if (strcmp(a, opts[i]) == 0)
            return 1;
    return 0;
}

static int source_suffix(const char *a)
{
    static const char *const sfx[] = {
        ".c", ".i", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".ii",
        NULL,
    };
    for (int i = 0; sfx[i]; i++)
        if (ends_with(a, sfx[i]))
            return 1;
    return 0;
}

static int source_language(const char *lang)
{
    return strcmp(lang, "c") == 0 || strcmp(lang, "c++") == 0 ||
           strcmp(lang, "cpp-output") == 0 || strcmp(lang, "c++-cpp-output") == 0;
}

struct command {
    int inputs;        /* files (or "-") the compiler is to read */
    int sources;       /* of them, C or C++ to compile */
    int no_codegen;    /* -E, -M, -MM, -fsyntax-only */
    int no_link;       /* -c, -S, or one of the above */
    int partial_link;  /* -r */
};

/* The words of a response file (@FILE), split as GCC's driver does:
 * whitespace separates, quotes and backslash escape.  NULL if unreadable. */
static char **read_response_file(const char *path, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    struct argv_buf words = {0};
    size_t cap = 256, len = 0;
    char *word = xmalloc(cap);
    int ch, quote = 0, in_word = 0;
    while ((ch = fgetc(f)) != EOF) {
        if (!quote && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')) {
            if (in_word) {
                word[len] = 0;
                push(&words, xstrdup(word));
                len = 0;
                in_word = 0;
            }
            continue;
        }
        in_word = 1;
        if (quote && ch == quote) {
            quote = 0;
            continue;
        }
        if (!quote && (ch == '\'' || ch == '"')) {
            quote = ch;
            continue;
        }
        if (ch == '\\' && (ch = fgetc(f)) == EOF)
            break;
        if (len + 2 > cap) {
            cap *= 2;
            char *nw = realloc(word, cap);
            if (!nw)
                die(1, "out of memory");
            word = nw;
        }
        word[len++] = (char)ch;
    }
    if (in_word) {
        word[len] = 0;
        push(&words, xstrdup(word));
    }
    free(word);
    fclose(f);
    *count = words.n;
    return words.v;
}

static void classify_words(int argc, char **argv, struct command *cmd,
                           const char **lang, int depth)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '@' && depth == 0) {
            int n = 0;
            char **words = read_response_file(a + 1, &n);
            if (words) {
                classify_words(n, words, cmd, lang, depth + 1);
                continue;
            }
        }
        if (strcmp(a, "-") == 0 || a[0] != '-') {
            cmd->inputs++;
            if (*lang && strcmp(*lang, "none") != 0 ? source_language(*lang)
                                                    : source_suffix(a))
                cmd->sources++;
            continue;
        }
        if (strcmp(a, "-x") == 0 && i + 1 < argc) {
            *lang = argv[++i];
            continue;
        }
        if (starts_with(a, "-x") && a[2]) {
            *lang = a + 2;
            continue;
        }
        if (takes_separate_value(a)) {
            i++;
            continue;
        }
        if (strcmp(a, "-E") == 0 || strcmp(a, "-M") == 0 ||
            strcmp(a, "-MM") == 0 || strcmp(a, "-fsyntax-only") == 0)
            cmd->no_codegen = 1;
        else if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0)
            cmd->no_link = 1;
        else if (strcmp(a, "-r") == 0)
            cmd->partial_link = 1;
    }
}

static void classify(int argc, char **argv, struct command *cmd)
{
    memset(cmd, 0, sizeof *cmd);
    const char *lang = NULL; /* -x in force; NULL or "none": by suffix */
    classify_words(argc, argv, cmd, &lang, 0);
    if (cmd->no_codegen)
        cmd->no_link = 1;
}

/* ---- the flags sysbatch adds ----------------------------------------- */

struct layout {
    char *prefix, *libdir, *includedir, *plugin_root;
    char *runtime;     /* libsysbatch.a */
};

static void find_layout(struct layout *l)
{
    l->prefix = install_prefix();
    l->libdir = under_prefix(l->prefix, SB_INSTALL_LIBDIR);
    l->includedir = under_prefix(l->prefix, SB_INSTALL_INCLUDEDIR);
    const char *root = getenv("SYSBATCH_PLUGIN_DIR");
    l->plugin_root = root && *root ? xstrdup(root)
                                   : xasprintf("%s/sysbatch", l->libdir);
    l->runtime = xasprintf("%s/libsysbatch.a", l->libdir);
}

static char *plugin_file(const struct layout *l, const struct compiler *c)
{
    return xasprintf("%s/%s/%s", l->plugin_root, c->plugin_id,
                     c->family == FAMILY_CLANG ? "SysbatchPass.so" : "sysbatch.so");
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_installed_plugins(const struct layout *l, FILE *out)
{
    DIR *d = opendir(l->plugin_root);
    struct argv_buf names = {0};
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            push(&names, xstrdup(e->d_name));
    if (d)
        closedir(d);
    if (names.n)
        qsort(names.v, (size_t)names.n, sizeof *names.v, compare_names);
    for (int i = 0; i < names.n; i++)
        fprintf(out, "%s%s", i ? " " : "", names.v[i]);
    if (!names.n)
        fprintf(out, "none (in %s)", l->plugin_root);
}

/* SYSBATCH_OPTIONS="min-batch=3 print-plan" -> the compiler's own spelling:
 * -fplugin-arg-sysbatch-KEY[=VALUE] for GCC, -mllvm -sysbatch-KEY[=VALUE]
 * for clang (core/config.c's keys, no-KEY for flags, in both). */
static void push_options(struct argv_buf *a, const struct compiler *c,
                         const char *plugin)
{
    const char *opts = getenv("SYSBATCH_OPTIONS");
    if (!opts || !opts[strspn(opts, " \t,")])
        return;
    /* clang parses -mllvm before it loads -fpass-plugin, so the flags
     * exist only if the plugin is also loaded the old way, up front. */
    if (c->family == FAMILY_CLANG) {
        push(a, "-Xclang");
        push(a, "-load");
        push(a, "-Xclang");
        push(a, plugin);
    }
    char *copy = xstrdup(opts);
    for (char *tok = strtok(copy, " \t,"); tok; tok = strtok(NULL, " \t,")) {
        if (c->family == FAMILY_GCC) {
            push(a, xasprintf("-fplugin-arg-sysbatch-%s", tok));
        } else {
            push(a, "-mllvm");
            push(a, xasprintf("-sysbatch-%s", tok));
        }
    }
}

static void push_compile_flags(struct argv_buf *a, const struct layout *l,
                               const struct compiler *c, const char *plugin)
{
    if (c->family == FAMILY_GCC)
        push(a, xasprintf("-fplugin=%s", plugin));
    else
        push(a, xasprintf("-fpass-plugin=%s", plugin));
    push_options(a, c, plugin);
    /* For programs that include <sysbatch.h>; after every other directory
     * so it can never hide one of the program's or the system's headers. */
    if (strcmp(l->includedir, "/usr/include") != 0) {
        push(a, "-idirafter");
        push(a, l->includedir);
    }
}

static void push_link_flags(struct argv_buf *a, const struct layout *l)
{
    /* The runtime stays private to a shared object that links it. */
    push(a, "-Wl,--exclude-libs,libsysbatch.a");
    push(a, l->runtime);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [COMPILER] [compiler arguments...]\n"
            "       %s [COMPILER] --print-config\n"
            "Runs COMPILER (default $%s, else %s) with the sysbatch plugin\n"
            "for its family and major version, and links libsysbatch.a.\n"
            "Environment: SYSBATCH_DISABLE=1 (run the compiler unchanged),\n"
            "SYSBATCH_OPTIONS=\"min-batch=3 print-plan ...\", SYSBATCH_VERBOSE=1\n"
            "(print the command), SYSBATCH_PLUGIN_DIR (plugin tree).\n"
            "See man sysbatch-cc.\n",
            prog, prog, strstr(prog, "++") ? "SYSBATCH_CXX" : "SYSBATCH_CC",
            strstr(prog, "++") ? "c++" : "cc");
}

int main(int argc, char **argv)
{
    prog = base_name(argv[0]);
    int cxx = strstr(prog, "++") || strstr(prog, "cxx");
    int first = 1;

    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }

    /* The compiler: the first argument when it names an executable that is
     * not one of the inputs (the launcher form), else SYSBATCH_CC. */
    struct compiler c = {0};
    char *first_path = NULL;
    if (argc > 1 && argv[1][0] != '-' && !source_suffix(argv[1]) &&
        !ends_with(argv[1], ".o") && !ends_with(argv[1], ".a") &&
        !ends_with(argv[1], ".so") && (first_path = find_in_path(argv[1]))) {
        c.name = argv[1];
        c.path = first_path;
        first = 2;
    } else {
        const char *env = getenv(cxx ? "SYSBATCH_CXX" : "SYSBATCH_CC");
        c.name = env && *env ? env : cxx ? "c++" : "cc";
        c.path = find_in_path(c.name);
        if (!c.path)
            die(127, "compiler '%s' not found (set %s to the real compiler)",
                c.name, cxx ? "SYSBATCH_CXX" : "SYSBATCH_CC");
    }

    /* A wrapper that runs itself would never end. */
    char self[PATH_MAX], target[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        if (realpath(c.path, target) && strcmp(self, target) == 0)
            die(2, "the real compiler '%s' is this wrapper; set %s to gcc, "
                   "clang or another real compiler",
                c.name, cxx ? "SYSBATCH_CXX" : "SYSBATCH_CC");
    }

    int print_config = argc > first && strcmp(argv[first], "--print-config") == 0;

    struct argv_buf out = {0};
    push(&out, c.name);
    if (env_on("SYSBATCH_DISABLE") && !print_config) {
        for (int i = first; i < argc; i++)
            push(&out, argv[i]);
        execv(c.path, out.v);
        die(127, "cannot run %s: %s", c.path, strerror(errno));
    }

    struct command cmd;
    classify(argc - first, argv + first, &cmd);
    /* Nothing to compile or link: --version, -v, -dumpmachine, -print-*. */
    int adds_compile = cmd.sources > 0 && !cmd.no_codegen;
    int adds_link = cmd.inputs > 0 && !cmd.no_link && !cmd.partial_link;

    struct layout l;
    find_layout(&l);
    char *plugin = NULL;
    if (adds_compile || adds_link || print_config) {
        identify(&c);
        if (c.family == FAMILY_UNKNOWN)
            die(2, "'%s' is neither GCC nor clang (its -v output names no "
                   "'gcc version' or 'clang version'); sysbatch plugins exist "
                   "only for those. To build without sysbatch, set "
                   "SYSBATCH_DISABLE=1 or use '%s' directly",
                c.name, c.name);
        plugin = plugin_file(&l, &c);
        if (access(plugin, R_OK) != 0) {
            fprintf(stderr, "%s: no sysbatch plugin for %s (%s): %s is "
                            "missing. Installed plugins: ",
                    prog, c.plugin_id, c.name, plugin);
            list_installed_plugins(&l, stderr);
            fprintf(stderr, "\n%s: use one of those compilers (%s=clang-N or "
                            "gcc-N), or set SYSBATCH_DISABLE=1 to build "
                            "without sysbatch\n",
                    prog, cxx ? "SYSBATCH_CXX" : "SYSBATCH_CC");
            return 2;
        }
        if (access(l.runtime, R_OK) != 0)
            die(2, "the runtime %s is missing (broken install?)", l.runtime);
    }

    if (print_config) {
        struct argv_buf cf = {0}, lf = {0};
        push_compile_flags(&cf, &l, &c, plugin);
        push_link_flags(&lf, &l);
        printf("sysbatch-cc %s\n", SB_VERSION);
        printf("compiler:      %s (%s)\n", c.name, c.path);
        printf("identified as: %s %d, target %s\n",
               c.family == FAMILY_GCC ? "gcc" : "clang", c.major,
               c.target ? c.target : "?");
        printf("plugin:        %s\n", plugin);
        printf("runtime:       %s\n", l.runtime);
        printf("compile adds:");
        for (int i = 0; i < cf.n; i++)
            printf(" %s", cf.v[i]);
        printf("\nlink adds:   ");
        for (int i = 0; i < lf.n; i++)
            printf(" %s", lf.v[i]);
        printf("\n");
        return 0;
    }

    for (int i = first; i < argc; i++)
        push(&out, argv[i]);
    if (adds_compile)
        push_compile_flags(&out, &l, &c, plugin);
    if (adds_link)
        push_link_flags(&out, &l);

    if (env_on("SYSBATCH_VERBOSE")) {
        fprintf(stderr, "%s:", prog);
        for (int i = 0; i < out.n; i++)
            fprintf(stderr, " %s", out.v[i]);
        fputc('\n', stderr);
    }
    execv(c.path, out.v);
    die(127, "cannot run %s: %s", c.path, strerror(errno));
}
