#!/usr/bin/env python3
"""The sys_batch per-call benchmark: an N-sweep in the VM, a + b*N fits.

    python3 bench/kernel/run.py --build build [--reps 41] [--out docs]

Boots the kernel of the VM test tier (scripts/vm-run.py) and runs
bench/kernel/sbk_bench three times inside one boot: first with no module
loaded (the plain syscall loop and the runtime's user-space fallback), then
with sysbatch.ko (default hook: the ftrace direct call) and the
dispatch-floor module sysbatch_floor.ko loaded (the loop again, a
hand-written batch, sysbatch_run on the kernel path, and the bare in-kernel
dispatch loop), then with sysbatch.ko reloaded with hook=kprobe (the
fallback hook).  The cost model (fixed cost, per-slot cost, the 2-call
ratio, break-even n per hook) and a plot of cost against n with the
break-even marked come out of the instruction run.  It does this in two boots:

  instructions  qemu -icount shift=0: the guest clock advances 1 ns per
                emulated instruction, so every figure is an exact,
                repeatable instruction count (host load does not matter)
  wall clock    plain TCG: emulated time, noisy on a shared host

The instruction boot also runs one real program end to end (cpio 2.13,
built plain and plugged by bench/reach/run.sh under $REACH_WORK): its
crossings, counted under ptrace, and its guest instructions with and
without the module.

For every call and mode it fits time(N) = a + b*N to the per-N minima,
bootstraps the samples for error bars, and writes

    <out>/kernel-bench.md           both tables, the ratios, the method
    <out>/kernel-bench-<kind>.dat   per-N minima (gnuplot input)
    <out>/kernel-bench-<kind>.svg   time per unit against N, one panel per call
    <out>/kernel-bench-breakeven.{svg,dat}  getuid: cost of n calls, batched
                                    (per hook) and not, with the break-even

Under TCG the ratios describe qemu's emulation, not hardware;
SYSBATCH_VM_ACCEL=kvm runs the wall-clock part under KVM where it works.
"""
import argparse
import datetime
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
CALLS = ["getuid", "enosys", "fstat", "lstat"]
SB_MAX = 1024
# (phase, mode) -> label
SERIES = [
    (("noload", "loop"), "loop"),
    (("noload", "rt-emul"), "runtime fallback"),
    (("loaded", "loop"), "loop, module loaded"),
    (("loaded", "batch"), "hand-written batch"),
    (("loaded", "rt-kernel"), "sysbatch_run (kernel)"),
    (("loaded", "floor"), "in-kernel floor"),
    (("loaded", "floor-table"), "in-kernel floor, sys_call_table"),
    (("switch", "batch"), "batch, x64_sys_call dispatch"),
    (("noload", "compiler"), "compiler-batched, no module"),
    (("loaded", "compiler"), "compiler-batched"),
    (("kprobe", "loop"), "loop, kprobe hook"),
    (("kprobe", "batch"), "batch, kprobe hook"),
]
# The hooks whose batches the cost model covers: phase -> label.
HOOKS = [("loaded", "ftrace (default)"), ("kprobe", "kprobe (fallback)")]


