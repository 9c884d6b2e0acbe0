#!/bin/sh
# What sysbatch-cc costs per compile, measured side by side in one run:
# N compiles of tests/dropin/Inputs/make-project/util.c (-O2 -c) with
#   plain      the real compiler, no plugin
#   plugin     the real compiler with the plugin flag written out by hand
#   wrapper    sysbatch-cc COMPILER (the same plugin, found by the wrapper)
# and the ratios wrapper/plugin (the wrapper's own cost: one `COMPILER -v`
# and an exec) and plugin/plain (the plugin's).
#   bench/dropin/wrapper_overhead.sh PREFIX [COMPILER [N]]
# PREFIX is an install tree (cmake --install build --prefix PREFIX).
set -eu
prefix=$1 cc=${2:-gcc} n=${3:-40}
here=$(cd "$(dirname "$0")/../.." && pwd)
src=$here/tests/dropin/Inputs/make-project/util.c
wrapper=$prefix/bin/sysbatch-cc
plugin_flag=$("$wrapper" "$cc" --print-config | sed -n 's/^compile adds: \([^ ]*\).*/\1/p')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Wall seconds for N runs of a command (date +%s.%N: GNU date).
time_n() {
    t0=$(date +%s.%N)
    i=0
    while [ $i -lt "$n" ]; do
        "$@" -O2 -c "$src" -o "$tmp/o.o"
        i=$((i + 1))
    done
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}'
}

# Interleaved rounds so machine load hits all three alike.
plain=0 plugged=0 wrapped=0
for round in 1 2 3; do
    a=$(time_n "$cc")
    b=$(time_n "$cc" "$plugin_flag")
    c=$(time_n "$wrapper" "$cc")
    plain=$(echo "$plain $a" | awk '{print $1 + $2}')
    plugged=$(echo "$plugged $b" | awk '{print $1 + $2}')
    wrapped=$(echo "$wrapped $c" | awk '{print $1 + $2}')
done
total=$((3 * n))
echo "compiler $cc, $total compiles of util.c -O2 -c each"
awk -v a="$plain" -v b="$plugged" -v c="$wrapped" -v t="$total" 'BEGIN {
    printf "plain    %7.2f ms/compile\n", 1000 * a / t
    printf "plugin   %7.2f ms/compile\n", 1000 * b / t
    printf "wrapper  %7.2f ms/compile\n", 1000 * c / t
    printf "wrapper/plugin %.3f   plugin/plain %.3f\n", c / b, b / a
}'
