#!/usr/bin/env python3
"""Differential runner: build one C program with and without the sysbatch
plugins, run every build in a fresh directory, and compare everything a user
could observe.

    sbcompare.py --tools build/tests/sbtools.json --work /tmp/w prog.c \
        --setup 'a.txt=hello' --expect-batches

Builds: the reference (gcc -O0, no plugin), then clang+pass and gcc+plugin at
-O0 and -O2 (whichever plugins this build has).  Each plugged build runs twice:
plainly (no sys_batch here, so the versioned original calls run) and with
BATCH_EMUL=1 (the batch path through libsysbatch's user-space loop).

Compared with the reference run: stdout, exit status, the files left in the
run directory (type, mode, size, content), and under strace the sequence of
system calls with their arguments (addresses and pids masked, the sys_batch
probe dropped).  --expect-batches also requires the BATCH_EMUL run to report
at least one batch through SYSBATCH_STATS, proving batching really happened.
The stats line goes to SYSBATCH_STATS_FILE (outside the run directory), and
the runtime's open/write/close of that file is left out of the strace
comparison (SYSBATCH_STATS would add its start-up copy of fd 2 as well).

Exit status: 0 all equal, 1 a difference (printed as a unified diff), 2 a
build or usage error, 77 nothing to compare (no plugin built).
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

STATS_RE = re.compile(r"emulated (\d+) batches")
CALLS_RE = re.compile(r"calls (\d+)")
# A program's own count of the calls its loops make that every plugged
# build batches (--expect-calls-printed).
PRINTED_CALLS_RE = re.compile(r"^calls in batched loops: (\d+)$")
STATS_OPEN_RE = re.compile(r'^openat\(AT_FDCWD, "([^"]*)", [^)]*\) = (\d+)$')


def load_tools(path):
    with open(path) as f:
        tools = json.load(f)
    return tools


def variants(tools, opt_levels, only, verify=False):
    """(name, command prefix, plugged) for every build this machine can make.
    With verify, the plugins' verify mode is on: every batched call site
    checks at run time that its slot ran with the original arguments."""
    rt = [tools["runtime_lib"]] if tools.get("runtime_lib") else []
    inc = ["-I" + tools["runtime_include"]]
    clang_verify = (["-g", "-mllvm", "-sysbatch-verify", "-Xclang", "-load", "-Xclang",
                     tools.get("llvm_plugin", "")] if verify else [])
    gcc_verify = ["-fplugin-arg-sysbatch-verify"] if verify else []
    out = [("ref-gcc-O0", [tools["gcc"] or "gcc", "-O0"] + inc, False, [])]
    if tools.get("llvm_plugin") and tools.get("clang"):
        for o in opt_levels:
            out.append(("clang-O%s" % o,
                        [tools["clang"], "-O" + o, "-fpass-plugin=" + tools["llvm_plugin"]]
                        + clang_verify + inc,
                        True, rt))
    if tools.get("gcc_plugin"):
        for o in opt_levels:
            out.append(("gcc-O%s" % o,
                        [tools["gcc"] or "gcc", "-O" + o, "-fplugin=" + tools["gcc_plugin"]]
                        + gcc_verify + inc,
                        True, rt))
    if only:
        out = [v for v in out if v[0] == "ref-gcc-O0" or any(v[0].startswith(p) for p in only)]
    return out


def build(cmd, libs, src, exe, extra):
    full = cmd + extra + ["-w", "-o", exe, src] + libs
    p = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.stderr.write("build failed: %s\n%s" % (" ".join(map(shlex.quote, full)), p.stdout))
        sys.exit(2)


def snapshot(root):
    """Every entry under root: path, type, permission bits, size, content hash."""
    rows = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            st = os.lstat(path)
            mode = oct(st.st_mode & 0o7777)
            if os.path.islink(path):
                rows.append("%s link -> %s" % (rel, os.readlink(path)))
            elif os.path.isdir(path):
                rows.append("%s dir %s" % (rel, mode))
            else:
                with open(path, "rb") as f:
                    digest = hashlib.sha1(f.read()).hexdigest()[:12]
                rows.append("%s file %s %d %s" % (rel, mode, st.st_size, digest))
    return rows


ADDR_RE = re.compile(r"0x[0-9a-f]+")
# fork() is clone() or clone3() under glibc: its result is the child's pid.
PID_CALLS = ("getpid", "getppid", "gettid", "getpgid", "getsid", "set_tid_address",
             "vfork", "fork", "clone(", "clone3(", "wait4")
WAIT4_RE = re.compile(r"^wait4\(\d+")


def drop_stats_file_calls(lines, stats_path):
    """Leave out libsysbatch's open, write and close of SYSBATCH_STATS_FILE."""
    out, fd = [], None
    for line in lines:
        flat = " ".join(line.split())
        m = STATS_OPEN_RE.match(flat)
        if stats_path and m and m.group(1) == stats_path:
            fd = m.group(2)
            continue
        if fd is not None and (flat.startswith('write(%s, "sysbatch:' % fd) or
                               flat.startswith("close(%s)" % fd)):
            if flat.startswith("close("):
                fd = None
            continue
        out.append(line)
    return out


