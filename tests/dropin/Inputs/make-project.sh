#!/bin/sh
# Builds Inputs/make-project in DIR with `make CC=sysbatch-cc` and the real
# compiler REAL behind the wrapper, then prints what a test checks: whether
# each program links the batch runtime, whether it needs a libsysbatch
# shared library, and its output and batch counts when run (the emulated
# path, so the batch path runs on any kernel).
#   make-project.sh REAL DIR
set -eu
facts=$(cd "$(dirname "$0")" && pwd)/project-facts.sh
real=$1 dir=$2
src=$(dirname "$0")/make-project
rm -rf "$dir"
cp -r "$src" "$dir"
cp "$(dirname "$0")/project-src/"* "$dir"   # the C sources all three projects share
cd "$dir"
SYSBATCH_CC=$real make -s CC=sysbatch-cc >build.log 2>&1 || { cat build.log; exit 1; }
. "$facts"
