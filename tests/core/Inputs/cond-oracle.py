"""Independent check of sb_cond_classes (sysbatch-plan --cond): for every
return convention, width, compare and constant, sample the values a call
site can see for each raw sign class (the ends of the class, the constant
and its neighbours when inside, a middle value) and derive the mask: a
class is in it when the compare holds for every sample, the answer is -1
when it holds for some and not others.  Prints one line per mismatch and a
summary; the sampled cases must agree with the tool everywhere."""
import subprocess
import sys

tool = sys.argv[1]
INT_MAX = {32: 2**31 - 1, 64: 2**63 - 1}
# what the call site sees per class (neg, zero, pos); None: impossible
def classes(conv, bits):
    m = INT_MAX[bits]
    return {
        "errno": [(-1, -1), (0, 0), (1, m)],
        "map-failed": [(-1, -1), None, (1, m)],
        "positive-error": [(1, 4095), (0, 0), None],
        "never-fails": [None, (0, 0), (1, m)],
    }[conv]

def holds(op, v, c, bits):
    mod = 2**bits
    if op == "eq":
        return v % mod == c % mod
    if op == "ne":
        return v % mod != c % mod
    if op[0] == "u":
        v, c = v % mod, c % mod
    return {"lt": v < c, "le": v <= c, "gt": v > c, "ge": v >= c}[op[1:]]

def expect(conv, bits, op, c):
    mask = 0
    for k, rng in enumerate(classes(conv, bits)):
        if rng is None:
            continue
        lo, hi = rng
        samples = {lo, hi, (lo + hi) // 2}
        for d in (-1, 0, 1):
            for cc in (c, c % 2**bits, c % 2**bits - 2**bits):
                if lo <= cc + d <= hi:
                    samples.add(cc + d)
        results = {holds(op, v, c, bits) for v in samples}
        if len(results) == 2:
            return -1
        if True in results:
            mask |= 1 << k
    return mask

constants = [-4096, -4095, -2, -1, 0, 1, 2, 5, 4095, 4096, 2**31 - 1, 2**31,
             2**32 - 1, 2**32, 2**63 - 1, -2**63, -2**31, -2**31 - 1]
ops = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
cases = bad = 0
for conv in ["errno", "map-failed", "positive-error", "never-fails"]:
    for bits in (32, 64):
        for op in ops:
            for c in constants:
                out = subprocess.run([tool, "--cond", conv, str(bits), op,
                                      str(c)], capture_output=True, text=True,
                                     check=True).stdout.split()[0]
                want = expect(conv, bits, op, c)
                cases += 1
                if int(out) != want:
                    bad += 1
                    print(f"mismatch: {conv} {bits} {op} {c}: tool {out}, "
                          f"expected {want}")
print(f"{cases} cases, {bad} mismatches")
