#!/usr/bin/env python3
"""Where a program's system calls come from: `strace -f -k` grouped by site.

    bench/reach/callsites.py [--top N] [--cwd DIR] BINARY [ARG ...]
    bench/reach/callsites.py [--top N] --trace FILE BINARY

Runs BINARY ARG... under `strace -f -k` (or reads an earlier trace FILE) and
groups every system call by the innermost stack frame inside BINARY (its
file:line and function, from addr2line on the binary's debug information)
and by the libc function it went through. What the reach analysis needs:
which call sites in the program (or its gnulib copy) issue the most calls,
and whether a call is the program's own or libc's (opendir, fts, stdio).
The frames are return addresses, so each is looked up one byte earlier (the
call instruction). A call with no frame in BINARY (the dynamic loader) is
grouped under "(outside the program)".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYSCALL = re.compile(r"^(?:\[pid\s+)?(\d+)\]?\s+([a-z_0-9]+)\(")
RESUMED = re.compile(r"^(?:\[pid\s+)?(\d+)\]?\s+<\.\.\. ([a-z_0-9]+) resumed>")
FRAME = re.compile(r"^ > (\S+?)\((?:([^)+]*)(?:\+0x[0-9a-f]+)?)?\) \[0x([0-9a-f]+)\]")


def die(msg):
    sys.stderr.write("callsites: error: %s\n" % msg)
    sys.exit(1)


def parse(trace, binary):
    """[(syscall, [frames as (object, function, offset)])] in trace order."""
    events = []
    cur = None
    with open(trace, errors="replace") as f:
        for line in f:
            if line.startswith(" > "):
                m = FRAME.match(line)
                if m and cur is not None:
                    cur[1].append((m.group(1), m.group(2) or "?", int(m.group(3), 16)))
                continue
            m = SYSCALL.match(line)
            if m and "<unfinished ...>" not in line:
                cur = (m.group(2), [])
                events.append(cur)
                continue
            m = RESUMED.match(line)
            if m:
                cur = (m.group(2), [])
                events.append(cur)
                continue
            if "<unfinished ...>" in line:
                # its frames follow; the resumed line counts the call
                cur = None
    return events


def resolve(binary, offsets):
    """{offset: "file:line (function)"} by addr2line on the binary. A site
    inlined from a system header (glibc's fortified open, read) is named by
    the program line it was inlined into, after the header's."""
    out = {}
    for o in sorted(offsets):
        # one address a call: with -i the number of lines varies
        p = subprocess.run(["addr2line", "-f", "-i", "-C", "-e", binary, "0x%x" % (o - 1)],
                           stdout=subprocess.PIPE, text=True, check=True)
        lines = p.stdout.splitlines()
        chain = [(lines[i], re.sub(r" \(discriminator \d+\)$", "", lines[i + 1]))
                 for i in range(0, len(lines) - 1, 2)]
        func, where = chain[0]
        # addr2line names the function a location is in on the next pair
        names = [f for f, _ in chain]
        sites = [w for _, w in chain]
        text = "%s (%s)" % (shorten(where), func)
        caller = next((i for i, w in enumerate(sites) if not w.startswith("/usr/include/")), None)
        if caller is not None and caller > 0:
            text = "%s (%s) via %s" % (shorten(sites[caller]), names[caller],
                                       os.path.basename(where))
        out[o] = text
    return out


def shorten(path):
    """A source path from the build's debug info, from its tree's top."""
    for top in ("/src/", "/lib/", "/gnulib/", "/runtime/"):
        i = path.rfind(top)
        if i >= 0:
            return path[i + 1:]
    return path


def main(argv):
    top, trace, cwd = 25, None, None
    args = argv[1:]
    while args and args[0].startswith("--"):
        if args[0] == "--top" and len(args) > 1:
            top, args = int(args[1]), args[2:]
        elif args[0] == "--trace" and len(args) > 1:
            trace, args = args[1], args[2:]
        elif args[0] == "--cwd" and len(args) > 1:
            cwd, args = args[1], args[2:]
        else:
            die("unknown option %s" % args[0])
    if not args:
        die("usage: callsites.py [--top N] [--cwd DIR] [--trace FILE] BINARY [ARG ...]")
    binary = os.path.realpath(args[0])
    if not os.path.exists(binary):
        die("%s: no such file" % args[0])
    if not shutil.which("addr2line"):
        die("addr2line not found (binutils)")
    tmp = None
    if trace is None:
        if not shutil.which("strace"):
            die("strace not found")
        tmp = tempfile.mkdtemp(prefix="callsites-")
        trace = os.path.join(tmp, "trace")
        with open(os.devnull, "w") as null:
            subprocess.run(["strace", "-f", "-k", "-qq", "-o", trace] + [binary] + args[1:],
                           cwd=cwd, stdout=null, stderr=null)
    events = parse(trace, binary)
    if tmp:
        shutil.rmtree(tmp)
    if not events:
        die("no system calls in the trace (was strace built with -k support?)")
    groups = {}
    offsets = set()
    for name, frames in events:
        mine = next((f for f in frames if os.path.realpath(f[0]) == binary), None)
        libc = next((f[1] for f in frames if "libc.so" in f[0] and f[1] != "?"), "-")
        if mine:
            offsets.add(mine[2])
        key = (name, mine[2] if mine else None, libc)
        groups[key] = groups.get(key, 0) + 1
    where = resolve(binary, offsets)
    total = len(events)
    print("%d system calls; by the innermost frame in %s:" % (total, os.path.basename(binary)))
    print("%8s %6s  %-14s %-22s %s" % ("calls", "share", "syscall", "through libc", "site"))
    for (name, off, libc), n in sorted(groups.items(), key=lambda kv: -kv[1])[:top]:
        site = where.get(off, "(outside the program)") if off is not None else "(outside the program)"
        print("%8d %5.1f%%  %-14s %-22s %s" % (n, 100.0 * n / total, name, libc, site))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
