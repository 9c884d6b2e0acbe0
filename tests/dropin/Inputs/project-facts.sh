#!/bin/sh
# Sourced in a built project's directory by make-project.sh and
# autotools-project.sh: prints what make-project.check checks - whether
# each program links the batch runtime, whether it needs a libsysbatch
# shared library, and its output and batch counts on the emulated path.
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