def clean_strace(text, start_marker, stats_path=None):
    """The program's own calls, comparable across builds."""
    lines = drop_stats_file_calls(text.splitlines(), stats_path)
    # Start at the first call of main's work: the marker the program (or the
    # dynamic loader's last step) leaves; without one, compare everything.
    out = []
    for line in lines:
        if line.startswith("afs_syscall(") or line.startswith("syscall_0xb7("):
            continue  # the sys_batch probe of libsysbatch
        if line.startswith("execve("):
            continue  # names the binary, which differs per build
        if line.startswith('write(2, "sysbatch:'):
            continue  # libsysbatch's own SYSBATCH_STATS line
        if line.startswith("getrandom("):
            line = "getrandom(...)"  # malloc's random seed
        line = " ".join(line.split())  # strace pads to a column
        if line.startswith("--- SIGCHLD"):
            continue  # a vfork child's exit: when it is delivered is a race
        if line.startswith("+++") or line.startswith("---"):
            # A signal the program sent itself names its sender's pid.
            out.append(re.sub(r"si_pid=\d+", "si_pid=PID", line))
            continue
        line = ADDR_RE.sub("ADDR", line)
        # raise() and kill() name the process by its pid.
        line = re.sub(r"^(tgkill|tkill|kill)\(\d+, (\d+, )?", lambda m: m.group(1) + "(PID, " + ("PID, " if m.group(2) else ""), line)
        if line.startswith(PID_CALLS):
            line = re.sub(r"= \d+$", "= PID", line)
            line = re.sub(r"\(\d+\)", "(PID)", line)
            line = WAIT4_RE.sub("wait4(PID", line)
        out.append(line)
    if start_marker:
        for i, line in enumerate(out):
            if start_marker in line:
                return out[i:]
    return out


