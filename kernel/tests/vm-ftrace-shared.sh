#!/bin/sh
# vm-ftrace-shared.sh: inside the test VM, run a test program while the
# function tracer also traces x64_sys_call, so that ftrace reaches the
# module's direct trampoline through its shared caller (ftrace_regs_caller
# and then the direct call) instead of the plain patched call; the
# function tracer must have seen x64_sys_call too.
#
#   vm-ftrace-shared.sh <program> [args ...]
# Exit: the program's status, or 2-5 when the tracer could not be set up
# or saw nothing.
t=/sys/kernel/tracing
[ -e $t/set_ftrace_filter ] || mount -t tracefs tracefs $t || exit 2
echo x64_sys_call > $t/set_ftrace_filter || exit 3
echo function > $t/current_tracer || exit 4
"$@"
rc=$?
# stop recording before reading: the reader's own calls would otherwise
# keep adding lines as it reads
echo 0 > $t/tracing_on
seen=$(grep -c x64_sys_call $t/trace)
echo nop > $t/current_tracer
echo > $t/set_ftrace_filter
echo > $t/trace
echo 1 > $t/tracing_on
echo "function tracer saw x64_sys_call $seen times"
[ "$seen" -gt 0 ] || exit 5
exit $rc
