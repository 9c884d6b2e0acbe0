#!/usr/bin/env python3
"""The reach benchmark: how much of real programs sysbatch batches.

    bench/reach/run.sh BUILD_DIR [PROGRAM ...]     (programs: see PROGRAMS)

For each real C program (Debian 12 source packages nobody here wrote), this
  1. fetches its source with `apt-get source` into $REACH_SRC (needs a
     deb-src line for bookworm main; `apt-get build-dep NAME` must have been
     run), and never into the repository;
  2. builds it once per variant (VARIANTS: gcc and clang, each plain and
     with its plugin; plugged builds link BUILD_DIR/runtime/libsysbatch.a)
     out of tree under $REACH_WORK/build/<program>/<variant>, the plugged
     ones with the plugins' remarks on (-fopt-info-optimized-missed,
     -Rpass=sysbatch -Rpass-missed=sysbatch);
  3. static reach: from the remarks, candidate call sites batched and the
     refusal reasons of the others;
  4. runs the program's own test suite (its tests/ directory) for every
     variant, plugged ones both plainly (no sys_batch here: the original
     calls run behind the branch) and with BATCH_EMUL=1 (the batches run);
     every test whose result differs from plain gcc's is reported - a new
     failure in a plugged build is a miscompile;
  5. dynamic reach: syscall-heavy commands over a fixed tree (a copy of the
     findutils source) run with BATCH_EMUL=1 and SYSBATCH_STATS_FILE under
     `strace -f -c`: the system calls that ran inside batches (`calls N`,
     summed over processes) against strace's total;
  6. writes $REACH_WORK/results.json, docs/reach.md, docs/reach.dat and
     docs/reach.svg (gnuplot).

Environment: REACH_WORK (default /tmp/sysbatch-reach), REACH_SRC (default
$REACH_WORK/src), REACH_VARIANTS (space-separated subset of VARIANTS),
REACH_SKIP_TESTS=1 (no test suites), REACH_JOBS (make -j, default 2),
REACH_OPTIONS (plugin options for both plugins, e.g. "placement=early"),
REACH_TESTS (globs of automake tests, e.g. "tests/cp/*.sh tests/misc/cat*":
run only those, compared with plain gcc on those only; with REACH_REUSE=1 an
earlier full run of the reference is kept), REACH_DEBIAN_FLAGS=1
(dpkg-buildflags' CFLAGS, CPPFLAGS and LDFLAGS instead of -O2 -g: stack
protector, _FORTIFY_SOURCE=2, relro), REACH_DOCS (where the report goes
instead of docs/).
`--report-only` rewrites the docs from an existing results.json.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name -> how to build and test it; `binaries` are paths in the build tree.
PROGRAMS = {
    # tests: (directory, make target) pairs; check-am is a directory's own
    # tests without its SUBDIRS (so not gnulib's unit tests).
    "findutils": {"configure": ["--disable-nls"],
                  "tests": [(".", "check-am"), ("find/testsuite", "check"),
                            ("xargs/testsuite", "check")],
                  "binaries": {"find": "find/find", "xargs": "xargs/xargs"}},
    "cpio": {"configure": ["--disable-nls"], "tests": [("tests", "check")],
             "binaries": {"cpio": "src/cpio"}},
    "diffutils": {"configure": ["--disable-nls"], "tests": [("tests", "check")],
                  "binaries": {"diff": "src/diff", "cmp": "src/cmp"}},
    "patch": {"configure": [], "tests": [("tests", "check")],
              "binaries": {"patch": "src/patch"}},
    # tar's configure refuses to run as root unless told it may (the CI
    # machine and this one build as root); its suite is autotest.
    "tar": {"configure": ["--disable-nls"], "env": {"FORCE_UNSAFE_CONFIGURE": "1"},
            "tests": [("tests", "check")],
            "binaries": {"tar": "src/tar"}},
    # sed's tests live in testsuite/ but are run by the top Makefile
    # (non-recursive); check-am there leaves out gnulib-tests.
    "sed": {"configure": ["--disable-nls"], "tests": [(".", "check-am")],
            "binaries": {"sed": "sed/sed"}},
    # Debian's patch 1019724 puts a declaration right after a label in
    # lib/dfa.c, which clang 14 rejects (plain clang as much as plugged);
    # an empty statement after the label means the same in C.
    "grep": {"configure": ["--disable-nls"], "tests": [("tests", "check")],
             "fixups": [("lib/dfa.c", "stray_backslash:\n", "stray_backslash: ;\n")],
             "binaries": {"grep": "src/grep"}},
    "gzip": {"configure": [], "tests": [("tests", "check")],
             "binaries": {"gzip": "gzip"}},
    # coreutils' tests are run by the top Makefile (non-recursive), and
    # check-am there leaves out gnulib-tests. Debian's patches touch only
    # src/*.c, so the release's generated files stand (no autoreconf, which
    # would need the gnulib bootstrap's tools). Its configure, as tar's,
    # refuses root unless told it may.
    "coreutils": {"configure": ["--disable-nls"], "autoreconf": False,
                  "env": {"FORCE_UNSAFE_CONFIGURE": "1"},
                  "tests": [(".", "check-am")],
                  "binaries": {"du": "src/du", "ls": "src/ls", "cp": "src/cp",
                               "cat": "src/cat", "rm": "src/rm", "chmod": "src/chmod",
                               "stat": "src/stat", "mv": "src/mv"}},
    # rsync's own autoconf output is shipped and Debian's patches keep it
    # from being rerun; the options leave out what needs libraries not
    # installed here (and the SIMD checksum, which is C++ and assembler).
    # Its suite is runtests.sh, run by `make check` from the build tree.
    "rsync": {"configure": ["--disable-md2man", "--disable-simd", "--disable-asm",
                            "--disable-openssl", "--disable-xxhash", "--disable-zstd",
                            "--disable-lz4", "--disable-acl-support",
                            "--with-included-popt", "--with-included-zlib"],
              "autoreconf": False, "configure_cflags": True, "tests": [(".", "check")],
              "binaries": {"rsync": "rsync"}},
    # liblzma static only, so the test programs and xz link the plugged
    # objects without a shared library in between.
    "xz-utils": {"configure": ["--disable-nls", "--disable-shared", "--disable-doc"],
                 "libtool": True,
                 "tests": [("tests", "check")],
                 "binaries": {"xz": "src/xz/xz"}},
    # m4's own checks are checks/ (check-them over the manual's examples);
    # tests/ is gnulib's.
    "m4": {"configure": ["--disable-nls"], "tests": [("checks", "check")],
           "binaries": {"m4": "src/m4"}},
}
DEFAULT_PROGRAMS = ["findutils", "cpio", "diffutils"]

VARIANTS = ["plain-gcc", "gcc-plugin", "clang-plugin", "plain-clang"]
REFERENCE = "plain-gcc"


def log(msg):
    sys.stderr.write("reach: %s\n" % msg)
    sys.stderr.flush()


def die(msg):
    log("error: " + msg)
    sys.exit(1)


def run(cmd, cwd=None, env=None, out=None, check=True):
    """Run cmd (a list) with stdout+stderr to the file `out` (or inherited)."""
    fh = open(out, "w") if out else None
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT if fh else None)
    finally:
        if fh:
            fh.close()
    if check and p.returncode != 0:
        die("%s failed (exit %d)%s" % (" ".join(cmd), p.returncode, "; see " + out if out else ""))
    return p.returncode


def tools(build_dir):
    t = {
        "llvm_plugin": os.path.join(build_dir, "llvm-pass", "SysbatchPass.so"),
        "gcc_plugin": os.path.join(build_dir, "gcc-plugin", "host", "sysbatch.so"),
        "runtime": os.path.join(build_dir, "runtime", "libsysbatch.a"),
    }
    for k, v in t.items():
        if not os.path.exists(v):
            die("%s not found (%s): build the project first (cmake --build %s)" % (k, v, build_dir))
    t["clang"] = shutil.which("clang-14") or shutil.which("clang")
    t["gcc"] = shutil.which("gcc")
    t["strace"] = shutil.which("strace")
    for k in ("clang", "gcc", "strace"):
        if not t[k]:
            die("%s not found (scripts/install-deps.sh installs it)" % k)
    return t


def variant_flags(variant, t):
    """(CC, LIBS, extra CFLAGS for make, plugged?)"""
    if variant == "plain-gcc":
        return t["gcc"], "", "", False
    if variant == "plain-clang":
        return t["clang"], "", "", False
    # REACH_OPTIONS="placement=early ...": plugin options for both plugins
    # (a before/after comparison of one option in one run of the benchmark).
    opts = os.environ.get("REACH_OPTIONS", "").split()
    if variant == "gcc-plugin":
        args = "".join(" -fplugin-arg-sysbatch-" + o for o in opts)
        return ("%s -fplugin=%s%s" % (t["gcc"], t["gcc_plugin"], args), t["runtime"],
                "-fopt-info-optimized-missed", True)
    if variant == "clang-plugin":
        args = "".join(" -mllvm -sysbatch-" + o for o in opts)
        if args:
            args = " -Xclang -load -Xclang %s%s" % (t["llvm_plugin"], args)
        return ("%s -fpass-plugin=%s%s" % (t["clang"], t["llvm_plugin"], args), t["runtime"],
                "-Rpass=sysbatch -Rpass-missed=sysbatch", True)
    die("unknown variant " + variant)


# ---------------------------------------------------------------- sources

def source_dir(src_root, name):
    dirs = sorted(d for d in glob.glob(os.path.join(src_root, name + "-[0-9]*"))
                  if os.path.isdir(d))
    if dirs:
        src = dirs[-1]
        # Debian's patches touch configure.ac and friends, so a build would
        # try to rerun the autotools half-way; regenerate once, as the
        # package build does (dh_autoreconf).
        for rel, old, new in PROGRAMS.get(name, {}).get("fixups", []):
            path = os.path.join(src, rel)
            with open(path) as f:
                text = f.read()
            if old in text and new not in text:
                log("%s: %s: %r -> %r" % (name, rel, old, new))
                with open(path, "w") as f:
                    f.write(text.replace(old, new, 1))
        stamp = os.path.join(src, ".reach-autoreconf")
        if PROGRAMS.get(name, {}).get("autoreconf", True) and not os.path.exists(stamp):
            log("%s: autoreconf -fi" % name)
            run(["autoreconf", "-fi"], cwd=src, out=os.path.join(src_root, name + ".autoreconf.log"))
            open(stamp, "w").close()
        return src
    os.makedirs(src_root, exist_ok=True)
    log("fetching %s with apt-get source into %s" % (name, src_root))
    rc = run(["apt-get", "source", name], cwd=src_root,
             out=os.path.join(src_root, name + ".fetch.log"), check=False)
    if rc != 0:
        die("apt-get source %s failed: add a deb-src line for bookworm main to apt's "
            "sources, run apt-get update and apt-get build-dep %s (see %s)"
            % (name, name, os.path.join(src_root, name + ".fetch.log")))
    return source_dir(src_root, name)


# ---------------------------------------------------------------- builds

def build(name, variant, t, src, work, jobs):
    cc, libs, remark_flags, _ = variant_flags(variant, t)
    bdir = os.path.join(work, "build", name, variant)
    stamp = os.path.join(bdir, ".built")
    if os.path.exists(stamp):
        return bdir
    shutil.rmtree(bdir, ignore_errors=True)
    os.makedirs(bdir)
    cflags = "-O2 -g"
    env = dict(os.environ, CC=cc, CFLAGS=cflags, LIBS=libs)
    env.update(PROGRAMS[name].get("env", {}))
    if os.environ.get("REACH_DEBIAN_FLAGS", "") not in ("", "0"):
        # as a Debian package build: dpkg-buildflags' CFLAGS (stack
        # protector, format checks), CPPFLAGS (_FORTIFY_SOURCE=2, so the
        # fortified __read_chk/__open_2 wrappers) and LDFLAGS
        flags = {}
        for var in ("CFLAGS", "CPPFLAGS", "LDFLAGS"):
            flags[var] = subprocess.run(["dpkg-buildflags", "--get", var], stdout=subprocess.PIPE,
                                        text=True, check=True).stdout.strip()
        cflags = flags["CFLAGS"]
        env.update(CFLAGS=cflags, CPPFLAGS=flags["CPPFLAGS"], LDFLAGS=flags["LDFLAGS"])
    log("%s/%s: configure" % (name, variant))
    run([os.path.join(src, "configure")] + PROGRAMS[name]["configure"], cwd=bdir, env=env,
        out=os.path.join(bdir, "configure.out"))
    log("%s/%s: make" % (name, variant))
    t0 = time.time()
    make_cflags = cflags
    if PROGRAMS[name].get("configure_cflags"):
        # configure added include directories and defines to CFLAGS itself
        # (rsync's bundled popt and zlib): keep its value
        with open(os.path.join(bdir, "Makefile")) as f:
            make_cflags = re.search(r"^CFLAGS\s*=(.*)$", f.read(), re.M).group(1).strip()
    make_vars = ["CFLAGS=%s %s" % (make_cflags, remark_flags)]
    if PROGRAMS[name].get("libtool") and remark_flags.startswith("-R"):
        # libtool's link mode reads clang's -Rpass=... as a run path (-R)
        # and refuses it; CPPFLAGS reach only the compiles
        make_vars = ["CFLAGS=%s" % make_cflags, "CPPFLAGS=" + remark_flags]
    run(["nice", "make", "-j%d" % jobs] + make_vars, cwd=bdir,
        out=os.path.join(bdir, "build.log"))
    log("%s/%s: built in %.0f s" % (name, variant, time.time() - t0))
    open(stamp, "w").close()
    return bdir


GCC_BATCHED = re.compile(r"^(\S+?):(\d+):(\d+): optimized: sysbatch: batched (\d+) calls")
GCC_MISSED = re.compile(r"^(\S+?):(\d+):(\d+): missed: sysbatch: (\S+) not batched: ([a-z0-9-]+)")
CLANG_BATCHED = re.compile(r"^(\S+?):(\d+):(\d+): remark: batched (\d+) calls.*\[-Rpass=sysbatch\]")
CLANG_MISSED = re.compile(r"^(\S+?):(\d+):(\d+): remark: (\S+) not batched: ([a-z0-9-]+).*\[-Rpass-missed=sysbatch\]")
# A lone call's below-min-batch names what kept its neighbour out
# (core/plan-alone.c): "... pay for a batch: loop-back-edge: ...".
LONE_CAUSE = re.compile(r"not batched: below-min-batch \(too few calls in a row to pay for a batch: ([a-z-]+):")


def static_reach(bdir):
    """Batched call sites, batches, and refusals by reason, from the remarks."""
    batched = batches = big = 0
    reasons, callees, lone = {}, {}, {}
    with open(os.path.join(bdir, "build.log"), errors="replace") as f:
        for line in f:
            m = GCC_BATCHED.match(line) or CLANG_BATCHED.match(line)
            if m:
                n = int(m.group(4))
                batched += n
                batches += 1
                big += n > 3
                continue
            m = GCC_MISSED.match(line) or CLANG_MISSED.match(line)
            if m:
                reasons[m.group(5)] = reasons.get(m.group(5), 0) + 1
                callees[m.group(4)] = callees.get(m.group(4), 0) + 1
                c = LONE_CAUSE.search(line)
                if m.group(5) == "below-min-batch":
                    cause = c.group(1) if c else "unsaid"
                    lone[cause] = lone.get(cause, 0) + 1
    refused = sum(reasons.values())
    # never-batch sites (exit, execve, fork, vDSO calls) can never join a
    # batch; the second share leaves them out.
    batchable = batched + refused - reasons.get("never-batch", 0)
    return {"batched_sites": batched, "batches": batches, "batches_over_3": big,
            "refused_sites": refused, "candidates": batched + refused,
            "share": batched / (batched + refused) if batched + refused else 0.0,
            "share_batchable": batched / batchable if batchable else 0.0,
            "reasons": reasons,
            "lone_causes": lone,
            "refused_callees": dict(sorted(callees.items(), key=lambda kv: -kv[1])[:12])}


# ---------------------------------------------------------------- test suites

AUTOTEST = re.compile(r"^\s*(\d+): (.*?)\s+(ok|FAILED|skipped|expected failure|UNEXPECTED PASS)\b")
DEJAGNU = re.compile(r"^(PASS|FAIL|XFAIL|XPASS|UNRESOLVED|UNSUPPORTED|UNTESTED): (.*)$")
# rsync's runtests.sh: "PASS    name", "SKIP    name (why)"
RSYNC_TEST = re.compile(r"^(PASS|FAIL|SKIP|XFAIL)\s+(\S+)")
# m4's check-them: "Checking FILE", then "FILE: ... mismatch" or
# "FILE: status was ..." for a failure; skipped ones are listed at the end
M4_CHECKING = re.compile(r"^Checking (\S+)$")
M4_FAILED = re.compile(r"^(\S+): (stdout mismatch|stderr mismatch|status was .*)$")


def suite_results(bdir, test_dir, out_file, other_dirs=()):
    """{test: result} from automake .trs files, DejaGnu .sum files or
    autotest's summary; .trs files under other_dirs (the program's other
    test directories, below this one) belong to those and are left out."""
    res = {}
    top = os.path.join(bdir, test_dir)
    others = [os.path.normpath(os.path.join(bdir, d)) + os.sep for d in other_dirs]
    # os.walk does not follow symlinks: test suites leave symlink loops
    trs_files = [os.path.join(d, f) for d, _, files in os.walk(top) for f in files
                 if f.endswith(".trs")]
    for trs in trs_files:
        if any(os.path.normpath(trs).startswith(o) for o in others):
            continue
        with open(trs, errors="replace") as f:
            for line in f:
                if line.startswith(":test-result:"):
                    res[os.path.relpath(trs, bdir)[:-4]] = line.split()[1]
                    break
    for sumf in glob.glob(os.path.join(top, "*.sum")):
        seen = {}
        with open(sumf, errors="replace") as f:
            for line in f:
                m = DEJAGNU.match(line.rstrip("\n"))
                if m:
                    name = "%s: %s" % (os.path.relpath(sumf, bdir), m.group(2))
                    seen[name] = seen.get(name, 0) + 1
                    if seen[name] > 1:
                        name += " #%d" % seen[name]
                    res[name] = {"PASS": "PASS", "FAIL": "FAIL", "XFAIL": "XFAIL",
                                 "XPASS": "XPASS", "UNSUPPORTED": "SKIP",
                                 "UNTESTED": "SKIP"}.get(m.group(1), "ERROR")
    if res:
        return res
    with open(out_file, errors="replace") as f:
        lines = f.read().splitlines()
    for line in lines:
        m = RSYNC_TEST.match(line)
        if m and "runtests.sh" in "\n".join(lines[:40]):
            res[m.group(2)] = m.group(1)
    if res:
        return res
    skipped = False
    for line in lines:
        m = M4_CHECKING.match(line)
        if m:
            res[m.group(1)] = "PASS"
            continue
        m = M4_FAILED.match(line)
        if m and m.group(1) in res:
            res[m.group(1)] = "FAIL"
            continue
        if line.startswith("Skipped checks were:"):
            skipped = True
        elif skipped and line.startswith(" "):
            for name in line.split():
                for k in res:
                    if k == name or k.endswith("/" + name):
                        res[k] = "SKIP"
            skipped = False
    if res:
        return res
    with open(out_file, errors="replace") as f:
        for line in f:
            m = AUTOTEST.match(line)
            if m:
                r = {"ok": "PASS", "FAILED": "FAIL", "skipped": "SKIP",
                     "expected failure": "XFAIL", "UNEXPECTED PASS": "XPASS"}[m.group(3)]
                res["%s: %s" % (m.group(1), m.group(2))] = r
    return res


def run_suite(name, variant, bdir, emul, jobs):
    label = "%s/%s%s" % (name, variant, " BATCH_EMUL=1" if emul else "")
    env = dict(os.environ)
    env.pop("BATCH_EMUL", None)
    env.pop("SYSBATCH_EMUL", None)
    if emul:
        env["BATCH_EMUL"] = "1"
    results = {}
    subset = test_subset(name, bdir)
    for test_dir, target in PROGRAMS[name]["tests"]:
        out = os.path.join(bdir, "check-%s%s.out" % (test_dir.replace("/", "_").replace(".", "top"),
                                                     "-emul" if emul else ""))
        make_args = []
        if subset is not None:
            # the subset's names under this directory, relative to it
            mine = [os.path.relpath(n, test_dir) for n in subset
                    if test_dir == "." or n.startswith(os.path.normpath(test_dir) + "/")]
            if not mine:
                continue
            make_args = ["TESTS=" + " ".join(mine)]
        log("%s: make -C %s %s%s" % (label, test_dir, target,
                                     " (%d tests of REACH_TESTS)" % len(mine)
                                     if make_args else ""))
        t0 = time.time()
        run(["nice", "make", "-k", "-j%d" % jobs, "-C", test_dir, target] + make_args, cwd=bdir,
            env=env, out=out, check=False)
        got = suite_results(bdir, test_dir, out,
                            [d for d, _ in PROGRAMS[name]["tests"] if d != test_dir])
        if subset is not None:
            # the .trs files of tests outside the subset are an earlier
            # run's, not this one's
            wanted = {os.path.normpath(os.path.join(test_dir, os.path.splitext(n)[0]))
                      for n in mine}
            got = {k: v for k, v in got.items() if os.path.normpath(k) in wanted}
        log("%s: %d tests in %.0f s" % (label, len(got), time.time() - t0))
        results.update(got)
    return results


def test_subset(name, bdir):
    """REACH_TESTS="tests/cp/*.sh tests/misc/cat*": the automake tests
    (relative to the build directory, globs over the source tree) that this
    run is limited to, or None for the whole suite. A name counts only if the
    generated Makefile lists it, so helper scripts next to the tests do not."""
    patterns = os.environ.get("REACH_TESTS", "").split()
    if not patterns:
        return None
    src = source_dir(os.path.abspath(os.environ.get("REACH_SRC", os.path.join(
        os.environ.get("REACH_WORK", "/tmp/sysbatch-reach"), "src"))), name)
    makefiles = ""
    for d, _ in PROGRAMS[name]["tests"]:
        with open(os.path.join(bdir, d, "Makefile"), errors="replace") as f:
            makefiles += f.read()
    listed = set(re.findall(r"[\w./+-]+", makefiles))
    names = []
    for pat in patterns:
        hits = sorted(os.path.relpath(p, src) for p in glob.glob(os.path.join(src, pat)))
        hits = [h for h in hits if h in listed]
        if not hits:
            die("REACH_TESTS: %s names no test of %s" % (pat, name))
        names += [h for h in hits if h not in names]
    return names


# ---------------------------------------------------------------- dynamic reach

def make_tree(work, src_root):
    """The fixed input: a copy of the findutils source, plus a second copy
    with one file changed (for diff -r), a file list and an archive."""
    tree = os.path.join(work, "tree", "a")
    if not os.path.isdir(tree):
        shutil.copytree(source_dir(src_root, "findutils"), tree, symlinks=True)
        other = os.path.join(work, "tree", "b")
        shutil.copytree(tree, other, symlinks=True)
        with open(os.path.join(other, "README"), "a") as f:
            f.write("one more line\n")
    patch_file = os.path.join(work, "tree", "ab.diff")
    if not os.path.exists(patch_file):
        # for patch: a diff that touches every C file of the tree (a third
        # copy with one line appended to each), applied to a fresh copy of a
        changed = os.path.join(work, "tree", "c")
        shutil.copytree(tree, changed, symlinks=True)
        for d, _, files in os.walk(changed):
            for f in files:
                if f.endswith(".c") and not os.path.islink(os.path.join(d, f)):
                    with open(os.path.join(d, f), "a") as fh:
                        fh.write("/* one more line */\n")
        with open(patch_file, "w") as f:
            subprocess.run(["diff", "-ruN", "a", "c"], cwd=os.path.join(work, "tree"), stdout=f)
    return tree


def strace_total(path):
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and w[-1] == "total":
                return int(w[3])
    return 0


def stats_calls(path):
    """(calls in batches, of those the calls that shared their batch with
    another call - None when a line came from a runtime too old to say -,
    processes), summed over the stats lines in path."""
    calls, shared, procs = 0, 0, 0
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.search(r"; calls (\d+)(?:; shared (\d+))?$", line.strip())
                if m:
                    calls += int(m.group(1))
                    if m.group(2) is None or shared is None:
                        shared = None
                    else:
                        shared += int(m.group(2))
                    procs += 1
    return calls, shared, procs


def measure_share(strace, argv, scratch, cwd=None, stdin=None):
    """Run argv with BATCH_EMUL=1 and SYSBATCH_STATS_FILE under strace -f -c:
    (system calls strace counted, calls that ran inside batches, of those the
    calls that shared their batch (None: not told), processes that wrote a
    stats line)."""
    stats = os.path.join(scratch, "stats")
    trace = os.path.join(scratch, "strace")
    for p in (stats, trace):
        if os.path.exists(p):
            os.unlink(p)
    env = dict(os.environ, BATCH_EMUL="1", SYSBATCH_STATS_FILE=stats)
    env.pop("SYSBATCH_STATS", None)
    with open(stdin or os.devnull) as inp, open(os.devnull, "w") as devnull:
        subprocess.run([strace, "-f", "-c", "-o", trace] + argv, cwd=cwd, env=env,
                       stdin=inp, stdout=devnull, stderr=devnull)
    calls, shared, procs = stats_calls(stats)
    return strace_total(trace), calls, shared, procs


def commands(bins, work):
    """(name, argv, stdin file or None) over the fixed tree."""
    tree = os.path.join(work, "tree", "a")
    other = os.path.join(work, "tree", "b")
    listing = os.path.join(work, "tree", "list")
    archive = os.path.join(work, "tree", "archive.cpio")
    cmds = []
    if "find" in bins:
        cmds += [("find -type f (walk)", [bins["find"], tree, "-type", "f"], None),
                 ("find -ls (recursive long listing)", [bins["find"], tree, "-ls"], None),
                 ("find -printf %k (du-like sizes)", [bins["find"], tree, "-printf", "%k %p\\n"], None)]
    if "cpio" in bins:
        cmds += [("cpio -o (archive a tree)", [bins["cpio"], "--quiet", "-o", "-H", "newc"], listing),
                 ("cpio -id (extract a tree)", [bins["cpio"], "--quiet", "-id"], archive),
                 ("cpio -pd (copy a tree)", [bins["cpio"], "--quiet", "-pd", "DEST"], listing)]
    if "diff" in bins:
        cmds += [("diff -r (compare two trees)", [bins["diff"], "-r", tree, other], None)]
    if "gzip" in bins:
        # every file of the tree compressed to stdout: open, fstat, read,
        # write and close per file (the runner discards stdout)
        cmds += [("gzip -rc (compress a tree)", [bins["gzip"], "-rc", tree], None)]
    if "patch" in bins:
        cmds += [("patch -p1 (apply a tree diff)", [bins["patch"], "-s", "-p1", "-d",
                                                    "DEST", "-i", os.path.join(work, "tree", "ab.diff")],
                  None)]
    if "tar" in bins:
        # the archive goes to a file: tar skips reading the members' data
        # when it sees its archive is /dev/null
        cmds += [("tar -cf (archive a tree)", [bins["tar"], "-cf", "out.tar", "-C",
                                               os.path.dirname(tree), "a"], None),
                 ("tar -xf (extract a tree)", [bins["tar"], "-xf",
                                               os.path.join(work, "tree", "archive.tar")], None)]
    if "grep" in bins:
        # a string the tree does not hold: with stdout on /dev/null grep
        # stops reading a file at its first match, so only a miss reads
        # every file to its end
        cmds += [("grep -r (search a tree)", [bins["grep"], "-r", "-F", "sysbatch-reach-absent",
                                              tree], None)]
    if "sed" in bins:
        # every C file of a fresh copy of the tree edited in place (open,
        # read, a temporary file written, fchown/fchmod, rename per file);
        # names relative to the copy, which is the working directory
        cmds += [("sed -i (edit a tree in place)", [bins["sed"], "-i", "-e", "s/the/THE/g"]
                  + tree_c_files(tree), None)]
    if "rsync" in bins:
        # a local copy: rsync forks a receiver and a generator, the three
        # talk over pipes; the first run copies everything, the second
        # (--checksum over an identical copy) reads both sides of every file
        cmds += [("rsync -a (copy a tree)", [bins["rsync"], "-a", tree + "/", "DEST/copy"],
                  None),
                 ("rsync -ac (re-check an identical copy)",
                  [bins["rsync"], "-ac", tree + "/", os.path.join(work, "tree", "b") + "/"],
                  None)]
    if "xz" in bins:
        # every C file of a fresh copy compressed in place, one thread:
        # per file open, fstat, read, write, fchmod/fchown, utimens, close,
        # unlink; then every one decompressed back
        cmds += [("xz -k (compress every C file of a copy)",
                  [bins["xz"], "-T1", "-1", "-k"] + tree_c_files(tree), None),
                 ("xz -dc (decompress a tree's archive)",
                  [bins["xz"], "-dc", os.path.join(work, "tree", "archive.tar.xz")], None)]
    if "m4" in bins:
        # an input that undiverts (copies) every regular file of the tree
        cmds += [("m4 undivert (every file of a tree)", [bins["m4"]],
                  os.path.join(work, "tree", "undivert.m4"))]
    if "du" in bins:
        cmds += [("du -s (disk usage of a tree)", [bins["du"], "-s", tree], None)]
    if "ls" in bins:
        cmds += [("ls -lR (recursive long listing)", [bins["ls"], "-lR", tree], None)]
    if "cat" in bins:
        # every regular file of the tree named on one command line (what
        # `find | xargs cat` hands cat, without find's and xargs' own calls)
        cmds += [("cat (every file of a tree)", [bins["cat"]] + tree_files(tree), None)]
    if "stat" in bins:
        cmds += [("stat (every file of a tree)", [bins["stat"]] + tree_files(tree), None)]
    if "cp" in bins:
        cmds += [("cp -r (copy a tree)", [bins["cp"], "-r", tree, "DEST/copy"], None)]
    if "rm" in bins:
        cmds += [("rm -r (remove a copy of a tree)", [bins["rm"], "-r", "DEST/a"], None)]
    if "chmod" in bins:
        cmds += [("chmod -R (modes of a copy of a tree)", [bins["chmod"], "-R", "g+w,o-r",
                                                           "DEST/a"], None)]
    if "mv" in bins:
        # to another file system (/dev/shm is a tmpfs), so mv copies the
        # tree and removes it rather than making one rename
        shm = os.path.join("/dev/shm", "sysbatch-reach-mv-%d" % os.getpid())
        if os.path.isdir("/dev/shm") and os.stat("/dev/shm").st_dev != os.stat(tree).st_dev:
            cmds += [("mv (a copy of a tree to another file system)",
                      [bins["mv"], "DEST/a", shm], None)]
        else:
            cmds += [("mv (a copy of a tree within one file system)",
                      [bins["mv"], "DEST/a", "DEST/moved"], None)]
    return cmds


# commands that work on a fresh copy of the tree (in DEST) rather than on it
EDITS_A_COPY = ("patch", "sed", "xz")
# commands that remove or change a copy of the tree, made as DEST/a
CHANGES_A_COPY = ("rm", "chmod", "mv")


def tree_files(tree):
    """The tree's regular files, absolute, in a fixed order."""
    names = []
    for d, _, files in os.walk(tree):
        for f in files:
            path = os.path.join(d, f)
            if os.path.isfile(path) and not os.path.islink(path):
                names.append(path)
    return sorted(names)


