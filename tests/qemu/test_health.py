# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the health evidence on every window (efi/measure/health_run.h, the `health`
object of efi/out/health_json.c): two NVMe controllers, one behind root port rp1 (00:10.0), one
behind a switch under root port rp2 (00:11.0), the topology of test_nvme.py. While efiperf's NVMe
windows run, the test injects through QMP (`human-monitor-command`):
  - HMP `pcie_aer_inject_error -c rp1 0x1`: a correctable error with status bit 0 (PCIe 6.0
    7.8.4.5: Receiver Error, lspci's RxErr) on rp1;
  - HMP `mce 0 1 <status> 0 <addr> 0` (QEMU 7.2: cpu bank status mcgstatus addr misc): a
    corrected error in bank 1 of CPU 0, the boot CPU.
Oracles are what was injected: exactly one window shows RxErr on rp1 (the bit is sticky: the next
windows start from it), no window shows an error on rp2 or the switch ports, exactly one window
shows the machine check in bank 1 with its status and address, the windows before show none,
and the check `nvme[*].health.aer.correctable == 0` makes the verdict FAIL."""
import json
import os
import socket
import threading
import time

import pytest

from efiperf_qemu import SMALL, boot, cfg_text, make_image
from test_nvme import topology

x86_64 = pytest.mark.x86_64

RP1, RP2 = "0000:00:10.0", "0000:00:11.0"
SWITCH = ("0000:02:00.0", "0000:03:00.0")
RX_ERR = 0x1                       # PCIe 6.0 7.8.4.5 Correctable Error Status bit 0
# SDM Vol.3B 16.3.2.2: VAL [63], EN [60], ADDRV [58]; MCACOD 0000 0000 1001 0001 is a memory
# controller error (16.9.2 Table 16-8, 1MMM CCCC: MMM 001 memory read, channel 1)
MCE_BANK, MCE_STATUS, MCE_ADDR = 1, (1 << 63) | (1 << 60) | (1 << 58) | 0x0091, 0xdead000
CHECK = "check = nvme[*].health.aer.correctable == 0"


class Qmp:
    def __init__(self, path, timeout=30):
        end = time.monotonic() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)
        self.f = self.s.makefile("rw")
        json.loads(self.f.readline())                    # the greeting
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            msg = json.loads(self.f.readline())
            if "return" in msg or "error" in msg:
                return msg

    def hmp(self, line):
        msg = self.cmd("human-monitor-command", **{"command-line": line})
        assert "return" in msg, "%s: %s" % (line, msg)
        return msg["return"]


def wait_reads(q, drive, nbytes, done, timeout=600):
    """Poll QMP query-blockstats until `drive` has read nbytes: the NVMe records are written
    after the whole run, so the console shows no window while they run; the disk reads do."""
    end = time.monotonic() + timeout
    while not done.is_set() and time.monotonic() < end:
        stats = {b["device"]: b["stats"] for b in q.cmd("query-blockstats")["return"]}
        if stats.get(drive, {}).get("rd_bytes", 0) >= nbytes:
            return True
        time.sleep(0.02)
    return False


def functions(rec):
    return {f["bdf"]: f for f in rec["health"]["aer"]["functions"]}


@x86_64
def test_aer_and_mce_injected_during_nvme_windows(scratch, figure):
    d = scratch()
    _, extra = topology(d)
    sock = os.path.join(d, "qmp.sock")
    extra += ["-qmp", "unix:%s,server=on,wait=off" % sock]
    cfg = dict(SMALL, pcie="off", nvme="01:00.0,04:00.0", nvme_bs="4K,8K,16K,32K", nvme_iodepth="1,4", nvme_size="1M")
    img = make_image("x86_64", d, cfg_text("x86_64", cfg) + CHECK + "\n")
    done, result, replies = threading.Event(), {}, {}

    def run():
        try:
            result["run"] = boot("x86_64", img, d, extra=extra)
        finally:
            done.set()

    t = threading.Thread(target=run)
    t.start()
    try:
        # the first window (01:00.0 alone, 1 MiB from n1) has ended once the second (04:00.0
        # alone) has read half of its 1 MiB from n2: both injections land between windows or in one
        q = Qmp(sock)
        assert wait_reads(q, "n2", 512 * 1024, done), "no NVMe window read from n2"
        replies["aer"] = q.hmp("pcie_aer_inject_error -c rp1 0x%x" % RX_ERR)
        replies["mce"] = q.hmp("mce 0 %d 0x%x 0 0x%x 0" % (MCE_BANK, MCE_STATUS, MCE_ADDR))
    finally:
        t.join()
    r = result["run"]
    assert replies["aer"].startswith("OK id: rp1") and replies["mce"] == "", "HMP said: %s" % replies
    recs = [x for x in r.records if x["type"] == "nvme"]
    assert all(x.get("status") == "ok" for x in recs), [x.get("status") for x in recs]
    # the windows in order: an alone window has one record, a shared one a record per controller
    # with the same health object
    wins = []
    for x in recs:
        key = (x["bs"], x["iodepth"], x["window"], x["bdf"] if x["window"] == "alone" else "")
        if not wins or wins[-1][0] != key:
            wins.append((key, x))
        else:
            assert x["health"] == wins[-1][1]["health"], "records of one shared window differ in health"
    assert len(wins) == 2 * 4 * 2 + 4 * 2, "%d windows" % len(wins)   # 2 controllers x 4 bs x 2 depths alone, 8 shared
    # AER: exactly one window saw RxErr newly set on rp1, none anything on rp2 or the switch
    hits = [i for i, (_, x) in enumerate(wins) if functions(x).get(RP1, {}).get("correctable")]
    assert len(hits) == 1, "windows with rp1 correctable errors: %s" % hits
    assert hits[0] > 0, "the error showed in the first window, which ended before it was injected"
    hit = wins[hits[0]][1]
    f = functions(hit)[RP1]
    assert f["cor_new"] == ["RxErr"] and f["correctable"] == 1 and f["aer"] is True, f
    assert "CorrErr" in f["devsta_new"], f
    assert hit["health"]["aer"]["correctable"] == 1
    for _, x in wins:
        fs = functions(x)
        for b in (RP2,) + SWITCH:
            if b in fs:
                assert fs[b].get("correctable") == 0 and fs[b].get("uncorrectable") == 0, (b, fs[b])
    # machine check: one window shows the new entry, decoded; the windows before show none
    mca = [x["health"]["mca"] for _, x in wins]
    assert all("absent" not in m for m in mca), mca[0]
    new = [i for i, m in enumerate(mca) if m["new"]]
    assert len(new) == 1 and new[0] > 0, "windows with new machine checks: %s" % new
    e = mca[new[0]]["entries"]
    assert mca[new[0]]["corrected"] == 1 and mca[new[0]]["uncorrected"] == 0
    assert len(e) == 1 and e[0]["bank"] == MCE_BANK and e[0]["status"] == "0x%x" % MCE_STATUS, e
    assert e[0]["corrected"] is True and e[0]["kind"] == "memory controller" and e[0]["mcacod"] == "0x91", e
    assert e[0]["addr"] == "0x%x" % MCE_ADDR, e
    assert all(m["new"] == 0 for m in mca[:new[0]])
    # the sources TCG does not have say why
    h = recs[0]["health"]
    assert "absent" in h["energy"] and "absent" in h["freq"] and h["throttled"] is None, h
    # the verdict: the check names the window's correctable error
    v = r.one("verdict")
    assert v["result"] == "FAIL", v
    c = [c for c in v["checks"] if c["path"] == "nvme[*].health.aer.correctable"]
    assert len(c) == 1 and c[0]["result"] == "FAIL", v["checks"]
    figure("health windows", "%d NVMe windows, RxErr on rp1 in window %d, MCE in window %d" % (len(wins), hits[0], new[0]))


@x86_64
def test_aer_clear_on(scratch):
    """aer_clear = on: a correctable error injected while the firmware boots (before any window) is
    found set at the first window's prepare, cleared (written back as 1, RW1C) and listed as
    `cleared`; no window counts it, so the same check passes."""
    d = scratch()
    _, extra = topology(d)
    sock = os.path.join(d, "qmp.sock")
    extra += ["-qmp", "unix:%s,server=on,wait=off" % sock]
    cfg = dict(SMALL, pcie="off", nvme="01:00.0", nvme_bs="4K", nvme_iodepth="1,4", nvme_size="1M", aer_clear="on",
               stream="on", stream_size="1M", stream_passes="1", kernel_budget="0")
    img = make_image("x86_64", d, cfg_text("x86_64", cfg) + CHECK + "\n")
    done, result = threading.Event(), {}

    def run():
        try:
            result["run"] = boot("x86_64", img, d, extra=extra)
        finally:
            done.set()

    t = threading.Thread(target=run)
    t.start()
    try:
        q = Qmp(sock)
        reply = q.hmp("pcie_aer_inject_error -c rp1 0x%x" % RX_ERR)
    finally:
        t.join()
    r = result["run"]
    assert reply.startswith("OK id: rp1"), reply
    recs = [x for x in r.records if x["type"] == "nvme"]
    assert len(recs) == 2, "%d nvme records" % len(recs)
    first = functions(recs[0])[RP1]
    assert recs[0]["health"]["aer"]["cleared_before"] is True
    assert first["cleared"] == ["CorrErr", "RxErr"] and first["clear_failed"] is False, first
    assert first["already_set"] == [] and first["correctable"] == 0, first
    # QEMU's status registers are RW1C: the second window found nothing to clear
    assert functions(recs[1])[RP1]["cleared"] == [], functions(recs[1])[RP1]
    v = r.one("verdict")
    assert v["result"] == "PASS", v["checks"]
    # the STREAM windows carry health too (no device: no aer), and the SMBIOS claim beside
    # the rate: QEMU 7.2's type 17 gives no data width (FFFFh), so the claim is absent
    st = r.of("stream")
    assert st and all(x["health"]["aer"] == {"absent": "the window has no PCIe device"} for x in st), st[0]["health"]
    assert all(x["health"]["mca"]["new"] == 0 for x in st)
    assert all(x["dram_peak"]["absent"].startswith("no SMBIOS type 17 device") for x in st), st[0]["dram_peak"]
