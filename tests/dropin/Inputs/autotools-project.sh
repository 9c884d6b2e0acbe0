#!/bin/sh
# `./configure CC=sysbatch-cc && make` of Inputs/autotools-project in DIR,
# with the real compiler REAL behind the wrapper; prints the same facts
# as make-project.sh (checked by make-project.check).
#   autotools-project.sh REAL DIR
set -eu
facts=$(cd "$(dirname "$0")" && pwd)/project-facts.sh
real=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir"
cp -r "$here/autotools-project" "$dir"
cp "$here/project-src/"* "$dir"   # the C sources all three projects share
cd "$dir"
autoreconf -fi >autoreconf.log 2>&1 || { cat autoreconf.log; exit 1; }
SYSBATCH_CC=$real ./configure CC=sysbatch-cc >configure.log 2>&1 || { cat configure.log config.log; exit 1; }
SYSBATCH_CC=$real make >build.log 2>&1 || { cat build.log; exit 1; }
. "$facts"
