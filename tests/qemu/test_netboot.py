# SPDX-License-Identifier: BSD-2-Clause
"""Network boot in a lab network of the test's own: a network namespace with a bridge at
198.18.0.1/24, one tap per machine, no route out and no link to this machine's networks; dnsmasq
(DHCP + TFTP) bound to that bridge only, serving the boot root `boot/netboot.sh` lays out. Three
x86_64 QEMU machines with SMBIOS serials LAB1, LAB2, LAB3 boot efiperf by UEFI PXE at the same
time; each reads its own configuration from the boot server (efiperf/<serial>.cfg; LAB3 has none
and gets efiperf/efiperf.cfg) and runs it. The namespace, dnsmasq and every QEMU are removed on
every path."""
import os
import re
import shutil
import subprocess
import time

import pytest

from efiperf_qemu import REPO, base_efi, console_tail

NETBOOT_SH = os.path.join(REPO, "boot", "netboot.sh")
SERVER = "198.18.0.1"


def sh(*args, check=True):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=60)
    if check and p.returncode != 0:
        raise AssertionError("%s: %s" % (" ".join(args), p.stderr.strip()))
    return p


class Lab:
    """The namespace and what runs in it."""

    def __init__(self, d, taps):
        self.d, self.ns = d, "efiperf-lab-%d" % os.getpid()
        self.procs = []
        sh("ip", "netns", "add", self.ns)
        self.run_ns("ip", "link", "set", "lo", "up")
        self.run_ns("ip", "link", "add", "br0", "type", "bridge")
        self.run_ns("ip", "addr", "add", SERVER + "/24", "dev", "br0")
        self.run_ns("ip", "link", "set", "br0", "up")
        for t in taps:
            self.run_ns("ip", "tuntap", "add", "dev", t, "mode", "tap")
            self.run_ns("ip", "link", "set", t, "master", "br0", "up")
        routes = self.run_ns("ip", "route", "show").stdout
        assert "default" not in routes, "the lab namespace has a route out: %s" % routes

    def run_ns(self, *args):
        return sh("ip", "netns", "exec", self.ns, *args)

    def start(self, args, log):
        f = open(log, "wb")
        p = subprocess.Popen(["ip", "netns", "exec", self.ns] + list(args), stdout=f, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs.append((p, f))
        return p

    def close(self):
        for p, f in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
            f.close()
        pids = sh("ip", "netns", "pids", self.ns, check=False).stdout.split()
        for pid in pids:
            sh("kill", "-9", pid, check=False)
        sh("ip", "netns", "del", self.ns, check=False)


def qemu_args(d, serial, tap, mac):
    vars_fd = os.path.join(d, "vars-%s.fd" % serial)
    shutil.copyfile("/usr/share/OVMF/OVMF_VARS.fd", vars_fd)
    return ["qemu-system-x86_64", "-M", "q35", "-cpu", "Icelake-Server", "-smp", "2", "-m", "512", "-nographic",
            "-no-reboot", "-drive", "if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE.fd",
            "-drive", "if=pflash,format=raw,file=%s" % vars_fd, "-smbios", "type=1,serial=%s" % serial,
            "-netdev", "tap,id=n0,ifname=%s,script=no,downscript=no" % tap,
            "-device", "virtio-net-pci,netdev=n0,romfile=,mac=%s" % mac]


@pytest.mark.x86_64
def test_pxe_fleet_reads_config_from_boot_server(scratch):
    if os.geteuid() != 0 or not shutil.which("dnsmasq"):
        pytest.fail("needs root and dnsmasq (boot/deps.sh --check test installs dnsmasq-base)")
    d = scratch()
    root = os.path.join(d, "root")
    p = sh(NETBOOT_SH, "--root", root, "--server", SERVER, "--range", "198.18.0.100,198.18.0.150",
           "--interface", "br0", "--efi-x86_64", base_efi("x86_64"), "--efi-aarch64", base_efi("x86_64"))
    assert "bind-interfaces" in open(os.path.join(root, "dnsmasq.conf")).read()
    common = "exit = shutdown\npcie = off\nstream = off\nlatency = off\n"
    with open(os.path.join(root, "efiperf", "efiperf.cfg"), "w") as f:
        f.write(common + "copy_size = 4M\ncopy_passes = 1\n")
    for serial, mib in (("LAB1", 2), ("LAB2", 3)):
        with open(os.path.join(root, "efiperf", serial + ".cfg"), "w") as f:
            f.write(common + "copy_size = %dM\ncopy_passes = 1\n" % mib)
    serials = ("LAB1", "LAB2", "LAB3")
    lab = Lab(d, ["tap%d" % i for i in range(len(serials))])
    try:
        lab.start(["dnsmasq", "--conf-file=" + os.path.join(root, "dnsmasq.conf"), "--no-daemon",
                   "--log-facility=-", "--pid-file=" + os.path.join(d, "dnsmasq.pid"), "--user=root", "--group=root",
                   "--log-dhcp"], os.path.join(d, "dnsmasq.log"))
        time.sleep(1)
        machines = {}
        for i, serial in enumerate(serials):
            log = os.path.join(d, "console-%s.log" % serial)
            machines[serial] = (lab.start(qemu_args(d, serial, "tap%d" % i, "52:54:00:18:00:%02x" % (i + 1)), log), log)
        deadline = time.time() + 480
        while time.time() < deadline and any(p.poll() is None for p, _ in machines.values()):
            time.sleep(2)
        for serial, (p, log) in machines.items():
            text = open(log, "rb").read().decode("utf-8", "replace")
            assert p.poll() == 0, "%s did not power off: %s" % (serial, "\n".join(console_tail(log)))
            want = "efiperf/%s.cfg" % serial if serial != "LAB3" else "efiperf/efiperf.cfg"
            assert "configuration from tftp://%s/%s, console only" % (SERVER, want) in text, \
                "%s: %s" % (serial, "\n".join(console_tail(log)))
            mib = {"LAB1": 2, "LAB2": 3, "LAB3": 4}[serial]
            assert "copy %d bytes on each of 1 CPU(s), 1 passes" % (mib << 20) in text, \
                "%s: no %d MiB copy on the console: %s" % (serial, mib, "\n".join(console_tail(log)))
            assert "efiperf: run ok" in text
        dlog = open(os.path.join(d, "dnsmasq.log")).read()
        for serial, cfg in (("LAB1", "LAB1.cfg"), ("LAB2", "LAB2.cfg"), ("LAB3", "efiperf.cfg")):
            assert re.search(r"sent %s/efiperf/%s to 198\.18\.0\.\d+" % (re.escape(root), cfg), dlog), (serial, dlog[-3000:])
        assert len(set(re.findall(r"sent %s/x86_64/efiperf.efi to (198\.18\.0\.\d+)" % re.escape(root), dlog))) == 3
    finally:
        lab.close()
    assert sh("ip", "netns", "list").stdout.find(lab.ns) < 0
