#!/bin/sh
# exec-compare.sh: build one C program unplugged and with the sysbatch GCC
# plugin at -O0 and -O2, run every build in its own fresh directory (the
# plugged builds once normally and once with BATCH_EMUL=1, so the batches
# really run through libsysbatch), and compare each run with the unplugged
# one on stdout, exit code and the files left behind.
#
#   exec-compare.sh WORK SOURCE "REF_CC" "PLUGGED_CC" RUNTIME_LIB [ARGS...]
#
# SB_OPTS (environment) lists the -O levels of the plugged builds
# (default "O0 O2"), SB_REF_OPT the unplugged build's (default O0: a
# program whose behaviour depends on the level, as _FORTIFY_SOURCE's
# checks do, needs another); SB_CHECK_FLAGS the extra flags of every plugged build
# (default -fchecking, GCC's own IR checks; empty for clang).
# Prints one line per run ("same <name>" or "DIFFERENT <name>" plus a diff),
# the runtime's SYSBATCH_STATS line of every emulated run, and a summary
# "<n> runs compared, <d> different".
set -u
work=$1 src=$2 ref_cc=$3 sb_cc=$4 runtime=$5
shift 5

rm -rf "$work"
mkdir -p "$work"

build() { # name cc flags...
    name=$1 cc=$2
    shift 2
    if ! $cc "$@" "$src" "$runtime" -o "$work/$name.exe" 2>"$work/$name.build"; then
        echo "BUILD FAILED $name"
        cat "$work/$name.build"
        exit 1
    fi
}

# run NAME EXE [ENV...]: stdout + exit code in NAME.out, files in NAME.files
run() {
    name=$1 exe=$2
    shift 2
    dir="$work/$name.dir"
    mkdir -p "$dir"
    (cd "$dir" && env "$@" "$work/$exe.exe" ${args} >"$work/$name.out" 2>"$work/$name.err"
     echo "exit $?" >>"$work/$name.out")
    (cd "$dir" && find . -mindepth 1 | LC_ALL=C sort | while read -r f; do
        if [ -f "$f" ]; then
            echo "file $f: $(od -An -c "$f" | tr -s ' \n' ' ')"
        else
            echo "entry $f"
        fi
    done) >"$work/$name.files"
}

args="$*"
build ref "$ref_cc" "-${SB_REF_OPT:-O0}"
opts=${SB_OPTS:-O0 O2}
for opt in $opts; do
    build "sb-$opt" "$sb_cc" "-$opt" ${SB_CHECK_FLAGS--fchecking}
done

run ref ref
total=0 different=0
for opt in $opts; do
    for mode in plain emul; do
        name="sb-$opt-$mode"
        if [ $mode = emul ]; then
            run "$name" "sb-$opt" BATCH_EMUL=1 SYSBATCH_STATS=1
            echo "$name stats: $(grep '^sysbatch:' "$work/$name.err")"
        else
            run "$name" "sb-$opt"
        fi
        total=$((total + 1))
        if cmp -s "$work/ref.out" "$work/$name.out" &&
           cmp -s "$work/ref.files" "$work/$name.files"; then
            echo "same $name"
        else
            different=$((different + 1))
            echo "DIFFERENT $name"
            diff "$work/ref.out" "$work/$name.out"
            diff "$work/ref.files" "$work/$name.files"
        fi
    done
done
echo "$total runs compared, $different different"
