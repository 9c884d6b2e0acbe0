#!/usr/bin/env python3
"""The sys_batch per-call benchmark: one VM run, an N-sweep, a + b*N fits.

    python3 bench/kernel/run.py --build build [--reps 41] [--out docs]

Boots the same kernel as the VM test tier (scripts/vm-run.py) once and runs
bench/kernel/sbk_bench twice inside it: first with no module loaded (the
plain syscall loop and the runtime's user-space fallback), then with
sysbatch.ko and the dispatch-floor module sysbatch_floor.ko loaded (the loop
again, a hand-written batch, sysbatch_run on the kernel path, and the bare
in-kernel dispatch loop).  For every call and mode it fits
time(N) = a + b*N to the per-N minima and bootstraps the samples for error
bars, then writes

    <out>/kernel-bench.md    the table, the ratios and how they were made
    <out>/kernel-bench.dat   per-N minima (gnuplot input)
    <out>/kernel-bench.svg   time per unit against N, one panel per call

Under TCG (the default where KVM is unusable) the ratios describe qemu's
emulation, not hardware; SYSBATCH_VM_ACCEL=kvm runs the same benchmark
under KVM where it works.
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
# (phase, mode) -> label
SERIES = [
    (("noload", "loop"), "loop"),
    (("noload", "rt-emul"), "runtime fallback"),
    (("loaded", "loop"), "loop, module loaded"),
    (("loaded", "batch"), "hand-written batch"),
    (("loaded", "rt-kernel"), "sysbatch_run (kernel)"),
    (("loaded", "floor"), "in-kernel floor"),
]


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


def run_vm(build, reps, log_path):
    manifest_src = os.path.join(build, "kernel", "vm-manifest.txt")
    bench = os.path.join(build, "kernel", "bench", "sbk_bench")
    floor = os.path.join(build, "kernel", "bench", "sysbatch_floor.ko")
    for f in (manifest_src, bench, floor):
        if not os.path.exists(f):
            sys.exit("run.py: %s missing: build with the kernel module enabled "
                     "(docs/kernel.md) and run `ninja sbk_bench sysbatch_floor_module`" % f)
    header = [l for l in open(manifest_src)
              if l.split()[:1] and l.split()[0] in ("kernel", "module", "busybox", "qemu", "exit-helper")]
    with tempfile.TemporaryDirectory(prefix="sbbench-") as tmp:
        manifest = os.path.join(tmp, "bench-manifest.txt")
        with open(manifest, "w") as f:
            f.writelines(header)
            f.write("file sysbatch_floor.ko %s\n" % floor)
            f.write("rmmod\n")
            f.write("test noload 0 %s -- noload %d\n" % (bench, reps))
            f.write("insmod\n")
            f.write("sh floor-load insmod /data/sysbatch_floor.ko\n")
            f.write("test loaded 0 %s -- loaded %d\n" % (bench, reps))
        # the KVM probe result is cached next to the test manifest
        cache = os.path.join(os.path.dirname(manifest_src), "kvm-probe.txt")
        if os.path.exists(cache):
            with open(cache) as src, open(os.path.join(tmp, "kvm-probe.txt"), "w") as dst:
                dst.write(src.read())
        p = subprocess.run([sys.executable, os.path.join(SRC, "scripts", "vm-run.py"), manifest,
                            "--results", os.path.join(tmp, "results.txt"), "--log", log_path,
                            "--timeout", "900"], stdout=subprocess.PIPE, text=True)
        print(p.stdout.splitlines()[0] if p.stdout else "")
        if p.returncode != 0:
            sys.exit("run.py: the benchmark VM run failed:\n" + p.stdout)
    return open(log_path).read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--reps", type=int, default=41)
    ap.add_argument("--out", default=os.path.join(SRC, "docs"))
    ap.add_argument("--console", help="analyse this saved console log instead of booting")
    opts = ap.parse_args()

    log = opts.console or os.path.join(opts.build, "kernel", "bench-console.txt")
    text = open(log).read() if opts.console else run_vm(opts.build, opts.reps, log)
    data = {}
    for phase, call, mode, n, ns in re.findall(
            r"^\w+\| S (\w+) (\w+) ([\w-]+) (\d+) (\d+)\s*$", text, re.M):
        data.setdefault((call, phase, mode), {}).setdefault(int(n), []).append(int(ns))
    accel = re.search(r"accel (\w+)", text)
    kernel = re.search(r"SBVM-BOOT (\S+)", text)
    if not data:
        sys.exit("run.py: no samples in %s" % log)

    rng = random.Random(1)
    rounds = 400
    fits, boots = {}, {}
    for key, samples in data.items():
        fits[key] = fit(medians(samples))
        boots[key] = bootstrap(samples, rounds, rng)

    def b_err(key):
        bs = [b for _, b in boots[key]]
        return fits[key][1], statistics.stdev(bs)

    def ratio(num, den):
        if num not in boots or den not in boots:
            return None
        rs = [bn / bd for (_, bn), (_, bd) in zip(boots[num], boots[den])]
        return fits[num][1] / fits[den][1], statistics.stdev(rs)

    os.makedirs(opts.out, exist_ok=True)
    dat = os.path.join(opts.out, "kernel-bench.dat")
    with open(dat, "w") as f:
        f.write("# call mode N min_ns (one block per call+mode)\n")
        for call in CALLS:
            for (phase, mode), label in SERIES:
                key = (call, phase, mode)
                if key in data:
                    f.write("# %s %s\n" % (call, label))
                    for n, t in medians(data[key]):
                        f.write("%s %s-%s %d %.0f\n" % (call, phase, mode, n, t))
                    f.write("\n\n")

    svg = os.path.join(opts.out, "kernel-bench.svg")
    gp = ["set terminal svg size 1100,800 dynamic font 'sans,11'",
          "set output '%s'" % svg, "set multiplot layout 2,2",
          "set key top left", "set xlabel 'N (calls per unit)'", "set ylabel 'ns per unit'",
          "set logscale xy", "set grid"]
    for call in CALLS:
        plots, idx = [], 0
        block = 0
        for c in CALLS:
            for (phase, mode), label in SERIES:
                if (c, phase, mode) in data:
                    if c == call:
                        plots.append("'%s' index %d using 3:4 with linespoints title '%s'" % (dat, block, label))
                    block += 1
        gp.append("set title '%s'" % call)
        gp.append("plot " + ", ".join(plots))
    gp.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(gp), text=True, check=True)

    md = os.path.join(opts.out, "kernel-bench.md")
    L = []
    L.append("# sys_batch per-call benchmark (generated by bench/kernel/run.py)")
    L.append("")
    L.append("Measured %s in one VM run: kernel %s, qemu accel **%s**, %d repetitions "
             "per N, N = 1 .. 1024." % (datetime.date.today().isoformat(),
                                        kernel.group(1) if kernel else "?",
                                        accel.group(1) if accel else "?", opts.reps))
    L.append("")
    L.append("**These are TCG numbers: qemu emulates every guest instruction, so the costs "
             "and ratios describe the emulator, not any real CPU. They are not hardware "
             "predictions.** The same benchmark runs under KVM (where KVM works) with "
             "`SYSBATCH_VM_ACCEL=kvm python3 bench/kernel/run.py --build build`, and "
             "`sbk_bench` runs unchanged on bare metal with the two modules loaded.")
    L.append("")
    L.append("Each unit is N calls made one way; time(N) = a + b·N is fitted to the "
             "per-N minima (noise on a shared host only adds time); ± is one standard deviation over %d bootstrap "
             "resamplings of the samples. b is the cost per call in ns." % rounds)
    L.append("")
    L.append("| call | loop | runtime fallback | loop, module loaded | hand-written batch | "
             "sysbatch_run (kernel) | in-kernel floor | batch a (ns) |")
    L.append("|---|---|---|---|---|---|---|---|")
    for call in CALLS:
        row = ["%s" % call]
        for (phase, mode), _ in SERIES:
            key = (call, phase, mode)
            row.append("%.1f ± %.1f" % b_err(key) if key in fits else "-")
        bk = (call, "loaded", "batch")
        row.append("%.0f" % fits[bk][0] if bk in fits else "-")
        L.append("| " + " | ".join(row) + " |")
    L.append("")
    L.append("Ratios of the per-call slopes b:")
    L.append("")
    L.append("| call | loop / batch (speed-up per call) | batch / floor (module per-slot cost; goal ≤ 1.25) "
             "| sysbatch_run / batch | fallback / loop | loop loaded / loop (hook tax) |")
    L.append("|---|---|---|---|---|---|")

    def fmt(r):
        return "-" if r is None else "%.2f ± %.2f" % r
    for call in CALLS:
        L.append("| %s | %s | %s | %s | %s | %s |" % (
            call,
            fmt(ratio((call, "noload", "loop"), (call, "loaded", "batch"))),
            fmt(ratio((call, "loaded", "batch"), (call, "loaded", "floor"))),
            fmt(ratio((call, "loaded", "rt-kernel"), (call, "loaded", "batch"))),
            fmt(ratio((call, "noload", "rt-emul"), (call, "noload", "loop"))),
            fmt(ratio((call, "loaded", "loop"), (call, "noload", "loop")))))
    L.append("")
    L.append("- *loop*: N raw `syscall` instructions, module not loaded. *runtime fallback*: "
             "`sysbatch_run` without the module (its user-space loop). *loop, module loaded*: "
             "the same loop with sysbatch.ko loaded; every unimplemented number (the `enosys` "
             "row, syscall 184) then passes the module's kprobe on `__x64_sys_ni_syscall`, "
             "which is the hook's tax on such calls. Inside a batch, unimplemented numbers are "
             "answered from a table without dispatch, so the enosys batch column is the bare "
             "record loop. *in-kernel floor*: bench/kernel/sysbatch_floor.ko calling "
             "`x64_sys_call` N times with one prepared register frame, timed in the kernel.")
    L.append("- *batch a* is the fixed cost of one sys_batch crossing (syscall entry, the "
             "kprobe redirect, the checks), paid once per batch.")
    L.append("- Compiler-batched code from plain C is not in this table yet (see the report "
             "of issue 7).")
    L.append("- Plot: [kernel-bench.svg](kernel-bench.svg) (log-log, ns per unit against N); "
             "per-N minima in kernel-bench.dat.")
    L.append("")
    L.append("Reproduce: `ninja -C build sbk_bench sysbatch_floor_module && "
             "python3 bench/kernel/run.py --build build` (console log kept in "
             "build/kernel/bench-console.txt; `--console <log>` re-analyses a saved run).")
    with open(md, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    main()
