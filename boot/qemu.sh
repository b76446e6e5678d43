#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# qemu.sh: boot an efiperf image under QEMU (software emulation), wait for it to power off,
# copy the logs it wrote out of the FAT image and print their paths.
#
#   boot/qemu.sh --arch x86_64|aarch64 --image IMG --logs DIR [--cpu MODEL] [--smp N]
#                [--timeout SEC] [--quiet] [--readonly] [--boot-nvme SLOT] [--secure-boot]
#                [--main-job] [--report DIR] [-- extra qemu args...]
# --secure-boot boots Debian's firmware whose variable store has Secure Boot on and trusts only
# Debian's snakeoil test key (/usr/share/ovmf/PkKek-1-snakeoil.pem): OVMF_CODE_4M.snakeoil.fd on
# q35 with SMM and a secure flash (x86_64), AAVMF_CODE.snakeoil.fd (aarch64). An image signed
# with that key (make image SIGN_KEY=... SIGN_CERT=...) runs; an unsigned one is refused.
# --readonly attaches the image write-protected (efiperf must go on console-only).
# --boot-nvme SLOT (x86_64) attaches the image to an NVMe controller at PCI device SLOT of bus 0
# (e.g. 0x9) instead of q35's AHCI disk: efiperf then boots from, and logs to, an NVMe disk
# (also set by QEMU_BOOT_NVME=SLOT in the environment).
# --main-job (what `make run` boots; x86_64) gives the machine what the image's main job
# (boot/efiperf.cfg) measures: two NVMe controllers, one behind a root port told 16 GT/s x8
# (00:10.0), one behind a switch (00:11.0 -> upstream -> downstream), whose 32 MiB disks
# (nvme1.raw, nvme2.raw beside the image) carry efiperf's pattern (boot/pattern-disk); CPU model
# Icelake-Server,model=106 (Ice Lake-SP, whose CHA efiperf programs) unless --cpu or QEMU_CPU
# says otherwise; and SMBIOS baseboard product "efiperf-qemu", so the run reads the image's
# \efiperf\efiperf-qemu.cfg (the main job with the CHA count QEMU cannot show, boot/mkimage.sh).
# On aarch64 it changes nothing (virt gets no NVMe controller).
# --report DIR writes the HTML report of the run's log to DIR (boot/efiperf-report --html) and
# prints its path ("report: DIR/<log>.html") after the logs'.
#
# x86_64: q35, OVMF, -smp 4, CPU model $QEMU_CPU (default Icelake-Server).
# aarch64: virt, -cpu max, AAVMF, -icount shift=0 (exact INST_RETIRED: QEMU docs/devel/tcg-icount.rst).
# The terminal shows the efiperf console and anything QEMU prints, except QEMU's warnings that
# TCG does not emulate a CPUID feature of the CPU model (harmless, one per feature and CPU):
# those go to the console log only. --quiet sends everything to the console log.
# Exit status: 0 when the run's last JSONL record is {"type":"end","status":"ok"}, 1 when it
# ended with status error, 2 when no log was written or QEMU failed or timed out.
set -euo pipefail
arch=x86_64 img= logs= cpu=${QEMU_CPU:-} smp=4 timeout=600 quiet=0 ro= bootnvme=${QEMU_BOOT_NVME:-} secure=0 main=0 report= extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--image) img=$2; shift 2 ;;
	--logs) logs=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--readonly) ro=,readonly=on; shift ;;
	--boot-nvme) bootnvme=$2; shift 2 ;;
	--secure-boot) secure=1; shift ;;
	--main-job) main=1; shift ;;
	--report) report=$2; shift 2 ;;
	--) shift; extra=("$@"); break ;;
	*) echo "qemu.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ -f "$img" ] || { echo "qemu.sh: no image '$img' (make image ARCH=$arch)" >&2; exit 2; }
[ -n "$logs" ] || logs=$(dirname "$img")/logs
mkdir -p "$logs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

