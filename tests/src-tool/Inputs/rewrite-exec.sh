#!/bin/sh
# rewrite-exec.sh: `sysbatch-src rewrite` SOURCE, build the original and the
# rewritten file with plain gcc and clang (no plugin), run each in a fresh
# directory set up the same way - the rewritten builds once as they are and
# once with BATCH_EMUL=1 (the batched path without a kernel sys_batch) -
# and compare stdout, exit status and the files left behind with the
# original's.  Prints one line per variant and, for the emulated runs, how
# many batches ran (SYSBATCH_STATS), so a test can see the batch path taken.
#
#   rewrite-exec.sh WORK SYSBATCH-SRC GCC CLANG RUNTIME-INCLUDE RUNTIME-LIB \
#                   SOURCE [SETUP...]
# SETUP: NAME=TEXT makes a file, NAME/ a directory (made in order).
set -u
work=$1 tool=$2 gcc=$3 clang=$4 rtinc=$5 rtlib=$6 src=$7
shift 7
rm -rf "$work" && mkdir -p "$work"
name=$(basename "$src" .c)
if ! $tool rewrite "$src" -o "$work/$name.rw.c" -- -I"$rtinc" 2>"$work/notes"; then
    echo "REWRITE FAILED"; cat "$work/notes"; exit 1
fi
echo "rewritten: $(grep -c 'sysbatch_run(' "$work/$name.rw.c") batches"
cat "$work/notes"

setup() { # DIR: the inputs, fresh
    rm -rf "$1" && mkdir -p "$1"
    for s in "$@"; do
        [ "$s" = "$1" ] && continue
        case $s in
        */) mkdir -p "$1/$s" ;;
        *=*) printf '%s\n' "${s#*=}" >"$1/${s%%=*}" ;;
        esac
    done
}
# run BIN TAG [ENV...]: stdout, status and a listing of the files left.
run() {
    bin=$1 tag=$2
    shift 2
    setup "$work/run.$tag" "$@" >/dev/null
    (cd "$work/run.$tag" && env $RUNENV "$bin" >"$work/$tag.out" 2>"$work/$tag.err"
     echo "status $?" >>"$work/$tag.out")
    (cd "$work/run.$tag" && find . -type f | LC_ALL=C sort | while read -r f; do
         printf '%s ' "$f"; cksum <"$f"; done) >"$work/$tag.files"
}

$gcc -O2 -w "$src" -o "$work/orig" || { echo "BUILD FAILED orig"; exit 1; }
$gcc -O2 -w "$work/$name.rw.c" -I"$rtinc" "$rtlib" -o "$work/rw.gcc" ||
    { echo "BUILD FAILED gcc"; exit 1; }
$clang -O2 -w "$work/$name.rw.c" -I"$rtinc" "$rtlib" -o "$work/rw.clang" ||
    { echo "BUILD FAILED clang"; exit 1; }
RUNENV= run "$work/orig" orig "$@"
differ=0
for v in gcc clang; do
    for mode in plain emul; do
        tag=$v.$mode
        if [ $mode = emul ]; then
            RUNENV="BATCH_EMUL=1 SYSBATCH_STATS=1"
        else
            RUNENV="SYSBATCH_STATS=1"
        fi
        run "$work/rw.$v" $tag "$@"
        if cmp -s "$work/orig.out" "$work/$tag.out" &&
           cmp -s "$work/orig.files" "$work/$tag.files"; then
            verdict=same
        else
            verdict=DIFFERENT
            differ=$((differ + 1))
            diff "$work/orig.out" "$work/$tag.out"
            diff "$work/orig.files" "$work/$tag.files"
        fi
        ran=$(sed -n 's/.*emulated \([0-9]*\) batches.*/\1/p' "$work/$tag.err" | tail -1)
        echo "$tag: $verdict (emulated batches: ${ran:-none})"
    done
done
echo "4 variants compared, $differ differences"
