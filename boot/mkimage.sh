#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# mkimage.sh IMG EFI BOOTNAME CFG [SHELL_ARGS]: a FAT image (no partition table; boots from
# OVMF/AAVMF and from a USB stick written with dd) holding
#   \EFI\BOOT\<BOOTNAME>     the efiperf application
#   \efiperf\efiperf.cfg     its configuration
#   \efiperf\efiperf-qemu.cfg  the same with cha_count = 4, read instead where the SMBIOS
#                            baseboard product is "efiperf-qemu" (`make run`, boot/qemu.sh
#                            --main-job): QEMU has no device to discover the CHAs from
#   \efiperf\logs\           where it writes its logs
#   \startup.nsh             for when a UEFI shell, not the boot manager, starts first
#
# Shell mode (to pass efiperf arguments: the boot manager starts \EFI\BOOT\<BOOTNAME> with
# none): give a 5th argument, or set EFIPERF_SHELL_ARGS (an empty value counts). The
# application then goes to \efiperf\efiperf.efi, nothing goes to \EFI\BOOT\ (so the boot
# manager finds no removable-media loader and falls back to the firmware's built-in UEFI
# Shell), and \startup.nsh runs `\efiperf\efiperf.efi SHELL_ARGS` from the volume that holds
# it. Used by the QEMU tests (tests/qemu/); needs a firmware with a built-in shell (Debian's OVMF
# and AAVMF have one; OVMF reaches it and its 5 s startup.nsh countdown in ~9 s of wall time,
# AAVMF under -icount shift=0 only after ~70 s).
set -euo pipefail
if [ $# -lt 4 ] || [ $# -gt 5 ]; then echo "usage: $0 IMG EFI BOOTNAME CFG [SHELL_ARGS]" >&2; exit 2; fi
img=$1 efi=$2 bootname=$3 cfg=$4
shell_mode=0 shell_args=
if [ $# -ge 5 ]; then shell_mode=1 shell_args=$5
elif [ -n "${EFIPERF_SHELL_ARGS+set}" ]; then shell_mode=1 shell_args=$EFIPERF_SHELL_ARGS
fi
here=$(cd "$(dirname "$0")" && pwd)
size_mib=${EFIPERF_IMG_MIB:-64}
rm -f "$img.tmp"
truncate -s "${size_mib}M" "$img.tmp"
# 64 MiB = 131072 sectors; mformat picks FAT16 with this geometry.
mformat -i "$img.tmp" -v EFIPERF -t $((size_mib)) -h 64 -s 32 ::
mmd -i "$img.tmp" ::/efiperf ::/efiperf/logs
mcopy -i "$img.tmp" "$cfg" ::/efiperf/efiperf.cfg
if ! grep -Eq '^[[:space:]]*cha_count[[:space:]]*=' "$cfg"; then
	{
		echo "# Read instead of efiperf.cfg by the QEMU machine of 'make run' (SMBIOS baseboard product"
		echo "# efiperf-qemu): the same configuration, with the CHA count QEMU's Ice Lake-SP model has no"
		echo "# device to discover (8086:345B). Written by boot/mkimage.sh from efiperf.cfg."
		cat "$cfg"
		echo "cha_count = 4"
	} > "$img.qemucfg"
	mcopy -i "$img.tmp" "$img.qemucfg" ::/efiperf/efiperf-qemu.cfg
	rm -f "$img.qemucfg"
fi
if [ $shell_mode = 0 ]; then
	mmd -i "$img.tmp" ::/EFI ::/EFI/BOOT
	mcopy -i "$img.tmp" "$efi" "::/EFI/BOOT/$bootname"
	sed "s/@BOOTNAME@/$bootname/" "$here/startup.nsh" > "$img.nsh"
	where="$bootname"
else
	case $shell_args in
	*$'\n'*|*$'\r'*) echo "mkimage.sh: SHELL_ARGS must be one line" >&2; rm -f "$img.tmp"; exit 2 ;;
	esac
	mcopy -i "$img.tmp" "$efi" ::/efiperf/efiperf.efi
	{
		printf '%s\r\n' '@echo -off' \
			'# efiperf (shell mode, boot/mkimage.sh): run \efiperf\efiperf.efi with arguments.' \
			'for %v in fs0 fs1 fs2 fs3 fs4 fs5 fs6 fs7 fs8 fs9' \
			'  if exist %v:\efiperf\efiperf.efi then' \
			'    %v:'
		printf '    \\efiperf\\efiperf.efi %s\r\n' "$shell_args"
		printf '%s\r\n' '    goto done' \
			'  endif' \
			'endfor' \
			'echo "efiperf: no volume holds \efiperf\efiperf.efi"' \
			':done'
	} > "$img.nsh"
	where="\\efiperf\\efiperf.efi, startup.nsh args '$shell_args'"
fi
mcopy -i "$img.tmp" "$img.nsh" ::/startup.nsh
rm -f "$img.nsh"
mv "$img.tmp" "$img"
echo "image $img ($(stat -c %s "$img") bytes; $where $(stat -c %s "$efi") bytes)"
