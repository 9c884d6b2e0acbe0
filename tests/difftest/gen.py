#!/usr/bin/env python3
"""Random straight-line system-call programs for differential testing.

    gen.py SEED [--programs K] > prog.c

One C file holds K programs (functions prog_0 .. prog_{K-1}); main() runs
each in its own fresh subdirectory p<i>/ and the file system left behind is
part of what is compared.  A program is one basic block of calls over a
small world of paths and descriptors:

    r[0] = fd0 = open("f0", O_RDWR | O_CREAT | O_TRUNC, 0644); e[0] = errno;
    r[1] = write(fd0, "alpha", 5); e[1] = errno;
    r[2] = lseek(fd0, r[1], SEEK_SET); e[2] = errno;   <- result fed onward
    r[3] = read(99, b0, 16); e[3] = errno;             <- fails on purpose
    b1[0] = 'x';                                        <- code between calls
    r[4] = close(fd0); e[4] = errno;

With --flags (and --branchy), also branches on flags that are not call
results (predicated slots, core.h SB_TERM_PRED): the globals sb_flags[0]
(1) and sb_flags[1] (0), set in main so no compiler knows them, a local
copy of one taken before the first call, and that local rewritten from a
result between the calls (a predicate written in between, which must stay
a region end).

Also: chained results through narrowing and sign-changing casts, offsets
beyond 32 bits cut by a cast, struct fields a call wrote (read between
calls or passed on), and functions that call setjmp or vfork.

Every result and errno (captured right after each call, so a value left
stale by a successful call is checked too) is printed at the end, with the
bytes each buffer received and the stat fields that do not change between
runs.  Failures are deliberate: missing paths, bad and closed descriptors,
O_EXCL on existing files, rmdir of non-empty directories.

The generator is deterministic for a seed (Python's random.Random(seed)), so
a failing seed reproduces exactly.
"""
import argparse
import random

PATHS = ["f0", "f1", "f2", "d0", "d0/f3", "d1", "missing/x", "l0"]
OPEN_FLAGS = [
    "O_RDONLY", "O_WRONLY | O_CREAT", "O_RDWR | O_CREAT | O_TRUNC", "O_RDWR",
    "O_RDONLY | O_DIRECTORY", "O_WRONLY | O_CREAT | O_EXCL", "O_RDWR | O_APPEND | O_CREAT",
]
WORDS = ["alpha", "beta", "gamma-delta", "0123456789abcdef", "x"]
NBUF = 3
NSTAT = 2
NFD = 3


