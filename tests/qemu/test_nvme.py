# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of efiperf's own NVMe queues (efi/measure/nvme_measure.c): two NVMe controllers,
one behind a root port told x-speed=16,x-width=8, one behind a switch (x3130-upstream +
xio3130-downstream) under another root port; both disks carry efiperf's pattern. efiperf takes
each controller from the firmware driver, runs every (bs, iodepth) point alone and with both in
one window with interrupts masked, and gives them back. Oracles: the host disk files (sha256
before and after), the pattern (restated in test_windows.py independently of the C code), the
PCI functions efiperf's own pcie records list with class 010802h (NVMe), and the entry sizes of
NVMe 1.4 4.1-4.3 (64-byte SQE, 16-byte CQE, 8-byte PRP entries). What QEMU cannot show (a
controller refusing Create I/O SQ) is tested against tests/model/nvme_model.c in
tests/unit/test_nvme_point.c."""
import hashlib
import os
import struct

import pytest

import efiperf_qemu as q
from efiperf_qemu import boot, cfg_text, make_image, parse_jsonl
from test_windows import nvme_disk

x86_64 = pytest.mark.x86_64

NVME_CLASS = "0x010802"   # PCI Code and ID Assignment: mass storage, NVM, NVM Express
SQE, CQE, PRP_ENTRY, PAGE = 64, 16, 8, 4096   # NVMe 1.4 4.1, 4.2, 4.3 (CC.MPS = 0: 4 KiB pages)
QEMU_MQES = 0x7FF         # QEMU 7.2 hw/nvme/ctrl.c: CAP.MQES 7FFh
BASE = {"copy_size": "4K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "off"}
BS, DEPTHS, SIZE = (4096, 131072), (1, 16), 4 << 20
SELF_CHECK_KEYS = {"state", "expected_read_bytes", "expected_write_bytes", "counted_read_bytes",
                   "counted_write_bytes", "ratio_read", "ratio_write", "tolerance", "why"}
# each controller's path from its root port down (the topology below)
PATHS = {"0000:01:00.0": ["0000:00:10.0", "0000:01:00.0"],
         "0000:04:00.0": ["0000:00:11.0", "0000:02:00.0", "0000:03:00.0", "0000:04:00.0"]}
ICX_QEMU = "Icelake-Server,model=106"


def topology(d, lbs=None):
    """Two NVMe controllers with pattern disks: 00:10.0 root port (16 GT/s x8) -> NVMe, and
    00:11.0 root port -> switch upstream -> downstream -> NVMe."""
    disks = []
    for i in (1, 2):
        sub = os.path.join(d, "disk%d" % i)
        os.makedirs(sub, exist_ok=True)
        disks.append(nvme_disk(sub, True))
    lb = ",logical_block_size=%d,physical_block_size=%d" % (lbs, lbs) if lbs else ""
    extra = ["-device", "pcie-root-port,id=rp1,bus=pcie.0,chassis=1,addr=0x10,x-speed=16,x-width=8",
             "-drive", "if=none,id=n1,format=raw,file=%s" % disks[0],
             "-device", "nvme,serial=efiperf-n1,drive=n1,bus=rp1" + lb,
             "-device", "pcie-root-port,id=rp2,bus=pcie.0,chassis=2,addr=0x11",
             "-device", "x3130-upstream,id=up1,bus=rp2",
             "-device", "xio3130-downstream,id=dn1,bus=up1,chassis=3,slot=0",
             "-drive", "if=none,id=n2,format=raw,file=%s" % disks[1],
             "-device", "nvme,serial=efiperf-n2,drive=n2,bus=dn1"]
    return disks, extra


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_points(recs, bdfs, want_shared=True):
    """Every (controller, bs, iodepth) point ran alone, and (two controllers) shared, verified,
    with interrupts masked; the DMA breakdown agrees with the command count."""
    pts = [r for r in recs if r["type"] == "nvme"]
    windows = ("alone", "shared") if want_shared else ("alone",)
    want = {(b, bs, dp, w) for b in bdfs for bs in BS for dp in DEPTHS for w in windows}
    got = {(r.get("bdf"), r.get("bs"), r.get("iodepth"), r.get("window")) for r in pts}
    assert got == want, "points %s, expected %s" % (sorted(got - want), sorted(want - got))
    assert len(pts) == len(want), "%d nvme records for %d points" % (len(pts), len(want))
    for r in pts:
        tag = "%s bs %s iodepth %s %s" % (r["bdf"], r["bs"], r["iodepth"], r["window"])
        assert r.get("path") == "own-queues" and r.get("status") == "ok", "%s: path %r status %r" % (tag, r.get("path"), r.get("status"))
        assert r.get("verified") is True, "%s: verified %r" % (tag, r.get("verified"))
        assert r.get("interrupts_masked") is True, "%s: interrupts_masked %r" % (tag, r.get("interrupts_masked"))
        assert r.get("bytes") == SIZE and r.get("commands") == SIZE // r["bs"] and r.get("failed") == 0, "%s: %s" % (tag, r)
        assert r.get("controllers") == (2 if r["window"] == "shared" else 1), "%s: controllers %r" % (tag, r.get("controllers"))
        n = r["commands"]
        pages = r["bs"] // PAGE
        dma = r.get("dma") or {}
        assert dma == {"data_bytes": SIZE, "sqe_bytes": n * SQE, "cqe_bytes": n * CQE,
                       "prp_bytes": n * (pages - 1) * PRP_ENTRY if pages > 2 else 0}, "%s: dma %s" % (tag, dma)
        c = r.get("clat_ns") or {}
        assert 0 < c.get("p50", 0) <= c.get("p99", 0) <= c.get("max", 0), "%s: clat %s" % (tag, c)
        assert r.get("ns", 0) > 0 and r.get("bw_bytes") == SIZE * 10 ** 9 // r["ns"], "%s: bw_bytes %r over %r ns" % (tag, r.get("bw_bytes"), r.get("ns"))
        assert r.get("iops") == n * 10 ** 9 // r["ns"], "%s: iops %r" % (tag, r.get("iops"))
        # beside every DMA result: the self-check (never missing; cha = off here) and the link
        # limit of this controller's own path to its root port
        sc = r.get("self_check") or {}
        assert set(sc) >= SELF_CHECK_KEYS, "%s: self_check %s lacks %s" % (tag, sc, SELF_CHECK_KEYS - set(sc))
        assert sc["state"] == "absent" and sc["why"] == "cha = off", "%s: self_check %s" % (tag, sc)
        # what the device moved, by NVMe 1.4 4.1-4.3: it read the SQEs and PRP lists, and wrote
        # the data (a read) and the CQEs; summed over the controllers in the window
        assert sc["expected_read_bytes"] == r["controllers"] * (dma["sqe_bytes"] + dma["prp_bytes"]), "%s: %s" % (tag, sc)
        assert sc["expected_write_bytes"] == r["controllers"] * (SIZE + dma["cqe_bytes"]), "%s: %s" % (tag, sc)
        ll = r.get("link_limit") or {}
        assert ll.get("status") == "ok" and ll.get("path") == PATHS[r["bdf"]], "%s: link_limit %s" % (tag, ll)
        bn = ll.get("bottleneck") or {}
        assert (bn.get("gts"), bn.get("width")) == (2.5, 1), "%s: bottleneck %s (QEMU 7.2's NVMe trains at 2.5 GT/s x1)" % (tag, bn)
        if ll.get("fraction") is not None and ll["fraction"] > 1:
            assert ll.get("impossible"), "%s: fraction %s above 1 not flagged" % (tag, ll["fraction"])
    return pts


def check_given_back(recs, bdfs):
    ctl = {r.get("bdf"): r for r in recs if r["type"] == "nvme_controller"}
    assert sorted(ctl) == sorted(bdfs), "nvme_controller records for %s, expected %s" % (sorted(ctl), sorted(bdfs))
    for b, r in ctl.items():
        assert r.get("path") == "own-queues" and r.get("bound_before") is True, "%s: %s" % (b, r)
        assert r.get("mqes") == QEMU_MQES and r.get("lba_bytes") == 512, "%s: Identify %s" % (b, r)
        assert r.get("given_back") == "ok" and r.get("blockio_after") == "ok", "%s: not given back: %s" % (b, r)
    return ctl


@x86_64
def test_nvme_two_controllers_own_queues(scratch, figure):
    d = scratch()
    disks, extra = topology(d)
    before = [digest(p) for p in disks]
    cfg = dict(BASE, pcie="on", nvme="01:00.0,04:00.0", nvme_bs="4K,128K", nvme_iodepth="1,16", nvme_size="4M")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, extra=extra)
    run.expect_ok()
    # the two functions efiperf's own PCIe scan lists as NVMe are the two it was told to take
    nv = sorted(r["bdf"] for r in run.of("pcie") if r.get("class") == NVME_CLASS)
    assert nv == ["0000:01:00.0", "0000:04:00.0"], "NVMe functions in the pcie records: %s" % nv
    pts = check_points(run.records, nv)
    check_given_back(run.records, nv)
    assert [digest(p) for p in disks] == before, "a host disk file changed: reads only"
    alone = {(r["bdf"], r["bs"], r["iodepth"]): r for r in pts if r["window"] == "alone"}
    figure("NVMe own queues (QEMU TCG, emulated)", "; ".join(
        "%s bs %d qd %d: %d B/s %d IOPS clat p50/p99/max %d/%d/%d ns" % (
            k[0][5:], k[1], k[2], r["bw_bytes"], r["iops"], r["clat_ns"]["p50"], r["clat_ns"]["p99"], r["clat_ns"]["max"])
        for k, r in sorted(alone.items())))


@x86_64
def test_nvme_under_cha_counters(scratch):
    # under an Ice Lake-SP model with cha = on, each NVMe window runs under the CHA counters:
    # a `cha` record per window, and every nvme record's self_check has the expected bytes and
    # state not-advancing (TCG reads the uncore MSRs as 0; counts that advance with DMA are
    # tested on the register model, tests/unit/test_dma_self_check.c). With uncore = on the
    # window also gets the IIO part self_check: QEMU has no SAD_CONTROL_CFG function (8086:09a2)
    # for the ICX stack map, so it is absent and its why names the controller's BDF, never zero
    # traffic (placement and counting: tests/unit/test_iio_attrib.c). The cha record's
    # tor_latency says why each class is null (counts not advancing).
    d = scratch()
    disks, extra = topology(d)
    cfg = dict(BASE, pcie="on", nvme="01:00.0", nvme_bs="128K", nvme_iodepth="16", nvme_size="1M", cha="on", cha_count="4",
               uncore="on")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, cpu=ICX_QEMU, extra=extra)
    run.expect_ok()
    pts = run.of("nvme")
    assert len(pts) == 1, "nvme records: %s" % pts
    sc = pts[0].get("self_check") or {}
    assert set(sc) >= SELF_CHECK_KEYS and sc["state"] == "not-advancing", "self_check %s" % sc
    assert sc["expected_write_bytes"] >= 1 << 20 and sc["counted_write_bytes"] == 0, "self_check %s" % sc
    chas = [c for c in run.of("cha") if c.get("kernel") == "nvme_read"]
    assert chas and chas[0].get("platform") == "ICX", "no ICX cha record around the nvme window: %s" % run.of("cha")
    iio = pts[0].get("iio_self_check") or {}
    assert iio.get("state") == "absent" and iio.get("counted_read_bytes") is None, "iio_self_check %s" % iio
    assert "0000:01:00.0" in iio.get("why", "") and "no 8086:09a2" in iio["why"], "iio_self_check why %r" % iio.get("why")
    assert iio.get("expected_write_bytes") == sc["expected_write_bytes"], "iio_self_check %s" % iio
    lat = chas[0].get("tor_latency") or {}
    assert len(lat) == 6 and all(v.get("latency_ns") is None and "not advancing" in v.get("why", "") for v in lat.values()), lat


@x86_64
def test_nvme_bad_input_is_a_config_error(scratch):
    # every limit the devices set, each an error naming its line; nothing written to any disk
    d = scratch("limits")
    disks, extra = topology(d, lbs=4096)   # 32 MiB of 4 KiB LBAs: blocks 0..8191
    before = [digest(p) for p in disks]
    text = cfg_text("x86_64", dict(BASE, nvme="01:00.0", nvme_rw="write", nvme_bs="2K", nvme_iodepth="1,4096",
                                   nvme_write_lba="01:00.0 8190-8200"))
    lines = {k: i + 1 for i, l in enumerate(text.splitlines()) for k in ("nvme_bs", "nvme_iodepth", "nvme_write_lba")
             if l.startswith(k + " =")}
    run = boot("x86_64", make_image("x86_64", d, text), d, extra=extra)
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s (%s)" % (run.rc, run.qemu_exit, run.why())
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    want = {"nvme_bs": "2048 is not a multiple of 0000:01:00.0's LBA size 4096",
            "nvme_iodepth": "4096 is above 0000:01:00.0's limit 1023 (CAP.MQES 2047",
            "nvme_write_lba": "blocks 8190-8200 run past 0000:01:00.0's last block 8191: nothing written"}
    for key, text_ in want.items():
        where = "%s:%d: %s: " % (q.CFG_PATH, lines[key], key)
        assert any(m.startswith(where) and text_ in m for m in errs), "no config error '%s%s...' in %s" % (where, text_, errs)
    assert not run.of("nvme"), "points ran despite config errors"
    # the run plan found them before the first window: nothing was measured at all
    assert not run.of("measurement") and not run.of("stream"), "windows ran before the NVMe limits were checked: %s" % [
        r.get("kernel") for r in run.of("measurement")]
    assert [digest(p) for p in disks] == before, "a host disk file changed after a refused configuration"
    # a function that is not an NVMe controller (the host bridge), and iodepth = 0 (parse time)
    for name, settings, key, text_ in (
            ("not_nvme", {"nvme": "00:00.0"}, "nvme", "0000:00:00.0 is not an NVMe controller (class code 060000"),
            ("depth0", {"nvme": "01:00.0", "nvme_iodepth": "0"}, "nvme_iodepth", "value 1: '0' is out of range (accepted: 1..65535)")):
        d = scratch(name)
        disks, extra = topology(d)
        text = cfg_text("x86_64", dict(BASE, **settings))
        line = [i + 1 for i, l in enumerate(text.splitlines()) if l.startswith(key + " =")][0]
        # a Latin-1 key beside it (parse time too): its byte reaches the error record as \xe9 and
        # the log stays UTF-8 (parse_jsonl decodes it strictly)
        data = text.encode("ascii") + (b"caf\xe9 = 1\n" if name == "depth0" else b"")
        run = boot("x86_64", make_image("x86_64", d, data), d, extra=extra)
        assert run.rc == 1, "%s: qemu.sh %s (%s)" % (name, run.rc, run.why())
        errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
        where = "%s:%d: %s: " % (q.CFG_PATH, line, key)
        assert any(m.startswith(where) and text_ in m for m in errs), "%s: no config error '%s%s...' in %s" % (name, where, text_, errs)
        if name == "depth0":
            latin1 = "%s:%d: caf\\xe9: unknown key" % (q.CFG_PATH, len(text.splitlines()) + 1)
            assert any(m.startswith(latin1) for m in errs), "no config error '%s...' in %s" % (latin1, errs)
            ends_with_verdict(run, "error")
        assert [digest(p) for p in disks] == before, "%s: a host disk file changed" % name


@x86_64
def test_nvme_boot_disk_refused_by_name(scratch, monkeypatch):
    # efiperf boots from (and logs to) an NVMe disk at 00:09.0: named, it is refused and never
    # disconnected (the log keeps being written to it); with `all` it is skipped
    d = scratch()
    disks, extra = topology(d)
    monkeypatch.setenv("QEMU_BOOT_NVME", "0x9")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", dict(BASE, nvme="00:09.0"))), d, extra=extra)
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s (%s)" % (run.rc, run.why())
    errs = [e["message"] for e in run.of("error") if e.get("where") == "nvme"]
    assert any(m.startswith("0000:00:09.0 holds the volume efiperf booted from") and "refused, never disconnected" in m
               for m in errs), "no refusal naming 0000:00:09.0: %s" % run.of("error")
    assert not run.of("nvme") and not run.of("nvme_controller"), "the boot controller was measured"
    d = scratch("all")
    disks, extra = topology(d)
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", dict(BASE, nvme="all", nvme_bs="4K", nvme_iodepth="1",
                                                                            nvme_size="64K"))), d, extra=extra)
    run.expect_ok()
    ctl = sorted(r["bdf"] for r in run.of("nvme_controller"))
    assert ctl == ["0000:01:00.0", "0000:04:00.0"], "nvme = all took %s (the boot controller 00:09.0 must be skipped)" % ctl
    assert "0000:00:09.0 holds the volume efiperf booted from: skipped" in run.text(), "no line saying the boot controller was skipped"


@x86_64
def test_nvme_given_back_second_run(scratch):
    # the UEFI shell runs efiperf twice in one boot: the second run finds both controllers bound
    # to the firmware driver again (a Block IO on each before it takes them) and reads them
    d = scratch()
    disks, extra = topology(d)
    before = [digest(p) for p in disks]
    img = make_image("x86_64", d, cfg_text("x86_64", dict(BASE, nvme="all", nvme_iodepth="1,16", nvme_size="4M")), shell_args="exit=return")
    q.startup_twice(img, d, "exit=return")
    run = boot("x86_64", img, d, extra=extra)
    logs = sorted(x for x in run.paths if x.endswith(".jsonl"))
    assert len(logs) == 2, "expected two runs' logs, got %s (%s)" % (logs, run.why())
    runs = []
    for path in logs:
        with open(path, "rb") as f:
            runs.append(parse_jsonl(f.read(), os.path.basename(path)))
    # the run given exit=return first: both cmdlines hold the program path (the shell passes it),
    # and the log names only order the runs when they started in different seconds
    runs.sort(key=lambda recs: "exit=return" not in (recs[0].get("cmdline") or ""))
    assert "exit=return" in runs[0][0].get("cmdline", ""), "first run's cmdline %r" % runs[0][0].get("cmdline")
    for i, recs in enumerate(runs):
        assert recs[-1].get("status") == "ok", "run %d ended %s: %s" % (i + 1, recs[-1], [r for r in recs if r["type"] == "error"])
        check_given_back(recs, ["0000:01:00.0", "0000:04:00.0"])
        check_points(recs, ["0000:01:00.0", "0000:04:00.0"])
    assert [digest(p) for p in disks] == before, "a host disk file changed"


@x86_64
def test_bench_dma_smoke(figure):
    # `make bench-dma` (README), short: both rates, both verified, and their ratio printed
    with q.base_image_lock(exclusive=True), q.qemu_slot():
        p = q.sh(["make", "-C", q.REPO, "--no-print-directory", "bench-dma", "BENCH_DMA_SIZE=4M"])
    out = p.stdout + p.stderr
    assert p.returncode == 0, "make bench-dma failed: %s" % out[-600:]
    blk = [l for l in out.splitlines() if l.strip().startswith("firmware Block IO")]
    own = [l for l in out.splitlines() if l.strip().startswith("efiperf own queues")]
    ratio = [l for l in out.splitlines() if l.strip().startswith("ratio own / blockio:")]
    assert len(blk) == 1 and "verified" in blk[0] and int(blk[0].split()[-3]) > 0, "Block IO line: %s" % blk
    assert len(own) == 1 and "verified, interrupts masked: True" in own[0], "own queues line: %s" % own
    assert len(ratio) == 1 and float(ratio[0].split()[-1]) > 0, "ratio line: %s" % ratio
    figure("bench-dma 4M (QEMU, emulated)", " | ".join(l.strip() for l in blk + own + ratio))


# ---- odd disks and ranges: every case ends with an `end` and a verdict ------------------------
PATTERN_MAGIC = 0x2166726570696665   # "efiperf!": efi/measure/dma_pattern.h, restated here
LBA = 512


def pattern_at(offset, n):
    """The pattern bytes efiperf writes at device byte offset `offset` (8-byte words, offset/8 ^ magic)."""
    return struct.pack("<%dQ" % (n // 8), *[((offset // 8) + i) ^ PATTERN_MAGIC for i in range(n // 8)])


def two_namespaces(d, addr="0x8", size=32 << 20):
    """One NVMe controller at 00:<addr>.0 with namespaces 1 and 2 (nvme-ns), zero-filled files."""
    files, extra = [], ["-device", "nvme,id=nvms,serial=efiperf-ms,addr=%s" % addr]
    for ns in (1, 2):
        path = os.path.join(d, "ns%d.raw" % ns)
        with open(path, "wb") as f:
            f.truncate(size)
        files.append(path)
        extra += ["-drive", "if=none,id=ms%d,format=raw,file=%s" % (ns, path),
                  "-device", "nvme-ns,drive=ms%d,bus=nvms,nsid=%d" % (ns, ns)]
    return files, extra


def ends_with_verdict(run, status):
    end = run.records[-1]
    assert end["type"] == "end" and end.get("status") == status, "end %s, expected status %s" % (end, status)
    assert run.of("verdict"), "no verdict record before the end"


@x86_64
def test_nvme_disk_smaller_than_one_command(scratch):
    # `nvme = all` with a 64 KiB disk (00:07.0) beside a 32 MiB one (00:08.0), nvme_bs 4K,128K:
    # the 128K points of the small disk are skipped, each with its why (once a division by a
    # zero span: #DE, a hung machine); everything that fits runs, the run ends ok
    d = scratch()
    os.makedirs(os.path.join(d, "small"))
    os.makedirs(os.path.join(d, "big"))
    tiny, big = nvme_disk(os.path.join(d, "small"), True, size=64 << 10), nvme_disk(os.path.join(d, "big"), True)
    assert os.path.getsize(tiny) == 64 << 10
    extra = ["-drive", "if=none,id=t,format=raw,file=%s" % tiny, "-device", "nvme,serial=efiperf-tiny,drive=t,addr=0x7",
             "-drive", "if=none,id=b,format=raw,file=%s" % big, "-device", "nvme,serial=efiperf-big,drive=b,addr=0x8"]
    cfg = dict(BASE, nvme="all", nvme_bs="4K,128K", nvme_iodepth="1", nvme_size="64K")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, extra=extra)
    run.expect_ok()
    ends_with_verdict(run, "ok")
    pts = {(r["bdf"], r["bs"], r["window"]): r for r in run.of("nvme")}
    skip = pts.get(("0000:00:07.0", 131072, "alone")) or {}
    assert skip.get("status") == "skipped" and skip.get("disk") == "0000:00:07.0/ns1" and \
        skip.get("why") == "namespace 1 is 65536 bytes, less than one command of bs 131072", \
        "the 128K point of the 64 KiB disk: %s" % skip
    for key in (("0000:00:07.0", 4096, "alone"), ("0000:00:08.0", 4096, "alone"), ("0000:00:08.0", 131072, "alone"),
                ("0000:00:07.0", 4096, "shared"), ("0000:00:08.0", 4096, "shared")):
        r = pts.get(key) or {}
        # nvme_size 64K, at least one command: a 128K point moves 128K
        assert r.get("status") == "ok" and r.get("verified") is True and r.get("bytes") == max(64 << 10, key[1]), "%s: %s" % (key, r)
    assert ("0000:00:08.0", 131072, "shared") not in pts, "a shared 128K window with one controller that fits"
    assert len(pts) == 6, "points: %s" % sorted(pts)
    assert len(run.of("nvme_controller")) == 2, "controllers: %s" % run.of("nvme_controller")
    for r in run.of("nvme_controller"):
        assert r.get("given_back") == "ok" and r.get("blockio_after") == "ok", "not given back: %s" % r
    assert "0000:00:07.0 bs 131072 iodepth 1: skipped: namespace 1 is 65536 bytes" in run.text()


@x86_64
def test_nvme_write_range_and_disk_refused(scratch):
    # refused configurations, each a config error naming its line, nothing written, each run
    # ending with its verdict: dma_write_lba on a function with two namespaces naming neither,
    # then one naming a namespace that is not there (the run plan's Block IO checks); then
    # nvme_write_lba 2048-2055 (4 KiB) under nvme_bs 128K (once a division by a zero span: #DE;
    # the NVMe limits are checked once the other plan checks pass, so it has a boot of its own)
    cases = (("dma_ambiguous", dict(dma_write_lba="00:08.0 2048-4095"), {
                "dma_write_lba": "0000:00:08.0 has 2 disks (ns1, ns2): name one as 0000:00:08.0/nsN: nothing written"}),
             ("dma_no_ns3", dict(dma_write_lba="00:08.0/ns3 2048-4095"), {
                "dma_write_lba": "0000:00:08.0 has no disk ns3 (its disks: ns1, ns2): nothing written"}),
             ("nvme_range", dict(nvme="00:08.0", nvme_rw="write", nvme_write_lba="00:08.0 2048-2055"), {
                "nvme_write_lba": "blocks 2048-2055 of 0000:00:08.0 are 4096 bytes (LBAs of 512 bytes), less than "
                                  "one command of nvme_bs 131072: nothing written"}))
    for name, settings, want in cases:
        d = scratch(name)
        files, extra = two_namespaces(d)
        before = [digest(p) for p in files]
        text = cfg_text("x86_64", dict(BASE, **settings))
        lines = {k: i + 1 for i, l in enumerate(text.splitlines()) for k in want if l.startswith(k + " =")}
        run = boot("x86_64", make_image("x86_64", d, text), d, extra=extra)
        assert run.rc == 1 and run.qemu_exit == 0, "%s: qemu.sh %s, QEMU %s (%s)" % (name, run.rc, run.qemu_exit, run.why())
        ends_with_verdict(run, "error")
        errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
        for key, msg in want.items():
            w = "%s:%d: %s: %s" % (q.CFG_PATH, lines[key], key, msg)
            assert w in errs, "%s: no config error '%s' in %s" % (name, w, errs)
        assert not run.of("nvme") and not run.of("measurement"), "%s: something ran despite config errors" % name
        assert [digest(p) for p in files] == before, "%s: a namespace's file changed after a refused configuration" % name


@x86_64
def test_nvme_writes_verified_and_disk_named(scratch):
    # writes that are right are called right: nvme_size 64K into a 4 MiB nvme_write_lba range
    # (namespace 1) reads back only what was written (once: the whole range, DATA DIFFERS and an
    # ERROR verdict); dma_write_lba names namespace 2 of the same function, and its record says
    # so. Oracle: the host files, byte for byte
    d = scratch()
    files, extra = two_namespaces(d)
    cfg = dict(BASE, nvme="00:08.0", nvme_rw="write", nvme_write_lba="00:08.0/ns1 2048-10239", nvme_bs="4K,128K",
               nvme_iodepth="1", nvme_size="64K", dma_write_lba="0000:00:08.0/ns2 4096-4159")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, extra=extra)
    run.expect_ok()
    ends_with_verdict(run, "ok")
    pts = run.of("nvme")
    assert len(pts) == 2 and all(r.get("status") == "ok" and r.get("verified") is True and r.get("rw") == "write"
                                 and r.get("disk") == "0000:00:08.0/ns1" for r in pts), "nvme write points: %s" % pts
    w = [m for m in run.of("measurement") if m.get("kernel") == "blockio_write"]
    assert len(w) == 1 and w[0].get("disk") == "0000:00:08.0/ns2" and w[0].get("bdf") == "0000:00:08.0", "blockio_write: %s" % w
    assert w[0].get("verified") is True and w[0].get("status") == "ok", "blockio_write: %s" % w[0]
    with open(files[0], "rb") as f:
        ns1 = f.read()
    with open(files[1], "rb") as f:
        ns2 = f.read()
    first, n = 2048 * LBA, 128 << 10   # each point wrote max(nvme_size, bs) from the range's start
    assert ns1[first:first + n] == pattern_at(first, n), "namespace 1: the written 64 KiB do not hold the pattern"
    assert ns1[:first].count(0) == first and ns1[first + n:].count(0) == len(ns1) - first - n, "namespace 1 written outside"
    first2, n2 = 4096 * LBA, 64 * LBA
    assert ns2[first2:first2 + n2] == pattern_at(first2, n2), "namespace 2: blocks 4096-4159 do not hold the pattern"
    assert ns2[:first2].count(0) == first2 and ns2[first2 + n2:].count(0) == len(ns2) - first2 - n2, "namespace 2 written outside"
