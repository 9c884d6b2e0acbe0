#!/bin/sh
# lone_first.sh BUILD_DIR [ITERATIONS]: one VM boot under qemu -icount
# shift=0 (guest nanoseconds are guest instructions) with sysbatch.ko
# loaded; sbk_lone_first runs 3 times alternating with SYSBATCH_MIN_BATCH=1
# (every batch through sys_batch, as before the runtime's break-even rule
# for a batch whose first slot ends it) and with the module's break-even.
# Prints the console lines and the instructions per iteration of each.
set -eu
build=$1
iters=${2:-2000}
man=$(mktemp)
trap 'rm -f "$man"' EXIT
grep -E "^(kernel|module|busybox|qemu|exit-helper) " "$build/kernel/vm-manifest.txt" > "$man"
grep -q '^exit-helper' "$man" || { echo "lone_first.sh: no VM manifest in $build" >&2; exit 3; }
prog=$build/kernel/bench/sbk_lone_first
[ -x "$prog" ] || cmake --build "$build" --target sbk_lone_first
for r in 0 1 2; do
    echo "test lone-kernel-r$r 0 $prog SYSBATCH_MIN_BATCH=1 -- $iters" >> "$man"
    echo "test lone-rule-r$r 0 $prog -- $iters" >> "$man"
done
out=$(mktemp)
SYSBATCH_VM_ICOUNT=1 SYSBATCH_VM_ACCEL=tcg python3 "$(dirname "$0")/../../scripts/vm-run.py" "$man" \
    --results "$out.results" --log "$out" --timeout 600 >/dev/null || true
grep '^lone-' "$out" | tr -d '\r'
grep '^lone-' "$out" | tr -d '\r' | awk -v n="$iters" '
    /plain ns/ { k = $1; sub(/-r[0-9]+\|$/, "", k); p[k] = (p[k] == "" || $5 < p[k]) ? $5 : p[k] }
    /batch ns/ { k = $1; sub(/-r[0-9]+\|$/, "", k); b[k] = (b[k] == "" || $5 < b[k]) ? $5 : b[k] }
    END { for (k in b) printf "%s: plain call %.0f, batch %.0f instructions per iteration (fewest of 3), batch/plain %.2f\n", k, p[k] / n, b[k] / n, b[k] / p[k] }'
rm -f "$out" "$out.results"
