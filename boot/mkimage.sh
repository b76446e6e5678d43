#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# mkimage.sh IMG EFI BOOTNAME CFG: a FAT image (no partition table; boots from OVMF/AAVMF and
# from a USB stick written with dd) holding
#   \EFI\BOOT\<BOOTNAME>     the efiperf application
#   \efiperf\efiperf.cfg     its configuration
#   \efiperf\logs\           where it writes its logs
#   \startup.nsh             for when a UEFI shell, not the boot manager, starts first
set -euo pipefail
img=$1 efi=$2 bootname=$3 cfg=$4
here=$(cd "$(dirname "$0")" && pwd)
size_mib=${EFIPERF_IMG_MIB:-64}
rm -f "$img.tmp"
truncate -s ${size_mib}M "$img.tmp"
# 64 MiB = 131072 sectors; mformat picks FAT16 with this geometry.
mformat -i "$img.tmp" -v EFIPERF -t $((size_mib)) -h 64 -s 32 ::
mmd -i "$img.tmp" ::/EFI ::/EFI/BOOT ::/efiperf ::/efiperf/logs
mcopy -i "$img.tmp" "$efi" "::/EFI/BOOT/$bootname"
mcopy -i "$img.tmp" "$cfg" ::/efiperf/efiperf.cfg
sed "s/@BOOTNAME@/$bootname/" "$here/startup.nsh" > "$img.nsh"
mcopy -i "$img.tmp" "$img.nsh" ::/startup.nsh
rm -f "$img.nsh"
mv "$img.tmp" "$img"
echo "image $img ($(stat -c %s "$img") bytes; $bootname $(stat -c %s "$efi") bytes)"
