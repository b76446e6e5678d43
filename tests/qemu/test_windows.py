# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of measurement windows: kernels on every CPU at once through MP services,
interrupts masked, per-CPU results, the noise-floor window; MMIO, DMA and
Block IO traffic against devices QEMU was given."""
import hashlib
import os
import struct

import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64

BLOCK = 512   # QEMU's NVMe namespace default logical block size
MAGIC = 0x2166726570696665   # "efiperf!": efi/dma_pattern.h, restated here independently


@x86_64
def test_window_all_cpus(scratch, figure):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", {"copy_size": "4M", "copy_passes": "2", "cpus": "all", "pcie": "off"}))
    run = boot("x86_64", img, d, smp=4)
    run.expect_ok()
    meas = run.one("measurement")
    assert meas.get("cpus") == 4, "measurement.cpus %r, QEMU was given -smp 4" % meas.get("cpus")
    assert meas.get("verified") is True, "a CPU's copy is wrong"
    nf = meas.get("noise_floor") or {}
    assert nf.get("interrupts_masked") is True and isinstance(nf.get("ns"), int), "noise floor window %s" % nf
    for p in meas.get("passes", []):
        assert p.get("interrupts_masked") is True, "pass %s ran with interrupts unmasked" % p.get("pass")
        per = p.get("per_cpu", [])
        assert sorted(c.get("cpu") for c in per) == [0, 1, 2, 3], "per-CPU results for CPUs %s" % [c.get("cpu") for c in per]
        assert all(c.get("ns", 0) > 0 and float(c.get("gbps", 0)) > 0 for c in per), "a CPU reported no time: %s" % per
        assert p.get("ns", 0) >= max(c["ns"] for c in per), "window span %s shorter than a CPU's own time" % p.get("ns")
        # the outlier flag agrees with its definition (more than 25% from the median)
        med = float(p.get("median_cpu_gbps", 0))
        for c in per:
            far = abs(float(c["gbps"]) - med) > 0.25 * med + 0.0011
            near = abs(float(c["gbps"]) - med) < 0.25 * med - 0.0011
            assert not (far and not c.get("outlier")) and not (near and c.get("outlier")), "CPU %s at %s GB/s vs median %s: outlier %s" % (c["cpu"], c["gbps"], med, c.get("outlier"))
        assert p.get("outliers") == sum(1 for c in per if c.get("outlier")), "outlier count %s" % p.get("outliers")
    figure("all CPUs (-smp 4)", "best %s GB/s aggregate; noise floor %s ns; per CPU %s" % (
        meas.get("best_gbps"), nf.get("ns"), [(c["cpu"], c["gbps"]) for c in meas["passes"][0]["per_cpu"]]))


@x86_64
def test_tsc_calibrated_against_pm_timer(default_x86_64, figure):
    # QEMU TCG's Icelake-Server enumerates no CPUID 0x15 crystal: the TSC must be calibrated
    # against the FADT's ACPI PM timer (100 ms) and cross-checked with gBS->Stall.
    run = default_x86_64
    run.expect_ok()
    t = run.one("platform").get("timer") or {}
    assert "ACPI PM timer" in (t.get("source") or ""), "timer.source %r" % t.get("source")
    assert t.get("hz", 0) > 0 and t.get("stall_hz", 0) > 0, "timer %s" % t
    # Both run on the emulator's clock: they agree to well within 2% even under TCG.
    assert abs(t.get("stall_ppm", 10 ** 9)) < 20000, "Stall disagrees with the PM timer by %s ppm" % t.get("stall_ppm")
    figure("TSC calibration", "%s Hz via %s; gBS->Stall %s Hz (%s ppm)" % (t.get("hz"), t.get("source"), t.get("stall_hz"), t.get("stall_ppm")))


def ivshmem_boot(scratch, cfg_extra, fill=True):
    d = scratch()
    backing = os.path.join(d, "ivshmem.bin")
    size = 1 << 20
    data = b"".join(struct.pack("<Q", (0x0123456789ABCDEF * (i + 1)) & (2 ** 64 - 1)) for i in range(size // 8)) if fill else bytes(size)
    with open(backing, "wb") as f:
        f.write(data)
    cfg = dict({"copy_size": "4K", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000",
                "mmio_bdf": "00:05.0", "mmio_bar": "2", "mmio_bytes": "64K"}, **cfg_extra)
    img = make_image("x86_64", d, cfg_text("x86_64", cfg))
    run = boot("x86_64", img, d, extra=[
        "-object", "memory-backend-file,id=ivm,share=on,mem-path=%s,size=1M" % backing,
        "-device", "ivshmem-plain,memdev=ivm,addr=0x5"])
    return run, backing, data


@x86_64
def test_mmio_reads_ivshmem_bar(scratch, figure):
    run, _, data = ivshmem_boot(scratch, {})
    run.expect_ok()
    ms = {r["kernel"]: r for r in run.of("measurement") if r.get("kernel", "").startswith("mmio_")}
    assert set(ms) == {"mmio_read64", "mmio_read32"}, "MMIO kernels run: %s (writes must be off by default)" % sorted(ms)
    n = 64 * 1024
    want64 = sum(struct.unpack("<%dQ" % (n // 8), data[:n])) & (2 ** 64 - 1)
    want32 = sum(struct.unpack("<%dI" % (n // 4), data[:n])) & (2 ** 64 - 1)
    for k, want in (("mmio_read64", want64), ("mmio_read32", want32)):
        r = ms[k]
        assert int(r["checksum"], 16) == want, "%s checksum %s, the BAR's backing file gives 0x%x" % (k, r["checksum"], want)
        assert r.get("bar_size") == 1 << 20 and r.get("bytes") == n and r.get("interrupts_masked") is True, "%s record %s" % (k, r)
        assert r.get("ns", 0) > 0 and float(r.get("ns_per_access", 0)) > 0, "%s timing %s" % (k, r)
        nf = r.get("noise_floor") or {}
        assert nf.get("interrupts_masked") is True and isinstance(nf.get("ns"), int) and "smi_delta" in nf, "%s noise-floor window %s" % (k, nf)
        # every DMA window carries health: the ivshmem function (on the root bus: no root port) is followed
        aer = (r.get("health") or {}).get("aer") or {}
        assert [f.get("bdf") for f in aer.get("functions", [])] == ["0000:00:05.0"] and aer.get("correctable") == 0, "%s health %s" % (k, r.get("health"))
        assert {"mca", "energy", "freq"} <= set(r["health"]), "%s health sources %s" % (k, sorted(r["health"]))
    figure("MMIO ivshmem BAR2", "read64 %s ns/access, read32 %s ns/access, checksums match the backing file" % (
        ms["mmio_read64"]["ns_per_access"], ms["mmio_read32"]["ns_per_access"]))


@x86_64
def test_mmio_write_only_when_asked(scratch):
    run, backing, _ = ivshmem_boot(scratch, {"mmio_write": "on"}, fill=False)
    run.expect_ok()
    w = [r for r in run.of("measurement") if r.get("kernel") == "mmio_write64"]
    assert len(w) == 1 and w[0].get("verified") is True, "mmio_write64 record %s" % w
    with open(backing, "rb") as f:
        got = f.read(64 * 1024)
    words = struct.unpack("<%dQ" % (len(got) // 8), got)
    bad = [i for i, v in enumerate(words) if v != (0x9E3779B97F4A7C15 * (i + 1)) & (2 ** 64 - 1)]
    assert not bad, "the shared memory behind BAR2 does not hold the written pattern at %d words (first %s)" % (len(bad), bad[:3])


@x86_64
def test_mmio_refuses_absent_bar(scratch):
    run, _, _ = ivshmem_boot(scratch, {"mmio_bar": "4"})
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh exit %s, QEMU exit %s: expected status error and power-off" % (run.rc, run.qemu_exit)
    # the run plan refuses it before any window: a config error naming the key and the BAR
    errs = [e for e in run.of("error") if e.get("where") == "config"]
    assert errs and "0000:00:05.0 BAR4" in errs[0]["message"] and "mmio_bar:" in errs[0]["message"], "no error naming the BAR: %s" % run.of("error")
    assert not run.of("measurement"), "a window ran before the refusal"


@x86_64
def test_dma_engine_edu_roundtrip(scratch, figure):
    d = scratch()
    cfg = {"copy_size": "4K", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000", "dma_engine": "00:06.0"}
    img = make_image("x86_64", d, cfg_text("x86_64", cfg))
    run = boot("x86_64", img, d, extra=["-device", "edu,addr=0x6"])
    run.expect_ok()
    r = [x for x in run.of("measurement") if x.get("kernel") == "dma_engine_roundtrip"]
    assert len(r) == 1, "no dma_engine_roundtrip record"
    r = r[0]
    assert r.get("engine") == "QEMU edu" and r.get("verified") is True and r.get("bytes") == 2048, "edu round trip %s" % r
    # edu's DMA mask is 28 bits (QEMU docs/specs/edu.rst): the host buffers must be below 256 MiB
    assert int(r["host_src"], 16) < 1 << 28 and int(r["host_dst"], 16) < 1 << 28, "host buffers beyond the edu DMA mask: %s" % r
    aer = (r.get("health") or {}).get("aer") or {}
    assert [f.get("bdf") for f in aer.get("functions", [])] == ["0000:00:06.0"], "dma_engine health %s" % r.get("health")
    figure("edu DMA", "2048 bytes: host->device %s ns, device->host %s ns, verified" % (r.get("to_device_ns"), r.get("from_device_ns")))


@pytest.mark.parametrize("arch, isa_suffixes, smp", [
    pytest.param("x86_64", ("sse2", "avx2", "avx512"), 4, marks=pytest.mark.x86_64, id="x86_64_all_cpus"),
    # AAVMF has no MP services: all four CPUs come from the MADT and PSCI CPU_ON
    pytest.param("aarch64", ("neon", "sve"), 4, marks=[pytest.mark.aarch64, pytest.mark.slow], id="aarch64_all_cpus")])


def test_stream_and_latency(arch, isa_suffixes, smp, scratch, figure):
    d = scratch()
    cfg = {"copy_size": "4K", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000", "cpus": "all",
           "stream": "on", "stream_size": "1M", "stream_passes": "2", "latency": "on", "latency_max": "1M"}
    img = make_image(arch, d, cfg_text(arch, cfg))
    run = boot(arch, img, d, smp=smp)
    run.expect_ok()
    st = {r["function"]: r for r in run.of("stream")}
    assert sorted(st) == sorted(["load", "store", "ntstore", "copy", "ntcopy", "triad"]), "stream functions %s" % sorted(st)
    streams = {"load": 1, "store": 1, "ntstore": 1, "copy": 2, "ntcopy": 2, "triad": 3}
    for f, r in st.items():
        assert r.get("verified") is True and r.get("interrupts_masked") is True, "%s: %s" % (f, r)
        assert r["kernel"].startswith(f + "_") and r["kernel"].split("_")[-1] in isa_suffixes, "%s kernel %s" % (f, r["kernel"])
        # STREAM / likwid application bytes: streams x array bytes per CPU
        assert r.get("app_bytes_per_pass") == streams[f] * (1 << 20) * r.get("cpus", 0), "%s bytes %s" % (f, r)
        assert r.get("best_rate_mbps", 0) > 0 and r["min_ns"] <= r["avg_ns"] <= r["max_ns"], "%s timing %s" % (f, r)
        nf = r.get("noise_floor") or {}
        assert nf.get("interrupts_masked") is True and isinstance(nf.get("ns"), int), "%s noise floor %s" % (f, nf)
        per = r.get("per_cpu", [])
        assert len(per) == r.get("cpus") == (smp or 1) and all(c.get("best_rate_mbps", 0) > 0 for c in per), "%s per-CPU results %s" % (f, per)
        assert r.get("outliers") == sum(1 for c in per if c.get("outlier")), "%s outlier count %s" % (f, r.get("outliers"))
    lat = run.one("latency")
    assert (lat.get("noise_floor") or {}).get("interrupts_masked") is True, "latency noise floor %s" % lat.get("noise_floor")
    pts = lat.get("points", [])
    assert [p_["bytes"] for p_ in pts] == [4096 << i for i in range(9)], "latency sizes %s" % [p_["bytes"] for p_ in pts]
    assert all(p_.get("cycle_complete") and float(p_.get("ns_per_load", 0)) > 0 for p_ in pts), "latency points %s" % pts
    figure("%s STREAM" % arch, ", ".join("%s %s MB/s (%s)" % (f, st[f]["best_rate_mbps"], st[f]["kernel"]) for f in sorted(st)))


def nvme_disk(d, pattern, size=32 << 20):
    path = os.path.join(d, "disk.raw")
    magic = 0x2166726570696665   # "efiperf!": efi/dma_pattern.h, written here independently
    with open(path, "wb") as f:
        if pattern:
            step = min(1 << 20, size)   # a disk smaller than 1 MiB is one step
            for base in range(0, size, step):
                f.write(struct.pack("<%dQ" % (step // 8), *[((base // 8) + i) ^ magic for i in range(step // 8)]))
        else:
            f.truncate(size)
    return path


def blockio_boot(scratch, name, pattern, bdf="00:07.0", write=None, want_disk=False):
    d = scratch(name)
    cfg = {"copy_size": "4K", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000",
           "dma_blockio": bdf, "dma_bytes": "16M"}
    if write:
        cfg["dma_write_lba"] = write
    img = make_image("x86_64", d, cfg_text("x86_64", cfg))
    disk = nvme_disk(d, pattern)
    with open(disk, "rb") as f:
        before = hashlib.sha256(f.read()).hexdigest()
    run = boot("x86_64", img, d, extra=["-drive", "if=none,id=nvm,format=raw,file=%s" % disk,
                                          "-device", "nvme,serial=efiperf2,drive=nvm,addr=0x7"])
    with open(disk, "rb") as f:
        data = f.read()
    run.disk_unchanged = hashlib.sha256(data).hexdigest() == before
    if want_disk:
        run.disk = data
    return run


@x86_64
def test_blockio_nvme_read_verified(scratch, figure):
    run = blockio_boot(scratch, "blockio", True)
    run.expect_ok()
    r = [x for x in run.of("measurement") if x.get("kernel") == "blockio_read"]
    assert len(r) == 1, "no blockio_read record"
    r = r[0]
    assert r.get("verified") is True and r.get("bytes") == 16 << 20 and r.get("device_bytes") == 32 << 20, "NVMe read %s" % r
    assert r.get("ns", 0) > 0 and float(r.get("gbps", 0)) > 0, "timing %s" % r
    assert run.disk_unchanged, "the disk image changed: efiperf must only read without dma_write_lba"
    assert not [x for x in run.of("measurement") if x.get("kernel") == "blockio_write"], "a blockio_write ran by default"
    figure("NVMe Block IO read", "16 MiB in %s ns = %s GB/s, pattern verified" % (r["ns"], r["gbps"]))


@x86_64
def test_blockio_unknown_pattern_and_absent_device(scratch):
    run = blockio_boot(scratch, "blockio_zero", False)
    run.expect_ok()
    r = [x for x in run.of("measurement") if x.get("kernel") == "blockio_read"][0]
    assert r.get("verified") == "pattern unknown", "a disk of zeros: verified %r" % r.get("verified")
    run = blockio_boot(scratch, "blockio_absent", True, bdf="00:09.0")
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s" % (run.rc, run.qemu_exit)
    errs = [e for e in run.of("error") if e.get("where") == "config"]
    assert errs and "0000:00:09.0" in errs[0]["message"] and "dma_blockio:" in errs[0]["message"], "no error naming the controller: %s" % run.of("error")


@x86_64
def test_blockio_write_only_the_named_range(scratch, figure):
    first, last = 4095, 10240   # 6146 blocks: unaligned start, three 1 MiB transfers and a tail
    run = blockio_boot(scratch, "blockio_write", False, write="0000:00:07.0 %d-%d" % (first, last), want_disk=True)
    run.expect_ok()
    w = [x for x in run.of("measurement") if x.get("kernel") == "blockio_write"]
    assert len(w) == 1, "blockio_write records: %s" % w
    w = w[0]
    n = (last - first + 1) * BLOCK
    assert w.get("verified") is True and w.get("status") == "ok" and w.get("bytes") == n and w.get("block_size") == BLOCK, "blockio_write %s" % w
    assert w.get("ns", 0) > 0 and float(w.get("gbps", 0)) > 0, "write timing %s" % w
    # the disk written, named as dma_write_lba names it: QEMU's nvme drive= is namespace 1
    assert w.get("bdf") == "0000:00:07.0" and w.get("disk") == "0000:00:07.0/ns1", "blockio_write disk %r" % w.get("disk")
    lo, hi = first * BLOCK, (last + 1) * BLOCK
    data = run.disk
    words = struct.unpack("<%dQ" % ((hi - lo) // 8), data[lo:hi])
    bad = [i for i, v in enumerate(words) if v != ((lo // 8) + i) ^ MAGIC]
    assert not bad, ("blocks %d-%d on the host do not hold the pattern at %d words (first at byte %s)" % (
        first, last, len(bad), lo + 8 * bad[0] if bad else None))
    assert data[:lo].count(0) == lo and data[hi:].count(0) == len(data) - hi, "bytes outside blocks %d-%d changed: efiperf wrote where it was not told to" % (first, last)
    figure("NVMe Block IO write", "%d bytes (blocks %d-%d) in %s ns = %s GB/s, flush %s ns, read back verified; rest of the disk untouched" % (
        n, first, last, w["ns"], w["gbps"], w.get("flush_ns")))


@x86_64
def test_blockio_write_refusals(scratch):
    # past the end: 32 MiB = blocks 0..65535
    run = blockio_boot(scratch, "blockio_write_past_end", False, write="00:07.0 65530-65600")
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s" % (run.rc, run.qemu_exit)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert errs and "dma_write_lba:" in errs[0] and "65530-65600" in errs[0] and "last block 65535" in errs[0], "no error naming the range and the disk's end: %s" % run.of("error")
    assert run.disk_unchanged, "a refused write changed the disk"
    # the disk efiperf booted from: q35's AHCI controller at 00:1f.2 carries the FAT image on SATA
    # port 0 (and QEMU's CD-ROM on port 2, so the port must be named)
    run = blockio_boot(scratch, "blockio_write_boot_disk", False, write="00:1f.2/port0 100-101")
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert errs and "dma_write_lba:" in errs[0] and "0000:00:1f.2/port0" in errs[0] and "booted from" in errs[0], "no refusal of the boot disk: %s" % run.of("error")
    # the run plan refused it before the first window: nothing measured, nothing written
    assert not run.of("measurement"), "a window ran after the plan refused the write: %s" % [x.get("kernel") for x in run.of("measurement")]
