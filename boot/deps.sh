#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Install what efiperf needs from Debian's archive, only when it is missing.
#
#   boot/deps.sh all                 everything: both build toolchains, QEMU + firmware, test tools
#   boot/deps.sh x86_64|aarch64      what `make ARCH=...` needs to build
#   boot/deps.sh --check run ARCH    what `make run` needs to boot ARCH
#   boot/deps.sh --check test        what `make test` needs
#   boot/deps.sh report              what boot/efiperf-report needs (Debian's python3 packages)
#   boot/deps.sh --check collector   what boot/efiperf-collector needs (aiohttp, psycopg)
#   boot/deps.sh --check sign        what make image SIGN_KEY=... needs (sbsigntool)
#
# gnu-efi:arm64 is not co-installable with gnu-efi:amd64 (Debian's gnu-efi 3.0.15 is not
# Multi-Arch and installs into /usr/lib), so it is downloaded as a .deb and unpacked into
# build/sysroot-aarch64.
set -euo pipefail
cd "$(dirname "$0")/.."

PKG_BUILD_X86=(gnu-efi binutils gcc make mtools dosfstools)
PKG_BUILD_A64=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu picolibc-aarch64-linux-gnu mtools dosfstools dpkg-dev)
PKG_RUN_X86=(qemu-system-x86 ovmf mtools)
PKG_RUN_A64=(qemu-system-arm qemu-efi-aarch64 mtools)
# The Python tests run under Debian's /usr/bin/python3 with Debian's pytest and its plugins.
PKG_TEST=(libcmocka-dev libpfm4-dev clang acpica-tools python3 pkg-config python3-pytest python3-pytest-xdist python3-pytest-timeout)
# boot/efiperf-report runs under Debian's /usr/bin/python3; its browser test opens the report in
# Debian's chromium (headless).
PKG_REPORT=(python3 python3-matplotlib python3-jsonschema)
PKG_BROWSER=(chromium)
# boot/efiperf-collector (aiohttp, psycopg 3 for PostgreSQL) and its tests (a PostgreSQL 15 server
# of their own); make image SIGN_KEY=... signs with sbsign; the lab-network tests run dnsmasq-base
# (the binary alone: no service that would start a DHCP server on this machine), only inside an
# ip netns they create, bound to its bridge with --bind-interfaces.
PKG_COLLECTOR=(python3-aiohttp python3-psycopg)
PKG_LAB=(postgresql-15 sbsigntool dnsmasq-base)

SYSROOT=build/sysroot-aarch64

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@";
	else echo "deps: need root to run: $*" >&2; exit 1; fi
}

updated=0
apt_update() {
	[ $updated = 1 ] && return 0
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	updated=1
}

install_missing() {
	local missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	echo "deps: installing ${missing[*]}"
	apt_update
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

arm64_sysroot() {
	[ -f "$SYSROOT/.unpacked" ] && return 0
	install_missing "${PKG_BUILD_A64[@]}"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		as_root dpkg --add-architecture arm64
		updated=0
	fi
	apt_update
	local dl; dl=$(mktemp -d)
	chmod 777 "$dl"
	(cd "$dl" && apt-get download -q gnu-efi:arm64 >/dev/null 2>&1 || as_root apt-get download -q gnu-efi:arm64)
	mkdir -p "$SYSROOT"
	dpkg-deb -x "$dl"/gnu-efi_*_arm64.deb "$SYSROOT"
	rm -rf "$dl"
	test -f "$SYSROOT/usr/lib/crt0-efi-aarch64.o"
	touch "$SYSROOT/.unpacked"
	echo "deps: gnu-efi arm64 unpacked into $SYSROOT"
}

case "${1:-all}" in
x86_64) install_missing "${PKG_BUILD_X86[@]}" ;;
aarch64) install_missing "${PKG_BUILD_A64[@]}"; arm64_sysroot ;;
--check)
	case "${2:-}" in
	run) if [ "${3:-x86_64}" = aarch64 ]; then install_missing "${PKG_RUN_A64[@]}"; else install_missing "${PKG_RUN_X86[@]}"; fi ;;
	test) install_missing "${PKG_BUILD_X86[@]}" "${PKG_RUN_X86[@]}" "${PKG_RUN_A64[@]}" "${PKG_TEST[@]}" \
		"${PKG_REPORT[@]}" "${PKG_BROWSER[@]}" "${PKG_COLLECTOR[@]}" "${PKG_LAB[@]}"; arm64_sysroot ;;
	collector) install_missing "${PKG_REPORT[@]}" "${PKG_COLLECTOR[@]}" ;;
	sign) install_missing sbsigntool openssl ;;
	report) install_missing "${PKG_REPORT[@]}" ;;
	*) echo "usage: $0 --check run ARCH | --check test | --check report | --check collector | --check sign" >&2; exit 2 ;;
	esac ;;
report) install_missing "${PKG_REPORT[@]}" ;;
all) install_missing "${PKG_BUILD_X86[@]}" "${PKG_RUN_X86[@]}" "${PKG_RUN_A64[@]}" "${PKG_TEST[@]}" "${PKG_REPORT[@]}" \
	"${PKG_BROWSER[@]}" "${PKG_COLLECTOR[@]}" "${PKG_LAB[@]}"; arm64_sysroot ;;
*) echo "usage: $0 all | x86_64 | aarch64 | report | --check run ARCH | --check test | --check report" >&2; exit 2 ;;
esac