def tree_c_files(tree):
    """The tree's regular .c files, relative to it, in a fixed order."""
    names = []
    for d, _, files in os.walk(tree):
        for f in files:
            path = os.path.join(d, f)
            if f.endswith(".c") and not os.path.islink(path):
                names.append(os.path.relpath(path, tree))
    return sorted(names)


def dynamic_reach(t, bins_by_variant, work, src_root):
    make_tree(work, src_root)
    tree_root = os.path.join(work, "tree")
    listing = os.path.join(tree_root, "list")
    archive = os.path.join(tree_root, "archive.cpio")
    if not os.path.exists(archive):
        with open(listing, "w") as f:
            subprocess.run(["find", "a", "-depth"], cwd=tree_root, stdout=f, check=True)
        with open(listing) as lf, open(archive, "wb") as af:
            subprocess.run(["cpio", "--quiet", "-o", "-H", "newc"], cwd=tree_root, stdin=lf,
                           stdout=af, check=True)
    tar_archive = os.path.join(tree_root, "archive.tar")
    if not os.path.exists(tar_archive):
        subprocess.run(["tar", "-cf", tar_archive, "a"], cwd=tree_root, check=True)
    xz_archive = os.path.join(tree_root, "archive.tar.xz")
    if not os.path.exists(xz_archive):
        subprocess.run(["xz", "-k", "-1", tar_archive], check=True)
    undivert = os.path.join(tree_root, "undivert.m4")
    if not os.path.exists(undivert):
        with open(undivert, "w") as f:
            for name in tree_files(os.path.join(tree_root, "a")):
                f.write("undivert(`%s')dnl\n" % name)
    rows = []
    for variant, bins in bins_by_variant.items():
        for cname, argv, stdin in commands(bins, work):
            scratch = os.path.join(work, "run", variant)
            shutil.rmtree(scratch, ignore_errors=True)
            if cname.split()[0] in EDITS_A_COPY:
                shutil.copytree(os.path.join(tree_root, "a"), os.path.join(scratch, "DEST"),
                                symlinks=True)
            else:
                os.makedirs(os.path.join(scratch, "DEST"))
            if cname.split()[0] in CHANGES_A_COPY:
                shutil.copytree(os.path.join(tree_root, "a"), os.path.join(scratch, "DEST", "a"),
                                symlinks=True)
            # cpio reads relative names from the list: run it from the tree root
            cwd = tree_root if stdin == listing else os.path.join(scratch, "DEST")
            argv = [os.path.join(scratch, a) if a == "DEST" or a.startswith("DEST/") else a
                    for a in argv]
            total, calls, shared, procs = measure_share(t["strace"], argv, scratch, cwd, stdin)
            for a in argv:
                # mv's target on the other file system is not under scratch
                if a.startswith("/dev/shm/sysbatch-reach-mv-"):
                    shutil.rmtree(a, ignore_errors=True)
            rows.append({"variant": variant, "command": cname, "syscalls": total,
                         "batched_calls": calls, "shared_calls": shared, "processes": procs,
                         "share": calls / total if total else 0.0})
            log("%s %s: %d of %d system calls in batches" % (variant, cname, calls, total))
    return rows


