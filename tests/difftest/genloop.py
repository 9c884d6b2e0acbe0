#!/usr/bin/env python3
"""Random loop programs for differential testing of loop batching.

    genloop.py SEED [--programs K] > prog.c

One C file holds K programs (prog_0 .. prog_{K-1}); main() runs each in its
own fresh subdirectory, as gen.py's do.  A program sets up a small world
(files, a directory, a symlink, descriptors; some names missing, some
descriptors closed or -1), then runs one loop around one system call:

    for (int i = 0; i < n; i++) {            <- counted up or down, step 1
        if (!want[i]) continue;                 or 2, a while (k > 0) k--,
        r = lstat(names[i], &st);               or a walk to a NULL name
        rs[i] = r; es[i] = errno;            <- results kept, or ignored,
        if (r < 0) { printf(...); continue; }   or a diagnostic, a break on
        total += st.st_size;                    success or failure, a return
    }

with the call's arguments taken from arrays indexed by the induction
variable, loop-invariant values, or (to be refused) the call's own previous
result, a flag the loop sets, or a name the loop overwrites; guards that
skip iterations (a table, i % 3, an open descriptor, the name's first
character), and a name formatted each iteration into one buffer
(snprintf(path, sizeof path, "%s", names[i]); with --names also strcpy +
strcat, a memcpy of 16 bytes, and writev(fixed, iov, 2)).  Trip counts
straddle the group size (0, 1, 2, 5, 16, 17, 33).  Everything observed is
printed at the end, so plugged and unplugged runs must print the same.

Deterministic for a seed (random.Random(seed)).
"""
import argparse
import random

NAMES = ["f0", "f1", "f2", "f3", "missing", "d0", "l0", "f4", "f5", "nodir/x",
         "f6", "f7"]
TRIPS = [0, 1, 2, 5, 16, 17, 33]

CALLS = {
    # name: (needs, call template, success test, printing of the buffer)
    "close": ("fd", "close({fd})"),
    "fstat_shared": ("fd", "fstat({fd}, &st)"),
    "fstat_each": ("fd", "fstat({fd}, &sts[{i}])"),
    "lstat_shared": ("name", "lstat({name}, &st)"),
    "stat_each": ("name", "stat({name}, &sts[{i}])"),
    "open": ("name", "open({name}, O_RDONLY | O_CLOEXEC)"),
    "access": ("name", "access({name}, F_OK)"),
    "unlink": ("name", "unlink({name})"),
    "mkdir": ("name", "mkdir({name}, 0750)"),
    "rmdir": ("name", "rmdir({name})"),
    "chmod": ("name", "chmod({name}, 0600 | ({i} & 1) << 6)"),
    "pread_shared": ("fixedfd", "pread(fixed, buf, 16, (off_t)({i}) * 3)"),
    "write_parts": ("fixedfd", "write(fixed, parts[{i} % 4], lens[{i} % 4])"),
    "dup": ("fd", "dup({fd})"),
    "readlink_shared": ("name", "readlink({name}, buf, sizeof buf)"),
}


# --names (opt-in, so that the default programs of a seed stay as they
# were): writev with one iovec every iteration shares, and the other ways
# of building a name each iteration (rule 6).
NAMES_CALLS = {
    "writev_parts": ("fixedfd", "writev(fixed, iov, 2)"),
}
BUILDS = {
    "snprintf": ['snprintf(path, sizeof path, "%s", {src});'],
    "strcpy_strcat": ['strcpy(path, "./");', "strcat(path, {src});"],
    "memcpy": ["memcpy(path, {src}, 16);"],
}


