# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the counters and link limits around DMA windows.

An NVMe disk behind a PCIe switch: root port 00:10.0 told to train at 8 GT/s x4 (QEMU's
x-speed/x-width), switch upstream port 01:00.0 (x3130-upstream), downstream port 02:00.0
(xio3130-downstream), NVMe 03:00.0, read through the firmware's Block IO driver with
`dma_blockio`. What QEMU can show:
  - link_limit.path lists root port, upstream port, downstream port and endpoint, and the
    bottleneck is the link to the NVMe, whose own LnkSta says 2.5 GT/s x1 (QEMU 7.2's NVMe
    endpoint; QEMU's x3130 upstream port is 2.5 GT/s x1 too, so the root port's link, told
    8 GT/s x4, counts at 2.5 GT/s x1 as well and the tie goes to the device's own link); 2.5 GT/s x1 with 8b/10b is 0.250 GB/s raw per
    direction (PCIe Base: 2.5 x 8/10 / 8), so the emulated read is far above the limit and
    its fraction is flagged impossible;
  - under Icelake-Server,model=106 with cha = on and cha_count = 4 the Block IO window has its
    own `cha` record with counts, and self_check is there with state "not-advancing": TCG
    reads the uncore MSRs as 0 (what counts advancing with DMA is tested on the register model,
    tests/unit/test_dma_self_check.c).
  - a typo in cha_events is a config error naming the file and line before any window ran.
"""
import os
import struct

import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64

ICX_QEMU = "Icelake-Server,model=106"
MAGIC = 0x2166726570696665   # "efiperf!": the pattern's magic (efi/measure/dma_pattern.h)
DISK = 8 << 20
PATH = ["0000:00:10.0", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0"]
SELF_CHECK_KEYS = {"state", "expected_read_bytes", "expected_write_bytes", "counted_read_bytes",
                   "counted_write_bytes", "ratio_read", "ratio_write", "tolerance", "why"}


def pattern_disk(d):
    path = os.path.join(d, "disk.raw")
    with open(path, "wb") as f:
        step = 1 << 20
        for base in range(0, DISK, step):
            f.write(struct.pack("<%dQ" % (step // 8), *[((base // 8) + i) ^ MAGIC for i in range(step // 8)]))
    return path


def switched_boot(scratch, cfg, cpu=None):
    d = scratch()
    base = {"copy_size": "4K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "on",
            "dma_blockio": PATH[-1], "dma_bytes": str(DISK)}
    img = make_image("x86_64", d, cfg_text("x86_64", dict(base, **cfg)))
    return boot("x86_64", img, d, cpu=cpu, extra=[
        "-device", "pcie-root-port,id=rp,bus=pcie.0,addr=0x10,chassis=1,slot=1,x-speed=8,x-width=4",
        "-device", "x3130-upstream,id=up,bus=rp",
        "-device", "xio3130-downstream,id=dn,bus=up,chassis=2,slot=1",
        "-drive", "if=none,id=nvm,format=raw,file=%s" % pattern_disk(d),
        "-device", "nvme,serial=efiperf3,drive=nvm,bus=dn"])


def blockio_record(run):
    r = [x for x in run.of("measurement") if x.get("kernel") == "blockio_read"]
    assert len(r) == 1, "blockio_read records: %d (errors %s)" % (len(r), run.of("error"))
    return r[0]


@x86_64
def test_link_limit_switched_nvme(scratch, figure):
    run = switched_boot(scratch, {})
    run.expect_ok()
    r = blockio_record(run)
    assert r.get("verified") is True and r.get("bytes") == DISK, "the read itself: %s" % {k: r.get(k) for k in ("bytes", "verified", "status")}
    ll = r.get("link_limit")
    assert ll and ll.get("status") == "ok", "link_limit %s" % ll
    assert ll.get("path") == PATH, "path %s, QEMU's topology is %s" % (ll.get("path"), PATH)
    links = ll.get("links", [])
    assert [(l["port"], l["device"]) for l in links] == [(PATH[0], PATH[1]), (PATH[2], PATH[3])], "links %s" % links
    bn = ll.get("bottleneck") or {}
    assert (bn.get("port"), bn.get("device")) == (PATH[2], PATH[3]), "bottleneck %s" % bn
    assert float(bn.get("gts")) == 2.5 and bn.get("width") == 1, "bottleneck %s: QEMU's NVMe trains at 2.5 GT/s x1" % bn
    assert float(ll.get("raw_gbps")) == 0.25, "raw %s GB/s, 2.5 GT/s x1 8b/10b is 0.250" % ll.get("raw_gbps")
    # the root port was told 8 GT/s x4, but QEMU's x3130 upstream port is a 2.5 GT/s x1 part: that
    # link trains at 2.5 GT/s x1 as well (a tie: the device's own link is named the bottleneck)
    assert float(links[0]["gts"]) == 2.5 and links[0]["width"] == 1, "root port link %s" % links[0]
    eff = float(ll.get("effective_gbps"))
    assert 0 < eff < 0.25 and ll.get("direction") == "device writes memory", "effective %s, direction %s" % (eff, ll.get("direction"))
    frac = float(ll.get("fraction"))
    measured = float(r["gbps"])
    assert abs(frac - measured / eff) <= 0.01 * frac + 0.002, "fraction %s, measured %s / effective %s" % (frac, measured, eff)
    # an emulated NVMe copies guest memory far above what 2.5 GT/s x1 carries: flagged
    assert frac > 1, "fraction %s: the emulated read was expected above the 2.5 GT/s x1 limit" % frac
    assert ll.get("impossible") == "emulated link or counting error", "fraction %s not flagged: %s" % (frac, ll)
    sc = r.get("self_check") or {}
    assert set(sc) >= SELF_CHECK_KEYS and sc.get("state") == "absent" and sc.get("why") == "cha = off", "self_check %s" % sc
    assert sc.get("expected_write_bytes") == DISK and sc.get("expected_read_bytes") == 0, "expected bytes %s" % sc
    figure("link limit", "path %s; bottleneck %s GT/s x%s, raw %s GB/s, effective %s GB/s; read %s GB/s = fraction %s (%s)" % (
        " > ".join(ll["path"]), bn["gts"], bn["width"], ll["raw_gbps"], eff, measured, frac, ll.get("impossible")))


@x86_64
def test_blockio_cha_not_advancing(scratch, figure):
    run = switched_boot(scratch, {"cha": "on", "cha_count": "4"}, cpu=ICX_QEMU)
    run.expect_ok()
    chas = {c.get("kernel"): c for c in run.of("cha")}
    assert set(chas) == {"copy", "blockio_read"}, "cha records for %s" % sorted(chas)
    c = chas["blockio_read"]
    assert c.get("platform") == "ICX" and c.get("status") == "ok", "cha %s" % {k: c.get(k) for k in ("platform", "status", "why")}
    counts = c["sockets"][0]["counts"]
    assert counts and all(x["raw"] == 0 for x in counts), "TCG reads uncore MSRs as 0: counts %s" % counts
    for where, sc in (("cha", c.get("self_check")), ("measurement", blockio_record(run).get("self_check"))):
        assert sc and set(sc) >= SELF_CHECK_KEYS, "%s self_check %s lacks %s" % (where, sc, SELF_CHECK_KEYS - set(sc or {}))
        assert sc["state"] == "not-advancing" and sc["expected_write_bytes"] == DISK, "%s self_check %s" % (where, sc)
        assert sc["counted_write_bytes"] == 0 and sc["ratio_write"] is None, "%s self_check %s" % (where, sc)
    copy = chas["copy"].get("self_check") or {}
    assert copy.get("state") == "absent" and "copy" in copy.get("why", ""), "the copy's self_check %s" % copy
    figure("CHA around Block IO", "ICX, 4 CHAs: %d events, self_check %s (%s)" % (len(counts), c["self_check"]["state"], c["self_check"]["why"]))


@x86_64
def test_cha_events_typo_before_any_window(scratch):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", {"copy_size": "4K", "copy_passes": "1", "pcie": "off",
                                                      "cha": "on", "cha_count": "4",
                                                      "cha_events": "TOR_INSERTS.IO_HIT_PCIRDKUR"}))
    run = boot("x86_64", img, d, cpu=ICX_QEMU)
    assert run.rc != 0 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s" % (run.rc, run.qemu_exit)
    errs = [e for e in run.of("error") if e.get("where") == "config"]
    assert errs, "no config error: %s" % run.of("error")
    msg = errs[0]["message"]
    assert "efiperf.cfg:" in msg and "cha_events" in msg and "PCIRDKUR" in msg, "config error %r does not name file:line, key and event" % msg
    assert not run.of("measurement") and not run.of("cha"), "a window ran before the config error: %s" % [r["type"] for r in run.records]
