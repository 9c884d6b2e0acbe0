#!/bin/sh
# Sample apps (tests/tock/Inputs/sample: libtock-c's shape) per ISA and
# compiler, unplugged and plugged, as tests/tock/samples-*.test build them
# (GCC -O2 -fPIC -fno-semantic-interposition -flto, the plugin at the link;
# clang 14 -O2 -fPIC, each app one translation unit): traps, the app side of
# the linked image (.text+.rodata beyond an image whose app is an empty
# main(): app, layer, libtock calls, sysbatch runtime) and the guest
# instructions of the whole run, kernel included (bench/tock/insn_count.c;
# deterministic).  samples.sh checks the two builds' streams are identical.
# Prints a markdown table (docs/tock-bench.md has the last one).
#
#   sh bench/tock/samples_bench.sh [BUILD_DIR]      (default: build)
set -e
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-build}" && pwd)
inputs=$src/tests/tock/Inputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -shared -fPIC -O2 -Wall -Wextra "$src/bench/tock/insn_count.c" -o "$work/insn_count.so"

image_size() { # elf -> .text+.rodata of the whole image
    llvm-size-14 -A "$1" | awk '$1 ~ /^\.text|^\.rodata/ { n += $2 } END { print n + 0 }'
}

instructions() { # isa elf -> guest instructions of the whole run
    if [ "$1" = cm3 ]; then
        set -- qemu-system-arm -M lm3s6965evb -semihosting-config enable=on,target=native -kernel "$2"
    else
        set -- qemu-system-riscv32 -M virt -bios none -kernel "$2"
    fi
    timeout 60 "$@" -nographic -monitor none -serial null \
        -plugin "$work/insn_count.so" -d plugin -D "$work/insns.log" </dev/null >/dev/null 2>&1 || true
    sed -n 's/^total \([0-9]*\)/\1/p' "$work/insns.log"
}

flags() { # isa cc -> samples.sh flags
    if [ "$2" = gcc ]; then
        p=$build/gcc-plugin/$([ "$1" = cm3 ] && echo arm || echo riscv)/sysbatch.so
        echo "app:-O2 app:-fPIC app:-fno-semantic-interposition app:-flto link:-flto link:-O2"
        echo "plug:app:-fplugin=$p plug:app:-fplugin-arg-sysbatch-target=tock"
        echo "plug:link:-fplugin=$p plug:link:-fplugin-arg-sysbatch-target=tock"
    else
        l=$build/llvm-pass/SysbatchPass.so
        echo "--unity app:-O2 app:-fPIC plug:app:-fpass-plugin=$l plug:app:-Xclang plug:app:-load"
        echo "plug:app:-Xclang plug:app:$l plug:app:-mllvm plug:app:-sysbatch-target=tock"
    fi
}

echo "| target | app | traps | series | app side (B) | vs unplugged | instructions | vs unplugged |"
echo "|---|---|---|---|---|---|---|---|"
printf 'int main(void)\n{\n    return 0;\n}\n' > "$work/empty.c"
for isa in cm3 rv32; do
    for cc in gcc clang; do
        sh "$inputs/tock-build.sh" $isa $cc "$work/empty.elf" "$work/empty.c" 2>/dev/null
        empty=$(image_size "$work/empty.elf")
        # shellcheck disable=SC2046
        sh "$inputs/samples.sh" $isa $cc "$work/$isa-$cc" $(flags $isa $cc) > "$work/summary"
        tp=0 tq=0 bp=0 bq=0 ip=0 iq=0
        for app in console alarm sensor leds buttons; do
            d=$work/$isa-$cc/$app
            line=$(grep "^$app:" "$work/summary")
            traps=$(echo "$line" | sed 's/^[a-z]*: traps \([0-9]* -> [0-9]*\),.*/\1/')
            series=$(echo "$line" | sed 's/.*series //')
            b0=$(( $(image_size "$d.plain.elf") - empty ))
            b1=$(( $(image_size "$d.plugged.elf") - empty ))
            i0=$(instructions $isa "$d.plain.elf")
            i1=$(instructions $isa "$d.plugged.elf")
            t0=${traps% ->*} t1=${traps#*-> }
            tp=$((tp + t0)) tq=$((tq + t1)) bp=$((bp + b0)) bq=$((bq + b1)) ip=$((ip + i0)) iq=$((iq + i1))
            echo "| $isa $cc | $app | $traps | $series | $b0 -> $b1 |" \
                 "$(awk -v a=$b1 -v b=$b0 'BEGIN { printf "%+.0f%%", (a - b) * 100 / b }') |" \
                 "$i0 -> $i1 | $(awk -v a=$i1 -v b=$i0 'BEGIN { printf "%+.0f%%", (a - b) * 100 / b }') |"
        done
        echo "| $isa $cc | **all five** | $tp -> $tq ($(awk -v a=$tq -v b=$tp 'BEGIN { printf "%+.0f%%", (a - b) * 100 / b }')) | | $bp -> $bq |" \
             "$(awk -v a=$bq -v b=$bp 'BEGIN { printf "%+.0f%%", (a - b) * 100 / b }') |" \
             "$ip -> $iq | $(awk -v a=$iq -v b=$ip 'BEGIN { printf "%+.0f%%", (a - b) * 100 / b }') |"
    done
done
