#!/bin/sh
# Run one Tock test image under qemu with a time limit, stdin from /dev/null
# and qemu's stderr in OUT.elf.stderr (lm3s6965evb prints a timer warning
# there).  Prints the guest's console, then "EXIT <status>" on its own line,
# and always exits 0 so the test's FileCheck sees the status.
#
#   tock-run.sh cm3|rv32 OUT.elf [extra qemu args]
isa=$1 elf=$2
shift 2
case $isa in
cm3)
    set -- ${TOCK_QEMU_ARM:-qemu-system-arm} -M lm3s6965evb -nographic -monitor none \
        -serial stdio -semihosting-config enable=on,target=native "$@" -kernel "$elf" ;;
rv32)
    set -- ${TOCK_QEMU_RISCV32:-qemu-system-riscv32} -M virt -bios none -nographic \
        -monitor none -serial stdio "$@" -kernel "$elf" ;;
*)
    echo "tock-run.sh: unknown ISA '$isa'" >&2
    exit 2 ;;
esac
timeout ${TOCK_TIMEOUT:-30} "$@" </dev/null 2>"$elf.stderr"
status=$?
echo
echo "EXIT $status"
exit 0