class LoopProgram:
    def __init__(self, rng, index, names=False):
        self.rng = rng
        self.index = index
        self.names = names
        self.lines = []

    def emit(self, text, depth=1):
        self.lines.append("    " * depth + text)

    def render(self):
        rng = self.rng
        calls = dict(CALLS, **NAMES_CALLS) if self.names else CALLS
        kind = rng.choice(sorted(calls))
        needs, template = calls[kind]
        trip = rng.choice(TRIPS)
        form = rng.choice(["up", "up", "down", "step2", "while", "walk"])
        if form == "walk" and needs != "name":
            form = "up"
        # What the program does with the result.
        use = rng.choice(["ignore", "keep", "keep", "sum", "break_ok", "break_fail",
                          "diag", "return_fail", "count_fail"])
        guard = rng.choice(["none", "none", "none", "want", "mod", "flag",
                            "fdok", "dot"])
        # The name formatted into a buffer each iteration (rule 6).
        built = needs == "name" and form != "walk" and rng.random() < 0.3
        build = rng.choice(sorted(BUILDS)) if self.names and built else "snprintf"
        hazard = rng.choice(["none"] * 8 + ["carried", "overwrite_name", "store_other"])
        if hazard == "carried" and kind != "dup":
            hazard = "none"
        if kind in ("open", "dup") and use == "ignore":
            use = "keep"  # closed after the loop (a close inside is a second call site)
        if hazard == "overwrite_name" and needs != "name":
            hazard = "none"

        f = "static void prog_%d(void)\n{" % self.index
        out = [f]
        cap = max(trip, 1) + 2
        self.emit("enum { N = %d };" % trip)
        self.emit("char names[%d][16];" % cap)
        self.emit("const char *np[%d];" % cap)
        self.emit("int fds[%d];" % cap)
        self.emit("static const int want[40] = {%s};"
                  % ", ".join(str(rng.choice([0, 1, 1])) for _ in range(40)))
        self.emit("long rs[%d]; int es[%d];" % (cap, cap))
        self.emit("struct stat st, sts[%d];" % cap)
        self.emit("char buf[32], path[32];")
        self.emit('static const char *const parts[4] = {"ab", "cde", "", "fghij"};')
        self.emit("static const size_t lens[4] = {2, 3, 0, 5};")
        if self.names:
            self.emit('struct iovec iov[2] = {{(char *)parts[0], 2}, {(char *)parts[3], 5}};')
            self.emit("(void)iov;")
        self.emit("long total = 0; int nfail = 0, ncalls = 0, skip = 0;")
        self.emit("memset(rs, 0, sizeof rs); memset(es, 0, sizeof es);")
        self.emit("memset(&st, 0, sizeof st); memset(sts, 0, sizeof sts); memset(buf, 0, sizeof buf);")
        self.emit("(void)skip; (void)total; (void)nfail; (void)want; (void)parts; (void)lens;")
        # the world: names (some missing), descriptors (some -1 or closed)
        self.emit("for (int k = 0; k < %d; k++) {" % cap)
        self.emit('snprintf(names[k], sizeof names[k], "%%s", k < N ? (const char *[]){%s}[k %% %d] : "");'
                  % (", ".join('"%s"' % n for n in NAMES), len(NAMES)), 2)
        self.emit("np[k] = k < N ? names[k] : NULL;", 2)
        self.emit("fds[k] = -1;", 2)
        self.emit("}")
        self.emit("for (int k = 0; k < N; k++)")
        self.emit("fds[k] = k % 5 == 3 ? -1 : open(k % 2 ? \"f1\" : \"d0\", O_RDONLY | O_CLOEXEC);", 2)
        self.emit("if (N > 4) close(fds[4]);")
        self.emit('int fixed = open("f1", O_RDWR | O_CLOEXEC);')
        self.emit("(void)fixed;")

        # the loop
        idx = "i"
        if form == "up":
            self.emit("for (int i = 0; i < N; i++) {")
        elif form == "down":
            self.emit("for (int i = N - 1; i >= 0; i--) {")
        elif form == "step2":
            self.emit("for (int i = 0; i < N; i += 2) {")
        elif form == "while":
            self.emit("int k = N;")
            self.emit("while (k > 0) {")
            self.emit("int i = --k;", 2)
        else:  # walk
            self.emit("for (const char *const *p = np; *p; p++) {")
            self.emit("int i = (int)(p - np);", 2)
        if guard == "want":
            self.emit("if (!want[i]) continue;", 2)
        elif guard == "mod":
            self.emit("if (i % 3 == 1) continue;", 2)
        elif guard == "flag":
            self.emit("if (skip) { skip = 0; continue; }", 2)
        elif guard == "fdok":
            self.emit("if (fds[i] < 0) continue;", 2)
        elif guard == "dot":
            self.emit("if (names[i][0] == 'f') continue;", 2)
        name = "*p" if form == "walk" else "names[i]"
        if built:
            for line in BUILDS[build]:
                self.emit(line.replace("{src}", "names[i]"), 2)
            name = "path"
        fd = "fds[i]"
        if hazard == "carried":
            fd = "(i > 0 && rs[i - 1] >= 0 ? (int)rs[i - 1] : fds[i])"
        call = template.format(fd=fd, name=name, i=idx)
        self.emit("long r = %s;" % call, 2)
        self.emit("ncalls++;", 2)
        if use != "ignore":
            self.emit("rs[i] = r; es[i] = r < 0 ? errno : 0;", 2)
        if guard == "flag":
            self.emit("skip = r >= 0 && (i & 1);", 2)
        if hazard == "overwrite_name":
            self.emit("if (i + 1 < N) names[i + 1][0] = 'f';", 2)
        elif hazard == "store_other":
            self.emit("total += i;", 2)
        if use == "sum":
            self.emit("if (r == 0) total += (long)st.st_size + sts[i].st_size;", 2)
        elif use == "break_ok":
            self.emit("if (r >= 0) break;", 2)
        elif use == "break_fail":
            self.emit("if (r < 0) break;", 2)
        elif use == "diag":
            self.emit('if (r < 0) { printf("  fail %d errno %d\\n", i, errno); continue; }', 2)
        elif use == "return_fail":
            self.emit('if (r < 0) { printf("  return at %d errno %d\\n", i, errno); return; }', 2)
        elif use == "count_fail":
            self.emit("if (r < 0) nfail++;", 2)
        if kind in ("lstat_shared", "fstat_shared"):
            self.emit("if (r == 0) total += (long)st.st_size * 3 + S_ISDIR(st.st_mode);", 2)
        if kind in ("pread_shared", "readlink_shared"):
            self.emit("if (r > 0) for (long b = 0; b < r; b++) total = total * 7 + buf[b];", 2)
        self.emit("}")
        if kind in ("open", "dup"):
            self.emit("for (int k = 0; k < N; k++)")
            self.emit("if (rs[k] > 2) close((int)rs[k]);", 2)
        self.emit('printf("  %s %s trip %%d use %s guard %s hazard %s: calls %%d total %%ld fails %%d\\n", N, ncalls, total, nfail);'
                  % (kind, form, use, guard, hazard))
        self.emit("for (int k = 0; k < N; k++)")
        self.emit('printf("  [%d] r=%ld e=%d size=%lld\\n", k, rs[k], es[k], (long long)sts[k].st_size);', 2)
        self.emit('printf("  buf=%.32s st.size=%lld\\n", buf, (long long)st.st_size);')
        self.emit("struct stat after;")
        self.emit("for (int k = 0; k < 12; k++)")
        self.emit('if (lstat((const char *[]){%s}[k], &after) == 0) printf("  %%s mode %%o\\n", (const char *[]){%s}[k], (unsigned)after.st_mode);'
                  % (", ".join('"%s"' % n for n in NAMES), ", ".join('"%s"' % n for n in NAMES)), 2)
        out += self.lines
        out.append("}")
        return "\n".join(out)


