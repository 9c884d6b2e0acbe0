#!/bin/sh
# Configures and builds Inputs/cmake-project in DIR with the C compiler CC
# and the extra cmake arguments given, then prints whether catsize links
# the batch runtime and what it prints run on the emulated batch path.
#   cmake-project.sh CC DIR [cmake arguments...]
set -eu
cc=$1 dir=$2
shift 2
src=$(cd "$(dirname "$0")/cmake-project" && pwd)
rm -rf "$dir"
CC=$cc cmake -S "$src" -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1 \
    || { cat "$dir.configure.log"; exit 1; }
grep 'sysbatch plugin for C' "$dir.configure.log" || true
cmake --build "$dir" >"$dir.build.log" 2>&1 || { cat "$dir.build.log"; exit 1; }
if nm "$dir/catsize" | grep -q ' [Tt] sysbatch_run$'; then
    echo "catsize: links sysbatch_run"
else
    echo "catsize: no sysbatch_run"
fi
printf 'hello\n' > "$dir/in.txt"
BATCH_EMUL=1 SYSBATCH_STATS=1 "$dir/catsize" "$dir/in.txt" >"$dir/run.out" 2>"$dir/run.err"
cat "$dir/run.out" "$dir/run.err"
