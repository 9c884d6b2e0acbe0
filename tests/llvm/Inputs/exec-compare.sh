#!/bin/sh
# Build one C program unplugged (the reference) and with the sysbatch pass at
# -O0 and -O2, run every build in a fresh directory - plugged builds twice:
# plainly (no sys_batch here: the versioned original calls run) and with
# BATCH_EMUL=1 (the batch path through libsysbatch's user-space loop) - and
# compare stdout, exit status and the files left behind with the reference.
#
#   exec-compare.sh SRC WORK 'REFCC' 'SBCC' RUNTIME [SETUP] [ARGS...]
#
# SETUP is a shell command run in each fresh directory before the program.
# Prints "same: N runs" when all agree, else the first difference (exit 1).
# With SYSBATCH_EXPECT_BATCHES=1 the BATCH_EMUL runs must report batches.
set -u
src=$1 work=$2 refcc=$3 sbcc=$4 rt=$5 setup=${6:-true}
if [ $# -ge 6 ]; then shift 6; else shift $#; fi
rm -rf "$work" && mkdir -p "$work" || exit 2

$refcc -O0 -w "$src" -o "$work/ref" || exit 2
for o in 0 2; do
    $sbcc -O$o -w "$src" "$rt" -o "$work/sb-O$o" || exit 2
done

# run NAME BINARY ENV...: output, exit status and files into $work/NAME.out
run() {
    name=$1 bin=$2
    shift 2
    dir="$work/run-$name"
    mkdir -p "$dir" && cd "$dir" || exit 2
    sh -c "$setup" || exit 2
    if [ -n "$ARGS" ]; then
        env "$@" "$bin" "$ARGS" >"$work/$name.out" 2>"$work/$name.err"
    else
        env "$@" "$bin" >"$work/$name.out" 2>"$work/$name.err"
    fi
    echo "exit status $?" >>"$work/$name.out"
    find . -mindepth 1 | sort | while read -r f; do
        if [ -d "$f" ]; then
            echo "dir $f"
        else
            printf 'file %s mode %s: ' "$f" "$(stat -c %a "$f")"
            od -An -c "$f" | tr -s ' \n' ' '
            echo
        fi
    done >>"$work/$name.out"
    cd "$work" || exit 2
}
ARGS=${1:-}

run ref "$work/ref"
runs=0
for o in 0 2; do
    for mode in plain emul; do
        if [ $mode = emul ]; then
            run "O$o-$mode" "$work/sb-O$o" BATCH_EMUL=1 SYSBATCH_STATS=1
            if [ "${SYSBATCH_EXPECT_BATCHES:-0}" = 1 ] &&
               ! grep -Eq 'emulated [1-9][0-9]* batches' "$work/O$o-$mode.err"; then
                echo "O$o-$mode: no batch ran:"; cat "$work/O$o-$mode.err"; exit 1
            fi
        else
            run "O$o-$mode" "$work/sb-O$o"
        fi
        if ! diff -u "$work/ref.out" "$work/O$o-$mode.out"; then
            echo "DIFFERENT: O$o-$mode"
            exit 1
        fi
        runs=$((runs + 1))
    done
done
echo "same: $runs runs"
cat "$work/ref.out"
