#!/bin/sh
# Builds Inputs/make-project in DIR with `make CC=sysbatch-cc` and the real
# compiler REAL behind the wrapper, then prints what a test checks: whether
# each program links the batch runtime, whether it needs a libsysbatch
# shared library, and its output and batch counts when run (the emulated
# path, so the batch path runs on any kernel).
#   make-project.sh REAL DIR
set -eu
real=$1 dir=$2
src=$(dirname "$0")/make-project
rm -rf "$dir"
cp -r "$src" "$dir"
cp "$(dirname "$0")/project-src/"* "$dir"   # the C sources all three projects share
cd "$dir"
SYSBATCH_CC=$real make -s CC=sysbatch-cc >build.log 2>&1 || { cat build.log; exit 1; }
for prog in catsize helper; do
    if nm "$prog" | grep -q ' [Tt] sysbatch_run$'; then
        echo "$prog: links sysbatch_run"
    else
        echo "$prog: no sysbatch_run"
    fi
    if readelf -d "$prog" | grep -q 'NEEDED.*libsysbatch'; then
        echo "$prog: needs libsysbatch.so"
    else
        echo "$prog: needs no libsysbatch.so"
    fi
done
printf 'hello\n' > in.txt
for run in "./catsize in.txt" ./helper; do
    BATCH_EMUL=1 SYSBATCH_STATS=1 $run >run.out 2>run.err
    cat run.out run.err
done
