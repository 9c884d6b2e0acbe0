#!/bin/sh
# Build every sample app (Inputs/sample: a libtock-c-shaped layer and five
# apps) twice for one ISA and compiler - plain, and with the flags marked
# plug: (the compiler plugin) - run both under qemu, compare their streams
# (compare-streams.sh: any difference fails), and print one line per app:
#
#   console: traps 9 -> 5, series 2
#
#   samples.sh cm3|rv32 gcc|clang OUTDIR [--unity] [app:FLAG|link:FLAG ...] [plug:app:FLAG|plug:link:FLAG ...]
#
# --unity compiles each app and the layer as one translation unit
# (OUTDIR/APP.unity.c: sample/unity.c and the app) instead of their files:
# the whole-program view -flto gives, for a compiler whose LTO link cannot
# run the plugin (clang 14).
# app: and link: flags (tock-build.sh) go to both builds, plug: ones only to
# the plugged build; its compiler report goes to OUTDIR/APP.report.
set -e
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] || { echo "usage: $0 cm3|rv32 gcc|clang OUTDIR [[plug:]app:FLAG|[plug:]link:FLAG ...]" >&2; exit 2; }
isa=$1 cc=$2 out=$3
shift 3
both="" plug="" unity=""
for a in "$@"; do
    case $a in
    --unity) unity=1 ;;
    app:*|link:*) both="$both $a" ;;
    plug:app:*|plug:link:*) plug="$plug ${a#plug:}" ;;
    *) echo "samples.sh: flags are [plug:]app:FLAG or [plug:]link:FLAG, not '$a'" >&2; exit 2 ;;
    esac
done
s=$here/sample
layer="$s/syscalls/console_syscalls.c $s/syscalls/alarm_syscalls.c
       $s/syscalls/temperature_syscalls.c $s/syscalls/led_syscalls.c
       $s/syscalls/button_syscalls.c $s/drivers/console.c $s/drivers/alarm.c
       $s/drivers/temperature.c $s/drivers/led.c $s/drivers/button.c
       $s/sync/syscalls/console_sync_syscalls.c $s/sync/syscalls/temperature_sync_syscalls.c
       $s/sync/syscalls/button_sync_syscalls.c
       $s/sync/console_sync.c $s/sync/alarm_sync.c $s/sync/sensor_sync.c"
mkdir -p "$out"
stat() { sed -n "s/^K: stats traps \([0-9]*\) calls [0-9]* series \([0-9]*\).*/\\$2/p" "$1"; }
for app in console alarm sensor leds buttons; do
    main=$s/apps/${app}_app.c
    if [ -n "$unity" ]; then
        printf '#include "%s"\n#include "%s"\n' "$s/unity.c" "$main" > "$out/$app.unity.c"
        layer="" main=$out/$app.unity.c
    fi
    # shellcheck disable=SC2086
    sh "$here/tock-build.sh" "$isa" "$cc" "$out/$app.plain.elf" $both $layer "$main"
    # shellcheck disable=SC2086
    sh "$here/tock-build.sh" "$isa" "$cc" "$out/$app.plugged.elf" $both $plug $layer \
        "$main" 2> "$out/$app.report"
    sh "$here/tock-run.sh" "$isa" "$out/$app.plain.elf" > "$out/$app.plain.out"
    sh "$here/tock-run.sh" "$isa" "$out/$app.plugged.elf" > "$out/$app.plugged.out"
    sh "$here/compare-streams.sh" "$out/$app.plain.out" "$out/$app.plugged.out" ||
        { echo "samples.sh: $app: the plugged build's streams differ" >&2; exit 1; }
    echo "$app: traps $(stat "$out/$app.plain.out" 1) -> $(stat "$out/$app.plugged.out" 1)," \
         "series $(stat "$out/$app.plugged.out" 2)"
done
