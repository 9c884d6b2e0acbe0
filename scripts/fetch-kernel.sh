#!/bin/sh
# Fetch a stock Debian 12 cloud kernel and its build headers into a build tree
# without installing anything, for the kernel module build and the VM tests.
#
#   scripts/fetch-kernel.sh <build-dir>
#
# afterwards:
#   <build-dir>/kernel-root/vmlinuz   -> boot/vmlinuz-6.1.0-NN-cloud-amd64
#   <build-dir>/kernel-root/headers   -> usr/src/linux-headers-6.1.0-NN-cloud-amd64
#   <build-dir>/kernel-root/release      the kernel release string (6.1.0-NN-cloud-amd64)
#
# The ABI number NN follows the archive: it is read from
# `apt-cache depends linux-image-cloud-amd64`, and image and headers are
# downloaded in one step so they always match (vermagic must be exact).
# linux-kbuild-6.1 is unpacked into the same root because the headers link
# to its tools (objtool, fixdep) by relative paths.  Idempotent: a second run
# with the files present does nothing.
set -eu

die() { echo "fetch-kernel: error: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 <build-dir>"
build=$1
mkdir -p "$build" || die "cannot create $build"
build=$(cd "$build" && pwd)
root=$build/kernel-root
debs=$build/kernel-debs

if [ -f "$root/release" ] && [ -e "$root/vmlinuz" ] && [ -f "$root/headers/Makefile" ]; then
    echo "fetch-kernel: kernel $(cat "$root/release") already in $root"
    exit 0
fi

for tool in apt-cache apt-get dpkg-deb; do
    command -v $tool >/dev/null 2>&1 || die "$tool not found (this script needs Debian's apt tools)"
done

current_image() {
    apt-cache depends linux-image-cloud-amd64 2>/dev/null \
        | sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-cloud-amd64\)$/\1/p' | head -n1
}
image_pkg=$(current_image)
if [ -z "$image_pkg" ] && [ "$(id -u)" -eq 0 ]; then
    # a CI image may carry no package lists at all
    echo "fetch-kernel: no package lists know linux-image-cloud-amd64; running apt-get update"
    apt-get update -qq >&2 || die "apt-get update failed (offline?)"
    image_pkg=$(current_image)
fi
[ -n "$image_pkg" ] || die "apt-cache knows no linux-image-cloud-amd64 (run apt-get update; is this Debian 12?)"
release=${image_pkg#linux-image-}           # 6.1.0-NN-cloud-amd64
abi=${release%-cloud-amd64}                  # 6.1.0-NN
pkgs="$image_pkg linux-headers-$release linux-headers-$abi-common linux-kbuild-6.1"

rm -rf "$debs"
mkdir -p "$debs"
echo "fetch-kernel: downloading $pkgs"
# apt-get download writes into the current directory; as root it warns that
# the download is unsandboxed, which is harmless here.
(cd "$debs" && apt-get download -q $pkgs 2>&1 | grep -v "unsandboxed" >&2) || :
for p in $pkgs; do
    ls "$debs/${p}_"*.deb >/dev/null 2>&1 \
        || die "download of $p failed (offline? run 'apt-get update' and retry)"
done

rm -rf "$root.tmp"
mkdir -p "$root.tmp"
for f in "$debs"/*.deb; do
    dpkg-deb -x "$f" "$root.tmp" || die "cannot unpack $f"
done

headers=usr/src/linux-headers-$release
makefile=$root.tmp/$headers/Makefile
[ -f "$makefile" ] || die "headers Makefile missing in $(basename "$debs")"
# The flavour Makefile includes the common headers by absolute path; point
# that one line into our root.
grep -q '^include /usr/src/' "$makefile" || die "no absolute include line in $makefile (layout changed?)"
sed -i "s|^include /usr/src/|include $root/usr/src/|" "$makefile"
[ -f "$root.tmp/boot/vmlinuz-$release" ] || die "kernel image missing from $image_pkg"

# The VM boots with only our module, so the image's own 90 MB of modules go.
rm -rf "$root.tmp/lib/modules"
ln -s "boot/vmlinuz-$release" "$root.tmp/vmlinuz"
ln -s "$headers" "$root.tmp/headers"
echo "$release" > "$root.tmp/release"
rm -rf "$root"
mv "$root.tmp" "$root"
rm -rf "$debs"
echo "fetch-kernel: kernel $release in $root"
