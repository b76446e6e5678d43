# SPDX-License-Identifier: BSD-2-Clause
"""QEMU test of STREAM and the latency curve on the memory behind a CXL window efiperf commits
(cxl_decoders = commit) on QEMU 7.2's CXL 2.0 topology: a pxb-cxl host bridge, a cxl-rp root port,
a cxl-type3 device whose memory is a host file (memory-backend-file, share=on), one 4 GiB CFMWS.

The oracles are outside efiperf: the backing file itself, read on the host after the boot, must
hold at each buffer's offset (HPA - window base = DPA: decoder 0 with DPA skip 0 maps the window
onto the device from DPA 0) what the kernel wrote last: STREAM's triad a = b + 3c over the
values STREAM's arrays were given, and the latency curve's largest pointer chase, whose words
form one cycle through every line (checked by following them on the host).
"""
import os
import struct

import pytest

from efiperf_qemu import boot, cfg_text, make_image, startup_twice, two_runs
from test_discovery import cxl_qemu_args

x86_64 = pytest.mark.x86_64

CXL_MEM = 256 << 20              # the cxl-type3 device's memory (-object memory-backend-file size)
CXL_HB_UID = 12                  # CHBS _UID = the pxb-cxl's bus_nr
ARRAY = 64 << 10                 # stream_size: STREAM's arrays, per CPU
CHASE = 256 << 10                # latency_max: the largest (last) chase
LINE = 64
TRIAD_Q = 3.0                    # STREAM's triad a = b + q c (efi/measure/stream_measure.c TRIAD_SCALAR)
CFG = {"copy_size": "4K", "copy_passes": "1", "loop_iterations": "1000", "cxl_decoders": "commit",
       "stream": "on", "stream_size": "64K", "stream_passes": "2", "kernel_budget": "0",
       "latency": "on", "latency_max": "256K"}


def topology(d):
    files = {}
    for name in ("mem", "lsa"):
        files[name] = os.path.join(d, "cxl-%s.raw" % name)
        with open(files[name], "wb") as f:
            f.truncate(CXL_MEM)
    return files, cxl_qemu_args(files["mem"], files["lsa"])


def triad_words(n):
    """STREAM's triad result for arrays b[w] = w & 0xFF, c[w] = (w >> 8) & 0xFF (the values the
    arrays were given: README, STREAM on CXL), as the little-endian doubles in memory."""
    return struct.pack("<%dd" % n, *[float(w & 0xFF) + TRIAD_Q * float((w >> 8) & 0xFF) for w in range(n)])


def one_cycle(blob, hpa):
    """Word 0 of each 64-byte line is the HPA of the next line: following them from the first
    line must visit every line once and come back."""
    n = len(blob) // LINE
    seen, k = set(), 0
    for _ in range(n):
        p = struct.unpack_from("<Q", blob, k * LINE)[0]
        if p < hpa or p >= hpa + len(blob) or (p - hpa) % LINE:
            return "line %d points to 0x%x, outside the buffer 0x%x+0x%x" % (k, p, hpa, len(blob))
        seen.add(k)
        k = (p - hpa) // LINE
    return None if k == 0 and len(seen) == n else "%d of %d lines visited, ends at line %d" % (len(seen), n, k)


