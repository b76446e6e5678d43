# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the run plan's hardware checks, the DDIO sweep and DMA beside CPU traffic.

Run plan: a key naming hardware that is not there (a dma_engine that is no DMA engine, an
mmio_bdf BAR that does not exist, a dma_blockio function with no disk behind it) is a config
error naming efiperf.cfg and the line it was set on, before any window ran: no measurement
record of any kind exists.

DDIO sweep: under Icelake-Server,model=106 with cha = on and cha_count = 4, `ddio_sweep` of
three sizes reads the NVMe disk into a buffer of each size under the CHA counters; each point's
`ddio` record carries io_llc_hit_ratio, whose state is not-advancing because TCG reads the
uncore MSRs as 0 (the arithmetic on counts that advance is tested on the register model:
tests/unit/test_ddio.c). With cha = off the field is there too, state absent.

DMA beside CPU traffic: with -smp 2 and cpus = 1, `dma_cpu_traffic = triad` runs STREAM triad on
CPU 1 while the boot CPU reads the disk through Block IO: one `dma_cpu_traffic` record with both
rates from that one window.
"""
import os
import struct

import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64

ICX_QEMU = "Icelake-Server,model=106"
MAGIC = 0x2166726570696665   # "efiperf!": the pattern's magic (efi/measure/dma_pattern.h), written here independently
DISK = 8 << 20
NVME_BDF = "0000:00:07.0"
SMALL = {"copy_size": "4K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "off"}
# what a window writes: none of these may exist when the plan refused the run
MEASURED = ("measurement", "cha", "stream", "latency", "nvme", "ddio", "dma_cpu_traffic", "loop", "core_counters")


def pattern_disk(d):
    path = os.path.join(d, "disk.raw")
    with open(path, "wb") as f:
        step = 1 << 20
        for base in range(0, DISK, step):
            f.write(struct.pack("<%dQ" % (step // 8), *[((base // 8) + i) ^ MAGIC for i in range(step // 8)]))
    return path


def nvme_boot(scratch, cfg, cpu=None, smp=None, insert=None):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, **cfg), insert=insert))
    return boot("x86_64", img, d, cpu=cpu, smp=smp, extra=[
        "-drive", "if=none,id=nvm,format=raw,file=%s" % pattern_disk(d),
        "-device", "nvme,serial=efiperf5,drive=nvm,addr=0x7"])


@x86_64
@pytest.mark.parametrize("line, key, words", [
    # 00:07.0 is the NVMe controller (1b36:0010): a PCI function, but no DMA engine efiperf knows
    ("dma_engine = 00:07.0", "dma_engine", ("0000:00:07.0", "1b36:0010", "not a DMA engine")),
    # the host bridge 00:00.0 decodes no BAR 2
    ("mmio_bdf = 00:00.0\nmmio_bar = 2", "mmio_bar", ("0000:00:00.0 BAR2", "no such BAR")),
    # nothing at 00:09.0: no disk behind it
    ("dma_blockio = 00:09.0", "dma_blockio", ("0000:00:09.0", "no Block IO device")),
], ids=["dma_engine_not_an_engine", "mmio_bar_absent", "dma_blockio_no_disk"])
def test_plan_refuses_before_any_window(scratch, line, key, words):
    run = nvme_boot(scratch, {}, insert={3: line})
    assert run.rc != 0 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s: expected a failed run that powers off" % (run.rc, run.qemu_exit)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    want_line = "efiperf.cfg:%d" % (3 + line.split("\n").index([l for l in line.split("\n") if l.startswith(key)][0]))
    assert errs, "no config error: %s" % run.of("error")
    msg = errs[0]
    assert want_line in msg and (key + ":") in msg, "config error %r does not name %s and the key %s" % (msg, want_line, key)
    for w in words:
        assert w in msg, "config error %r lacks %r" % (msg, w)
    measured = [r["type"] for r in run.records if r["type"] in MEASURED]
    assert not measured, "records written before the config error ended the run: %s" % measured
    assert run.records[-1].get("type") == "end" and run.records[-1].get("status") == "error", "end record %s" % run.records[-1]


@x86_64
def test_ddio_sweep_hit_ratio_each_point(scratch, figure):
    sizes = [64 << 10, 1 << 20, 4 << 20]
    run = nvme_boot(scratch, {"cha": "on", "cha_count": "4", "dma_blockio": NVME_BDF, "dma_bytes": str(DISK),
                              "ddio_sweep": "64K,1M,4M"}, cpu=ICX_QEMU)
    run.expect_ok()
    pts = run.of("ddio")
    assert [p["buffer_bytes"] for p in pts] == sizes, "ddio points %s" % [p.get("buffer_bytes") for p in pts]
    chas = {c.get("kernel"): c for c in run.of("cha")}
    for i, p in enumerate(pts):
        assert p.get("point") == i and p.get("points") == 3 and p.get("bdf") == NVME_BDF, "point %s" % p
        assert p.get("verified") is True and p.get("bytes") == DISK, "point %d read: %s" % (i, {k: p.get(k) for k in ("bytes", "verified", "status")})
        assert p.get("transfer_bytes") == min(sizes[i], 1 << 20), "point %d transfer %s" % (i, p.get("transfer_bytes"))
        hr = p.get("io_llc_hit_ratio")
        assert hr is not None and set(hr) >= {"state", "hits", "misses", "ratio", "why"}, "point %d io_llc_hit_ratio %s" % (i, hr)
        assert hr["state"] == "not-advancing" and hr["hits"] == 0 and hr["misses"] == 0 and hr["ratio"] is None, \
            "point %d: TCG reads the uncore MSRs as 0: %s" % (i, hr)
        sc = p.get("self_check") or {}
        assert sc.get("state") == "not-advancing" and sc.get("expected_write_bytes") == DISK, "point %d self_check %s" % (i, sc)
        assert (p.get("link_limit") or {}).get("status"), "point %d link_limit %s" % (i, p.get("link_limit"))
        c = chas.get("ddio_sweep:%d" % sizes[i])
        assert c and c.get("status") == "ok" and c.get("platform") == "ICX", "cha record of point %d: %s" % (i, c)
    figure("DDIO sweep (TCG)", ", ".join("%d B: %s GB/s, hit ratio %s" % (p["buffer_bytes"], p["gbps"], p["io_llc_hit_ratio"]["state"]) for p in pts))


@x86_64
def test_dma_beside_stream_one_window(scratch, figure):
    run = nvme_boot(scratch, {"cpus": "1", "dma_blockio": NVME_BDF, "dma_bytes": str(DISK), "dma_cpu_traffic": "triad",
                              "stream_size": "1M", "ddio_sweep": "64K"}, smp=2)
    run.expect_ok()
    r = run.one("dma_cpu_traffic")
    dma, st = r.get("dma") or {}, r.get("stream") or {}
    assert dma.get("bdf") == NVME_BDF and dma.get("bytes") == DISK and dma.get("verified") is True, "dma %s" % dma
    assert dma.get("ns", 0) > 0 and float(dma.get("gbps", 0)) > 0 and dma.get("interrupts_masked") is False, "dma rate %s" % dma
    assert st.get("function") == "triad" and st.get("kernel", "").startswith("triad_") and st.get("cpus") == 1, "stream %s" % st
    assert st.get("status") == "ok" and st.get("interrupts_masked") is True, "stream %s" % st
    per = st.get("per_cpu") or []
    assert [c.get("cpu") for c in per] == [1], "STREAM must run on CPU 1 only (the boot CPU drives the DMA): %s" % per
    # triad moves 3 arrays per pass (STREAM: a = b + s * c)
    assert st.get("passes", 0) >= 1 and st.get("app_bytes") == st["passes"] * 3 * (1 << 20), "stream bytes %s" % st
    assert st.get("ns", 0) > 0 and float(st.get("gbps", 0)) > 0, "stream rate %s" % st
    # both ran inside the window: neither's time exceeds its span
    w = r.get("window_ns", 0)
    assert w > 0 and dma["ns"] <= w and st["ns"] <= w, "window %s ns, dma %s ns, stream %s ns" % (w, dma["ns"], st["ns"])
    sc = r.get("self_check") or {}
    assert sc.get("state") == "absent" and sc.get("why") == "cha = off" and sc.get("expected_write_bytes") == DISK, "self_check %s" % sc
    # with cha = off the DDIO point's hit ratio is there, absent, saying why
    hr = run.one("ddio").get("io_llc_hit_ratio") or {}
    assert hr.get("state") == "absent" and hr.get("ratio", 0) is None and hr.get("why") == "cha = off", "io_llc_hit_ratio %s" % hr
    figure("DMA beside STREAM (TCG, -smp 2)", "Block IO %s GB/s while triad on CPU 1 ran %s GB/s (%s passes), window %s ns" % (
        dma["gbps"], st["gbps"], st["passes"], w))
