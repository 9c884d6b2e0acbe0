#!/usr/bin/env python3
"""LLVM pass benchmarks: what the sysbatch rewrite costs where the kernel has
no sys_batch (the versioned fallback path), and what the slot fill costs.

    python3 bench/llvm/bench.py --build build [--reps 7] [--out bench/llvm/results]

1. Wall time, plugged vs unplugged, for N = 1..64 getuid() calls and N
   fstat(0, &st) calls in one function, called R times per run.  Both builds
   run alternately (A B A B ...) in one session; the minimum time per call of
   each is kept, and t = a + b*N is fitted per build: the per-call ratio is
   b_plugged / b_unplugged.  BATCH_EMUL is NOT set: this kernel has no
   sys_batch, so the plugged binary takes its original calls behind the
   `sysbatch_active` branch - the overhead the issue's <= 1.02x goal is about.
2. Code size: bytes of the batched function (nm -S) plugged minus unplugged,
   at -O0 and -O2, for the default fill (stores) and fill=template.
3. Fill cost on the batch path: callgrind instruction counts (deterministic)
   of the same function under BATCH_EMUL=1 with fill=stores vs
   fill=template; the runtime work is identical, so the difference is the
   fill.

Writes <out>.md (tables) and, when gnuplot is installed, <out>.png.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

NS = [1, 2, 4, 8, 16, 32, 64]

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
static struct stat st;
__attribute__((noinline)) long work(void)
{
    long s = 0;
%(body)s
    return s;
}
int main(int argc, char **argv)
{
    long reps = argc > 1 ? atol(argv[1]) : 1000, sink = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < reps; i++)
        sink += work();
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
    printf("%%.3f %%ld\n", ns / reps, sink & 1);
    return 0;
}
"""

CALLS = {
    "getuid": "    s += getuid();",
    "fstat": "    s += fstat(0, &st);",
}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def build(tools, kind, n, plugged, opt="-O2", fill=None, work=None):
    src = os.path.join(work, "%s-%d.c" % (kind, n))
    with open(src, "w") as f:
        f.write(PROGRAM % {"body": "\n".join([CALLS[kind]] * n)})
    tag = "%s-%d-%s%s%s" % (kind, n, "sb" if plugged else "ref", opt, fill or "")
    exe = os.path.join(work, tag)
    cmd = [tools["clang"], opt, "-I" + tools["include"], src, "-o", exe]
    if plugged:
        cmd[1:1] = ["-fpass-plugin=" + tools["plugin"]]
        if fill:
            cmd[1:1] = ["-Xclang", "-load", "-Xclang", tools["plugin"],
                        "-mllvm", "-sysbatch-fill=" + fill]
        cmd.append(tools["runtime"])
    sh(cmd)
    return exe


def symbol_size(exe, name="work"):
    for line in sh(["nm", "-S", "--defined-only", exe]).stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] == name:
            return int(parts[1], 16)
    raise SystemExit("no symbol %s in %s" % (name, exe))


