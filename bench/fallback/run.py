#!/usr/bin/env python3
"""Fallback dispatch benchmark driver: what the emulated batch loop costs per
slot compared with issuing the same getuid calls directly.

Runs bench_fallback (built by CMake into <build>/bench/fallback/) with
BATCH_EMUL=1:
  1. an interleaved N-sweep (raw syscall loop, libc loop, sysbatch_run on the
     emulator, all in one process, order rotating every round); per kind the
     median time per batch at each N is fitted with time = a + b*N by least
     squares, and the per-call ratio b_emul / b_raw is reported with its
     propagated standard error;
  2. callgrind instruction counts (deterministic; user space only, the
     syscall instruction counts as one) per slot and per batch.
Writes a markdown table and an SVG plot.  Python standard library only.

    bench/fallback/run.py --build build-rt            # defaults: 40 rounds
    bench/fallback/run.py --build build --reps 100 --out /tmp/fallback.md
"""
import argparse
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KINDS = ["raw", "libc", "emul"]
LABELS = {
    "raw": "raw `syscall` loop",
    "libc": "libc getuid() loop",
    "emul": "sysbatch_run, emulated",
}
DEFAULT_SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]


def fail(msg):
    sys.exit("run.py: " + msg)


def find_binary(build):
    path = os.path.join(build, "bench", "fallback", "bench_fallback")
    if not os.path.exists(path):
        fail("%s not found: build it first (ninja -C %s bench_fallback)" % (path, build))
    return path


def bench_env():
    env = dict(os.environ)
    env["BATCH_EMUL"] = "1"
    for var in ("BATCH_VERBOSE", "SYSBATCH_STATS"):
        env.pop(var, None)
    return env


def run_sweep(binary, reps, sizes):
    out = subprocess.run([binary, "time", str(reps)] + [str(n) for n in sizes],
                         env=bench_env(), check=True, capture_output=True, text=True).stdout
    samples = {}
    for line in out.splitlines():
        kind, n, ns = line.split()
        samples.setdefault((kind, int(n)), []).append(float(ns))
    return samples


