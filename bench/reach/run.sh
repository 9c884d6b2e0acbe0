#!/bin/sh
# The reach benchmark (bench/reach/reach.py explains every step):
#   bench/reach/run.sh BUILD_DIR [PROGRAM ...]   build, test and measure, write docs/reach.md
#   bench/reach/run.sh --report-only             redraw docs/reach.md from the last results
# Needs a deb-src line for bookworm main and `apt-get build-dep` of each
# program; sources and builds go to $REACH_WORK (default /tmp/sysbatch-reach).
set -eu
exec python3 "$(dirname "$0")/reach.py" "$@"
