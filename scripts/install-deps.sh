#!/bin/sh
# Install everything sysbatch needs to build and test, on Debian 12.
# Idempotent: packages already present are skipped, so a second run is quick.
#   scripts/install-deps.sh            host toolchain only (demo + host tests)
#   scripts/install-deps.sh --all      also qemu, cross compilers, kernel image
set -eu

HOST_PKGS="build-essential cmake ninja-build python3 clang-14 llvm-14-dev llvm-14-tools
lld-14 gcc-12-plugin-dev strace valgrind libclang-cpp14-dev libclang-14-dev"
# The other LLVM majors the pass is built and tested for (llvm-pass/CMakeLists.txt;
# lld-19: clang-19's RISC-V objects carry relocations lld 14 does not know),
# and what the drop-in tests drive: autotools, pkg-config (tests/dropin).
FULL_PKGS="llvm-15-dev clang-15 llvm-16-dev clang-16 llvm-19-dev clang-19 lld-19
autoconf automake pkgconf
qemu-system-x86 qemu-system-arm qemu-system-misc busybox-static cpio
gcc-arm-none-eabi libnewlib-arm-none-eabi gcc-riscv64-unknown-elf
binutils-riscv64-unknown-elf gnuplot-nox"

pkgs=$HOST_PKGS
[ "${1:-}" = "--all" ] && pkgs="$HOST_PKGS $FULL_PKGS"

missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
