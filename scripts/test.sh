#!/bin/sh
# Run every sysbatch test: installs what is missing (Debian 12), builds into
# build/, and runs ctest (which runs each lit test, the runtime conformance
# programs, and the VM and Tock tiers where their tools exist).
#   scripts/test.sh [extra ctest arguments, e.g. -L kernel]
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh --all
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYSBATCH_FETCH_KERNEL=ON
cmake --build build -j2
ctest --test-dir build --output-on-failure -j2 "$@"