def fit_line(xs, ys):
    """Least squares y = a + b*x; returns a, b, se_a, se_b."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx
    a = my - b * mx
    rss = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    s2 = rss / (n - 2) if n > 2 else 0.0
    return a, b, math.sqrt(s2 * (1 / n + mx * mx / sxx)), math.sqrt(s2 / sxx)


def ratio(b1, se1, b2, se2):
    r = b1 / b2
    return r, abs(r) * math.sqrt((se1 / b1) ** 2 + (se2 / b2) ** 2)


def callgrind_counts(binary, n1, n2, rounds):
    """Instructions per slot and per batch for each kind, from two batch
    sizes: per_slot = (I(n2) - I(n1)) / (rounds * (n2 - n1))."""
    if not shutil.which("valgrind"):
        return None
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in KINDS:
            totals = {}
            for n in (n1, n2):
                outfile = os.path.join(tmp, "cg.%s.%d" % (kind, n))
                subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=sbbench_measure",
                                "--callgrind-out-file=" + outfile, binary, "count", kind,
                                str(n), str(rounds)],
                               env=bench_env(), check=True, capture_output=True)
                with open(outfile) as f:
                    text = f.read()
                m = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
                if not m:
                    fail("no instruction total in " + outfile)
                totals[n] = int(m.group(1))
            per_slot = (totals[n2] - totals[n1]) / (rounds * (n2 - n1))
            per_batch = totals[n1] / rounds - per_slot * n1
            result[kind] = (per_slot, per_batch)
    return result


def svg_plot(path, sizes, medians, fits):
    """ns per call against N (log2 axis), measured medians and fitted a/N + b."""
    w, h, left, right, top, bottom = 640, 400, 70, 160, 20, 50
    colors = {"raw": "#1f77b4", "libc": "#2ca02c", "emul": "#d62728"}
    per_call = {k: [medians[(k, n)] / n for n in sizes] for k in KINDS}
    ymax = max(max(v) for v in per_call.values()) * 1.1
    lx0, lx1 = math.log2(sizes[0]), math.log2(sizes[-1])

    def px(n):
        return left + (math.log2(n) - lx0) / ((lx1 - lx0) or 1) * (w - left - right)

    def py(v):
        return top + (1 - v / ymax) * (h - top - bottom)

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="sans-serif" font-size="11">' % (w, h),
             '<rect width="100%" height="100%" fill="white"/>',
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, h - bottom, w - right, h - bottom),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top, left, h - bottom)]
    for n in sizes:
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (px(n), h - bottom + 15, n))
    for i in range(6):
        v = ymax * i / 5
        parts.append('<text x="%d" y="%.1f" text-anchor="end">%.0f</text>' % (left - 5, py(v) + 4, v))
    parts.append('<text x="%d" y="%d" text-anchor="middle">calls per batch (N)</text>'
                 % ((left + w - right) // 2, h - 12))
    parts.append('<text x="15" y="%d" transform="rotate(-90 15 %d)" text-anchor="middle">'
                 'ns per call</text>' % ((top + h - bottom) // 2, (top + h - bottom) // 2))
    for idx, k in enumerate(KINDS):
        a, b = fits[k][0], fits[k][1]
        pts = " ".join("%.1f,%.1f" % (px(n), py(min(ymax, a / n + b))) for n in sizes)
        parts.append('<polyline points="%s" fill="none" stroke="%s"/>' % (pts, colors[k]))
        for n, v in zip(sizes, per_call[k]):
            parts.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (px(n), py(v), colors[k]))
        ly = top + 15 + 18 * idx
        parts.append('<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (w - right + 15, ly - 4, colors[k]))
        parts.append('<text x="%d" y="%d">%s</text>' % (w - right + 25, ly, k))
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="CMake build directory holding bench/fallback/bench_fallback")
    ap.add_argument("--reps", type=int, default=40, help="rounds of the interleaved sweep")
    ap.add_argument("--sizes", type=int, nargs="+", default=DEFAULT_SIZES)
    ap.add_argument("--rounds", type=int, default=50, help="batches per callgrind run")
    ap.add_argument("--out", default=os.path.join(HERE, "results.md"))
    ap.add_argument("--svg", default=os.path.join(HERE, "results.svg"))
    ap.add_argument("--no-callgrind", action="store_true")
    args = ap.parse_args()
    sizes = sorted(set(args.sizes))
    if len(sizes) < 3:
        fail("need at least 3 sizes for a fit with error bars")
    binary = find_binary(args.build)

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    samples = run_sweep(binary, args.reps, sizes)
    medians = {key: statistics.median(v) for key, v in samples.items()}
    fits = {k: fit_line([float(n) for n in sizes], [medians[(k, n)] for n in sizes]) for k in KINDS}
    r_raw = ratio(fits["emul"][1], fits["emul"][3], fits["raw"][1], fits["raw"][3])
    r_libc = ratio(fits["emul"][1], fits["emul"][3], fits["libc"][1], fits["libc"][3])
    overhead = fits["emul"][1] - fits["raw"][1]
    overhead_se = math.hypot(fits["emul"][3], fits["raw"][3])
    cg = None if args.no_callgrind else callgrind_counts(binary, 16, 1024, args.rounds)

    lines = [
        "# Fallback (emulated) dispatch cost",
        "",
        "Generated by `bench/fallback/run.py` on %s; do not edit by hand." % started,
        "",
        "- machine: %s, Linux %s, %d CPUs (shared; numbers are noisy, ratios are"
        " measured side by side in one interleaved run)" % (cpu_model(), platform.release(),
                                                            os.cpu_count() or 0),
        "- workload: N x getuid per batch; %d rounds over N = %s; per (kind, N) the"
        " median of the rounds; fit time = a + b*N by least squares over N"
        % (args.reps, " ".join(map(str, sizes))),
        "- command: `bench/fallback/run.py --build %s --reps %d`" % (os.path.relpath(args.build, ROOT)
                                                                     if os.path.isabs(args.build) else args.build,
                                                                     args.reps),
        "",
        "| path | a: fixed ns per batch | b: ns per call | b / b(raw) |",
        "|---|---:|---:|---:|",
    ]
    for k in KINDS:
        a, b, sa, sb = fits[k]
        rr = ratio(b, sb, fits["raw"][1], fits["raw"][3])
        lines.append("| %s | %.1f ± %.1f | %.2f ± %.2f | %.3f ± %.3f |"
                     % (LABELS[k], a, sa, b, sb, rr[0], rr[1]))
    lines += [
        "",
        "Per-call ratio emulated / raw syscall: **%.3f ± %.3f** (emulated / libc: %.3f ± %.3f);"
        " the emulator adds %.1f ± %.1f ns per slot." % (r_raw[0], r_raw[1], r_libc[0], r_libc[1],
                                                         overhead, overhead_se),
        "",
    ]
    if cg:
        lines += [
            "## Instructions (callgrind, deterministic)",
            "",
            "User-space instructions only (the `syscall` instruction counts as one; kernel"
            " work is invisible to callgrind).  From %d batches at N = 16 and N = 1024." % args.rounds,
            "",
            "| path | instructions per call/slot | fixed instructions per batch |",
            "|---|---:|---:|",
        ]
        for k in KINDS:
            lines.append("| %s | %.1f | %.1f |" % (LABELS[k], cg[k][0], cg[k][1]))
        lines.append("")
    lines += ["## Median ns per batch", "", "| N | " + " | ".join(KINDS) + " | emul / raw |",
              "|---:|" + "---:|" * (len(KINDS) + 1)]
    for n in sizes:
        lines.append("| %d | %s | %.3f |" % (n, " | ".join("%.0f" % medians[(k, n)] for k in KINDS),
                                             medians[("emul", n)] / medians[("raw", n)]))
    lines += ["", "Plot: `%s` (ns per call against N)." % os.path.basename(args.svg), ""]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    svg_plot(args.svg, sizes, medians, fits)
    print("\n".join(lines))
    print("wrote %s and %s" % (args.out, args.svg))


if __name__ == "__main__":
    main()
