#!/usr/bin/env python3
"""Run the differential test over a range of seeds.

    run.py --tools build/tests/sbtools.json --seeds 1-12 [--programs 25] [--work DIR]

Each seed makes one C file of --programs random programs (gen.py, or
genloop.py with --loops); that file
is built with and without the sysbatch plugins and every build is compared
with the unplugged reference by sbcompare.py (stdout with every result and
errno, exit status, files left behind, strace call order).  The first seed
that differs is printed with the command that reproduces it; the exit status
is 1 if any seed differed, 77 if no plugin is built.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import genloop  # noqa: E402


def seed_range(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tools", required=True)
    ap.add_argument("--seeds", required=True, help="A-B, inclusive")
    ap.add_argument("--programs", type=int, default=25)
    ap.add_argument("--length", type=int, default=14)
    ap.add_argument("--work", default=None)
    ap.add_argument("--opt", default="0,2")
    ap.add_argument("--no-strace", action="store_true")
    ap.add_argument("--only", action="append", default=[], help="variant prefix (clang, gcc)")
    ap.add_argument("--keep-going", action="store_true")
    ap.add_argument("--branchy", action="store_true", help="programs with branches (gen.py --branchy)")
    ap.add_argument("--flags", action="store_true",
                    help="with --branchy: branches on flags too (gen.py --flags)")
    ap.add_argument("--loops", action="store_true", help="loop programs (genloop.py)")
    ap.add_argument("--names", action="store_true",
                    help="with --loops: writev and more ways to build a name (genloop.py --names)")
    ap.add_argument("--verify", action="store_true",
                    help="plugged builds in verify mode (every batched call site checks its slot's arguments)")
    a = ap.parse_args()

    work = a.work or tempfile.mkdtemp(prefix="sbdiff-")
    os.makedirs(work, exist_ok=True)
    compare = os.path.join(HERE, "..", "tools", "sbcompare.py")
    bad = []
    seeds = seed_range(a.seeds)
    for seed in seeds:
        src = os.path.join(work, "seed%d.c" % seed)
        with open(src, "w") as f:
            if a.loops:
                f.write(genloop.generate(seed, a.programs, a.names))
            else:
                f.write(gen.generate(seed, a.programs, a.length, a.branchy,
                                     flags=a.flags))
        cmd = [sys.executable, compare, "--tools", a.tools, "--work",
               os.path.join(work, "seed%d" % seed), "--opt", a.opt, src, "--expect-batches"]
        if a.no_strace:
            cmd.append("--no-strace")
        if a.verify:
            cmd.append("--verify")
        for o in a.only:
            cmd += ["--only", o]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode == 77:
            print(p.stdout.strip())
            return 77
        if p.returncode != 0:
            bad.append(seed)
            print("seed %d DIFFERS (%s)" % (seed, src))
            print(p.stdout)
            print("reproduce: %s" % " ".join(cmd))
            if not a.keep_going:
                break
        else:
            print("seed %d same (%d programs)" % (seed, a.programs))
    total = len(seeds) * a.programs
    print("difftest: %d seeds, %d programs, %d seeds differ" % (len(seeds), total, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
