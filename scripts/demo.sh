#!/bin/sh
# The sysbatch demo: build everything, compile examples/cat_one.c with clang
# and with gcc, each with the sysbatch plugin, show what was batched (and
# what was not, and why), then run both builds.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build -j2 >/dev/null

ex=examples/cat_one.c
out=build/demo
mkdir -p $out
printf 'hello from a batched read\n' > $out/cat_one.txt
rt="-Iruntime/include build/runtime/libsysbatch.a"

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "clang-14 -O2 -fpass-plugin=build/llvm-pass/SysbatchPass.so -Rpass=sysbatch -Rpass-missed=sysbatch $ex"
clang-14 -O2 -fpass-plugin=build/llvm-pass/SysbatchPass.so -Rpass=sysbatch -Rpass-missed=sysbatch \
    $ex $rt -o $out/cat_one.clang

say "gcc -O2 -fplugin=build/gcc-plugin/host/sysbatch.so -fopt-info-optimized-missed $ex (sysbatch lines)"
gcc -O2 -fplugin=build/gcc-plugin/host/sysbatch.so -fopt-info-optimized-missed \
    $ex $rt -o $out/cat_one.gcc 2>&1 | grep sysbatch

say "the plan both compilers made (core's plan format)"
gcc -O2 -fplugin=build/gcc-plugin/host/sysbatch.so -fplugin-arg-sysbatch-print-plan \
    -c $ex -o /dev/null 2>&1 || true

cd $out
for cc in clang gcc; do
    say "run the $cc build: this kernel has no sys_batch, so the original calls run"
    SYSBATCH_STATS=1 ./cat_one.$cc
    say "run the $cc build with BATCH_EMUL=1: the batch runs through libsysbatch's user-space loop"
    BATCH_EMUL=1 BATCH_VERBOSE=1 SYSBATCH_STATS=1 ./cat_one.$cc
done