case $arch in
x86_64)
	if [ $main = 1 ]; then cpu=${cpu:-Icelake-Server,model=106}; fi
	cpu=${cpu:-Icelake-Server}
	machine=q35 code=/usr/share/OVMF/OVMF_CODE.fd vars=/usr/share/OVMF/OVMF_VARS.fd sb=()
	if [ $secure = 1 ]; then
		machine=q35,smm=on code=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd vars=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
		sb=(-global driver=cfi.pflash01,property=secure,value=on)
	fi
	cp "$vars" "$work/vars.fd"
	cmd=(qemu-system-x86_64 -M "$machine" "${sb[@]}" -cpu "$cpu" -smp "$smp" -m 512 -nographic -no-reboot -net none
	     -drive if=pflash,format=raw,readonly=on,file="$code"
	     -drive if=pflash,format=raw,file="$work/vars.fd"
	     )
	# q35's AHCI disk cannot be read-only in QEMU: a write-protected image goes on virtio-blk.
	if [ -n "$bootnvme" ]; then cmd+=(-drive if=none,format=raw,file="$img",id=bootnvme$ro -device nvme,serial=efiperf-boot,drive=bootnvme,addr="$bootnvme")
	elif [ -n "$ro" ]; then cmd+=(-drive if=none,format=raw,file="$img",id=d$ro -device virtio-blk-pci,drive=d)
	else cmd+=(-drive format=raw,file="$img"); fi
	if [ $main = 1 ]; then
		disks=$(dirname "$img")
		"$(dirname "$0")/pattern-disk" "$disks/nvme1.raw" && "$(dirname "$0")/pattern-disk" "$disks/nvme2.raw" ||
			{ echo "qemu.sh: cannot write the NVMe disk files in $disks (boot/pattern-disk)" >&2; exit 2; }
		cmd+=(-smbios type=2,product=efiperf-qemu
		      -device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,addr=0x10,x-speed=16,x-width=8
		      -drive if=none,id=n1,format=raw,file="$disks/nvme1.raw" -device nvme,serial=efiperf-n1,drive=n1,bus=rp1
		      -device pcie-root-port,id=rp2,bus=pcie.0,chassis=2,addr=0x11
		      -device x3130-upstream,id=up1,bus=rp2 -device xio3130-downstream,id=dn1,bus=up1,chassis=3,slot=0
		      -drive if=none,id=n2,format=raw,file="$disks/nvme2.raw" -device nvme,serial=efiperf-n2,drive=n2,bus=dn1)
	fi
	;;
aarch64)
	cpu=${cpu:-max}
	code=/usr/share/AAVMF/AAVMF_CODE.fd vars=/usr/share/AAVMF/AAVMF_VARS.fd
	[ $secure = 1 ] && code=/usr/share/AAVMF/AAVMF_CODE.snakeoil.fd vars=/usr/share/AAVMF/AAVMF_VARS.snakeoil.fd
	cp "$vars" "$work/vars.fd"
	cmd=(qemu-system-aarch64 -M virt -cpu "$cpu" -smp "$smp" -m 512 -icount shift=0 -nographic -no-reboot -net none
	     -drive if=pflash,format=raw,readonly=on,file="$code"
	     -drive if=pflash,format=raw,file="$work/vars.fd"
	     -drive if=none,format=raw,file="$img",id=d$ro -device virtio-blk-device,drive=d)
	;;
*) echo "qemu.sh: --arch must be x86_64 or aarch64" >&2; exit 2 ;;
esac

before=$(mdir -b -i "$img" ::/efiperf/logs 2>/dev/null | sort || true)
console="$logs/console-$(date +%Y%m%d-%H%M%S).log"
start=$(date +%s.%N)
set +e
if [ $quiet = 1 ]; then
	timeout "$timeout" "${cmd[@]}" "${extra[@]}" </dev/null >"$console" 2>&1
else
	timeout "$timeout" "${cmd[@]}" "${extra[@]}" </dev/null 2>&1 | tee "$console" |
		sed -u "/^qemu-system-[a-z0-9_]*: warning: TCG doesn't support requested feature: /d"
	test "${PIPESTATUS[0]}" = 0
fi
qrc=$?
set -e
end=$(date +%s.%N)
wall=$(awk "BEGIN{printf \"%.1f\", $end-$start}")
if [ $qrc = 124 ]; then echo "qemu.sh: QEMU did not power off within ${timeout}s" >&2; fi

after=$(mdir -b -i "$img" ::/efiperf/logs 2>/dev/null | sort || true)
new=$(comm -13 <(echo "$before") <(echo "$after") | grep -E '\.(jsonl|txt)$' || true)
status=2
for f in $new; do
	name=${f##*/}
	mcopy -o -i "$img" "::/efiperf/logs/$name" "$logs/$name"
	echo "log: $logs/$name"
	case $name in
	*.jsonl)
		last=$(tail -n 1 "$logs/$name")
		case $last in
		*'"type":"end"'*'"status":"ok"'*) status=0 ;;
		*'"type":"end"'*) status=1 ;;
		*) echo "qemu.sh: $name has no end record (run cut short)" >&2; status=2 ;;
		esac ;;
	esac
done
for f in $new; do
	case $f in *.jsonl) [ -n "$report" ] || break
		name=${f##*/}
		set +e
		"$(dirname "$0")/efiperf-report" --quiet --html "$report" "$logs/$name"
		rrc=$?
		set -e
		# 0..2: the run's result (PASS, FAIL, INCOMPLETE/ERROR), the page is written; 3: no page
		if [ $rrc -le 2 ] && [ -f "$report/${name%.jsonl}.html" ]; then echo "report: $report/${name%.jsonl}.html"
		else echo "qemu.sh: efiperf-report could not report $logs/$name (exit $rrc)" >&2; status=2; fi ;;
	esac
done
echo "console: $console"
echo "qemu: $arch ${cpu} wall ${wall}s exit $qrc"
[ -n "$new" ] || { echo "qemu.sh: the run wrote no log to the image" >&2; exit 2; }
# QEMU failed or timed out: 2 whatever the log says (an error run that never powered off is a hang).
[ $qrc = 0 ] || status=2
exit $status
