#!/bin/sh
# Compiler-emitted series: code size and traps of tests/tock/Inputs/apps/
# plugged.c (ordinary libtock-c code) built unplugged and with each plugin
# (target=tock, tock-yield; fill=stores and fill=template for both), per
# ISA and compiler, at -Os.  Size is the app object's .text + .rodata
# (`size`); "whole app" is what the linked image (--gc-sections) carries
# beyond an image whose app is an empty main(): the app, the parts of the
# libtock layer and of the sysbatch runtime it uses, its I/O - everything
# but the test kernel and the startup code.  Traps and calls come from one
# run on the test kernel under qemu.
# Prints a markdown table (docs/tock-bench.md has the last one).
#
#   sh bench/tock/plugged_size.sh [BUILD_DIR]      (default: build)
set -e
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-build}" && pwd)
inputs=$src/tests/tock/Inputs
app=$inputs/apps/plugged.c
llvm_plugin=$build/llvm-pass/SysbatchPass.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

size_of() { # object -> text+rodata bytes
    llvm-size-14 -A "$1" | awk '$1 ~ /^\.text|^\.rodata/ { n += $2 } END { print n + 0 }'
}

image_size() { # elf -> .text+.rodata of the whole image
    llvm-size-14 -A "$1" | awk '$1 ~ /^\.text|^\.rodata/ { n += $2 } END { print n + 0 }'
}

plugin_flags() { # isa cc variant
    case $2-$3 in
    *-plain) ;;
    gcc-*)
        p=$build/gcc-plugin/$([ "$1" = cm3 ] && echo arm || echo riscv)/sysbatch.so
        echo "app:-fplugin=$p app:-fplugin-arg-sysbatch-target=tock app:-fplugin-arg-sysbatch-tock-yield"
        [ "$3" = template ] && echo "app:-fplugin-arg-sysbatch-fill=template" ;;
    clang-*)
        echo "app:-fpass-plugin=$llvm_plugin app:-Xclang app:-load app:-Xclang app:$llvm_plugin"
        echo "app:-mllvm app:-sysbatch-target=tock app:-mllvm app:-sysbatch-tock-yield"
        [ "$3" = template ] && echo "app:-mllvm app:-sysbatch-fill=template" ;;
    esac
}

echo "| target | variant | app object .text+.rodata (B) | vs unplugged | whole app (B) | vs unplugged | traps | calls |"
echo "|---|---|---|---|---|---|---|---|"
printf 'int main(void)\n{\n    return 0;\n}\n' > "$work/empty.c"
for isa in cm3 rv32; do
    for cc in gcc clang; do
        sh "$inputs/tock-build.sh" $isa $cc "$work/empty.elf" "$work/empty.c" 2>/dev/null
        empty=$(image_size "$work/empty.elf")
        base=""
        for variant in plain stores template; do
            elf=$work/$isa-$cc-$variant.elf
            sh "$inputs/tock-build.sh" $isa $cc "$elf" $(plugin_flags $isa $cc $variant) "$app" 2>/dev/null
            bytes=$(size_of "$elf.d/app_plugged.o")
            side=$(( $(image_size "$elf") - empty ))
            [ -z "$base" ] && base=$bytes && side_base=$side
            stats=$(sh "$inputs/tock-run.sh" $isa "$elf" | grep '^K: stats')
            traps=$(echo "$stats" | sed 's/.*traps \([0-9]*\).*/\1/')
            calls=$(echo "$stats" | sed 's/.* calls \([0-9]*\) .*/\1/')
            pct=$(awk -v a=$bytes -v b=$base 'BEGIN { printf "%+.0f%%", (a - b) * 100 / b }')
            side_pct=$(awk -v a=$side -v b=$side_base 'BEGIN { printf "%+.0f%%", (a - b) * 100 / b }')
            echo "| $isa $cc | $variant | $bytes | $pct | $side | $side_pct | $traps | $calls |"
        done
    done
done
