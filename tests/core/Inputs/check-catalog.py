#!/usr/bin/env python3
"""Compare the catalogue with what glibc really does.

usage: check-catalog.py CATALOG STRACE

CATALOG is `sysbatch-plan --catalog`; STRACE is `strace -n -X raw -s 512`
of catalog-calls.c, which marks each call with statfs("@@<fn>|<args>", NULL).
For every marked call this checks, against the row <fn> resolves to:
  - exactly one syscall follows the marker (the wrapper does nothing else),
    or none for a row the catalogue says the vDSO serves;
  - its name is the row's raw name, and its number (strace -n) the row's
    nr, which is what a slot really issues;
  - each raw argument strace shows is the row's constant, "", or the libc
    argument the marker states (pointers the marker calls p are skipped).
syscall(NR, ...) markers are checked against the row of NR with the
arguments after NR passed through.  A marker "@@!<fn>|..." states a call the
row's precheck refuses (fchmodat with AT_SYMLINK_NOFOLLOW, fcntl F_GETOWN):
there glibc must not make the row's plain call, or the precheck would be
needless.  Every batchable Linux row, and every
vDSO row, must be exercised at least once.  Prints one line per problem and
a summary; exits 1 on any problem.
"""
import re
import sys

VDSO_ROWS = {"clock_gettime", "gettimeofday", "time", "getcpu"}


def parse_catalog(path):
    rows, by_symbol = {}, {}
    for line in open(path):
        words = line.split()
        if not words or words[0] != "row":
            continue
        row = {"name": words[1]}
        for w in words[2:]:
            if "=" in w and not w.startswith('never='):
                k, v = w.split("=", 1)
                row[k] = v
        row["flags"] = set(row.get("flags", "-").split(",")) - {"-"}
        raw = row.get("raw_args", "-")
        row["raw_args"] = [] if raw == "-" else raw.split(",")
        row["nr"] = int(row["nr"])
        if row["abi"] != "linux":
            continue
        rows[row["name"]] = row
        by_symbol[row["name"]] = row
        for alias in row.get("aliases", "-").split(","):
            if alias != "-":
                by_symbol[alias] = row
    return rows, by_symbol


def split_args(text):
    """Split strace's argument list at top-level commas."""
    args, depth, cur, i, quote = [], 0, "", 0, False
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\" and i + 1 < len(text):
                cur += text[i + 1]
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
            cur += c
        elif c in "[{(":
            depth += 1
            cur += c
        elif c in "]})":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        args.append(cur.strip())
    return args


LINE = re.compile(r"^(?:\[\s*(\d+)\] )?([a-z0-9_]+)\((.*)\)\s+= ")
EXIT = re.compile(r"^(?:\[\s*(\d+)\] )?exit_group\((.*?)\)")


def parse_strace(path):
    """(name, arguments, number or None without strace -n) per call."""
    calls = []
    for line in open(path):
        m = LINE.match(line)
        if m:
            nr = int(m.group(1)) if m.group(1) else None
            calls.append((m.group(2), split_args(m.group(3)), nr))
            continue
        m = EXIT.match(line)
        if m:
            nr = int(m.group(1)) if m.group(1) else None
            calls.append(("exit_group", split_args(m.group(2)), nr))
    return calls


def as_int(text):
    # -X raw still decorates some flag sets: statx's 0 prints as nothing and
    # 0x100 as "|0x100".
    text = text.lstrip("|")
    if text in ("NULL", ""):
        return 0
    if re.fullmatch(r"-?0[0-7]+", text):
        return int(text, 8)
    return int(text, 0)