# ---------------------------------------------------------------- report

def pct(x):
    return "%.1f %%" % (100.0 * x)


def missing_parts(results):
    """What a run did not measure: builds without remarks, suite runs and
    programs without dynamic rows, for the programs and variants it was
    given (a run stopped for time, or results merged from several runs),
    so that a partial report says so instead of looking complete."""
    programs = results.get("programs", [])
    variants = results.get("variants")
    if variants is None:
        # results of a run before "variants" was kept: what it has
        variants = sorted({k.split("/")[1].replace(" BATCH_EMUL=1", "")
                           for k in list(results.get("static", {})) + list(results.get("suites", {}))})
    plugged = [v for v in variants if v.endswith("-plugin")]
    static = results.get("static", {})
    suites = results.get("suites", {})
    measured = {(r["variant"], r["command"].split()[0]) for r in results.get("dynamic", [])}
    out = []
    for name in programs:
        bins = PROGRAMS.get(name, {}).get("binaries", {})
        for v in plugged:
            if "%s/%s" % (name, v) not in static:
                out.append("%s/%s: not built (no static reach, no dynamic reach)" % (name, v))
            elif bins and not any((v, b) in measured for b in bins):
                out.append("%s/%s: no dynamic reach" % (name, v))
        if results.get("skip_tests"):
            continue
        for v in variants:
            for emul in ([False, True] if v in plugged else [False]):
                key = "%s/%s%s" % (name, v, " BATCH_EMUL=1" if emul else "")
                if key not in suites:
                    out.append("%s: test suite not run" % key)
    return out


