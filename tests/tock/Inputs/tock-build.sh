#!/bin/sh
# Build one Tock test image: the test kernel, the libtock layer, the sysbatch
# Tock runtime, the app startup and the given app sources, for one ISA and
# one compiler, into OUT (objects go next to it, in OUT.d/).
#
#   tock-build.sh cm3|rv32 gcc|clang OUT.elf [-Dflag|-Oflag ...] [app:FLAG ...] [link:FLAG ...] app.c [more.c ...]
#
# Compilers come from $TOCK_ARM_GCC, $TOCK_RISCV_GCC, $TOCK_CLANG (defaults:
# arm-none-eabi-gcc, riscv64-unknown-elf-gcc, clang-14).  Flags starting
# with - apply to every C file; app:FLAG applies FLAG to the app sources only
# (the compiler plugins: the kernel, runtime and libtock layer are built
# unplugged); link:FLAG goes to the link line (-flto with the plugin:
# GCC's lto1 takes the plugin from there).  -Os by default; a later -O
# flag wins.
set -e
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
[ $# -ge 4 ] || { echo "usage: $0 cm3|rv32 gcc|clang OUT.elf [flags] app.c..." >&2; exit 2; }
isa=$1 cc=$2 out=$3
shift 3
flags="" app_flags="" link_flags="" apps=""
for a in "$@"; do
    case $a in
    app:*) app_flags="$app_flags ${a#app:}" ;;
    link:*) link_flags="$link_flags ${a#link:}" ;;
    -*) flags="$flags $a" ;;
    *) apps="$apps $a" ;;
    esac
done
arm_gcc=${TOCK_ARM_GCC:-arm-none-eabi-gcc}
riscv_gcc=${TOCK_RISCV_GCC:-riscv64-unknown-elf-gcc}
clang=${TOCK_CLANG:-clang-14}

case $isa-$cc in
cm3-gcc)
    cflags="-mthumb -mcpu=cortex-m3 -mfloat-abi=soft"
    compile="$arm_gcc $cflags"
    link="$arm_gcc $cflags -nostdlib -nostartfiles"
    libgcc=$($arm_gcc $cflags -print-libgcc-file-name) ;;
cm3-clang)
    cflags="--target=thumbv7m-none-eabi -mcpu=cortex-m3 -mfloat-abi=soft"
    compile="$clang $cflags"
    link="$clang $cflags -nostdlib -fuse-ld=lld"
    libgcc=$($arm_gcc -mthumb -mcpu=cortex-m3 -mfloat-abi=soft -print-libgcc-file-name) ;;
rv32-gcc)
    cflags="-march=rv32imac -mabi=ilp32 -misa-spec=2.2 -mcmodel=medany"
    compile="$riscv_gcc $cflags"
    link="$riscv_gcc $cflags -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments"
    libgcc=$($riscv_gcc -march=rv32imac -mabi=ilp32 -print-libgcc-file-name) ;;
rv32-clang)
    cflags="--target=riscv32-unknown-elf -march=rv32imac -mabi=ilp32 -mcmodel=medany -mno-relax"
    compile="$clang $cflags"
    link="$clang $cflags -nostdlib -fuse-ld=lld"
    libgcc=$($riscv_gcc -march=rv32imac -mabi=ilp32 -print-libgcc-file-name) ;;
*)
    echo "tock-build.sh: unknown ISA/compiler '$isa-$cc' (cm3|rv32, gcc|clang)" >&2
    exit 2 ;;
esac

common="-Os -g -ffreestanding -fno-common -ffunction-sections -fdata-sections -Wall -Wextra"
inc="-I$here/kernel -I$here/apps -I$src/runtime/include -I$src/runtime/tock/libtock"
objdir=$out.d
rm -rf "$objdir"
mkdir -p "$objdir"
objs=""
build() { # source object [extra flags]
    s=$1 o=$objdir/$2
    shift 2
    $compile $common $inc $flags "$@" -c "$s" -o "$o"
    objs="$objs $o"
}
k=$here/kernel
build "$k/tockkern_core.c" tockkern_core.o
build "$k/tockkern_$isa.c" tockkern_arch.o
build "$k/tockkern_$isa.S" tockkern_entry.o
build "$k/tockkern_mem.c" tockkern_mem.o -fno-builtin
build "$src/runtime/tock/series.c" series.o
build "$src/runtime/tock/libtock/tock.c" libtock.o
build "$here/apps/app_crt0.c" app_crt0.o
build "$here/apps/app_io.c" app_io.o
for a in $apps; do
    build "$a" "app_$(basename "$a" .c).o" $app_flags
done
$link $link_flags -Wl,--gc-sections -T "$k/$isa.ld" $objs "$libgcc" -o "$out"
