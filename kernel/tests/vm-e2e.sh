#!/bin/sh
# vm-e2e.sh: inside the test VM, run a program built without the sysbatch
# plugins (the reference) and the same program built with one of them, each
# in a fresh directory prepared the same way, and require identical stdout,
# exit status and files left behind - and that the plugged build really ran
# its batches through the kernel's sys_batch (its SYSBATCH_STATS line shows
# at least one kernel batch and no emulated one).  SYSBATCH_MIN_BATCH=1
# sends every batch to the kernel, however small, which is what this tier
# tests (the break-even threshold has its own test, sbk_trace threshold).
#
#   vm-e2e.sh <reference> <plugged> [setup ...]
#   setup: name=content (a file) or name/ (a directory)
# Exit 0 same, 1 different or not batched in the kernel.
ref=$1 var=$2
shift 2

prepare() {
    dir=$1
    shift
    rm -rf "$dir" && mkdir -p "$dir" || exit 1
    for spec in "$@"; do
        case $spec in
        */) mkdir -p "$dir/${spec%/}" ;;
        *=*) printf '%s' "${spec#*=}" > "$dir/${spec%%=*}" ;;
        esac
    done
}

# Everything observable: stdout, exit status, the tree with types, modes,
# sizes and file contents.
run() {
    dir=$1 prog=$2 out=$3
    (cd "$dir" && SYSBATCH_STATS=1 SYSBATCH_MIN_BATCH=1 timeout 60 "$prog" < /dev/null > "$out.stdout" 2> "$out.stderr"; echo "exit $?" >> "$out.stdout")
    # one process per listing: spawning one per file is slow under TCG
    (cd "$dir" && {
        find . ! -type f -exec stat -c '%n %A' {} + | sort
        find . -type f -exec stat -c '%n %A %s' {} + | sort
        find . -type f -exec md5sum {} + | sort -k2
    }) > "$out.tree"
}

prepare /tmp/e2e-ref "$@"
prepare /tmp/e2e-var "$@"
run /tmp/e2e-ref "$ref" /tmp/e2e-ref-out
run /tmp/e2e-var "$var" /tmp/e2e-var-out
status=0
for what in stdout tree; do
    if ! cmp -s /tmp/e2e-ref-out.$what /tmp/e2e-var-out.$what; then
        echo "DIFFERENT $what:"
        diff /tmp/e2e-ref-out.$what /tmp/e2e-var-out.$what | head -40
        status=1
    fi
done
stats=$(grep '^sysbatch: kernel' /tmp/e2e-var-out.stderr)
echo "stats: ${stats:-none}"
case $stats in
*"kernel 0 batches"* | "") echo "NOT BATCHED IN THE KERNEL"; status=1 ;;
esac
case $stats in
*"emulated 0 batches"*) ;;
*) echo "EMULATED BATCHES"; status=1 ;;
esac
exit $status