HEADER = """/* Generated by tests/difftest/genloop.py, seed %(seed)d: do not edit. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
"""

MAIN = """
typedef void (*prog_fn)(void);
static const prog_fn progs[] = { %(list)s };

int main(void)
{
    umask(022);
    for (unsigned i = 0; i < sizeof progs / sizeof *progs; i++) {
        char dir[16];
        snprintf(dir, sizeof dir, "p%%u", i);
        if (mkdir(dir, 0755) != 0 || chdir(dir) != 0)
            return 2;
        static const char *const files[] = {"f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7"};
        for (unsigned k = 0; k < sizeof files / sizeof *files; k++) {
            FILE *f = fopen(files[k], "w");
            if (!f)
                return 2;
            fprintf(f, "%%*s-one-two-three", (int)k, "");
            fclose(f);
        }
        if (mkdir("d0", 0755) != 0 || symlink("f1", "l0") != 0)
            return 2;
        printf("prog %%u\\n", i);
        fflush(stdout);
        progs[i]();
        fflush(stdout);
        for (int fd = 3; fd < 200; fd++)
            close(fd);
        if (chdir("..") != 0)
            return 2;
    }
    return 0;
}
"""


def generate(seed, programs, names=False):
    rng = random.Random(seed)
    parts = [HEADER % {"seed": seed}]
    for i in range(programs):
        parts.append(LoopProgram(rng, i, names).render())
        parts.append("")
    parts.append(MAIN % {"list": ", ".join("prog_%d" % i for i in range(programs))})
    return "\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description="random loop syscall programs")
    ap.add_argument("seed", type=int)
    ap.add_argument("--programs", type=int, default=20)
    ap.add_argument("--names", action="store_true",
                    help="also writev and names built by strcpy + strcat or memcpy")
    a = ap.parse_args()
    print(generate(a.seed, a.programs, a.names))


if __name__ == "__main__":
    main()