def write_report(results, docs):
    static = results.get("static", {})
    suites = results.get("suites", {})
    dynamic = results.get("dynamic", [])
    L = []
    L.append("# Reach on real programs")
    L.append("")
    L.append("How much of real C programs, written by others, sysbatch batches today.")
    L.append("Generated by `bench/reach/run.sh BUILD_DIR` (`bench/reach/reach.py`; "
             "`--report-only` redraws from the last results); measured %s on %s."
             % (results.get("when", "?"), results.get("host", "?")))
    L.append("")
    L.append("Programs: %s, Debian 12 (bookworm) source packages fetched with "
             "`apt-get source`, built out of tree with `-O2 -g` by gcc 12 and clang 14, "
             "plain and with each plugin (plugged builds link `libsysbatch.a` through `LIBS`). "
             "Commit of sysbatch: `%s`." % (", ".join(results.get("programs", [])),
                                            results.get("commit", "?")))
    L.append("")
    L.append("## Static reach: candidate call sites batched")
    L.append("")
    L.append("From the plugins' remarks over the whole build (the programs and their "
             "gnulib copies): a candidate is a call to a catalogued function; "
             "it is either batched (`batched N calls`) or refused with a reason "
             "(`X not batched: reason`).")
    L.append("")
    L.append("| program | compiler | candidates | batched | share | share without never-batch sites | batches | batches > 3 calls |")
    L.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for key in sorted(static):
        s = static[key]
        prog, variant = key.split("/")
        L.append("| %s | %s | %d | %d | %s | %s | %d | %d |" % (
            prog, variant, s["candidates"], s["batched_sites"], pct(s["share"]),
            pct(s.get("share_batchable", 0.0)), s["batches"], s["batches_over_3"]))
    L.append("")
    L.append("Refusal reasons (sites):")
    L.append("")
    reasons = sorted({r for s in static.values() for r in s["reasons"]})
    L.append("| program | compiler | " + " | ".join(reasons) + " |")
    L.append("|---|---|" + "---:|" * len(reasons))
    for key in sorted(static):
        s = static[key]
        prog, variant = key.split("/")
        L.append("| %s | %s | " % (prog, variant) +
                 " | ".join(str(s["reasons"].get(r, 0)) for r in reasons) + " |")
    L.append("")
    causes = sorted({c for s in static.values() for c in s.get("lone_causes", {})})
    if causes:
        L.append("Lone calls (`below-min-batch`) by what kept the neighbour out "
                 "(the cause the remark names, core/plan-alone.c):")
        L.append("")
        L.append("| program | compiler | " + " | ".join(causes) + " |")
        L.append("|---|---|" + "---:|" * len(causes))
        # A build made by a plugin that did not name causes has no entry:
        # leave it out rather than print zeros for it.
        for key in sorted(static):
            s = static[key]
            if "lone_causes" not in s:
                continue
            prog, variant = key.split("/")
            L.append("| %s | %s | " % (prog, variant) +
                     " | ".join(str(s["lone_causes"].get(c, 0)) for c in causes) + " |")
        L.append("")
    L.append("Most refused callees: " + "; ".join(
        "%s: %s" % (k, ", ".join("%s %d" % kv for kv in list(s["refused_callees"].items())[:6]))
        for k, s in sorted(static.items())) + ".")
    L.append("")
    L.append("## Dynamic reach: system calls that ran inside batches")
    L.append("")
    L.append("Each command runs the plugged build with `BATCH_EMUL=1` (batches run "
             "through the runtime's user-space loop, which issues every batched call "
             "itself, so strace still sees each one) and `SYSBATCH_STATS_FILE`; "
             "`batched` is the sum of `calls N` over all processes, `shared` of "
             "`shared N` (the calls that shared their batch with another call: a "
             "batch that ran one call saved no crossing; `?` where the runtime "
             "measured did not report it), `total` is "
             "`strace -f -c`'s total. The input is a fixed tree: a copy of the "
             "findutils 4.9.0 source (for diff a second copy with one file changed; "
             "patch and sed -i edit a fresh copy; tar -xf extracts an archive of it; "
             "rm -r, chmod -R and mv work on a fresh copy, mv moving it to /dev/shm, "
             "another file system, so that it copies and removes; cat and stat get "
             "every regular file of the tree as arguments).")
    L.append("")
    L.append("| command | compiler | total system calls | batched | shared | share |")
    L.append("|---|---|---:|---:|---:|---:|")
    for r in dynamic:
        shared = r.get("shared_calls")
        L.append("| %s | %s | %d | %d | %s | %s |" % (r["command"], r["variant"], r["syscalls"],
                                                    r["batched_calls"],
                                                    "?" if shared is None else "%d" % shared,
                                                    pct(r["share"])))
    L.append("")
    L.append("![static and dynamic reach](reach.svg)")
    L.append("")
    L.append("## The programs' own test suites")
    L.append("")
    L.append("Each variant runs the program's `tests/` suite; plugged builds run it "
             "plainly (no sys_batch on this host: the original calls run) and with "
             "`BATCH_EMUL=1` (the batches run). Any test whose result differs from "
             "plain gcc's is listed; a new failure in a plugged build is a miscompile.")
    L.append("")
    L.append("| program | run | tests | pass | fail | skip | differs from plain gcc |")
    L.append("|---|---|---:|---:|---:|---:|---|")
    for key in sorted(suites):
        s = suites[key]
        counts = s["counts"]
        diff = s.get("differences", [])
        run_name = key.split("/", 1)[1]
        if s.get("subset"):
            run_name += " (REACH_TESTS=`%s`)" % s["subset"]
        L.append("| %s | %s | %d | %d | %d | %d | %s |" % (
            key.split("/")[0], run_name, s["total"], counts.get("PASS", 0),
            counts.get("FAIL", 0) + counts.get("ERROR", 0), counts.get("SKIP", 0),
            "; ".join(diff) if diff else "none"))
    if not suites:
        L.append("| (not run) | | | | | | |")
    L.append("")
    missing = missing_parts(results)
    if missing:
        L.append("Not measured in this run (the tables above hold the rest):")
        L.append("")
        for m in missing:
            L.append("- " + m)
        L.append("")
    hand = os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes.md")
    if os.path.exists(hand):
        with open(hand) as f:
            L.append(f.read().rstrip("\n"))
        L.append("")
    notes = results.get("notes", [])
    if notes:
        L.append("## Notes")
        L.append("")
        for n in notes:
            L.append("- " + n)
        L.append("")
    with open(os.path.join(docs, "reach.md"), "w") as f:
        f.write("\n".join(L))
    # plot data: one row per bar
    with open(os.path.join(docs, "reach.dat"), "w") as f:
        f.write("# label share_percent (static: candidate sites batched; dynamic: system calls in batches)\n")
        for key in sorted(static):
            f.write('"%s" %.2f\n' % (key.replace("/", " ").replace("-plugin", ""),
                                     100 * static[key]["share"]))
        f.write("\n\n")
        for r in dynamic:
            f.write('"%s %s" %.2f\n' % (r["command"].split(" (")[0], r["variant"].replace("-plugin", ""),
                                       100 * r["share"]))
    if not (static and dynamic):
        # a run of unplugged variants only has no bars; gnuplot fails on an
        # empty data block
        log("no static or no dynamic results: docs/reach.svg not redrawn")
    elif shutil.which("gnuplot"):
        script = """
set terminal svg size 900,640 font 'sans,10'
set output '%(out)s'
set multiplot layout 2,1
set style fill solid 0.7
set boxwidth 0.6
set yrange [0:100]
set ylabel 'percent'
set xtics rotate by -35 scale 0
set grid ytics
set title 'static: candidate call sites batched'
plot '%(dat)s' index 0 using 0:2:xtic(1) with boxes notitle lc rgb '#4472c4'
set yrange [0:*]
set title 'dynamic: system calls run inside batches (BATCH_EMUL=1; y autoscaled)'
plot '%(dat)s' index 1 using 0:2:xtic(1) with boxes notitle lc rgb '#ed7d31'
unset multiplot
""" % {"out": os.path.join(docs, "reach.svg"), "dat": os.path.join(docs, "reach.dat")}
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    else:
        log("gnuplot not found: docs/reach.svg not redrawn")