class Program:
    def __init__(self, rng, index, length, branchy=False, vfork=True,
                 flags=False):
        """vfork: also functions that call vfork or setjmp; flags: branches
        on flags too."""
        self.rng = rng
        self.flags = flags and branchy
        self.index = index
        self.length = length
        self.branchy = branchy
        self.indent = "    "
        self.depth = 0
        self.lines = []
        self.ncalls = 0
        self.pid_like = set()   # results that differ per run: print only > 0
        self.uses_vfork = False
        self.vfork = vfork
        # A function that calls setjmp (returns twice) batches nothing.
        self.uses_setjmp = rng.random() < 0.05 and vfork

    def fd(self):
        r = self.rng.random()
        if r < 0.75:
            return "fd%d" % self.rng.randrange(NFD)
        return self.rng.choice(["-1", "99", "0"])

    def path(self):
        return '"%s"' % self.rng.choice(PATHS)

    def result_ref(self):
        """An earlier result used as an argument (a chain), or a constant."""
        usable = [i for i in range(self.ncalls) if i not in self.pid_like]
        if usable and self.rng.random() < 0.5:
            return "r[%d]" % self.rng.choice(usable)
        return str(self.rng.choice([0, 1, 3, 5, 100]))

    def call(self, expr, assign_fd=None, pid_like=False):
        i = self.ncalls
        self.ncalls += 1
        if pid_like:
            # Before any branch below can pick r[i] as an argument.
            self.pid_like.add(i)
        lhs = "r[%d] = " % i
        if self.branchy:
            lhs += "t = "
        if assign_fd is not None:
            lhs += "fd%d = " % assign_fd
        self.lines.append("%s%s%s; e[%d] = errno;" % (self.indent, lhs, expr, i))
        if self.branchy and self.depth < 2 and self.rng.random() < 0.35:
            self.branch()
        elif self.flags and self.depth < 2 and self.rng.random() < 0.3:
            self.flag_branch()
        return i

    FLAG_CONDS = ["sb_flags[0]", "sb_flags[1]", "!sb_flags[0]", "lf", "!lf",
                  "sb_flags[1] == 0", "(lf = t > 0)"]

    def flag_branch(self):
        """An if on a flag, not on a result: a then-arm or an if/else.  The
        last condition rewrites the local from the result just stored."""
        cond = self.rng.choice(self.FLAG_CONDS)
        if self.rng.random() < 0.35:
            # Two flags in one condition: two predicated branches on one
            # path before the arm's first call (core.h, several predicates
            # deciding one slot's jumps).
            pure = [c for c in self.FLAG_CONDS if "=" not in c or "==" in c]
            a, b = self.rng.sample(pure, 2)
            cond = "(%s) %s (%s)" % (a, self.rng.choice(["&&", "||"]), b)
        ind = self.indent
        self.lines.append("%sif (%s) {" % (ind, cond))
        self.arm(1, 2)
        if self.rng.random() < 0.4:
            self.lines.append("%s} else {" % ind)
            self.arm(1, 2)
        self.lines.append("%s}" % ind)

    CONDS = ["t < 0", "t == -1", "t != 0", "t == 0", "t > 0", "t >= 0", "t != -1", "t <= 0"]

    def arm(self, lo, hi):
        """1..n steps one level deeper (each may branch again)."""
        outer = self.indent
        self.indent += "    "
        self.depth += 1
        for _ in range(self.rng.randint(lo, hi)):
            self.step()
        self.depth -= 1
        self.indent = outer

    def branch(self):
        """An if on the result just stored in t: early exit, then-arm,
        if/else, or an error arm that cleans up and leaves."""
        rng = self.rng
        cond = rng.choice(self.CONDS)
        form = rng.choice(["exit", "then", "ifelse", "then-exit"])
        ind = self.indent
        if form == "exit":
            self.lines.append("%sif (%s) goto out;" % (ind, cond))
            return
        self.lines.append("%sif (%s) {" % (ind, cond))
        self.arm(1, 2)
        if form == "then-exit":
            self.lines.append("%s    goto out;" % ind)
        if form == "ifelse":
            self.lines.append("%s} else {" % ind)
            self.arm(1, 2)
        self.lines.append("%s}" % ind)

    def search(self):
        """First that succeeds: open(a), else open(b), else open(c)."""
        names = self.rng.sample(PATHS, 3)
        fd = self.rng.randrange(NFD)
        ind = self.indent
        self.call('open("%s", O_RDONLY)' % names[0], fd)
        self.lines.append("%sif (t < 0) {" % ind)
        self.lines.append('%s    r[%d] = t = fd%d = open("%s", O_RDONLY); e[%d] = errno;'
                          % (ind, self.ncalls, fd, names[1], self.ncalls))
        self.ncalls += 1
        self.lines.append("%s    if (t < 0) {" % ind)
        self.lines.append('%s        r[%d] = t = fd%d = open("%s", O_RDONLY); e[%d] = errno;'
                          % (ind, self.ncalls, fd, names[2], self.ncalls))
        self.ncalls += 1
        self.lines.append("%s    }" % ind)
        self.lines.append("%s}" % ind)

    def step(self):
        rng = self.rng
        kind = rng.choices(
            ["open", "creat", "read", "write", "pread", "pwrite", "lseek", "fstat", "stat",
             "lstat", "close", "unlink", "mkdir", "rmdir", "rename", "access", "dup",
             "getuid", "getpid", "symlink", "readlink", "chmod", "truncate", "ftruncate",
             "fsync", "link", "umask", "code", "syscall", "search",
             "narrow", "wide", "field", "vfork"],
            weights=[8, 2, 6, 6, 2, 2, 3, 3, 3, 1, 4, 2, 2, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
                     1, 1, 4, 1, 2 if self.branchy else 0,
                     2, 1, 2, 0.2 if self.vfork else 0])[0]
        if kind == "search":
            self.search()
        elif kind == "narrow":
            # A chained result through a narrowing or sign-changing cast: the
            # chain copies the whole result, so only a cast that keeps every
            # value the call can return may stay a chain.
            cast = rng.choice(["(int)", "(unsigned)", "(short)", "(unsigned char)",
                               "(long)(int)", "(unsigned long)(unsigned)"])
            form = rng.choice(["lseek", "ftruncate", "pread"])
            ref = self.result_ref()
            if form == "lseek":
                self.call("lseek(%s, %s%s, SEEK_SET)" % (self.fd(), cast, ref))
            elif form == "ftruncate":
                self.call("ftruncate(%s, %s%s)" % (self.fd(), cast, ref))
            else:
                self.call("pread(%s, b%d, 4, %s%s)" % (self.fd(), rng.randrange(NBUF), cast, ref))
        elif kind == "wide":
            # A result beyond 32 bits (an offset past 4 GiB, no data there),
            # then fed on through a cast that cuts it.
            fd = self.fd()
            self.call("lseek(%s, 0x%xL, SEEK_SET)" % (fd, rng.choice([1 << 32, (1 << 32) + 5,
                                                                     (3 << 30), (1 << 40) + 7])))
            j = self.ncalls - 1
            cast = rng.choice(["(int)", "(unsigned)", "", "(short)"])
            self.call("lseek(%s, %sr[%d], SEEK_SET)" % (fd, cast, j))
        elif kind == "field":
            # Struct fields a call wrote, read between calls or passed on.
            st = rng.randrange(NSTAT)
            fd = self.fd()
            form = rng.choice(["fchmod", "fchown", "ftruncate", "acc"])
            if form == "fchmod":
                self.call("fchmod(%s, s%d.st_mode & 0777)" % (fd, st))
            elif form == "fchown":
                self.call("fchown(%s, s%d.st_uid, s%d.st_gid)" % (fd, st, st))
            elif form == "ftruncate":
                self.call("ftruncate(%s, s%d.st_size)" % (fd, st))
            else:
                self.lines.append(self.indent + "acc += s%d.st_size + s%d.st_nlink;" % (st, st))
        elif kind == "vfork":
            # A function that calls vfork (returns twice) batches nothing.
            self.uses_vfork = True
            self.lines.append(self.indent + "{ pid_t c = vfork(); if (c == 0) _exit(0); "
                              "if (c > 0) waitpid(c, 0, 0); }")
        elif kind == "open":
            flags = rng.choice(OPEN_FLAGS)
            mode = ", 0644" if "O_CREAT" in flags else ""
            self.call("open(%s, %s%s)" % (self.path(), flags, mode), rng.randrange(NFD))
        elif kind == "creat":
            self.call("creat(%s, 0600)" % self.path(), rng.randrange(NFD))
        elif kind == "read":
            self.call("read(%s, b%d, %d)" % (self.fd(), rng.randrange(NBUF), rng.choice([1, 4, 16, 31])))
        elif kind == "write":
            w = rng.choice(WORDS)
            self.call('write(%s, "%s", %d)' % (self.fd(), w, len(w)))
        elif kind == "pread":
            self.call("pread(%s, b%d, %d, %s)" % (self.fd(), rng.randrange(NBUF), rng.choice([2, 8]), rng.choice(["0", "2", "-1"])))
        elif kind == "pwrite":
            w = rng.choice(WORDS)
            self.call('pwrite(%s, "%s", %d, %d)' % (self.fd(), w, len(w), rng.choice([0, 3, 40])))
        elif kind == "lseek":
            self.call("lseek(%s, %s, %s)" % (self.fd(), self.result_ref(),
                                             rng.choice(["SEEK_SET", "SEEK_CUR", "SEEK_END", "7"])))
        elif kind == "fstat":
            self.call("fstat(%s, &s%d)" % (self.fd(), rng.randrange(NSTAT)))
        elif kind in ("stat", "lstat"):
            self.call("%s(%s, &s%d)" % (kind, self.path(), rng.randrange(NSTAT)))
        elif kind == "close":
            self.call("close(%s)" % self.fd())
        elif kind == "unlink":
            self.call("unlink(%s)" % self.path())
        elif kind == "mkdir":
            self.call("mkdir(%s, 0755)" % self.path())
        elif kind == "rmdir":
            self.call("rmdir(%s)" % self.path())
        elif kind == "rename":
            self.call("rename(%s, %s)" % (self.path(), self.path()))
        elif kind == "access":
            self.call("access(%s, %s)" % (self.path(), rng.choice(["F_OK", "R_OK", "W_OK | X_OK"])))
        elif kind == "dup":
            self.call("dup(%s)" % self.fd(), rng.randrange(NFD))
        elif kind == "getuid":
            self.call(rng.choice(["getuid()", "geteuid()", "getgid()", "getegid()"]))
        elif kind == "getpid":
            self.call(rng.choice(["getpid()", "getppid()"]), pid_like=True)
        elif kind == "symlink":
            self.call("symlink(%s, %s)" % (self.path(), self.path()))
        elif kind == "readlink":
            self.call("readlink(%s, b%d, 15)" % (self.path(), rng.randrange(NBUF)))
        elif kind == "chmod":
            self.call("chmod(%s, %s)" % (self.path(), rng.choice(["0600", "0755", "0444"])))
        elif kind == "truncate":
            self.call("truncate(%s, %s)" % (self.path(), rng.choice(["0", "3", "-1"])))
        elif kind == "ftruncate":
            self.call("ftruncate(%s, %s)" % (self.fd(), self.result_ref()))
        elif kind == "fsync":
            self.call("fsync(%s)" % self.fd())
        elif kind == "link":
            self.call("link(%s, %s)" % (self.path(), self.path()))
        elif kind == "umask":
            self.call("umask(%s)" % rng.choice(["022", "077"]))
        elif kind == "syscall":
            expr = rng.choice(["syscall(SYS_getuid)", "syscall(SYS_close, %s)" % self.fd(),
                               "syscall(SYS_getppid)"])
            self.call(expr, pid_like="getppid" in expr)
        elif kind == "code":
            # Plain code between calls: sometimes it touches a buffer a later
            # call reads or writes, which must keep that call out of a batch.
            b = rng.randrange(NBUF)
            self.lines.append(self.indent + rng.choice([
                "b%d[0] = 'x';" % b,
                "acc += r[%d] > 0;" % max(0, self.ncalls - 1) if self.ncalls else "acc += 1;",
                "acc ^= b%d[1];" % b,
                "s%d.st_size = 0;" % rng.randrange(NSTAT),
            ]))

    def render(self):
        if self.rng.random() < 0.7:  # most programs start from a usable fd
            self.call('open("f0", O_RDWR | O_CREAT | O_TRUNC, 0644)', 0)
        while self.ncalls < self.length:
            self.step()
        if self.branchy:
            self.lines.append("out:")
        n = self.ncalls
        out = ["static void prog_%d(void)" % self.index, "{"]
        out.append("    long r[%d]; int e[%d]; long acc = 0, t = 0;" % (n, n))
        out.append("    for (int i = 0; i < %d; i++) { r[i] = -999; e[i] = -1; }  /* not reached */" % n)
        out.append("    int " + ", ".join("fd%d = -1" % i for i in range(NFD)) + ";")
        out.append("    char " + ", ".join("b%d[32]" % i for i in range(NBUF)) + ";")
        out.append("    struct stat " + ", ".join("s%d" % i for i in range(NSTAT)) + ";")
        out.append("    memset(b0, 0, 32); memset(b1, 0, 32); memset(b2, 0, 32);")
        out.append("    memset(&s0, 0, sizeof s0); memset(&s1, 0, sizeof s1);")
        if self.flags:
            out.append("    int lf = sb_flags[%d];" % self.rng.randrange(2))
        out.append("    errno = 0;")
        if self.uses_setjmp:
            out.append("    static jmp_buf jb;")
            out.append("    if (setjmp(jb) != 0) return;  /* never longjmp'd */")
        out.extend(self.lines)
        out.append("    for (int i = 0; i < %d; i++) {" % n)
        pid = ", ".join(str(i) for i in sorted(self.pid_like)) or "-1"
        out.append("        static const int pid_like[] = { %s };" % pid)
        out.append("        int masked = 0;")
        out.append("        for (unsigned k = 0; k < sizeof pid_like / sizeof *pid_like; k++)")
        out.append("            masked |= pid_like[k] == i;")
        out.append('        if (masked) printf("  r%d > 0: %d e=%d\\n", i, r[i] > 0, e[i]);')
        out.append('        else printf("  r%d = %ld e=%d\\n", i, r[i], e[i]);')
        out.append("    }")
        out.append("    (void)t;")
        if self.flags:
            out.append("    (void)lf;")
        out.append('    printf("  acc=%ld b0=%.31s b1=%.31s b2=%.31s\\n", acc, b0, b1, b2);')
        out.append('    printf("  s0 size=%lld mode=%o s1 size=%lld mode=%o\\n",'
                   ' (long long)s0.st_size, (unsigned)s0.st_mode,'
                   ' (long long)s1.st_size, (unsigned)s1.st_mode);')
        out.append("}")
        return "\n".join(out)


