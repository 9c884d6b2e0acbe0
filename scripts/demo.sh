#!/bin/sh
# The sysbatch demo: build everything, then for two examples - cat_one.c
# (open/fstat/read/close chained through the fd) and checked_cat.c (the same
# with every result checked: a batch with forward jumps) - compile with clang
# and with gcc, each with the sysbatch plugin, show what was batched (and
# what was not, and why) and the plan, then run every build.  Then the same,
# more briefly, for path_search.c (first open that succeeds) and du_walk.c
# (a du-like directory walk).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build -j2 >/dev/null

out=build/demo
mkdir -p $out
rt="-Iruntime/include build/runtime/libsysbatch.a"
llvm_plugin=build/llvm-pass/SysbatchPass.so
gcc_plugin=build/gcc-plugin/host/sysbatch.so

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

for ex in cat_one checked_cat; do
    src=examples/$ex.c
    say "clang-14 -O2 -fpass-plugin=$llvm_plugin -Rpass=sysbatch -Rpass-missed=sysbatch $src"
    clang-14 -O2 -fpass-plugin=$llvm_plugin -Rpass=sysbatch -Rpass-missed=sysbatch \
        $src $rt -o $out/$ex.clang

    say "gcc -O2 -fplugin=$gcc_plugin -fopt-info-optimized-missed $src   (sysbatch lines)"
    gcc -O2 -fplugin=$gcc_plugin -fopt-info-optimized-missed \
        $src $rt -o $out/$ex.gcc 2>&1 | grep 'sysbatch:' || true

    say "the plan (core's format; gcc -fplugin-arg-sysbatch-print-plan prints the same)"
    gcc -O2 -fplugin=$gcc_plugin -fplugin-arg-sysbatch-print-plan -Iruntime/include -c $src -o /dev/null

    printf 'hello from a batched read\n' > $out/$ex.txt
    for cc in clang gcc; do
        say "run the $cc build plainly: this kernel has no sys_batch, the original calls run"
        (cd $out && SYSBATCH_STATS=1 ./$ex.$cc)
        say "run the $cc build with BATCH_EMUL=1: batches run through libsysbatch's user-space loop"
        (cd $out && BATCH_EMUL=1 BATCH_VERBOSE=1 SYSBATCH_STATS=1 ./$ex.$cc)
    done
done

# Briefer: what each compiler batched, then one run of each build with the
# batches going through libsysbatch's user-space loop.
demo_dir=$out/tree
rm -rf $demo_dir
mkdir -p $demo_dir/etc $demo_dir/src/lib
printf 'found in etc\n' > $demo_dir/etc/app.conf
printf 'int main(void) { return 0; }\n' > $demo_dir/src/main.c
printf 'void lib(void) {}\n' > $demo_dir/src/lib/lib.c
for ex in path_search du_walk; do
    src=examples/$ex.c
    say "clang-14 -O2 -fpass-plugin=... and gcc -O2 -fplugin=... $src: what was batched"
    clang-14 -O2 -fpass-plugin=$llvm_plugin -Rpass=sysbatch $src $rt -o $out/$ex.clang
    gcc -O2 -fplugin=$gcc_plugin -fopt-info-optimized $src $rt -o $out/$ex.gcc 2>&1 |
        grep 'sysbatch:' || true
    for cc in clang gcc; do
        say "run the $cc build of $ex with BATCH_EMUL=1 (in $demo_dir)"
        (cd $demo_dir && BATCH_EMUL=1 SYSBATCH_STATS=1 ../$ex.$cc)
    done
done
