#!/bin/sh
# Compare the runs of a plain and a series build of one app as two streams:
# the kernel's (K: lines and console output, minus the lines that name the
# series or count traps) and the app's (everything else).  Writes
# PLAIN.kernel and PLAIN.app for further checks; exits 1 on any difference.
#
#   compare-streams.sh PLAIN.out SERIES.out
set -e
for f in "$1" "$2"; do
    grep '^K: \|^console: ' "$f" | grep -v '^K: stats\|^K: series' > "$f.kernel" || true
    grep -v '^K: \|^console: ' "$f" > "$f.app" || true
done
diff "$1.kernel" "$2.kernel"
diff "$1.app" "$2.app"