HEADER = """/* Generated by tests/difftest/gen.py, seed %(seed)d: do not edit. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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
        /* a small world to work in: two files, a directory, a symlink */
        FILE *f = fopen("f1", "w");
        if (!f)
            return 2;
        fputs("one-two-three", f);
        fclose(f);
        if (mkdir("d0", 0755) != 0 || symlink("f1", "l0") != 0)
            return 2;
        printf("prog %%u\\n", i);
        fflush(stdout);
        progs[i]();
        fflush(stdout);
        for (int fd = 3; fd < 64; fd++)
            close(fd);
        if (chdir("..") != 0)
            return 2;
    }
    return 0;
}
"""


def generate(seed, programs, length, branchy=False, vfork=True, flags=False):
    rng = random.Random(seed)
    parts = [HEADER % {"seed": seed}]
    if flags:
        parts.append("int sb_flags[2];  /* set in main: no compiler knows them */")
    for i in range(programs):
        parts.append(Program(rng, i, rng.randint(2, length), branchy, vfork,
                             flags).render())
        parts.append("")
    main = MAIN % {"list": ", ".join("prog_%d" % i for i in range(programs))}
    if flags:
        main = main.replace("    umask(022);\n",
                            "    umask(022);\n    sb_flags[0] = 1;\n    sb_flags[1] = 0;\n", 1)
    parts.append(main)
    return "\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description="random straight-line syscall programs")
    ap.add_argument("seed", type=int)
    ap.add_argument("--programs", type=int, default=20)
    ap.add_argument("--length", type=int, default=14, help="most calls per program")
    ap.add_argument("--branchy", action="store_true",
                    help="if/else on results, early exits, first-that-succeeds searches")
    ap.add_argument("--flags", action="store_true",
                    help="with --branchy: also branches on flags (predicated slots)")
    ap.add_argument("--no-returns-twice", action="store_true",
                    help="no setjmp or vfork (the compilers split blocks at them "
                         "differently, so plans cannot be compared block by block)")
    a = ap.parse_args()
    print(generate(a.seed, a.programs, a.length, a.branchy, not a.no_returns_twice,
                   a.flags))


if __name__ == "__main__":
    main()
