"""Random branchy regions through sysbatch-plan --check-hazards --simulate.

Usage: branch-fuzz.py TOOL SEED COUNT [pred].  Each region has 1..6 blocks in
topological order with 0..3 calls and some code each (conflicts naming
random later calls, sometimes a barrier), random terminators (a cond on
the block's last call, a goto or an exit to a later block; with `pred`, also
predicated branches on an available value, sb_term_kind SB_TERM_PRED) and operands
drawn from constants, available values, results and memory words of earlier
calls, and local values.  Every plan must pass the hazard checker and the
simulation, under random options; the tool must not crash.  Prints a
summary and every failing region."""
import random
import subprocess
import sys

tool, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with_pred = sys.argv[4:] == ["pred"]
rng = random.Random(seed)
# (name, number of libc args, arg index of an fd, out-buffer arg or None)
CALLS = [("open", 2, None, None), ("close", 1, 0, None),
         ("fstat", 2, 0, 1), ("read", 3, 0, None), ("getpid", 0, None, None),
         ("access", 2, None, None), ("mmap", 6, 4, None),
         ("posix_fadvise", 4, 0, None), ("umask", 1, None, None),
         ("puts", 1, None, None), ("execve", 3, None, None)]

def operand(k, fd_arg, ncalls, fstats):
    r = rng.random()
    if k == fd_arg and ncalls and r < 0.6:
        return "ret:%d" % rng.randrange(ncalls)
    if k == 2 and fstats and r < 0.3:
        return "mem:%d:1:48" % rng.choice(fstats)
    if r < 0.1:
        return "local"
    if r < 0.5:
        return "avail"
    return "const:%d" % rng.choice([0, 1, 3, 4096])

def region():
    nblocks = rng.randint(1, 6)
    lines, ncalls, fstats = [], 0, []
    for b in range(nblocks):
        lines.append("block")
        ncall_here = rng.randint(1 if b == 0 else 0, 3)
        last = None
        for _ in range(ncall_here):
            if rng.random() < 0.25:
                if rng.random() < 0.2:
                    lines.append('barrier why="unknown call"')
                else:
                    conf = sorted({rng.randrange(ncalls + 6)
                                   for _ in range(rng.randint(1, 2))})
                    lines.append("code conflicts=%s why=\"store\"" %
                                 ",".join(map(str, conf)))
            name, nargs, fd_arg, _ = rng.choice(CALLS)
            args = " ".join("a%d=%s" % (k, operand(k, fd_arg, ncalls, fstats))
                            for k in range(nargs))
            lines.append(("call %s %s" % (name, args)).rstrip())
            if name == "fstat":
                fstats.append(ncalls)
            last = ncalls
            ncalls += 1
        if rng.random() < 0.2:
            lines.append('code why="x = 1"')
        later = list(range(b + 1, nblocks)) + ["exit"]
        r = rng.random()
        if with_pred and rng.random() < 0.35:
            lines.append("pred true=%s false=%s" %
                         (rng.choice(later), rng.choice(later)))
        elif last is not None and r < 0.6:
            lines.append("cond %d neg=%s zero=%s pos=%s" %
                         (last, rng.choice(later), rng.choice(later),
                          rng.choice(later)))
        elif r < 0.85:
            lines.append("goto %s" % rng.choice(later))
        else:
            lines.append("exit")
    return "\n".join(lines) + "\n"

fails = batched = branchy = predicated = 0
for i in range(count):
    text = region()
    opts = rng.choice([[], ["--max-slots=3"], ["--min-batch=1"],
                       ["--no-blocking"], ["--max-slots=6", "--min-batch=3"]])
    p = subprocess.run([tool, "--check-hazards", "--simulate"] + opts + ["-"],
                       input=text, capture_output=True, text=True)
    if p.returncode != 0 or "no difference" not in p.stdout and \
            "skipped" not in p.stdout:
        fails += 1
        print("FAIL region %d (options %s), status %d:\n%s%s%s" %
              (i, " ".join(opts), p.returncode, text, p.stdout, p.stderr))
    batched += "batch 0" in p.stdout
    branchy += ", branchy" in p.stdout
    predicated += " true: " in p.stdout
if with_pred:
    print("%d regions, %d batched, %d branchy, %d predicated, %d failures" %
          (count, batched, branchy, predicated, fails))
else:
    print("%d regions, %d batched, %d branchy, %d failures" %
          (count, batched, branchy, fails))