def fit(points):
    """Least squares time = a + b*N over (N, t) points."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in points)
    b = sxy / sxx
    return my - b * mx, b


# Host scheduling noise only ever adds time, so each N is summarised by its
# fastest sample (the c-blake README's approach as well).
def medians(samples):
    return sorted((n, min(v)) for n, v in samples.items())


def bootstrap(samples, rounds, rng):
    """(a, b) fits of `rounds` resamplings (with replacement, per N)."""
    out = []
    for _ in range(rounds):
        pts = [(n, min(rng.choices(v, k=len(v)))) for n, v in samples.items()]
        out.append(fit(pts))
    return out


# The end-to-end part: one real program, not written here, built plain and
# plugged by bench/reach/run.sh (cpio 2.13 from Debian, clang and the LLVM
# pass; its `cpio -pd` is where the reach benchmark saw the most batches).
# It runs in the instruction boot only, copying a fixed tree.
E2E_TREE = ("mkdir -p /tmp/src && cd /tmp/src && for d in 1 2 3 4 5 6 7 8; do mkdir -p d$d; "
            "for f in 1 2 3 4 5 6 7 8 9 10 11 12; do echo file $d $f > d$d/f$f; done; done "
            "&& find . > /tmp/list")


# Whole runs repeat, alternating plain and plugged, and the fastest of each
# counts: the guest's caches make the first runs differ.
E2E_REPS = 3


def e2e_steps(program, libs, sbk_program):
    """Manifest lines for the end-to-end runs; program = (plain, plugged)."""
    lines = ["file sbk-ld.so %s\n" % libs[0], "file libc.so.6 %s\n" % libs[1],
             "file cpio-plain %s\n" % program[0], "file cpio-plugged %s\n" % program[1],
             "sh e2e-tree %s\n" % E2E_TREE]
    run = lambda mode, label, which, env="": [
        "sh e2e-clean-%s-%s rm -rf /tmp/dst\n" % (mode, label),
        "test e2e-%s-%s 0 %s %s -- %s %s /tmp/src /tmp/list /data/sbk-ld.so --library-path /data "
        "/data/cpio-%s -pdm /tmp/dst\n" % (mode, label, sbk_program, env, mode, label, which)]
    return lines, run


def run_vm(build, reps, log_path, icount, program=None):
    manifest_src = os.path.join(build, "kernel", "vm-manifest.txt")
    bench = os.path.join(build, "kernel", "bench", "sbk_bench")
    floor = os.path.join(build, "kernel", "bench", "sysbatch_floor.ko")
    needed = [manifest_src, bench, floor]
    if program:
        needed.append(os.path.join(build, "kernel", "bench", "sbk_program"))
    for f in needed:
        if not os.path.exists(f):
            sys.exit("run.py: %s missing: build with the kernel module enabled "
                     "(docs/kernel.md) and run `ninja sbk_bench sbk_program sysbatch_floor_module`" % f)
    header = [l for l in open(manifest_src)
              if l.split()[:1] and l.split()[0] in ("kernel", "module", "busybox", "qemu", "exit-helper")]
    env = dict(os.environ)
    env["SYSBATCH_VM_ICOUNT"] = "1" if icount else "0"
    with tempfile.TemporaryDirectory(prefix="sbbench-") as tmp:
        manifest = os.path.join(tmp, "bench-manifest.txt")
        with open(manifest, "w") as f:
            f.writelines(header)
            f.write("file sysbatch_floor.ko %s\n" % floor)
            if program:
                lines, run = e2e_steps(program[:2], program[2:], os.path.join(
                    build, "kernel", "bench", "sbk_program"))
                f.writelines(lines)
            f.write("rmmod\n")
            if program:
                # crossings: every system call entry, counted under ptrace
                # without the module (the plugged build's batches then run
                # as their calls: that count is its calls, less the batches)
                for which in ("plain", "plugged"):
                    f.writelines(run("count", which, which))
                for rep in range(E2E_REPS):
                    for which in ("plain", "plugged"):
                        f.writelines(run("time", "%s-nomod-r%d" % (which, rep), which))
            f.write("test noload 0 %s -- noload %d\n" % (bench, reps))
            f.write("insmod\n")
            f.write("sh floor-load insmod /data/sysbatch_floor.ko\n")
            # every batch to the kernel, however small: the sweep measures
            # the kernel path itself (the break-even comes out of it)
            f.write("test loaded 0 %s SYSBATCH_MIN_BATCH=1 -- loaded %d\n" % (bench, reps))
            if program:
                # the module loaded, the runtime's own break-even in force
                for rep in range(E2E_REPS):
                    f.writelines(run("time", "plain-r%d" % rep, "plain"))
                    f.writelines(run("time", "plugged-r%d" % rep, "plugged", "SYSBATCH_STATS=1"))
            # the same batches dispatched through the kernel's own switch,
            # side by side with the default (a copy of sys_call_table)
            f.write("rmmod\n")
            f.write("insmod dispatch=switch\n")
            f.write("test switch 0 %s SYSBATCH_MIN_BATCH=1 -- switch %d batch\n" % (bench, reps))
            f.write("rmmod\n")
            f.write("insmod hook=kprobe\n")
            f.write("test kprobe 0 %s SYSBATCH_MIN_BATCH=1 -- kprobe %d\n" % (bench, reps))
        # the KVM probe result is cached next to the test manifest
        cache = os.path.join(os.path.dirname(manifest_src), "kvm-probe.txt")
        if os.path.exists(cache):
            with open(cache) as src, open(os.path.join(tmp, "kvm-probe.txt"), "w") as dst:
                dst.write(src.read())
        p = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "vm-run.py"), manifest,
                            "--results", os.path.join(tmp, "results.txt"), "--log", log_path,
                            "--timeout", "900"], stdout=subprocess.PIPE, text=True, env=env)
        first = p.stdout.splitlines()[0] if p.stdout else ""
        print(first)
        if p.returncode != 0:
            sys.exit("run.py: the benchmark VM run failed:\n" + p.stdout)
    accel = re.search(r"accel (\w+)", first)
    with open(log_path, "a") as f:
        f.write("\nBENCH-ACCEL %s\n" % (accel.group(1) if accel else "?"))
    return open(log_path).read()


class Analysis:
    def __init__(self, text, rng, rounds=400):
        self.text = text
        self.data = {}
        for phase, call, mode, n, ns in re.findall(
                r"^\w+\| S (\w+) (\w+) ([\w-]+) (\d+) (\d+)\s*$", text, re.M):
            self.data.setdefault((call, phase, mode), {}).setdefault(int(n), []).append(int(ns))
        accel = re.search(r"BENCH-ACCEL (\w+)", text)
        kernel = re.search(r"SBVM-BOOT (\S+)", text)
        self.accel = accel.group(1) if accel else "?"
        self.kernel = kernel.group(1) if kernel else "?"
        self.reps = max((len(v) for s in self.data.values() for v in s.values()), default=0)
        self.fits, self.boots = {}, {}
        for key, samples in self.data.items():
            if key[2] == "compiler":
                # N = 1 is one call, which no plugin batches: the line of
                # the batched code starts at 2
                samples = {n: v for n, v in samples.items() if n >= 2}
            self.fits[key] = fit(medians(samples))
            self.boots[key] = bootstrap(samples, rounds, rng)

    def e2e(self):
        """The end-to-end runs: {label: {"ns"|"syscalls": value}} and the
        plugged build's stats line (batches and calls in them)."""
        runs = {}
        for label, kind, value, status in re.findall(
                r"^e2e-\w+-[\w-]+\| P ([\w-]+) (ns|syscalls) (\d+) status (\d+)\s*$", self.text, re.M):
            label = re.sub(r"-r\d+$", "", label)
            run = runs.setdefault(label, {})
            run[kind] = min(int(value), run.get(kind, int(value)))
            run["status"] = max(int(status), run.get("status", 0))
        stats = re.search(r"^e2e-time-plugged-r0\| sysbatch: kernel (\d+) batches (\d+) slots; "
                          r"emulated (\d+) batches (\d+) slots; refused (\d+); calls (\d+)",
                          self.text, re.M)
        return runs, stats

    def e2e_table(self, program):
        runs, stats = self.e2e()
        if not runs:
            return ["Not run: %s." % program]
        need = ["plain", "plugged", "plain-nomod", "plugged-nomod"]
        if any(k not in runs for k in need) or not stats or \
                any(runs[k].get("status") != 0 for k in need):
            return ["Incomplete run (see the console log): %s, stats %s." % (
                runs, stats.group(0) if stats else "missing")]
        kb, ks, eb, es, refused, calls = (int(g) for g in stats.groups())
        plain_x = runs["plain"]["syscalls"]
        # the plugged build traced without the module runs each batched
        # call itself; with the module a batch of c calls is one crossing
        plug_x = runs["plugged"]["syscalls"] - calls + kb + eb
        L = ["| build | crossings (system call entries) | guest instructions, module loaded "
             "| guest instructions, module not loaded |",
             "|---|---:|---:|---:|",
             "| plain | %d | %d | %d |" % (plain_x, runs["plain"]["ns"], runs["plain-nomod"]["ns"]),
             "| plugged | %d | %d | %d |" % (plug_x, runs["plugged"]["ns"], runs["plugged-nomod"]["ns"]),
             "| plugged / plain | %.4f | %.4f | %.4f |" % (
                 plug_x / plain_x, runs["plugged"]["ns"] / runs["plain"]["ns"],
                 runs["plugged-nomod"]["ns"] / runs["plain-nomod"]["ns"]),
             "",
             "Guest instructions: the fewest of %d runs each (alternating), from fork to exit "
             "of `cpio -pdm` copying a fixed tree of 8 directories and 96 small files "
             "(exec, dynamic loader, the program and the kernel work). " % E2E_REPS +
             "Plugged run with the module loaded (its SYSBATCH_STATS line): %d batches of %d "
             "slots through sys_batch, %d batches of %d slots below the break-even run as their "
             "calls, %d refused; %d system calls were made inside batches. Crossings of the "
             "plugged build: its system calls counted under ptrace without the module (%d; "
             "every batched call then made by itself), less the %d calls inside batches, plus "
             "one crossing per batch through the kernel." % (
                 kb, ks, eb, es, refused, calls, runs["plugged"]["syscalls"], calls)]
        return L

    def b_err(self, key):
        bs = [b for _, b in self.boots[key]]
        return self.fits[key][1], statistics.stdev(bs)

    def ratio(self, num, den):
        if num not in self.boots or den not in self.boots:
            return None
        rs = [bn / bd for (_, bn), (_, bd) in zip(self.boots[num], self.boots[den])]
        return self.fits[num][1] / self.fits[den][1], statistics.stdev(rs)

    def write_plot(self, out, kind, unit):
        dat = os.path.join(out, "kernel-bench-%s.dat" % kind)
        svg = os.path.join(out, "kernel-bench-%s.svg" % kind)
        blocks = {}
        with open(dat, "w") as f:
            f.write("# call phase-mode N min_%s (one block per call and mode)\n" % unit)
            for call in CALLS:
                for (phase, mode), label in SERIES:
                    key = (call, phase, mode)
                    if key in self.data:
                        blocks[key] = len(blocks)
                        f.write("# %s: %s\n" % (call, label))
                        for n, t in medians(self.data[key]):
                            f.write("%s %s-%s %d %.0f\n" % (call, phase, mode, n, t))
                        f.write("\n\n")
        gp = ["set terminal svg size 1100,800 dynamic font 'sans,11'",
              "set output '%s'" % svg, "set multiplot layout 2,2 title '%s per unit of N calls (%s)'"
              % (unit, kind), "set key top left", "set xlabel 'N'", "set ylabel '%s'" % unit,
              "set logscale xy", "set grid"]
        for call in CALLS:
            plots = ["'%s' index %d using 3:4 with linespoints title '%s'" % (dat, blocks[(call, p, m)], label)
                     for (p, m), label in SERIES if (call, p, m) in blocks]
            gp += ["set title '%s'" % call, "plot " + ", ".join(plots)]
        gp.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(gp), text=True, check=True)

    def minimum(self, key, n):
        v = self.data.get(key, {}).get(n)
        return min(v) if v else None

    def cost_model(self, call):
        """Per hook: fixed cost per batch, per-slot cost, the 2-call ratio
        and the break-even n, all net of the timing overhead (the plain
        loop's intercept: two clock reads around every unit)."""
        loop = (call, "noload", "loop")
        if loop not in self.fits:
            return []
        over, b_loop = self.fits[loop]
        rows = []
        for phase, label in HOOKS:
            bk, fl, hl = (call, phase, "batch"), (call, "loaded", "floor"), (call, phase, "loop")
            if bk not in self.fits:
                continue
            a, b = self.fits[bk]
            fixed = a - over
            two_b, two_l = self.minimum(bk, 2), self.minimum(loop, 2)
            two = (two_b - over) / (two_l - over) if two_b and two_l else None
            # smallest n at which one batch of n costs less than n calls
            even = next((n for n in range(1, SB_MAX + 1) if fixed + b * n < b_loop * n), None)
            # the runtime's choice for a batch already formed: sys_batch or
            # its own loop of the same calls (sysbatch_run both ways)
            rk, re_ = (call, phase, "rt-kernel"), (call, "noload", "rt-emul")
            even_rt = None
            if rk in self.fits and re_ in self.fits:
                ak, bk_ = self.fits[rk]
                ae, be = self.fits[re_]
                even_rt = next((n for n in range(1, SB_MAX + 1) if ak + bk_ * n < ae + be * n), None)
            # the planner's choice: batched C against the same C unbatched
            ck, cn = (call, phase, "compiler"), (call, "noload", "compiler")
            even_cc = None
            if ck in self.fits and cn in self.fits:
                ac, bc = self.fits[ck]
                an, bn = self.fits[cn]
                even_cc = next((n for n in range(2, 65) if ac + bc * n < an + bn * n), None)
            measured = [(n, self.minimum(bk, n), self.minimum(loop, n)) for n in (1, 2, 4, 8)]
            first = next((n for n, tb, tl in measured if tb is not None and tl is not None
                          and tb < tl), None)
            rows.append(dict(hook=label, phase=phase, fixed=fixed, b=b, b_loop=b_loop,
                             floor=self.fits[fl][1] if fl in self.fits else None,
                             floor_table=self.fits[(call, "loaded", "floor-table")][1]
                             if (call, "loaded", "floor-table") in self.fits else None,
                             two=two, even=even, first=first, even_rt=even_rt, even_cc=even_cc,
                             tax=self.fits[hl][1] / b_loop if hl in self.fits else None,
                             over=over, measured=measured))
        return rows

    def cost_table(self):
        f = lambda v, fmt="%.2f": "-" if v is None else fmt % v
        L = ["| call | hook | fixed cost a per batch | a / one plain call (goal ≤ 1.5) | per slot b "
             "| b / in-kernel floor (goal ≤ 1.25) | b / floor through sys_call_table "
             "| 2-call batch / 2 calls (goal ≤ 0.8) "
             "| break-even n (fit) | first measured n (1, 2, 4, 8) where a batch wins "
             "| sysbatch_run: kernel beats its own loop from n (fit) "
             "| compiler-batched C beats the same C unbatched from n (fit) "
             "| plain call with module loaded / without (goal ≤ 1.02) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for call in CALLS:
            for r in self.cost_model(call):
                L.append("| %s | %s | %.0f | %s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    call, r["hook"], r["fixed"], f(r["fixed"] / r["b_loop"]), r["b"],
                    f(r["b"] / r["floor"] if r["floor"] else None),
                    f(r["b"] / r["floor_table"] if r["floor_table"] else None), f(r["two"]),
                    f(r["even"], "%d"), f(r["first"], "%d"), f(r["even_rt"], "%d"),
                    f(r["even_cc"], "%d"), f(r["tax"], "%.3f")))
        return L

    def write_breakeven_plot(self, out, call="getuid", top=12):
        """Cost of one unit of n calls (net of the timing overhead) against
        n: n separate calls and one batch per hook, the fits as lines, the
        measured minima as points, the break-even marked."""
        rows = self.cost_model(call)
        if not rows:
            return None
        dat = os.path.join(out, "kernel-bench-breakeven.dat")
        svg = os.path.join(out, "kernel-bench-breakeven.svg")
        loop = (call, "noload", "loop")
        over = rows[0]["over"]
        with open(dat, "w") as fd:
            fd.write("# %s: n, measured instructions per unit minus the timing overhead (%.0f)\n"
                     % (call, over))
            for key in [loop] + [(call, r["phase"], "batch") for r in rows]:
                fd.write("# %s-%s\n" % key[1:])
                for n, t in medians(self.data[key]):
                    if n <= top:
                        fd.write("%d %.0f\n" % (n, t - over))
                fd.write("\n\n")
        gp = ["set terminal svg size 900,560 dynamic font 'sans,12'", "set output '%s'" % svg,
              "set title '%s: one batch of n calls against n separate calls (qemu -icount)'" % call,
              "set xlabel 'n (calls)'", "set ylabel 'guest instructions per unit'", "set grid",
              "set key top left", "set xrange [0:%d]" % top, "set yrange [0:*]", "set samples 200",
              "loop(x) = %f * x" % rows[0]["b_loop"]]
        plots = ["loop(x) with lines lw 2 lc rgb '#333333' title 'n separate calls (fit)'",
                 "'%s' index 0 with points pt 7 lc rgb '#333333' notitle" % dat]
        colours = ["#1f77b4", "#d62728"]
        for k, r in enumerate(rows):
            gp.append("batch%d(x) = %f + %f * x" % (k, r["fixed"], r["b"]))
            plots.append("batch%d(x) with lines lw 2 lc rgb '%s' title 'one batch, %s hook (fit)'"
                         % (k, colours[k], r["hook"]))
            plots.append("'%s' index %d with points pt 5 lc rgb '%s' notitle" % (dat, k + 1, colours[k]))
            if r["even"]:
                y = r["fixed"] + r["b"] * r["even"]
                gp.append("set arrow from %d,0 to %d,%f nohead dt 2 lw 2 lc rgb '%s'"
                          % (r["even"], r["even"], y, colours[k]))
                gp.append("set label 'break-even n = %d (%s hook)' at %f,%f right tc rgb '%s'"
                          % (r["even"], r["hook"].split()[0], r["even"] - 0.15, y * 0.3,
                             colours[k]))
        gp.append("plot " + ", ".join(plots))
        subprocess.run(["gnuplot"], input="\n".join(gp), text=True, check=True)
        return svg

    def table(self, unit):
        fmt = lambda r: "-" if r is None else "%.2f ± %.2f" % r
        L = ["| call | " + " | ".join(label for _, label in SERIES) + " | batch a |",
             "|---" * (len(SERIES) + 2) + "|"]
        for call in CALLS:
            row = [call]
            for (phase, mode), _ in SERIES:
                key = (call, phase, mode)
                row.append("%.1f ± %.1f" % self.b_err(key) if key in self.fits else "-")
            bk = (call, "loaded", "batch")
            row.append("%.0f" % self.fits[bk][0] if bk in self.fits else "-")
            L.append("| " + " | ".join(row) + " |")
        L += ["", "Ratios of the per-call slopes b:", "",
              "| call | loop / batch (speed-up per call) | batch / floor (module per-slot cost; goal ≤ 1.25) "
              "| batch / floor through sys_call_table | batch with x64_sys_call dispatch / floor "
              "| sysbatch_run / batch | fallback / loop | loop with module / loop (hook tax) "
              "| compiler-batched / batch (goal ≤ 1.05) | compiler-batched without module / loop (goal ≤ 1.02) |",
              "|---|---|---|---|---|---|---|---|---|---|"]
        for call in CALLS:
            L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                call,
                fmt(self.ratio((call, "noload", "loop"), (call, "loaded", "batch"))),
                fmt(self.ratio((call, "loaded", "batch"), (call, "loaded", "floor"))),
                fmt(self.ratio((call, "loaded", "batch"), (call, "loaded", "floor-table"))),
                fmt(self.ratio((call, "switch", "batch"), (call, "loaded", "floor"))),
                fmt(self.ratio((call, "loaded", "rt-kernel"), (call, "loaded", "batch"))),
                fmt(self.ratio((call, "noload", "rt-emul"), (call, "noload", "loop"))),
                fmt(self.ratio((call, "loaded", "loop"), (call, "noload", "loop"))),
                fmt(self.ratio((call, "loaded", "compiler"), (call, "loaded", "batch"))),
                fmt(self.ratio((call, "noload", "compiler"), (call, "noload", "loop")))))
        return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--reps", type=int, default=41, help="repetitions per N (wall clock)")
    ap.add_argument("--icount-reps", type=int, default=5, help="repetitions per N (instructions)")
    ap.add_argument("--out", default=os.path.join(SRC, "docs"))
    reach = os.environ.get("REACH_WORK", "/tmp/sysbatch-reach")
    ap.add_argument("--program-plain", default=os.path.join(
        reach, "build", "cpio", "plain-clang", "src", "cpio"),
        help="the end-to-end program, unplugged (bench/reach/run.sh builds it)")
    ap.add_argument("--program-plugged", default=os.path.join(
        reach, "build", "cpio", "clang-plugin", "src", "cpio"),
        help="the same program built with the LLVM pass")
    ap.add_argument("--icount-only", action="store_true",
                    help="boot once with -icount and print the instruction tables (no docs)")
    ap.add_argument("--console", nargs=2, metavar=("ICOUNT_LOG", "WALL_LOG"),
                    help="analyse two saved console logs instead of booting")
    opts = ap.parse_args()

    libs = ["/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libc.so.6"]
    missing = [f for f in [opts.program_plain, opts.program_plugged] + libs if not os.path.exists(f)]
    program = None if missing else [opts.program_plain, opts.program_plugged] + libs
    program_note = "%s missing (build it with bench/reach/run.sh, or pass --program-plain " \
        "and --program-plugged)" % ", ".join(missing) if missing else ""
    if opts.icount_only:
        log = os.path.join(opts.build, "kernel", "bench-console-instructions.txt")
        icount = Analysis(run_vm(opts.build, opts.icount_reps, log, True, program), random.Random(1))
        print("\n".join(icount.cost_table() + [""] + icount.table("instructions") + [""]
                        + icount.e2e_table(program_note)))
        return
    logs = opts.console or [os.path.join(opts.build, "kernel", "bench-console-%s.txt" % k)
                            for k in ("instructions", "wall")]
    texts = [open(l).read() for l in logs] if opts.console else [
        run_vm(opts.build, opts.icount_reps, logs[0], True, program),
        run_vm(opts.build, opts.reps, logs[1], False)]
    rng = random.Random(1)
    icount, wall = Analysis(texts[0], rng), Analysis(texts[1], rng)
    if not icount.data or not wall.data:
        sys.exit("run.py: no samples in %s" % " / ".join(logs))
    os.makedirs(opts.out, exist_ok=True)
    icount.write_plot(opts.out, "instructions", "instructions")
    wall.write_plot(opts.out, "wall", "ns")
    icount.write_breakeven_plot(opts.out)

    L = ["# sys_batch per-call benchmark",
         "",
         "Generated by `bench/kernel/run.py` on %s: kernel %s under qemu (accel %s), one VM boot "
         "per table, N = 1 .. 1024." % (datetime.date.today().isoformat(), wall.kernel, wall.accel),
         "",
         "**Both tables come from qemu's TCG emulator (KVM is unusable on these machines). They "
         "describe the emulation, not any real CPU: TCG ratios are not hardware predictions.** "
         "To measure hardware, run the same benchmark under KVM where it works "
         "(`SYSBATCH_VM_ACCEL=kvm python3 bench/kernel/run.py --build build`, wall-clock part), "
         "or run `build/kernel/bench/sbk_bench loaded 41` on bare metal with `sysbatch.ko` and "
         "`sysbatch_floor.ko` loaded and feed its output to the same fits.",
         "",
         "Each unit is N calls of one kind made one way. time(N) = a + b·N is fitted to the "
         "per-N minima (noise on a shared host only ever adds time); ± is one standard "
         "deviation over 400 bootstrap resamplings of the samples. b is the cost per call.",
         "",
         "## The cost model: fixed cost, per-slot cost, break-even (instructions)",
         "",
         "From the instruction sweep below, net of the timing overhead (the plain loop's "
         "intercept a, i.e. the two clock reads around every unit, subtracted from every "
         "intercept and from the measured 2-call units). *a / one plain call* divides the "
         "batch's fixed cost by the plain call's slope; the *2-call* column compares the "
         "measured units of N = 2; the *break-even n* is the smallest n for which the fits "
         "say one batch of n costs less than n separate calls (the plain loop); two more break-evens follow: the runtime's (a batch already formed, "
         "`sysbatch_run` through sys_batch against its own user-space loop of the same calls, "
         "both including its batch check: the size the module reports through its info query "
         "and the runtime's threshold), and the planner's (compiler-batched C against the same "
         "C built without batching, `bench/kernel/sbk_plain_calls.c`, N = 2..64); "
         "the last column is the hook's tax on plain calls (getuid: every implemented "
         "call pays it; enosys: unimplemented numbers). The sweep runs with "
         "`SYSBATCH_MIN_BATCH=1` so that every `sysbatch_run` goes to the kernel.",
         ""]
    L += icount.cost_table()
    L += ["", "![cost against n](kernel-bench-breakeven.svg)", "",
          "## Instructions (qemu -icount shift=0, %d repetitions per N)" % icount.reps,
         "",
         "The guest clock advances one nanosecond per emulated instruction, so b is the number "
         "of guest instructions per call, exact and repeatable (the ± is ~0 by construction). "
         "This is the figure to compare code paths with; it weighs a `syscall` instruction or "
         "a trap like any other instruction, which hardware does not.",
         ""]
    L += icount.table("instructions")
    L += ["", "## End to end: a real program (instructions boot)", "",
          "`cpio -pdm` of cpio 2.13 (the Debian 12 source package, built by "
          "`bench/reach/run.sh` with clang 14, plain and with the sysbatch LLVM pass, which "
          "links libsysbatch) copies the same tree in the VM, run through the dynamic loader "
          "by `bench/kernel/sbk_program`.", ""]
    L += icount.e2e_table(program_note)
    L += ["", "## Wall clock (TCG, %d repetitions per N)" % wall.reps, "",
          "Emulated nanoseconds on a shared 2-core host under load: noisy, kept for the "
          "order of magnitude. TCG's cost per instruction also depends on code layout: the "
          "compiler-batched functions are straight-line code with one call site per call, "
          "which TCG runs slower per instruction than a loop (without the module they execute "
          "the same number of instructions as the loop, yet take longer here). Compare code "
          "paths with the instruction table.", ""]
    L += wall.table("ns")
    L += ["",
          "## What the columns are",
          "",
          "- *loop*: N raw `syscall` instructions, module not loaded.",
          "- *runtime fallback*: `sysbatch_run` without the module (libsysbatch's user-space loop, "
          "including its batch check).",
          "- *loop, module loaded*: the same loop with sysbatch.ko loaded on its default hook, "
          "the ftrace direct trampoline on `x64_sys_call`: every 64-bit system call passes it "
          "(a call, a compare with 183, a return), which is the hook's tax on all other calls "
          "(the `enosys` row is syscall 184).",
          "- *loop, kprobe hook* / *batch, kprobe hook*: the same with sysbatch.ko reloaded "
          "with `hook=kprobe`, the fallback: implemented calls are untouched, every "
          "unimplemented number passes the int3 of the kprobe on `__x64_sys_ni_syscall`, and "
          "each batch pays for it once.",
          "- *hand-written batch*: one sys_batch of N slots; *batch a* is its fixed cost per "
          "crossing (syscall entry and exit, the trampoline, the checks; plus the timing "
          "overhead that the cost-model table subtracts). Inside a batch, "
          "unimplemented numbers are answered from a table without dispatch, so the enosys "
          "batch column is the module's bare per-slot overhead.",
          "- *sysbatch_run (kernel)*: the same slots through libsysbatch on the kernel path "
          "(adds its user-side check).",
          "- *in-kernel floor*: `bench/kernel/sysbatch_floor.ko` calling `x64_sys_call` N times "
          "with one prepared register frame, timed inside the kernel (with sysbatch.ko loaded, "
          "so every call passes the trampoline on it): the kernel's own dispatcher, the floor "
          "the goal is stated against.",
          "- *in-kernel floor, sys_call_table*: the same loop calling `sys_call_table[nr]` "
          "directly, as the module's slot loop does by default (through its private copy of "
          "the table): no compare tree of `x64_sys_call`, no trampoline. The gap between the "
          "hand-written batch and this column is the module's own per-slot work.",
          "- *batch, x64_sys_call dispatch*: the hand-written batch with sysbatch.ko reloaded "
          "with `dispatch=switch`, whose inner calls go through `x64_sys_call` (and so through "
          "the trampoline) as before this change: the two dispatches side by side in one "
          "boot.",
          "- *compiler-batched*: `bench/kernel/sbk_plain_calls.c`, N plain calls in a row "
          "(N = 1..64; getuid results stored to an array, fstat on fd 3, lstat of a literal "
          "path) built with clang and the sysbatch LLVM pass, which makes each N ≥ 2 one "
          "batch (passing `SYSBATCH_RUN_PLANNED` and the batch's facts, so that the runtime "
          "makes no pass of its own over the slots); without the module the same code takes "
          "its original calls. Both its columns are fitted over N = 2..64 (N = 1 is a single "
          "call, which no plugin batches: a line through it and the batches would mix the two). "
          "The compiler-batched code pays, per call, what a call site of a batch does and a "
          "prepared hand-written batch does not: the store of the slot's header and the load "
          "of its result (the store of the result to the program's array is the program's "
          "own); whether the slots ran is one test per batch (`last == nslots - 1`, "
          "docs/design.md \"One test when every slot ran\"), not one per call. Its fstat is what glibc 2.36's `fstat()` is: "
          "`newfstatat(fd, \"\", buf, AT_EMPTY_PATH)`, which on this kernel costs about 2.6 "
          "times the raw `fstat` syscall the loop, batch and floor columns use; so its fstat "
          "figures compare only with each other (batched against not batched), not with the "
          "other columns.",
          "",
          "Plots (log-log, per unit against N): [instructions](kernel-bench-instructions.svg), "
          "[wall clock](kernel-bench-wall.svg); per-N minima in the matching `.dat` files.",
          "",
          "Reproduce: `ninja -C build sbk_bench sbk_program sysbatch_floor_module && REACH_WORK=<bench/reach's work dir> python3 "
          "bench/kernel/run.py --build build` (about five minutes; without the cpio builds the end-to-end part says so and the rest runs; the console logs stay in "
          "`build/kernel/bench-console-*.txt` and `--console <icount-log> <wall-log>` "
          "re-analyses them)."]
    md = os.path.join(opts.out, "kernel-bench.md")
    with open(md, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    main()