def run(exe, setup, env_extra, args, use_strace, strace_bin, start_marker):
    with tempfile.TemporaryDirectory(prefix="sbcmp-") as d, \
            tempfile.TemporaryDirectory(prefix="sbcmp-stats-") as stats_dir:
        stats_path = os.path.join(stats_dir, "stats")
        for spec in setup:
            name, _, content = spec.partition("=")
            if name.endswith("/"):
                os.makedirs(os.path.join(d, name), exist_ok=True)
            else:
                with open(os.path.join(d, name), "w") as f:
                    f.write(content)
        env = {k: v for k, v in os.environ.items()
               if k not in ("BATCH_EMUL", "SYSBATCH_EMUL", "BATCH_VERBOSE", "SYSBATCH_STATS",
                            "SYSBATCH_STATS_FILE")}
        env.update(env_extra)
        if env.get("SYSBATCH_STATS_FILE"):
            env["SYSBATCH_STATS_FILE"] = stats_path
        cmd = [exe] + args
        trace_file = None
        if use_strace:
            trace_file = os.path.join(tempfile.gettempdir(), "sbcmp-%d.trace" % os.getpid())
            cmd = [strace_bin, "-qq", "-o", trace_file] + cmd
        p = subprocess.run(cmd, cwd=d, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        obs = {
            "stdout": p.stdout.splitlines(),
            "exit": ["exit %d" % p.returncode],
            "files": snapshot(d),
        }
        if trace_file:
            with open(trace_file) as f:
                obs["strace"] = clean_strace(f.read().replace(d, "RUNDIR"), start_marker,
                                             stats_path)
            os.unlink(trace_file)
        stats = ""
        if os.path.exists(stats_path):
            with open(stats_path) as f:
                stats = f.read()
        return obs, p.stderr, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src")
    ap.add_argument("--tools", required=True, help="build/tests/sbtools.json")
    ap.add_argument("--work", required=True, help="directory for the builds")
    ap.add_argument("--setup", action="append", default=[],
                    help="NAME=CONTENT file (or NAME/ directory) created before each run")
    ap.add_argument("--arg", action="append", default=[], help="program argument")
    ap.add_argument("--opt", default="0,2", help="optimisation levels (comma list)")
    ap.add_argument("--only", action="append", default=[], help="variant name prefix (clang, gcc)")
    ap.add_argument("--expect-batches", action="store_true")
    ap.add_argument("--expect-calls", type=int, default=0,
                    help="the BATCH_EMUL run of every plugged build must run at least "
                         "this many calls inside batches (SYSBATCH_STATS 'calls N')")
    ap.add_argument("--expect-calls-printed", action="store_true",
                    help="as --expect-calls, with the floor the reference run prints: the "
                         "sum of its 'calls in batched loops: N' lines (the program counts "
                         "the calls of the loops it claims every plugged build batches)")
    ap.add_argument("--no-strace", action="store_true")
    ap.add_argument("--strace-from", default="",
                    help="compare strace lines from the first one containing this text")
    ap.add_argument("--cflags", default="", help="extra compiler flags")
    ap.add_argument("--verify", action="store_true",
                    help="build the plugged variants in the plugins' verify mode")
    a = ap.parse_args()

    tools = load_tools(a.tools)
    vs = variants(tools, a.opt.split(","), a.only, a.verify)
    if len(vs) == 1:
        print("UNSUPPORTED: no sysbatch plugin was built, nothing to compare")
        return 77
    os.makedirs(a.work, exist_ok=True)
    use_strace = not a.no_strace and bool(tools.get("strace")) and os.path.exists(tools["strace"])

    ref_obs = None
    failures = 0
    for name, cmd, plugged, libs in vs:
        exe = os.path.join(a.work, name)
        build(cmd, libs, a.src, exe, shlex.split(a.cflags))
        envs = [("plain", {})]
        if plugged:
            envs.append(("emul", {"BATCH_EMUL": "1", "SYSBATCH_STATS_FILE": "1"}))
        for env_name, env in envs:
            obs, err, stats = run(exe, a.setup, env, a.arg, use_strace, tools.get("strace"),
                           a.strace_from)
            label = "%s/%s" % (name, env_name)
            if ref_obs is None:
                ref_obs = obs
                if a.expect_calls_printed:
                    printed = [int(m.group(1)) for m in map(PRINTED_CALLS_RE.match, obs["stdout"]) if m]
                    if not printed:
                        print("NO COUNT: the program printed no 'calls in batched loops: N' line")
                        return 2
                    a.expect_calls = max(a.expect_calls, sum(printed))
                    print("expecting at least %d calls in batches (printed by the program)"
                          % a.expect_calls)
                continue
            for key in ref_obs:
                if obs.get(key) != ref_obs[key]:
                    failures += 1
                    print("DIFFERENT %s: %s" % (label, key))
                    sys.stdout.writelines(difflib.unified_diff(
                        [l + "\n" for l in ref_obs[key]], [l + "\n" for l in obs.get(key, [])],
                        "ref-gcc-O0/plain", label))
            if env_name == "emul" and a.expect_batches:
                m = STATS_RE.search(stats)
                if not m or int(m.group(1)) == 0:
                    failures += 1
                    print("NO BATCHES %s: stats were: %s; stderr was: %s"
                          % (label, stats.strip(), err.strip()))
                else:
                    print("%s: %s batches" % (label, m.group(1)))
            if env_name == "emul" and a.expect_calls:
                m = CALLS_RE.search(stats)
                got = int(m.group(1)) if m else 0
                if got < a.expect_calls:
                    failures += 1
                    print("TOO FEW BATCHED CALLS %s: %d, expected at least %d; stats were: %s"
                          % (label, got, a.expect_calls, stats.strip()))
                else:
                    print("%s: %d calls in batches" % (label, got))
            if failures == 0:
                print("same %s" % label)
    print("%d variants compared, %d differences" % (len(vs), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
