# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the NVIDIA Tegra410 ACPI-namespace PMUs (CMEM latency NVDA2021, NVLink-C2C
NVDA2023) and the bounded AML reader: x86_64 q35 takes the SSDT through -acpitable; aarch64 virt
refuses -acpitable, so there the test-only app tests/efi/acpi_install.c installs it through
EFI_ACPI_TABLE_PROTOCOL from startup.nsh before efiperf runs.

One boot per architecture. iasl compiles tests/aml/nv_pmu_ssdt.asl at test time; Device(BAD0)'s
PkgLength is patched to run past the table's end (checksum redone). The devices' _CRS regions
lie in BAR2 of an ivshmem-plain device at 00:05.0 (OVMF assigns 0x800000000 on q35, AAVMF
BAR_A64 on virt, for this device set; the ASL's addresses are rebased for aarch64; the mmio
kernel's record reports the BAR, so a move is named). The backing file holds a pattern with known counter values at the registers'
offsets (Linux drivers/perf/nvidia_t410_cmem_latency_pmu.c, nvidia_t410_c2c_pmu.c, restated
here as literals). With uncore = on and trace = hw:
  - the `aml` record lists the SSDT, its devices and the cut-short BAD0 as a defect naming the
    table, the DeviceOp's offset (found in the bytes here) and the path, and no other defect
    (the firmware's DSDT read whole); the run ends ok;
  - one `uncore` record per device: identity from _HID/_UID/path, every instance's region, the
    counts summed from the file's values, the latency from those and the record's window_ns;
  - the hw trace: the broadcast control sequence at its offsets, each control register read
    before its first write and last written with the value read; every instance's counters read;
  - the backing file ends byte for byte as it started.
uncore_events names the CMEM's two events and, for the NVLink-C2C, four events with gpu_mask=0x2:
only GPU 1's instances (_DSD gpu1_en_mask 0x3F00, instances 8..13) are read and summed, cycles
from instance 8; the record's `filter` says so and the trace shows instances 0..7 untouched. Each
selected instance's overflow status registers (CMEM STATUS 0x810; C2C_IN_STATUS 0x868,
C2C_OUT_STATUS 0x890) are in the record (`overflow`) with the file's values.
The aarch64 boot also installs an APMT (assembled as tests/qemu/test_cspmu.py does) with two
Tegra410 PCIE-TGT nodes of type 3 (ACPI device, _HID "EFPT0001", _UID 1 and 2) and a second
SSDT (tests/aml/cspmu_companion_ssdt.asl) holding their companion devices, and names PCIE-TGT
events with address filters in uncore_events (check_tgt): _UID 1's device gives the RC number
(_DSD instance_id 3) and the address-filter block (its first _CRS memory resource, in the BAR);
_UID 2's has no _CRS, so that PMU runs without the filter and says so.
"""
import os
import re
import shutil
import struct
import subprocess

import pytest

from efiperf_qemu import acpi_install_image, boot, cfg_text, make_image
from test_cspmu import PMCCFILTR, PMCFGR, PMCFGR_8X64, PMCNTENSET, PMCR, PMEVFILT2R, PMIIDR, apmt, node

x86_64 = pytest.mark.x86_64
aarch64 = pytest.mark.aarch64

HERE = os.path.dirname(os.path.abspath(__file__))
ASL = os.path.join(HERE, "..", "aml", "nv_pmu_ssdt.asl")
BAR = 0x800000000                     # tests/aml/nv_pmu_ssdt.asl; OVMF's BAR2 on q35
BAR_A64 = 0x8000000000                # AAVMF's BAR2 on virt: the test rebases the ASL's addresses
SIZE = 1 << 20
CMEM, C2C = 0x0, 0x10000              # device offsets in the BAR: 14 regions of 4 KiB + broadcast
# CMEM (64-bit registers): CG_CTRL, CTRL; CYCLE; MC0..2 REQ; MC0..2 AOR
CG_CTRL, CTRL = 0x800, 0x808
CMEM_CYCLE, CMEM_REQ, CMEM_AOR = 0x818, (0x820, 0x838, 0x850), (0x830, 0x848, 0x860)
# C2C (32-bit registers, 64-bit counters): CTRL; CYCLE; in/out rd/wr cum_outs and req
C2C_CTRL = 0x864
CMEM_STATUS, C2C_STATUS = 0x810, (0x868, 0x890)
C2C_GPU1 = range(8, 14)               # gpu1_en_mask 0x3F00 of tests/aml/nv_pmu_ssdt.asl
C2C_EVENTS = ("in_rd_cum_outs", "in_rd_req", "out_wr_cum_outs", "out_wr_req")
C2C_CTR = {"cycles": 0x86C, "in_rd_cum_outs": 0x874, "in_rd_req": 0x87C, "in_wr_cum_outs": 0x884, "in_wr_req": 0x88C,
           "out_rd_cum_outs": 0x898, "out_rd_req": 0x8A0, "out_wr_cum_outs": 0x8A8, "out_wr_req": 0x8B0}


def build_ssdt(d, bar):
    """iasl's SSDT with its _CRS addresses moved from the ASL's BAR to bar, Device(BAD0) cut short."""
    if not shutil.which("iasl"):
        pytest.fail("iasl not installed (Debian acpica-tools; make deps)")
    text = open(ASL).read()
    text = re.sub(r"0x([0-9A-Fa-f]{9,})", lambda m: "0x%X" % (int(m.group(1), 16) - BAR + bar)
                  if BAR <= int(m.group(1), 16) < BAR + SIZE else m.group(0), text)
    src = os.path.join(d, "nv_pmu_ssdt.asl")
    open(src, "w").write(text)
    out = os.path.join(d, "ssdt")
    p = subprocess.run(["iasl", "-p", out, src], capture_output=True, text=True)
    assert p.returncode == 0, "iasl failed: %s" % p.stdout[-800:]
    aml = bytearray(open(out + ".aml", "rb").read())
    off = next(i for i in range(len(aml)) if aml[i:i + 2] == b"\x5b\x82" and aml[i + 3:i + 7] == b"BAD0")
    assert aml[off + 2] < 0x3F, "Device(BAD0) has a multi-byte PkgLength: the patch below assumes one byte"
    aml[off + 2] = 0x3F                # 63 bytes: past the table's end
    aml[9] = 0
    aml[9] = (-sum(aml)) & 0xFF
    path = os.path.join(d, "ssdt.aml")
    open(path, "wb").write(aml)
    return path, off


def fill(d):
    """The pattern of test_windows.py, with the counters set to literal values per instance."""
    data = bytearray(b"".join(struct.pack("<Q", (0x0123456789ABCDEF * (i + 1)) & (2 ** 64 - 1)) for i in range(SIZE // 8)))
    for i in range(14):
        r = CMEM + i * 0x1000
        struct.pack_into("<Q", data, r + CMEM_CYCLE, 400000 + i)
        for k, reg in enumerate(CMEM_REQ):
            struct.pack_into("<Q", data, r + reg, 100 * (k + 1) + i)
        for k, reg in enumerate(CMEM_AOR):
            struct.pack_into("<Q", data, r + reg, 7000 * (k + 1) + 3 * i)
        r = C2C + i * 0x1000
        for k, (name, reg) in enumerate(sorted(C2C_CTR.items())):
            # out_wr_cum_outs above 2^32: the high-low-high read must join both halves
            v = 2000000 + i if name == "cycles" else (5 << 32) * (name == "out_wr_cum_outs") + 1000 * (k + 1) + i
            struct.pack_into("<Q", data, r + reg, v)
    path = os.path.join(d, "ivshmem.bin")
    open(path, "wb").write(data)
    return path, bytes(data)


def u64(data, off):
    return struct.unpack_from("<Q", data, off)[0]


def latency_ns(cum, req, cycles, ns):
    return round(cum * ns * 1000 / (req * cycles)) / 1000


IVSHMEM = ["-device", "ivshmem-plain,memdev=ivm,addr=0x5"]
CFG = {"copy_size": "64K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "off", "uncore": "on",
       "trace": "hw", "mmio_bdf": "00:05.0", "mmio_bar": "2", "mmio_bytes": "4K",
       "uncore_events": ";".join(["nvidia_cmem_latency_pmu_0/rd_req/", "nvidia_cmem_latency_pmu_0/rd_cum_outs/"] +
                                 ["nvidia_nvlink_c2c_pmu_1/%s,gpu_mask=0x2/" % e for e in C2C_EVENTS])}


# ---- PCIE-TGT PMUs of the APMT and their companion devices (aarch64 boot) ------------------
TGT_ASL = os.path.join(HERE, "..", "aml", "cspmu_companion_ssdt.asl")
TGT_PMIIDR = 0x1070036B               # Tegra410 PCIE-TGT: nvidia_cspmu.c prodid 0x10700000 | 0x36B
TGT_HID = b"EFPT0001"                 # the ASL's test _HID (the real ones are not public)
TGT_PAGE = {1: 0x20000, 2: 0x22000}   # PMU page (single page) per _UID, BAR offsets
TGT_BLOCK = 0x21000                   # TGT1's _CRS block (the ASL: 0x800021000)
SLOT0 = 0xD38                         # slot i: CTRL, BASE_LO, BASE_HI, MASK_LO, MASK_HI at 0xD38 + 0x14 i
TGT_EVENTS = ("nvidia_pcie_tgt_pmu_0_rc_3/wr_bytes,dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=1/;"
              "nvidia_pcie_tgt_pmu_0_rc_3/rd_bytes,dst_addr_en=1,dst_addr_base=0x8000000000,"
              "dst_addr_mask=0xFFFFFFFFFFF00000/;nvidia_pcie_tgt_pmu_0_rc_3/cycles/;"
              "nvidia_pcie_tgt_pmu_0_rc_5/rd_bytes,dst_addr_en=1,dst_addr_base=0x10000,dst_addr_mask=0xFFF00/")
# the ACPI-namespace PMUs' events stay as CFG names them


def tgt_tables(d, bar):
    """The APMT (two PCIE-TGT nodes, ids 30 and 31) and the companion SSDT rebased to bar."""
    socket0 = 1 << 28
    hid = int.from_bytes(TGT_HID, "little")
    table = apmt([node(0x2, 3, 29 + uid, bar + TGT_PAGE[uid], inst_primary=hid, inst_secondary=uid,
                       affinity=socket0) for uid in (1, 2)])
    apmt_path = os.path.join(d, "apmt.dat")
    open(apmt_path, "wb").write(table)
    text = open(TGT_ASL).read()
    text = re.sub(r"0x([0-9A-Fa-f]{9,})", lambda m: "0x%X" % (int(m.group(1), 16) - BAR + bar)
                  if BAR <= int(m.group(1), 16) < BAR + SIZE else m.group(0), text)
    src = os.path.join(d, "cspmu_companion_ssdt.asl")
    open(src, "w").write(text)
    p = subprocess.run(["iasl", "-p", os.path.join(d, "ssdt2"), src], capture_output=True, text=True)
    assert p.returncode == 0, "iasl failed: %s" % p.stdout[-800:]
    return apmt_path, os.path.join(d, "ssdt2.aml")


def tgt_fill(backing):
    """PMU pages: zero but PMCFGR (8 x 64-bit counters + cycle counter) and PMIIDR; the filter
    block keeps the file's pattern (restore must put it back)."""
    data = bytearray(open(backing, "rb").read())
    for page in TGT_PAGE.values():
        data[page:page + 0x1000] = bytes(0x1000)
        struct.pack_into("<I", data, page + PMCFGR, PMCFGR_8X64)
        struct.pack_into("<I", data, page + PMIIDR, TGT_PMIIDR)
    open(backing, "wb").write(data)
    return bytes(data)


def check_tgt(run, bar, data):
    cs = {r["apmt"]["id"]: r for r in run.of("uncore") if r.get("scope") == "apmt_node" and r.get("window") == "copy"}
    assert sorted(cs) == [30, 31], "CoreSight records for APMT nodes %s" % sorted(cs)
    r, r2 = cs[30], cs[31]
    for x in (r, r2):
        assert x["status"] == "ok" and x["restore"]["status"] == "ok", "%s: %s %s %s" % (x["pmu"], x["status"], x.get("why"), x["restore"])
    assert (r["pmu"], r["unit"], r["rc"], r["rc_source"]) == ("nvidia_pcie_tgt_pmu_0_rc_3", "PCIE-TGT", 3, "_DSD instance_id"), \
        (r["pmu"], r.get("rc"), r.get("rc_source"))
    comp = r["companion"]
    assert (comp["hid"], comp["uid"], comp["found"], comp["path"], comp["instance_id"]) == \
        ("EFPT0001", 1, True, "\\_SB_.TGT1", 3), comp
    assert int(comp["block"], 16) == bar + TGT_BLOCK and int(comp["block_len"], 16) == 0x1000, comp
    af = r.get("address_filter")
    assert af and int(af["block"], 16) == bar + TGT_BLOCK, "address_filter %s" % af
    assert [(int(x["base"], 16), int(x["mask"], 16)) for x in af["slots"]] == \
        [(0x10000, 0xFFF00), (0x8000000000, 0xFFFFFFFFFFF00000)], af["slots"]
    assert r["restore"]["written"] >= 10, "the 10 slot registers are not counted in restore: %s" % r["restore"]
    # _UID 2: instance_id 5 names it, no _CRS: runs without the address filter, saying so
    assert (r2["pmu"], r2["rc_source"]) == ("nvidia_pcie_tgt_pmu_0_rc_5", "_DSD instance_id"), r2["pmu"]
    assert "address_filter" not in r2 and "no _CRS" in r2.get("address_filter_why", ""), r2.get("address_filter_why")
    assert "no _CRS" in r2["companion"].get("why", ""), r2["companion"]
    assert [int(e["filter2"], 16) for e in r2["events"]] == [0xFF], "PMEVFILT2R without the filter: %s" % r2["events"]

    hw = [(x["op"], int(x["addr"], 16) - bar, int(x["val"], 16)) for x in run.of("hw")
          if x.get("op", "").startswith("mmio_") and bar <= int(x.get("addr", "0x0"), 16) < bar + SIZE]
    w = [(op, off, v) for op, off, v in hw if "write" in op]

    def at(off, val):
        for i, x in enumerate(w):
            if x == ("mmio_write32", off, val):
                return i
        pytest.fail("no mmio_write32 of 0x%x at BAR + 0x%x: %s" % (val, off, [(o, hex(a), hex(v)) for o, a, v in w
                                                                             if TGT_BLOCK <= a < TGT_BLOCK + 0x1000][:12]))
    b, p = TGT_BLOCK + SLOT0, TGT_PAGE[1]
    # slot 0: MASK_HI 0, MASK_LO 0xFFF00, BASE_HI 0, BASE_LO 0x10000, CTRL 1; slot 1 likewise
    s0 = [at(b + 0x10, 0), at(b + 0xC, 0xFFF00), at(b + 8, 0), at(b + 4, 0x10000), at(b, 1)]
    s1 = [at(b + 0x14 + 0x10, 0xFFFFFFFF), at(b + 0x14 + 0xC, 0xFFF00000), at(b + 0x14 + 8, 0x80),
          at(b + 0x14 + 4, 0), at(b + 0x14, 1)]
    # then the PMU: reset, PMEVFILT2R0 = slot 0 (0x100), PMEVFILT2R1 = slot 1 (0x200), cycles on
    # counter 31 with PMCCFILTR 0, enable counters 0, 1 and 31, PMCR.E
    pm = [at(p + PMCR, 0x6), at(p + PMEVFILT2R, 0x100), at(p + PMEVFILT2R + 4, 0x200), at(p + PMCCFILTR, 0),
          at(p + PMCNTENSET, 0x80000003), at(p + PMCR, 1)]
    assert s0 == sorted(s0) and s1 == sorted(s1) and max(s0 + s1) < pm[0] and pm == sorted(pm), \
        "slot and PMU writes out of order: slots %s %s, PMU %s" % (s0, s1, pm)
    for off in range(b, b + 2 * 0x14, 4):     # each slot register read before written, last written back
        assert any(op == "mmio_read32" and a == off for op, a, _ in hw[:next(i for i, x in enumerate(hw) if x[0].startswith("mmio_write") and x[1] == off)])
        assert [v for op, a, v in w if a == off][-1] == struct.unpack_from("<I", data, off)[0], "slot register 0x%x not put back" % off
    assert not [x for x in w if TGT_BLOCK <= x[1] < TGT_BLOCK + 0x1000 and not b <= x[1] < b + 0x28], \
        "writes in the filter block outside slots 0-1"
    return len([x for x in w if TGT_BLOCK <= x[1] < TGT_BLOCK + 0x1000])


def backing_args(backing):
    return ["-object", "memory-backend-file,id=ivm,share=on,mem-path=%s,size=1M" % backing] + IVSHMEM


@x86_64
def test_nv_acpi_pmus_from_ssdt(scratch, figure):
    d = scratch()
    ssdt, bad_off = build_ssdt(d, BAR)
    backing, data = fill(d)
    img = make_image("x86_64", d, cfg_text("x86_64", CFG))
    run = boot("x86_64", img, d, extra=["-acpitable", "file=%s" % ssdt] + backing_args(backing))
    check(run, BAR, backing, data, bad_off, figure, "q35 -acpitable")


@aarch64
def test_nv_acpi_pmus_aarch64_installed_ssdt(scratch, figure):
    """aarch64 virt refuses -acpitable: tests/efi/acpi_install.c installs the SSDT through
    EFI_ACPI_TABLE_PROTOCOL from startup.nsh before efiperf runs (shell mode image)."""
    d = scratch()
    ssdt, bad_off = build_ssdt(d, BAR_A64)
    apmt_path, ssdt2 = tgt_tables(d, BAR_A64)
    backing, _ = fill(d)
    data = tgt_fill(backing)
    img = acpi_install_image(d, cfg_text("aarch64", dict(CFG, uncore_events=CFG["uncore_events"] + ";" + TGT_EVENTS)),
                             [(ssdt, "ssdt.aml"), (apmt_path, "apmt.dat"), (ssdt2, "ssdt2.aml")])
    run = boot("aarch64", img, d, extra=backing_args(backing))
    check(run, BAR_A64, backing, data, bad_off, figure, "virt + acpi_install.efi", tgt=True)
    nslot = check_tgt(run, BAR_A64, data)
    figure("PCIE-TGT address filter (virt + acpi_install.efi)", "companion \\_SB_.TGT1: rc 3 from _DSD instance_id, "
           "2 slots in its _CRS block, %d filter-block writes traced and restored; TGT2 without _CRS runs unfiltered" % nslot)


def check(run, bar, backing, data, bad_off, figure, how, tgt=False):
    mm = [r for r in run.of("measurement") if r.get("kernel", "").startswith("mmio_")]
    assert mm and int(mm[0]["bar_base"], 16) == bar, (
        "ivshmem BAR2 is at %s, not 0x%x: the firmware placed it elsewhere, so the SSDT's _CRS "
        "addresses no longer point into it" % (mm[0].get("bar_base") if mm else "?", bar))
    run.expect_ok()
    with open(backing, "rb") as f:
        after = f.read()
    diff = [i for i in range(0, SIZE, 8) if after[i:i + 8] != data[i:i + 8]]
    assert not diff, "backing file changed at %d words, first offsets %s" % (len(diff), [hex(i) for i in diff[:4]])

    # the AML reader: the SSDT, its devices, BAD0 as a defect
    aml = run.one("aml")
    assert aml.get("source") == "aml_reader"
    ssdts = [t for t in aml["tables"] if t["table"].startswith("SSDT") and t["status"] == "read"]
    assert ssdts, "no SSDT read: %s" % aml["tables"]
    devs = {x["path"]: x for x in aml["devices"]}
    # with an APMT's ACPI-device nodes, their _HID's devices are kept too (the companion SSDT's four)
    want_devs = {"\\_SB_.CM00", "\\_SB_.C2C0"} | ({"\\_SB_.TGT1", "\\_SB_.TGT2", "\\_SB_.TGT7", "\\_SB_.TGTX"} if tgt else set())
    assert set(devs) == want_devs and aml["devices_dropped"] == 0, "PMU devices %s" % sorted(devs)
    # QEMU's DSDT (PCI0, LNKA.., the ISA devices) and MIXD/SUB0 of the SSDT: read, not kept
    assert aml["devices_other"] >= 30, "devices_other %s" % aml["devices_other"]
    assert any(t["table"] == "DSDT[0]" and t["status"] == "read" for t in aml["tables"]), aml["tables"]
    assert devs.get("\\_SB_.CM00", {}).get("hid") == "NVDA2021" and devs["\\_SB_.CM00"].get("ranges") == 15, devs
    assert devs.get("\\_SB_.C2C0", {}).get("uid") == 1 and devs["\\_SB_.C2C0"].get("properties") == 2, devs
    assert "\\_SB_.BAD0" not in devs, "the cut-short device was used"
    want = "@0x%x \\_SB_.BAD0: Device PkgLength 0x3f runs past its enclosing scope" % bad_off
    assert any(want in x and x.startswith("SSDT[") for x in aml["defects"]), "defects %s lack %r" % (aml["defects"], want)
    # nothing else is a defect: the firmware's own DSDT and the other SSDTs read whole
    assert [x for x in aml["defects"] if "\\_SB_.BAD0" not in x] == [], aml["defects"]

    recs = {r.get("pmu"): r for r in run.of("uncore") if r.get("scope") == "acpi_device"}
    assert set(recs) == {"nvidia_cmem_latency_pmu_0", "nvidia_nvlink_c2c_pmu_1"}, "NVIDIA uncore records %s" % sorted(recs)
    cm, c2c = recs["nvidia_cmem_latency_pmu_0"], recs["nvidia_nvlink_c2c_pmu_1"]
    for r in (cm, c2c):
        assert r["status"] == "ok" and r["state"] == "counting", "%s: %s %s" % (r["pmu"], r["status"], r.get("why"))
        assert r["restore"]["status"] == "ok" and not r["restore"]["failed"], r["restore"]
    idc = cm["identity"]
    assert (idc["hid"], idc["uid"], idc["path"], idc["source"]) == ("NVDA2021", 0, "\\_SB_.CM00", "aml_reader"), idc
    assert [int(x["base"], 16) for x in idc["regions"]] == [bar + CMEM + i * 0x1000 for i in range(14)]
    assert int(idc["broadcast"], 16) == bar + CMEM + 14 * 0x1000
    assert c2c["identity"]["peer"] == "gpu" and c2c["identity"]["peer_masks"] == ["0xff", "0x3f00"], c2c["identity"]
    assert c2c["identity"]["filter"] == {"gpu_mask": "0x2", "source": "uncore_events"}, c2c["identity"]
    assert c2c["identity"]["instance_mask"] == "0x3f00", c2c["identity"]
    # overflow status: each selected instance's registers as the file holds them
    u32 = lambda off: struct.unpack_from("<I", data, off)[0]
    ov = {o["instance"]: o for o in cm["overflow"]}
    assert sorted(ov) == list(range(14)), cm["overflow"]
    for i, o in ov.items():
        st = u64(data, CMEM + i * 0x1000 + CMEM_STATUS)
        assert o["status"] == ["0x%x" % st] and o["overflow"] == (st != 0), (i, o)
    ov = {o["instance"]: o for o in c2c["overflow"]}
    assert sorted(ov) == list(C2C_GPU1), c2c["overflow"]
    for i, o in ov.items():
        st = [u32(C2C + i * 0x1000 + reg) for reg in C2C_STATUS]
        assert o["status"] == ["0x%x" % v for v in st] and o["overflow"] == any(st), (i, o)

    # counts: sums of the file's values over the instances
    counts = {c["event"]: c["raw"] for c in cm["counts"]}
    req = sum(u64(data, CMEM + i * 0x1000 + reg) for i in range(14) for reg in CMEM_REQ)
    cum = sum(u64(data, CMEM + i * 0x1000 + reg) for i in range(14) for reg in CMEM_AOR)
    cyc = u64(data, CMEM + CMEM_CYCLE)
    assert counts == {"cycles": cyc, "rd_req": req, "rd_cum_outs": cum}, "CMEM counts %s" % counts
    lat = cm["metrics"]["latency"][0]
    ns = cm["window_ns"]
    assert (lat["direction"], lat["cum_outs"], lat["req"], lat["cycles"], lat["window_ns"]) == ("rd", cum, req, cyc, ns)
    assert abs(float(lat["latency_ns"]) - latency_ns(cum, req, cyc, ns)) < 0.0015, (lat, latency_ns(cum, req, cyc, ns))
    assert abs(float(lat["latency_cycles"]) - cum / req) < 0.0015
    c2cc = {c["event"]: c["raw"] for c in c2c["counts"]}
    assert sorted(c2cc) == sorted(("cycles",) + C2C_EVENTS), "C2C events read %s" % sorted(c2cc)
    for name in c2cc:
        insts = [C2C_GPU1[0]] if name == "cycles" else C2C_GPU1
        want = sum(u64(data, C2C + i * 0x1000 + C2C_CTR[name]) for i in insts)
        assert c2cc[name] == want, "C2C %s = %s, GPU 1's instances hold %s" % (name, c2cc[name], want)
    dirs = {x["direction"]: x for x in c2c["metrics"]["latency"]}
    assert sorted(dirs) == ["in_rd", "out_wr"]
    x = dirs["out_wr"]
    assert abs(float(x["latency_ns"]) - latency_ns(c2cc["out_wr_cum_outs"], c2cc["out_wr_req"], c2cc["cycles"], c2c["window_ns"])) < 0.0015

    # the hw trace: control sequence on the broadcast regions, restore, counter reads
    hw = [(r["op"], int(r["addr"], 16), int(r["val"], 16)) for r in run.of("hw") if r.get("op", "").startswith("mmio_")
          and bar <= int(r.get("addr", "0x0"), 16) < bar + SIZE]
    bc = bar + CMEM + 14 * 0x1000
    w = [(a - bc, v) for op, a, v in hw if op == "mmio_write64" and bc <= a < bc + 0x1000]
    cg0, ctrl0 = u64(data, CMEM + 14 * 0x1000 + CG_CTRL), u64(data, CMEM + 14 * 0x1000 + CTRL)
    assert w == [(CG_CTRL, 1), (CTRL, 2), (CTRL, 1), (CTRL, 0), (CTRL, 2), (CTRL, ctrl0), (CG_CTRL, cg0)], \
        "CMEM broadcast writes %s" % [(hex(o), hex(v)) for o, v in w]
    first_w = {a: n for n, (op, a, v) in reversed(list(enumerate(hw))) if op.startswith("mmio_write")}
    for a, n in first_w.items():
        assert any(op.startswith("mmio_read") and ra == a for op, ra, _ in hw[:n]), "MMIO 0x%x written before it was read" % a
    cb = bar + C2C + 14 * 0x1000 + C2C_CTRL
    w2 = [(v) for op, a, v in hw if op == "mmio_write32" and a == cb]
    assert w2 == [1, 0, u64(data, C2C + 14 * 0x1000 + C2C_CTRL) & 0xFFFFFFFF], "C2C_CTRL writes %s" % [hex(v) for v in w2]
    reads = {a for op, a, _ in hw if op == "mmio_read64"}
    assert all(bar + CMEM + i * 0x1000 + reg in reads for i in range(14) for reg in CMEM_REQ + CMEM_AOR)
    reads32 = {a for op, a, _ in hw if op == "mmio_read32"}
    assert all(bar + C2C + i * 0x1000 + C2C_CTR["in_rd_req"] + 4 in reads32 for i in C2C_GPU1), "C2C high halves not all read"
    assert not any(bar + C2C + i * 0x1000 <= a < bar + C2C + (i + 1) * 0x1000 for a in reads32 for i in range(8)), \
        "gpu_mask=0x2: GPU 0's instances 0..7 were read"
    figure("NVIDIA ACPI PMUs (%s)" % how, "CMEM rd latency %s ns over %d req; NVLink-C2C (gpu_mask=0x2) in_rd %s ns; %d MMIO accesses traced; "
           "backing file unchanged; BAD0 reported cut short" % (lat["latency_ns"], req, dirs["in_rd"].get("latency_ns"), len(hw)))
