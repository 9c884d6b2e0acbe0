#!/bin/sh
# plans-agree.sh: the plan sysbatch-src prints for a C file against the
# plans the LLVM pass and the GCC plugin print for the same file at -O0
# (the level whose IR keeps the source's statements).  Sections ("function
# F block N:" and its lines) are sorted as in tests/gcc/Inputs/plans-agree.sh;
# inside a section the text must be byte for byte the same.  Loop batching
# is off in the plugins: sysbatch-src does not plan loops (docs/loops.md).
#
#   plans-agree.sh WORK SYSBATCH-SRC "GCC+PLUGIN" "CLANG+PASS" FLAGS SOURCE...
set -u
work=$1 src=$2 gcc=$3 clang=$4 flags=$5
shift 5
mkdir -p "$work"

# sysbatch-src does not describe what follows a region (sb_region.end), so
# the cause a lone call names after below-min-batch's text is left out.
sections() {
    sed 's/\(too few calls in a row to pay for a batch\): .*/\1/' "$1" |
    awk '/^function .* block [0-9]+( part [0-9]+)?:$/ { if (s != "") print s; s = $0; next }
         { s = s "|" $0 }
         END { if (s != "") print s }' | LC_ALL=C sort
}

differ=0 n=0
for f in "$@"; do
    name=$(basename "$f" .c)
    $src report --print-plan "$f" -- $flags -w 2>"$work/$name.src.err" |
        grep -v -e ': remark: ' -e ': note: ' -e '^fix-it:' >"$work/$name.src.raw" ||
        true
    $gcc -O0 $flags -w -fplugin-arg-sysbatch-print-plan -fplugin-arg-sysbatch-no-loops -c "$f" -o /dev/null \
        2>"$work/$name.gcc.raw" || echo "GCC FAILED $name"
    $clang -O0 $flags -w -mllvm -sysbatch-print-plan -mllvm -sysbatch-no-loops -c "$f" -o /dev/null \
        2>"$work/$name.llvm.raw" || echo "CLANG FAILED $name"
    for k in src gcc llvm; do sections "$work/$name.$k.raw" >"$work/$name.$k"; done
    n=$((n + 1))
    if [ ! -s "$work/$name.src" ]; then
        if [ -s "$work/$name.gcc" ] || [ -s "$work/$name.llvm" ]; then
            echo "NO PLAN $name"
            differ=$((differ + 1))
        else
            echo "agree $name: no system calls"
        fi
        continue
    fi
    for k in llvm gcc; do
        if cmp -s "$work/$name.src" "$work/$name.$k"; then
            echo "agree $name $k ($(wc -l <"$work/$name.src") blocks)"
        else
            echo "DIFFER $name $k"
            diff "$work/$name.$k" "$work/$name.src" | tr '|' '\n'
            differ=$((differ + 1))
        fi
    done
done
echo "$n files compared, $differ differ"