def check_call(rows, row, where, libc, made):
    """What differs between the syscalls glibc made and the row's recipe."""
    problems = []
    if row["name"] in VDSO_ROWS:
        if made:
            problems.append("%s: vDSO row made syscalls %s" %
                            (where, [c[0] for c in made]))
        return problems
    if len(made) != 1:
        problems.append("%s: expected exactly one syscall, strace shows %s"
                        % (where, [c[0] for c in made]))
        return problems
    name, shown, shown_nr = made[0]
    recipe = row["raw_args"]
    expect_name = row["raw"]
    expect_nr = row["nr"]
    if "raw-syscall" in row["flags"]:
        nr = as_int(libc[0][2:])
        target = [r for r in rows.values()
                  if r["nr"] == nr and "raw-syscall" not in r["flags"]]
        if not target:
            problems.append("%s: NR %d has no row" % (where, nr))
            return problems
        expect_name = target[0]["raw"]
        expect_nr = nr
        recipe = ["a%d" % (i + 1) for i in range(len(libc) - 1)]
    if "runtime-converted" in row["flags"]:
        # The runtime issues the raw call itself and adds what glibc adds
        # (sigaction: the kernel's sigsetsize, 8); pointers are its own.
        recipe = recipe + ["8"]
        expect_nr = None  # the slot's number is the runtime's pseudo call
    if name != expect_name:
        problems.append("%s: catalogue says %s, glibc made %s" %
                        (where, expect_name, name))
        return problems
    if "never" in row["flags"]:
        return problems
    if expect_nr is not None and shown_nr is not None and \
            shown_nr != expect_nr:
        problems.append("%s: catalogue issues NR %d, glibc's %s is NR %d" %
                        (where, expect_nr, name, shown_nr))
    if len(shown) > len(recipe):
        problems.append("%s: strace shows %d arguments, the recipe has %d"
                        % (where, len(shown), len(recipe)))
    for i, (how, got) in enumerate(zip(recipe, shown)):
        if how == '""':
            ok, want = got == '""', '""'
        elif how.startswith("a"):
            k = int(how[1:])
            if k >= len(libc):
                ok, want = True, "(missing)"
            else:
                spec = libc[k]
                if spec == "p":
                    continue
                if spec == "n":
                    want = "NULL"
                    ok = got == "NULL" or got == "0"
                elif spec.startswith("s:"):
                    want = '"%s"' % spec[2:]
                    ok = got == want
                else:
                    want = spec[2:]
                    try:
                        ok = as_int(got) == int(want)
                    except ValueError:
                        ok = False
        else:
            want = how
            try:
                ok = as_int(got) == int(how)
            except ValueError:
                ok = False
        if not ok:
            problems.append("%s: raw argument %d of %s: catalogue wants "
                            "%s, strace shows %s" % (where, i, name, want,
                                                     got))
    return problems


def main():
    rows, by_symbol = parse_catalog(sys.argv[1])
    calls = parse_strace(sys.argv[2])
    problems, exercised, checked = [], set(), 0

    marks = [i for i, (name, args, _) in enumerate(calls)
             if name == "statfs" and args and args[0].startswith('"@@')]
    if not marks:
        print("no markers in the strace output")
        return 1
    for n, start in enumerate(marks):
        end = marks[n + 1] if n + 1 < len(marks) else len(calls)
        made = calls[start + 1:end]
        text = calls[start][1][0].strip('"')[2:]
        # "@@!fn|..." marks a call the catalogue's precheck refuses: glibc
        # must NOT make the row's plain call for it (else the precheck is
        # needless and batching it would be safe).
        refused = text.startswith("!")
        fields = text.lstrip("!").split("|")
        fn, libc = fields[0], [f for f in fields[1:] if f]
        where = "%s(%s)" % (fn, ", ".join(libc))
        row = by_symbol.get(fn)
        if row is None:
            problems.append("%s: no catalogue row" % where)
            continue
        checked += 1
        found = check_call(rows, row, where, libc, made)
        if refused:
            if not found:
                problems.append("%s: marked as refused by the precheck, but "
                                "glibc made exactly the row's call" % where)
            continue
        exercised.add(row["name"])
        problems.extend(found)

    batchable = {r["name"] for r in rows.values()
                 if not r["flags"] & {"never", "raw-syscall"}}
    for missing in sorted((batchable | VDSO_ROWS) - exercised):
        problems.append("row %s is not exercised by catalog-calls.c" % missing)
    for p in problems:
        print("MISMATCH " + p)
    print("checked %d calls covering %d rows, %d problems" %
          (checked, len(exercised), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
