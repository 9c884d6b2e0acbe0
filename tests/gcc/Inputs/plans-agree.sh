#!/bin/sh
# plans-agree.sh: print the plan the GCC plugin writes and the plan the LLVM
# pass prints for the same C file at the same -O level, and compare them.
# Each compiler visits functions in its own order (GCC in call-graph order
# from -O1 on, LLVM in source order), so the per-function, per-block
# sections are sorted before comparing; inside a section the text must be
# byte for byte the same.
#
#   plans-agree.sh WORK "GCC+PLUGIN" "CLANG+PASS" OPT SOURCE...
#
# PLANS_AGREE_LOOPS=1 compares only the loop plans ("function F loop N:"
# sections), without their headers (at -O2 clang plans a static
# function's loop where it was inlined, GCC before inlining), and of a
# refused loop only the reason's name: the detail after it is each front
# end's own description of the IR fact it found.
set -u
work=$1 gcc=$2 clang=$3 opt=$4
shift 4
mkdir -p "$work"

# sections FILE: one line per "function ... block ...:" section, with the
# section's lines joined by '|', sorted.
sections() {
    awk '/^function .* (block [0-9]+( part [0-9]+)?|loop [0-9]+):$/ { if (s != "") print s; s = $0; next }
         { s = s "|" $0 }
         END { if (s != "") print s }' "$1" | LC_ALL=C sort | {
        if [ "${PLANS_AGREE_LOOPS:-}" = 1 ]; then
            grep ' loop [0-9]*:|' | sed 's/^function [^|]* loop [0-9]*:|//;
                s/\(: refused: [a-z-]*\):.*/\1/' | LC_ALL=C sort
        else
            cat
        fi
    }
}

differ=0 n=0
for src in "$@"; do
    name=$(basename "$src" .c)
    $gcc "$opt" -w -fplugin-arg-sysbatch-print-plan -c "$src" -o /dev/null \
        2>"$work/$name.gcc.raw" || { echo "GCC FAILED $name"; cat "$work/$name.gcc.raw"; }
    $clang "$opt" -w -mllvm -sysbatch-print-plan -c "$src" -o /dev/null \
        2>"$work/$name.llvm.raw" || { echo "CLANG FAILED $name"; cat "$work/$name.llvm.raw"; }
    sections "$work/$name.gcc.raw" >"$work/$name.gcc"
    sections "$work/$name.llvm.raw" >"$work/$name.llvm"
    n=$((n + 1))
    if [ ! -s "$work/$name.gcc" ]; then
        echo "NO PLAN $name"
        differ=$((differ + 1))
    elif cmp -s "$work/$name.gcc" "$work/$name.llvm"; then
        echo "agree $name ($(wc -l <"$work/$name.gcc") blocks)"
    else
        echo "DIFFER $name"
        diff "$work/$name.llvm" "$work/$name.gcc" | tr '|' '\n'
        differ=$((differ + 1))
    fi
done
echo "$n files compared at $opt, $differ differ"