def run_ns(exe, reps):
    env = {k: v for k, v in os.environ.items()
           if k not in ("BATCH_EMUL", "SYSBATCH_EMUL")}
    return float(sh([exe, str(reps)], env=env).stdout.split()[0])


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / \
        sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def callgrind_ir(exe):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        env = dict(os.environ, BATCH_EMUL="1")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--toggle-collect=work", exe, "100"], env=env, check=True,
                       capture_output=True)
        text = open(out).read()
        m = re.search(r"^summary:\s+(\d+)", text, re.M) or \
            re.search(r"^totals:\s+(\d+)", text, re.M)
        return int(m.group(1)) / 100.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tools = {
        "clang": shutil.which("clang-14") or "clang",
        "plugin": os.path.join(a.build, "llvm-pass", "SysbatchPass.so"),
        "runtime": os.path.join(a.build, "runtime", "libsysbatch.a"),
        "include": os.path.join(root, "runtime", "include"),
    }
    work = tempfile.mkdtemp(prefix="sbbench-")
    lines = ["# sysbatch LLVM pass: measurements", "",
             "Host: `%s`, kernel without sys_batch (fallback path), clang -O2." %
             os.uname().release, ""]

    # 1. wall time
    lines += ["## Plugged / unplugged time per call of `work()` (ns, min of %d "
              "interleaved runs)" % a.reps, "",
              "| N | getuid ref | getuid plugged | ratio | fstat ref | fstat plugged | ratio |",
              "|---|---|---|---|---|---|---|"]
    series = {}
    for kind in CALLS:
        for n in NS:
            ref = build(tools, kind, n, False, work=work)
            sb = build(tools, kind, n, True, work=work)
            reps = max(200, 20000 // n)
            tr, ts = [], []
            for _ in range(a.reps):
                tr.append(run_ns(ref, reps))
                ts.append(run_ns(sb, reps))
            series[(kind, n)] = (min(tr), min(ts))
    for n in NS:
        row = ["%d" % n]
        for kind in CALLS:
            r, s = series[(kind, n)]
            row += ["%.1f" % r, "%.1f" % s, "%.3f" % (s / r)]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    for kind in CALLS:
        ar, br = fit(NS, [series[(kind, n)][0] for n in NS])
        asb, bsb = fit(NS, [series[(kind, n)][1] for n in NS])
        lines.append("- %s: t = %.1f + %.1f N ns unplugged, %.1f + %.1f N ns plugged: "
                     "per-call ratio **%.3f**" % (kind, ar, br, asb, bsb, bsb / br))
    lines.append("")

    # 2. code size
    lines += ["## Code size of `work()` (bytes of .text; runtime library not counted)", "",
              "| calls | opt | unplugged | plugged, stores | plugged, template | "
              "stores: cost per call | template: cost per call |",
              "|---|---|---|---|---|---|---|"]
    for kind in CALLS:
        for n in (2, 8, 32):
            for opt in ("-O0", "-O2"):
                ref = symbol_size(build(tools, kind, n, False, opt, work=work))
                st = symbol_size(build(tools, kind, n, True, opt, "stores", work=work))
                tp = symbol_size(build(tools, kind, n, True, opt, "template", work=work))
                lines.append("| %d %s | %s | %d | %d | %d | %.1f | %.1f |" % (
                    n, kind, opt, ref, st, tp, (st - ref) / n, (tp - ref) / n))
    lines += ["", "Template variants also carry a read-only template of 64 bytes "
              "per slot (.rodata), not counted above.", ""]

    # 3. fill cost on the batch path
    if shutil.which("valgrind"):
        lines += ["## Instructions per `work()` call on the batch path "
                  "(BATCH_EMUL=1, callgrind, -O2)", "",
                  "| calls | stores | template | template - stores |", "|---|---|---|---|"]
        for kind in CALLS:
            for n in (2, 8, 32):
                st = callgrind_ir(build(tools, kind, n, True, "-O2", "stores", work=work))
                tp = callgrind_ir(build(tools, kind, n, True, "-O2", "template", work=work))
                lines.append("| %d %s | %.0f | %.0f | %+.0f |" % (n, kind, st, tp, tp - st))
        lines.append("")

    with open(a.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    if shutil.which("gnuplot"):
        dat = os.path.join(work, "t.dat")
        with open(dat, "w") as f:
            for n in NS:
                f.write("%d %s\n" % (n, " ".join("%.2f %.2f" % series[(k, n)] for k in CALLS)))
        script = ("set terminal png size 800,500; set output '%s.png';"
                  "set xlabel 'calls per function (N)'; set ylabel 'ns per work() call';"
                  "set key left top;"
                  "plot '%s' u 1:2 w lp t 'getuid unplugged', '' u 1:3 w lp t 'getuid plugged',"
                  " '' u 1:4 w lp t 'fstat unplugged', '' u 1:5 w lp t 'fstat plugged'"
                  % (a.out, dat))
        subprocess.run(["gnuplot", "-e", script], check=False)
    shutil.rmtree(work, ignore_errors=True)
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
