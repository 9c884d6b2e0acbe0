#!/bin/sh
# Run every sysbatch test: installs what is missing (Debian 12), builds into
# build/, and runs ctest (which runs each lit test, the runtime conformance
# programs, and the VM and Tock tiers where their tools exist).  Then a
# checked configuration in build-checked/: the plugins with their asserts
# on (no NDEBUG) and every plugged gcc line collecting garbage at every
# opportunity, over the compiler, core and end-to-end suites.
#   scripts/test.sh [extra ctest arguments, e.g. -L kernel]
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh --all
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYSBATCH_FETCH_KERNEL=ON
cmake --build build -j2
ctest --test-dir build --output-on-failure -j2 "$@"
if [ $# -eq 0 ]; then
    cmake -S . -B build-checked -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        -DSYSBATCH_FETCH_KERNEL=OFF \
        "-DSYSBATCH_GCC_TEST_FLAGS=--param ggc-min-expand=0 --param ggc-min-heapsize=0"
    cmake --build build-checked -j2
    ctest --test-dir build-checked --output-on-failure -j2 -L 'core|llvm|gcc|e2e'
fi
