#!/usr/bin/env python3
"""Feed the same option lists to every front end and print what each did.

    option_parity.py --clang CLANG --plugin SO --opt OPT --gcc GCC
                     --gcc-plugin SO --plan SYSBATCH-PLAN --src FILE.c
                     CASE...

A CASE is a ';'-separated list of KEY[=VALUE] items, as in
`sysbatch<...>`.  Each tool gets the list in its own spelling:

    opt            -passes='sysbatch<CASE>'
    clang          -mllvm -sysbatch-KEY[=VALUE] per item
    gcc            -fplugin-arg-sysbatch-KEY[=VALUE] per item
    sysbatch-plan  --KEY[=VALUE] per item

and the outcome is "accepted" or the first "sysbatch: ..." error line.
One line per case:

    CASE => OUTCOME

when every tool agrees, else one line per tool and exit status 1.  clang
takes each key as its own -mllvm flag, so an unknown key is LLVM's own
"Unknown command line argument" there (and a value given to a boolean
flag is cl::opt's error): for clang only acceptance is compared in those
cases.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ERROR = re.compile(r"(sysbatch: .*)")


def items(case):
    return [i for i in case.split(";") if i]


def outcome(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=env)
    if p.returncode == 0:
        return "accepted", None
    for line in p.stdout.splitlines():
        m = ERROR.search(line)
        if m and "failed to initialize" not in line:
            # GCC quotes with %qs-style characters only in its own texts;
            # the core's texts are plain ASCII.
            return m.group(1).strip(), p.stdout
    return "error (no sysbatch message)", p.stdout


def main():
    ap = argparse.ArgumentParser()
    for a in ["clang", "plugin", "opt", "gcc", "gcc-plugin", "plan", "src"]:
        ap.add_argument("--" + a, required=True)
    ap.add_argument("cases", nargs="+")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="sb-parity-")
    ll = os.path.join(tmp, "in.ll")
    region = os.path.join(tmp, "region.txt")
    subprocess.run([args.clang, "-O0", "-Xclang", "-disable-O0-optnone", "-S",
                    "-emit-llvm", args.src, "-o", ll], check=True)
    with open(region, "w") as f:
        f.write("call getpid\ncall getppid\n")

    status = 0
    for case in args.cases:
        its = items(case)
        results = {}
        results["opt"] = outcome([args.opt, "-load-pass-plugin=" + args.plugin,
                                  "-passes=sysbatch<%s>" % case,
                                  "-disable-output", ll])
        clang = [args.clang, "-O2", "-c", args.src, "-o", os.devnull,
                 "-fpass-plugin=" + args.plugin,
                 "-Xclang", "-load", "-Xclang", args.plugin]
        for i in its:
            clang += ["-mllvm", "-sysbatch-" + i]
        results["clang"] = outcome(clang)
        gcc = [args.gcc, "-O2", "-c", args.src, "-o", os.devnull,
               "-fplugin=" + args.gcc_plugin]
        gcc += ["-fplugin-arg-sysbatch-" + i for i in its]
        results["gcc"] = outcome(gcc)
        results["sysbatch-plan"] = outcome([args.plan] + ["--" + i for i in its]
                                           + [region])

        texts = {t: r[0] for t, r in results.items()}
        accepted = {t: r[0] == "accepted" for t, r in results.items()}
        clang_own = (not accepted["clang"]
                     and not texts["clang"].startswith("sysbatch:"))
        compared = {t: v for t, v in texts.items()
                    if not (t == "clang" and clang_own)}
        agree = len(set(accepted.values())) == 1 and len(set(compared.values())) == 1
        if agree:
            print("%s => %s" % (case or "(none)", texts["opt"]))
            continue
        status = 1
        print("%s => DISAGREE" % (case or "(none)"))
        for t, (text, out) in results.items():
            print("  %-14s %s" % (t, text))
            if out and text.startswith("error (no"):
                print("    " + out.strip().replace("\n", "\n    "))
    return status


if __name__ == "__main__":
    sys.exit(main())
