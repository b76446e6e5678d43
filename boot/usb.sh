#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Write an efiperf image to a USB stick, then read it back to verify it (make usb DEV=/dev/sdX).
#
#   boot/usb.sh --image build/x86_64/efiperf.img --dev /dev/sdX [--force]
#
# Refuses, naming the reason: a device that is not a whole disk, not removable (sysfs
# block/<disk>/removable), larger than 256 GiB, smaller than the image, or mounted (it or any of
# its partitions in /proc/mounts). --force (make usb FORCE=1) overrides "not removable" and
# "larger than 256 GiB", never "mounted". Writes nothing outside the device named.
# Tests point EFIPERF_SYSFS and EFIPERF_MOUNTS at a fake sysfs root and mounts file; only then
# may --dev be a regular file (it stands for the disk of the same name under the fake sysfs).
set -euo pipefail

SYSFS=${EFIPERF_SYSFS:-/sys}
MOUNTS=${EFIPERF_MOUNTS:-/proc/mounts}
LIMIT=$((256 * 1024 * 1024 * 1024))   # bytes
SECTOR=512                            # sysfs block/<disk>/size counts 512-byte sectors (Linux Documentation/ABI/stable/sysfs-block)
img= dev= force=${FORCE:-0}

die() { echo "usb: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--image) img=$2; shift 2 ;;
	--dev) dev=$2; shift 2 ;;
	--force) force=1; shift ;;
	*) die "unknown argument '$1' (usage: $0 --image IMG --dev /dev/sdX [--force])" ;;
	esac
done
[ "$force" = 0 ] || [ "$force" = 1 ] || die "FORCE must be 0 or 1, not '$force'"
[ -n "$dev" ] || die "no device: make usb DEV=/dev/sdX (lsblk -d -o NAME,SIZE,RM,MODEL lists them)"
[ -n "$img" ] && [ -f "$img" ] || die "no image '$img' (make image first)"

test_mode=0
[ -n "${EFIPERF_SYSFS:-}" ] && test_mode=1
if [ -b "$dev" ]; then
	name=$(basename "$(readlink -f "$dev")")
elif [ "$test_mode" = 1 ] && [ -f "$dev" ]; then
	name=$(basename "$dev")
else
	die "$dev is not a block device"
fi
sys="$SYSFS/block/$name"
[ -d "$sys" ] || die "$dev ($name) is not a whole disk in $SYSFS/block (a partition? write the disk, e.g. /dev/sdb, not /dev/sdb1)"

read_sys() { [ -r "$sys/$1" ] && tr -d '\n' < "$sys/$1" | sed 's/ *$//' || echo "$2"; }
removable=$(read_sys removable 0)
sectors=$(read_sys size 0)
[[ $sectors =~ ^[0-9]+$ ]] || die "$sys/size is not a number: '$sectors'"
bytes=$((sectors * SECTOR))
model="$(read_sys device/vendor '') $(read_sys device/model '')"
model=$(echo "$model" | sed 's/^ *//; s/ *$//')
gib() { awk -v b="$1" 'BEGIN { printf "%.1f GiB", b / 1073741824 }'; }

# mounted: the device or a partition of it (its name followed by digits, or p and digits)
while read -r src mnt _; do
	s=$(basename "$(readlink -f "$src" 2>/dev/null || echo "$src")")
	if [[ $s =~ ^${name}(p?[0-9]+)?$ ]]; then
		die "$dev is mounted: $src on $mnt (unmount it first; FORCE does not override this)"
	fi
done < "$MOUNTS"

if [ "$removable" != 1 ]; then
	[ "$force" = 1 ] || die "$dev (${model:-no model}, $(gib $bytes)) is not removable ($sys/removable = $removable): not a USB stick? FORCE=1 to write it anyway"
	echo "usb: $dev is not removable; FORCE=1 given"
fi
if [ "$bytes" -gt "$LIMIT" ]; then
	[ "$force" = 1 ] || die "$dev (${model:-no model}) is $(gib $bytes), larger than 256 GiB: a disk, not a stick? FORCE=1 to write it anyway"
	echo "usb: $dev is larger than 256 GiB; FORCE=1 given"
fi
isize=$(stat -c %s "$img")
[ "$bytes" -ge "$isize" ] || die "$dev ($(gib $bytes)) is smaller than the image ($isize bytes)"

direct=
[ -b "$dev" ] && direct=1
dd if="$img" of="$dev" bs=4M conv=fsync,notrunc ${direct:+oflag=direct} status=none
sync
# read back what was written (past the page cache on a real device)
if ! cmp -s -n "$isize" "$img" <(dd if="$dev" bs=4M ${direct:+iflag=direct} status=none | head -c "$isize"); then
	die "read-back of $dev differs from $img: the stick is faulty or was removed"
fi
sum=$(sha256sum "$img" | cut -d' ' -f1)
echo "usb: wrote $img ($isize bytes, sha256 $sum) to $dev (${model:-no model}, $(gib $bytes), removable=$removable); read back: identical"