@x86_64
def test_cxl_stream_latency_on_committed_window(scratch, figure):
    d = scratch()
    files, extra = topology(d)
    img = make_image("x86_64", d, cfg_text("x86_64", CFG), shell_args="exit=return")
    startup_twice(img, d, "exit=return")
    run = boot("x86_64", img, d, extra=extra)
    runs = two_runs(run)
    first, second = runs
    of = lambda recs, t: [r for r in recs if r["type"] == t]
    dev = [r for r in of(first, "cxl") if r["role"] == "device"]
    assert len(dev) == 1, of(first, "cxl")
    bdf = dev[0]["bdf"]
    w = of(first, "acpi")[0]["cedt"]["cfmws"][0]
    base = int(w["base"], 16)
    # first run: the window committed, STREAM and the latency curve ran on it and verified
    cm = of(first, "cxl_commit")
    assert len(cm) == 1 and cm[0]["ok"], cm
    mem = cm[0]["memory"]
    assert mem == {"device": bdf, "window": 0, "stream": "ok", "latency": "ok", "bytes_used": mem["bytes_used"],
                   "hmat_why": mem.get("hmat_why")} and "no HMAT claim" in mem["hmat_why"], mem
    streams = [s for s in of(first, "stream") if any("cxl" in c for c in s["per_cpu"])]
    dram = [s for s in of(first, "stream") if not any("cxl" in c for c in s["per_cpu"])]
    assert len(streams) == len(dram) == 6, [(s["function"], [c.get("cxl") for c in s["per_cpu"]]) for s in of(first, "stream")]
    ncpu = streams[0]["cpus"]
    assert mem["bytes_used"] >= 3 * ARRAY * ncpu + CHASE + (4 << 20), mem
    for s in streams:
        assert s["verified"] and s["best_rate_mbps"] > 0, s
        for c in s["per_cpu"]:
            x = c["cxl"]
            assert x["device"] == bdf and x["window"] == 0 and int(x["window_base"], 16) == base, x
            assert int(c["buffer"], 16) - base == int(x["offset"], 16) and int(x["offset"], 16) + ARRAY <= CXL_MEM, c
    lats = [r for r in of(first, "latency") if "cxl" in r]
    assert len(lats) == 1 and len(of(first, "latency")) == 2, of(first, "latency")
    lat = lats[0]
    assert lat["cxl"]["device"] == bdf and all(p["cycle_complete"] for p in lat["points"]), lat
    assert lat["points"][-1]["bytes"] == CHASE, lat["points"][-1]
    # the backing file holds the last pattern of each kernel where the decoders map it
    triad = [s for s in streams if s["function"] == "triad"][0]
    with open(files["mem"], "rb") as f:
        for c in triad["per_cpu"]:
            f.seek(int(c["cxl"]["offset"], 16))
            assert f.read(ARRAY) == triad_words(ARRAY // 8), "CPU %d: the triad's array a is not in the backing file at %s" % (c["cpu"], c["cxl"]["offset"])
        off = int(lat["cxl"]["offset"], 16)
        f.seek(off)
        bad = one_cycle(f.read(CHASE), base + off)
    assert bad is None, "the latency chase in the backing file at 0x%x: %s" % (off, bad)
    with open(files["lsa"], "rb") as f:
        assert f.read() == bytes(CXL_MEM), "the LSA backing file was written"
    # the restore: QEMU 7.2 keeps Committed until a reset, so each Control register is named
    rs = cm[0]["restore"]
    assert all(h["committed_after_restore"] for h in cm[0]["hops"]) and len(rs["failed"]) == 3, rs
    # the window's own store + load window: rates, and the fraction of the device's link (its
    # negotiated speed and width, as the pcie record gives them; raw rate per direction with
    # 8b/10b below 8 GT/s and 128b/130b from 8 GT/s, PCIe 6.0 4.2.1 and 4.2.2)
    lk = cm[0]["link"]
    pl = [r for r in of(first, "pcie") if r["bdf"] == bdf][0]["link"]
    assert lk["why"] is None and lk["bytes"] == 4 << 20 and lk["write_gbps"] > 0 and lk["read_gbps"] > 0, lk
    assert lk["up"] == bool(pl["up"]), (lk, pl)
    if lk["up"]:
        assert float(lk["speed_gts"]) == float(pl["speed_gts"]) and lk["width"] == pl["width"], (lk, pl)
        gts = float(lk["speed_gts"])
        raw = gts * lk["width"] * (0.8 if gts < 8 else 128 / 130) / 8
        assert abs(float(lk["raw_gbps"]) - raw) < 0.002, (lk, raw)
        for d in ("write", "read"):
            assert abs(float(lk[d + "_fraction"]) - float(lk[d + "_gbps"]) / raw) < 0.002, (d, lk)
    else:
        assert lk["write_fraction"] is None and lk["read_fraction"] is None, lk
    # each STREAM function's record on the window: its best rate split into the arrays it reads
    # and writes (STREAM's counting: load 1 read; store and ntstore 1 written; copy and ntcopy
    # 1 + 1; triad 2 read + 1 written) against the same raw link rate; DRAM records have none.
    # OVMF gives no HMAT (and the window no SRAT domain): no claim, and the record says why
    split = {"load": (1, 0), "store": (0, 1), "ntstore": (0, 1), "copy": (1, 1), "ntcopy": (1, 1), "triad": (2, 1)}
    for s in streams:
        c, (r, wr) = s["cxl"], split[s["function"]]
        assert c["device"] == bdf and c["window"] == 0, c
        assert abs(float(c["write_gbps"]) - s["best_rate_mbps"] * wr / (r + wr) / 1000) < 0.002, (s["function"], c)
        assert abs(float(c["read_gbps"]) + float(c["write_gbps"]) - s["best_rate_mbps"] / 1000) < 0.002, (s["function"], c)
        assert c["hmat"] is None and c["hmat_why"], c
        if lk["up"]:
            assert float(c["link_raw_gbps"]) == float(lk["raw_gbps"]), (c, lk)
            for d in ("write", "read"):
                assert abs(float(c[d + "_fraction"]) - float(c[d + "_gbps"]) / raw) < 0.002, (d, c)
        else:
            assert c["read_fraction"] is None and c["write_fraction"] is None, c
    assert not [s for s in dram if "cxl" in s], dram
    assert lat["cxl_hmat"] is None and lat["cxl_hmat_why"], lat
    # QEMU 7.2's cxl-type3 has no CPMU block: the record says so
    cp = cm[0]["cpmu"]
    assert cp["state"] == "absent" and "no CPMU register block" in cp["why"], cp
    # OVMF describes no CXL memory (no SRAT entry, no EFI_MEMORY_SP range): no cxl_node
    assert not of(first, "cxl_node"), of(first, "cxl_node")
    # second run, same boot: it finds the decoders as the first left them (committed), refuses
    # to change them, and measures nothing on the window
    cm2 = of(second, "cxl_commit")
    assert len(cm2) == 1 and not cm2[0]["ok"], cm2
    assert "host bridge _UID 0x%x: decoder 0 already committed" % CXL_HB_UID in cm2[0]["why"], cm2
    assert cm2[0]["memory"]["stream"] == "not run" and cm2[0]["memory"]["latency"] == "not run", cm2
    assert not [s for s in of(second, "stream") if any("cxl" in c for c in s["per_cpu"])]
    for recs in runs:
        assert recs[-1]["type"] == "end", recs[-1]
    tri_dram = [s for s in dram if s["function"] == "triad"][0]
    figure("STREAM on CXL (QEMU 7.2 TCG)", "triad %d MB/s on window 0x%x behind %s vs %d MB/s on DRAM; latency %s ns/load at %d KiB; %d CPU(s); window write %s / read %s GB/s, link %s GT/s x%s (%s GB/s raw)" % (
        triad["best_rate_mbps"], base, bdf, tri_dram["best_rate_mbps"], lat["points"][-1]["ns_per_load"], CHASE >> 10, ncpu,
        lk["write_gbps"], lk["read_gbps"], lk["speed_gts"], lk["width"], lk["raw_gbps"]))


# QEMU's HMAT (-machine hmat=on): what the command line tells it, node 1 a memory-only node as a
# CXL expander's memory would be. QEMU takes latencies in ns and bandwidths in bytes/s
# (qemu-options "-numa hmat-lb"); HMAT gives picoseconds and MB/s (ACPI 6.5 5.2.28.4), QEMU
# writing bandwidth in units of 2^20 bytes/s (hw/core/numa.c divides by MiB).
HMAT_TOLD = {(0, 0, "access_latency"): 80, (0, 1, "access_latency"): 250,
             (0, 0, "access_bandwidth"): 20 << 30, (0, 1, "access_bandwidth"): 5 << 30}


@x86_64
def test_hmat_claims_as_told(scratch, figure):
    d = scratch()
    extra = ["-machine", "hmat=on",
             "-object", "memory-backend-ram,id=m0,size=256M", "-object", "memory-backend-ram,id=m1,size=256M",
             "-numa", "node,nodeid=0,cpus=0-1,memdev=m0", "-numa", "node,nodeid=1,memdev=m1,initiator=0"]
    for (i, t, kind), v in HMAT_TOLD.items():
        extra += ["-numa", "hmat-lb,initiator=%d,target=%d,hierarchy=memory,data-type=%s,%s=%d" % (
            i, t, kind.replace("_", "-"), kind.split("_")[1], v)]
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", {"copy_size": "4K", "copy_passes": "1"})), d, smp=2, extra=extra)
    run.expect_ok()
    h = run.one("acpi")["hmat"]
    assert h and h["defect"] is None and h["dropped"] == 0, h
    got = {(c["initiator"], c["target"], c["claim"]): (c["value"], c["unit"]) for c in h["claims"]}
    want = {k: (v * 1000, "ps") if k[2].endswith("latency") else (v >> 20, "MB/s") for k, v in HMAT_TOLD.items()}
    assert got == want, (got, want)
    figure("HMAT (QEMU hmat=on)", "; ".join("%d->%d %s %d %s" % (k + v) for k, v in sorted(got.items())))
