#!/bin/sh
# Real libtock-c with the plugins: compiles every C file of libtock/ and
# libtock-sync/ one by one, as libtock-c's own build does (its flags: -Os,
# -fPIC, -ffunction-sections, gnu2x; Cortex-M3 also -msingle-pic-base), with
# the GCC plugin (both cross compilers, the collector forced at every
# opportunity and -fchecking, so an unrooted tree crashes here) and with
# the LLVM plugin (clang 14, both ISAs), target=tock.  Each file that fails
# plugged is compiled again without the plugin: a failure only the plugged
# compiler has, or an internal compiler error, is a bug and makes the
# script exit 1.  Prints per compiler and ISA: files, plugged failures, the
# plain compiler's failures on the same files, series formed.
#
#   sh bench/tock/real_libtock_c.sh LIBTOCK_C_DIR [BUILD_DIR]
#
# LIBTOCK_C_DIR is a checkout of https://github.com/tock/libtock-c (too
# large and too far from CI to fetch in a test).  Neither rv32 newlib nor
# the clang targets have a C library here, so arm-none-eabi's newlib
# headers stand in for them (compile only, nothing is linked).  libtock-c's
# `defer` is a GCC nested function: clang rejects the files that use it,
# plugged or not.
set -eu
ltc=$(cd "${1:?usage: real_libtock_c.sh LIBTOCK_C_DIR [BUILD_DIR]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${2:-$src/build}" && pwd)
[ -d "$ltc/libtock" ] && [ -d "$ltc/libtock-sync" ] || {
    echo "real_libtock_c.sh: $ltc has no libtock/ and libtock-sync/" >&2; exit 2; }
newlib=/usr/lib/arm-none-eabi/include
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

common="-std=gnu2x -Os -fdata-sections -ffunction-sections -fPIC -D_FORTIFY_SOURCE=2 -I$ltc -I$ltc/libtock -I$ltc/libtock-sync"
gc_stress="--param ggc-min-expand=0 --param ggc-min-heapsize=0 -fchecking"
llvm_plugin=$build/llvm-pass/SysbatchPass.so

compiler_for() { # variant -> plain compiler and its target flags
    case $1 in
    gcc-cm3) echo "arm-none-eabi-gcc -mthumb -mcpu=cortex-m3 -msingle-pic-base -mpic-register=r9 -mno-pic-data-is-text-relative" ;;
    gcc-rv32) echo "riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -isystem $newlib" ;;
    clang-cm3) echo "clang-14 --target=thumbv7m-none-eabi -ffreestanding -isystem $newlib" ;;
    clang-rv32) echo "clang-14 --target=riscv32-unknown-elf -march=rv32imac -ffreestanding -isystem $newlib" ;;
    esac
}

plugin_for() { # variant -> plugin flags and the flags that print its remarks
    case $1 in
    gcc-cm3) echo "-fplugin=$build/gcc-plugin/arm/sysbatch.so -fplugin-arg-sysbatch-target=tock $gc_stress -fopt-info-optimized-missed" ;;
    gcc-rv32) echo "-fplugin=$build/gcc-plugin/riscv/sysbatch.so -fplugin-arg-sysbatch-target=tock $gc_stress -fopt-info-optimized-missed" ;;
    clang-*) echo "-fpass-plugin=$llvm_plugin -Xclang -load -Xclang $llvm_plugin -mllvm -sysbatch-target=tock -Rpass=sysbatch -Rpass-missed=sysbatch" ;;
    esac
}

files=$(cd "$ltc" && find libtock libtock-sync -name '*.c' | sort)
bugs=0
echo "| compiler, ISA | files | fail plugged | fail plain | series |"
echo "|---|---:|---:|---:|---:|"
for variant in gcc-cm3 gcc-rv32 clang-cm3 clang-rv32; do
    cc=$(compiler_for $variant)
    plugin=$(plugin_for $variant)
    log=$work/$variant.log
    : > "$log"
    n=0 failed=0 plain_failed=0
    for f in $files; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        if ! $cc $common $plugin -c "$ltc/$f" -o "$work/out.o" >> "$log" 2>&1; then
            failed=$((failed + 1))
            # shellcheck disable=SC2086
            if $cc $common -c "$ltc/$f" -o "$work/out.o" > /dev/null 2>&1; then
                echo "real_libtock_c.sh: $variant: $f fails only with the plugin" >&2
                bugs=$((bugs + 1))
            else
                plain_failed=$((plain_failed + 1))
            fi
        fi
    done
    if grep -q 'internal compiler error\|PLEASE submit a bug report\|Segmentation fault' "$log"; then
        echo "real_libtock_c.sh: $variant: compiler crash, see:" >&2
        grep -m3 'internal compiler error\|PLEASE submit\|Segmentation' "$log" >&2
        bugs=$((bugs + 1))
    fi
    series=$(grep -c 'batched [0-9]* calls' "$log" || true)
    echo "| $variant | $n | $failed | $plain_failed | $series |"
done
[ "$bugs" -eq 0 ]