# ---------------------------------------------------------------- main

def main(argv):
    if len(argv) < 2:
        die("usage: run.sh BUILD_DIR [PROGRAM ...] | --report-only")
    work = os.path.abspath(os.environ.get("REACH_WORK", "/tmp/sysbatch-reach"))
    src_root = os.path.abspath(os.environ.get("REACH_SRC", os.path.join(work, "src")))
    # REACH_DOCS: where reach.md/.dat/.svg go, so that a side run (one
    # program, one variant) does not overwrite the committed report
    docs = os.path.abspath(os.environ.get("REACH_DOCS", os.path.join(REPO, "docs")))
    os.makedirs(docs, exist_ok=True)
    results_file = os.path.join(work, "results.json")
    if argv[1] == "--share":
        # --share SCRATCH_DIR CMD...: the dynamic measurement alone (CI's test)
        strace = shutil.which("strace")
        if len(argv) < 4 or not strace:
            die("usage: reach.py --share SCRATCH_DIR CMD... (needs strace)")
        os.makedirs(argv[2], exist_ok=True)
        total, calls, shared, procs = measure_share(strace, argv[3:], os.path.abspath(argv[2]))
        print("batched %d of %d system calls (%.1f %%) in %d processes; %s shared a batch"
              % (calls, total, 100.0 * calls / total if total else 0.0, procs,
                 "?" if shared is None else "%d" % shared))
        return 0
    if argv[1] == "--report-only":
        with open(results_file) as f:
            results = json.load(f)
        # the remarks are re-read, so a newer static_reach applies
        for key in results.get("static", {}):
            bdir = os.path.join(work, "build", *key.split("/"))
            if os.path.exists(os.path.join(bdir, "build.log")):
                results["static"][key] = static_reach(bdir)
        write_report(results, docs)
        return 0
    build_dir = os.path.abspath(argv[1])
    t = tools(build_dir)
    programs = argv[2:] or DEFAULT_PROGRAMS
    for p in programs:
        if p not in PROGRAMS:
            die("unknown program %s (known: %s)" % (p, ", ".join(PROGRAMS)))
    variants = os.environ.get("REACH_VARIANTS", " ".join(VARIANTS)).split()
    if REFERENCE not in variants:
        variants.insert(0, REFERENCE)
    jobs = int(os.environ.get("REACH_JOBS", "2"))
    skip_tests = os.environ.get("REACH_SKIP_TESTS", "") not in ("", "0")
    os.makedirs(work, exist_ok=True)
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    results = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "host": "%s, %d CPUs" % (os.uname().release, os.cpu_count() or 0),
               "commit": commit, "programs": programs, "variants": variants,
               "skip_tests": skip_tests, "static": {}, "suites": {},
               "dynamic": [], "notes": []}
    # REACH_REUSE=1: keep test-suite results of an earlier run of the same
    # builds (the builds themselves are always reused).
    earlier = {}
    if os.environ.get("REACH_REUSE", "") not in ("", "0") and os.path.exists(results_file):
        with open(results_file) as f:
            earlier = json.load(f).get("suites", {})
    bins_by_variant = {}
    for name in programs:
        src = source_dir(src_root, name)
        for variant in variants:
            bdir = build(name, variant, t, src, work, jobs)
            plugged = variant_flags(variant, t)[3]
            if plugged:
                results["static"]["%s/%s" % (name, variant)] = static_reach(bdir)
                for b, rel in PROGRAMS[name]["binaries"].items():
                    bins_by_variant.setdefault(variant, {})[b] = os.path.join(bdir, rel)
            if skip_tests:
                continue
            for emul in ([False, True] if plugged else [False]):
                key = "%s/%s%s" % (name, variant, " BATCH_EMUL=1" if emul else "")
                if key in earlier and earlier[key].get("total"):
                    log("%s: test results of the earlier run reused" % key)
                    res = earlier[key]["results"]
                    subset = earlier[key].get("subset")
                else:
                    res = run_suite(name, variant, bdir, emul, jobs)
                    subset = os.environ.get("REACH_TESTS") or None
                counts = {}
                for r in res.values():
                    counts[r] = counts.get(r, 0) + 1
                results["suites"][key] = {"total": len(res), "counts": counts, "results": res}
                if subset:
                    results["suites"][key]["subset"] = subset
        if not skip_tests:
            ref = results["suites"].get("%s/%s" % (name, REFERENCE), {}).get("results", {})
            for key, s in results["suites"].items():
                if not key.startswith(name + "/") or key == "%s/%s" % (name, REFERENCE):
                    continue
                diff = []
                # a run of a subset (REACH_TESTS) is compared on its tests only
                tests = set(s["results"]) if s.get("subset") else set(ref) | set(s["results"])
                for test in sorted(tests):
                    a, b = ref.get(test, "missing"), s["results"].get(test, "missing")
                    if a != b:
                        diff.append("%s: %s -> %s" % (test, a, b))
                s["differences"] = diff
        with open(results_file, "w") as f:
            json.dump(results, f, indent=1)
    results["dynamic"] = dynamic_reach(t, bins_by_variant, work, src_root)
    with open(results_file, "w") as f:
        json.dump(results, f, indent=1)
    write_report(results, docs)
    log("wrote %s and docs/reach.md" % results_file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
