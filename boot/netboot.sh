#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# netboot.sh [--root DIR] [--server IP] [--range FIRST,LAST] [--interface IF] [--http-port N]
#            [--efi-x86_64 FILE] [--efi-aarch64 FILE]
# Lays out a boot root for a lab network (make netboot) and prints a dnsmasq configuration for it:
#   DIR/x86_64/efiperf.efi     the loader UEFI PXE clients of x86-64 get (client arch 7 and 9)
#   DIR/aarch64/efiperf.efi    the loader for 64-bit Arm UEFI clients (client arch 11)
#   DIR/efiperf/efiperf.cfg    every machine's configuration (boot/efiperf.cfg)
#   DIR/efiperf/SERIAL.cfg.sample  a per-machine one: rename to the machine's SMBIOS serial
#   DIR/dnsmasq.conf           DHCP + TFTP (+ UEFI HTTP boot when --http-port is given)
# A netbooted efiperf reads \efiperf\<serial>.cfg, \efiperf\<board>.cfg, then \efiperf\efiperf.cfg
# from the TFTP server that booted it (efiperf/<serial>.cfg ... under DIR), as a stick would.
# Client architecture numbers: RFC 4578 section 2.1 and IANA's "Processor Architecture Types"
# registry (7 EFI BC, 9 EFI x86-64, 11 ARM 64-bit UEFI, 16 x64 UEFI HTTP, 19 ARM 64-bit UEFI HTTP).
# efiperf's own tests run dnsmasq only inside a network namespace they create (ip netns, a bridge,
# taps, 198.18.0.0/24, no route out): a DHCP server must never answer on a network it was not meant for.
set -euo pipefail
cd "$(dirname "$0")/.."
root=build/netboot server=198.18.0.1 range=198.18.0.100,198.18.0.199 iface=br0 http_port=
efi_x86=build/x86_64/efiperf.efi efi_a64=build/aarch64/efiperf.efi
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2; shift 2 ;;
	--server) server=$2; shift 2 ;;
	--range) range=$2; shift 2 ;;
	--interface) iface=$2; shift 2 ;;
	--http-port) http_port=$2; shift 2 ;;
	--efi-x86_64) efi_x86=$2; shift 2 ;;
	--efi-aarch64) efi_a64=$2; shift 2 ;;
	*) echo "netboot.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[[ $server =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "netboot.sh: --server must be an IPv4 address" >&2; exit 2; }
[[ $range =~ ^[0-9.]+,[0-9.]+$ ]] || { echo "netboot.sh: --range must be FIRST,LAST" >&2; exit 2; }
[[ $iface =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "netboot.sh: --interface must be an interface name" >&2; exit 2; }
mkdir -p "$root/x86_64" "$root/aarch64" "$root/efiperf"
root=$(cd "$root" && pwd)
for pair in "x86_64:$efi_x86" "aarch64:$efi_a64"; do
	a=${pair%%:*} f=${pair#*:}
	[ -f "$f" ] || { echo "netboot.sh: no $f (make ARCH=$a)" >&2; exit 2; }
	cp "$f" "$root/$a/efiperf.efi"
done
cp boot/efiperf.cfg "$root/efiperf/efiperf.cfg"
cat > "$root/efiperf/SERIAL.cfg.sample" <<'CFG'
# efiperf: one machine's configuration. Rename to the machine's SMBIOS system serial (as efiperf
# prints it and names its logs), e.g. efiperf/LAB1.cfg, to replace efiperf/efiperf.cfg for it.
copy_size = 64M
stream = on
latency = on
check = stream.triad.best_rate_mbps >= 1
CFG
{
	echo "# dnsmasq for an efiperf lab network (boot/netboot.sh). DHCP answers on $iface only."
	echo "interface=$iface"
	echo "bind-interfaces"
	echo "except-interface=lo"
	echo "port=0"
	echo "dhcp-range=${range},255.255.255.0,1h"
	echo "enable-tftp"
	echo "tftp-root=$root"
	echo "dhcp-match=set:efi64,option:client-arch,7"
	echo "dhcp-match=set:efi64,option:client-arch,9"
	echo "dhcp-match=set:efiarm64,option:client-arch,11"
	echo "dhcp-boot=tag:efi64,x86_64/efiperf.efi"
	echo "dhcp-boot=tag:efiarm64,aarch64/efiperf.efi"
	if [ -n "$http_port" ]; then
		echo "# UEFI HTTP boot: the client sends vendor class HTTPClient and must get it back (UEFI 2.10 24.7)"
		echo "dhcp-match=set:http64,option:client-arch,16"
		echo "dhcp-match=set:httparm64,option:client-arch,19"
		echo "dhcp-option-force=tag:http64,60,HTTPClient"
		echo "dhcp-option-force=tag:httparm64,60,HTTPClient"
		echo "dhcp-boot=tag:http64,http://$server:$http_port/x86_64/efiperf.efi"
		echo "dhcp-boot=tag:httparm64,http://$server:$http_port/aarch64/efiperf.efi"
	fi
} > "$root/dnsmasq.conf"
echo "netboot: boot root $root (x86_64/ and aarch64/ efiperf.efi, efiperf/efiperf.cfg, efiperf/SERIAL.cfg.sample)"
echo "netboot: dnsmasq configuration $root/dnsmasq.conf:"
sed 's/^/  /' "$root/dnsmasq.conf"
echo "netboot: start it on the lab network's interface: dnsmasq --conf-file=$root/dnsmasq.conf --no-daemon"
