# SPDX-License-Identifier: BSD-2-Clause
"""QEMU test of the CoreSight PMU backend: an APMT built here, byte by byte, per ACPICA's
actbl2.h (struct acpi_table_apmt: the 36-byte header; struct acpi_apmt_node: 56 bytes packed,
u16 length, u8 flags, u8 type, u32 id, u64 inst_primary, u32 inst_secondary, u64 base_address0,
u64 base_address1, u32 ovflw_irq, u32 reserved, u32 ovflw_irq_flags, u32 proc_affinity,
u32 impl_id) and handed to q35 with -acpitable (Debian's iasl predates APMT). Its PMU pages are
the BAR of an ivshmem-plain device whose backing file holds PMCFGR and PMIIDR/PMPIDR values
(offsets from Linux drivers/perf/arm_cspmu/arm_cspmu.h, PMIIDR values from nvidia_cspmu.c's
match table). The BAR address is OVMF's: fixed for this device set and RAM size, asserted from
the mmio record of the same boot.

One boot (uncore = on, trace = hw) checks: the three nodes identified (PMIIDR; PMPIDR when
PMIIDR reads 0; impl_id over both), named as Linux names them, programmed in Linux's order at
the right offsets (page 0 / page 1, 32-bit halves or 64-bit ATOMIC accesses), every register put
back (the backing file ends byte for byte as it started), and a malformed fourth node reported
as an APMT defect while the run goes on. The memory never counts: state "not-advancing". The
PCIE PMU also runs under the MMIO windows (DMA windows that move no DMA bytes).
"""
import os
import struct

import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64

BAR = 0x800000000          # OVMF's placement of ivshmem BAR2 (64-bit, 1 MiB) at 00:05.0 on q35, -m 512
UCF_PMIIDR = 0x2CF2036B    # Tegra410 UCF: nvidia_cspmu.c prodid 0x2CF20000 | NVIDIA JEP106 0x36B
PMCFGR_8X64 = 0x7F08       # N = 8 (8 event counters + cycle counter), SIZE = 63, CC (bit 14)
PMCFGR_4X64 = 0x7F04       # N = 4
PMCFGR, PMCR, PMIIDR, PMPIDR4, PMPIDR0 = 0xE00, 0xE04, 0xE08, 0xFD0, 0xFE0
PMEVTYPER, PMCCFILTR, PMEVFILT2R, PMEVFILTR, PMCNTENSET, PMCNTENCLR = 0x400, 0x47C, 0x800, 0xA00, 0xC00, 0xC20
# PMPIDR0-4 of a Tegra410 PCIE PMU (PMIIDR 0x1030136B: product 0x103, variant 0, revision 1,
# implementer 0x36B): PART_0 0x03; PART_1 1 | DES_0 0xB << 4; DES_1 6 | REVISION 0 << 4;
# REVAND 1 << 4; DES_2 3
PCIE_PMPIDR = [0x03, 0xB1, 0x06, 0x10, 0x03]


def node(flags, ntype, nid, base0, base1=0, inst_primary=0, inst_secondary=0, affinity=0, impl_id=0, length=56):
    return struct.pack("<HBBIQIQQIIIII", length, flags, ntype, nid, inst_primary, inst_secondary, base0, base1,
                       0, 0, 0, affinity, impl_id)


def apmt(nodes):
    body = b"".join(nodes)
    hdr = struct.pack("<4sIBB6s8sI4sI", b"APMT", 36 + len(body), 0, 0, b"EFIPRF", b"CSPMUTST", 1, b"EFPT", 1)
    t = bytearray(hdr + body)
    t[9] = (-sum(t)) & 0xFF
    return bytes(t)


@x86_64
def test_apmt_coresight_pmus(scratch, figure):
    d = scratch()
    socket0 = 1 << 28          # processor container UID of socket 0 (1 << 28 | socket << 24)
    nodes = [
        # UCF: dual page (page 1 at +0x1000), counters as 32-bit halves (no ATOMIC), CPU cache
        node(0x3, 4, 10, BAR, BAR + 0x1000, affinity=socket0),
        # PCIE: single page, ATOMIC, ACPI device _UID 1 (rc 1), PMIIDR 0 -> PMPIDR
        node(0x6, 3, 11, BAR + 0x2000, inst_primary=int.from_bytes(b"NVDA0000", "little"), inst_secondary=1,
             affinity=socket0),
        # PCIE-TGT by impl_id (the page's PMIIDR says UCF: impl_id wins), _UID 2
        node(0x2, 3, 12, BAR + 0x3000, inst_secondary=2, affinity=socket0, impl_id=0x1070036B),
        # malformed: length 32 < 56
        node(0x0, 0, 13, BAR + 0x4000, length=32),
    ]
    table = os.path.join(d, "apmt.dat")
    with open(table, "wb") as f:
        f.write(apmt(nodes))
    mem = bytearray(1 << 20)

    def put(off, v):
        mem[off:off + 4] = struct.pack("<I", v)
    put(PMCFGR, PMCFGR_8X64)
    put(PMIIDR, UCF_PMIIDR)
    put(0x2000 + PMCFGR, PMCFGR_4X64)
    for i, v in enumerate(PCIE_PMPIDR):
        put(0x2000 + (PMPIDR4 if i == 4 else PMPIDR0 + 4 * i), v)
    put(0x3000 + PMCFGR, PMCFGR_8X64)
    put(0x3000 + PMIIDR, UCF_PMIIDR)
    for i in range(9):                      # counter values someone left: the reset must not lose them
        mem[0x1000 + 8 * i:0x1000 + 8 * i + 8] = struct.pack("<Q", 0x1111 * (i + 1))
    backing = os.path.join(d, "ivshmem.bin")
    with open(backing, "wb") as f:
        f.write(mem)
    cfg = {"copy_size": "64K", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000", "uncore": "on",
           "trace": "hw", "mmio_bdf": "00:05.0", "mmio_bar": "2", "mmio_bytes": "4K"}
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, extra=[
        "-acpitable", "file=%s" % table,
        "-object", "memory-backend-file,id=ivm,share=on,mem-path=%s,size=1M" % backing,
        "-device", "ivshmem-plain,memdev=ivm,addr=0x5"])
    run.expect_ok()
    mm = [r for r in run.of("measurement") if r.get("kernel", "").startswith("mmio_")]
    assert mm and int(mm[0]["bar_base"], 16) == BAR, (
        "OVMF placed ivshmem BAR2 at %s, not 0x%x: the APMT's base addresses must follow it" %
        (mm[0].get("bar_base") if mm else None, BAR))

    acpi = run.one("acpi")
    assert [n["id"] for n in acpi.get("apmt", [])] == [10, 11, 12], "APMT nodes %s" % acpi.get("apmt")
    defect = (acpi.get("apmt_defects") or {}).get("defect") or ""
    assert "length 32 < 56" in defect, "the malformed node is not an APMT defect: %s" % acpi.get("apmt_defects")

    cs = [r for r in run.of("uncore") if r.get("scope") == "apmt_node"]
    recs = {r["apmt"]["id"]: r for r in cs if r.get("window") == "copy"}
    assert sorted(recs) == [10, 11, 12], "CoreSight uncore records for nodes %s" % sorted(recs)
    want = {10: ("nvidia_ucf_pmu_0", "UCF", "pmiidr", 0x2CF2036B),
            11: ("nvidia_pcie_pmu_0_rc_1", "PCIE", "pmpidr", 0x1030136B),
            12: ("nvidia_pcie_tgt_pmu_0_rc_2", "PCIE-TGT", "impl_id", 0x1070036B)}
    for nid, (name, unit, src, pmiidr) in want.items():
        r = recs[nid]
        assert (r["pmu"], r["unit"], r["platform"]) == (name, unit, "Tegra410"), "node %d: %s %s %s" % (nid, r["pmu"], r["unit"], r["platform"])
        idt = r["identity"]
        assert idt["source"] == src and int(idt["pmiidr"], 16) == pmiidr, "node %d identity %s" % (nid, idt)
        assert r["status"] == "ok" and r["state"] == "not-advancing", "node %d: %s %s %s" % (nid, r["status"], r.get("state"), r.get("why"))
        assert r["restore"]["status"] == "ok" and r["restore"]["written"] > 0, "node %d restore %s" % (nid, r["restore"])
        assert r["self_check"]["state"] == "absent", "node %d self_check %s" % (nid, r["self_check"])
    # ACPI-device nodes without a companion device in the namespace: the RC falls back to the
    # APMT _UID, and the record names the _HID/_UID it looked for
    assert recs[11]["rc_source"] == "APMT instance secondary (_UID): no companion device", recs[11]["rc_source"]
    comp = recs[11]["companion"]
    assert (comp["hid"], comp["uid"], comp["found"]) == ("NVDA0000", 1, False) and \
        'no ACPI device with _HID "NVDA0000" and _UID 1' in comp["why"], comp
    assert "is no _HID" in recs[12]["companion"]["why"], recs[12]["companion"]
    assert recs[11]["dropped_defaults"] == 1, "PCIE with 4 event counters: rd_cum_outs left out (%s)" % recs[11]["dropped_defaults"]

    # the MMIO windows are DMA windows: the PCIE PMU runs under each, its self-check absent
    # because MMIO moves no DMA bytes; the other PMUs count no PCIe bytes and stay out
    dmaw = {(r["apmt"]["id"], r["window"]) for r in cs if r.get("window") != "copy"}
    assert dmaw == {(11, "mmio_read64"), (11, "mmio_read32")}, "CoreSight records of DMA windows: %s" % sorted(dmaw)
    for r in cs:
        if r.get("window") != "copy":
            assert r["status"] == "ok" and r["restore"]["status"] == "ok", "%s under %s: %s" % (r["pmu"], r["window"], r)
            assert r["self_check"]["state"] == "absent" and "DMA" in (r["self_check"].get("why") or ""), "self_check %s" % r["self_check"]

    hw = [r for r in run.of("hw") if r["op"].startswith("mmio_") and BAR <= int(r.get("addr", "0"), 16) < BAR + 0x4000]
    w = [(r["op"], int(r["addr"], 16) - BAR, int(r["val"], 16)) for r in hw if "write" in r["op"]]

    def first(op, off, val=None):
        for i, x in enumerate(w):
            if x[0] == op and x[1] == off and (val is None or x[2] == val):
                return i
        pytest.fail("no %s of 0x%x (value %s) among the PMU writes: %s" % (op, off, val, w[:40]))
    # UCF (page 0 at +0, page 1 at +0x1000; 64-bit counters as 32-bit halves): counters zeroed,
    # PMCR = C|P, PMCCFILTR / PMEVTYPER0 = slc_access_rd 0x111 / PMEVFILTR0 = 0xF07 (all sources
    # and destinations), PMCNTENSET = counters 0-7 and 31, PMCR = E, stop, PMCNTENCLR
    seq = [first("mmio_write32", 0x1000 + 8 * 31 + 4, 0), first("mmio_write32", PMCR, 0x6),
           first("mmio_write32", PMCCFILTR, 0xF07), first("mmio_write32", PMEVTYPER, 0x111),
           first("mmio_write32", PMEVFILTR, 0xF07), first("mmio_write32", PMCNTENSET, 0x800000FF),
           first("mmio_write32", PMCR, 0x1), first("mmio_write32", PMCNTENCLR, 0x800000FF)]
    assert seq == sorted(seq), "UCF writes out of Linux's order (positions %s)" % seq
    assert not [x for x in w if x[1] < 0x2000 and x[0] == "mmio_write64"], "a 64-bit write to the UCF (no ATOMIC)"
    # PCIE (single page at +0x2000, ATOMIC: 64-bit counter accesses): PMEVFILTR0 = src_rp_mask
    # 0xFF, PMEVFILT2R0 = all destinations 0x1F
    first("mmio_write64", 0x2000 + 8 * 31, 0)
    first("mmio_write32", 0x2000 + PMEVFILTR, 0xFF)
    first("mmio_write32", 0x2000 + PMEVFILT2R, 0x1F)
    assert [r for r in hw if r["op"] == "mmio_read64" and 0x2000 <= int(r["addr"], 16) - BAR < 0x2100], "no 64-bit counter read on the ATOMIC PMU"
    # PCIE-TGT: the cycles event is type 0x4 on counter 31, PMEVFILT2R0 = all root ports 0xFF
    first("mmio_write32", 0x3000 + PMEVFILT2R, 0xFF)
    first("mmio_write32", 0x3000 + PMCCFILTR, 0)
    assert not [x for x in w if 0x3000 + PMEVFILTR <= x[1] < 0x3000 + PMEVFILTR + 0x100], "PMEVFILTR written on PCIE-TGT (Linux never does)"
    with open(backing, "rb") as f:
        after = f.read()
    diff = [i for i in range(0, len(mem), 4) if after[i:i + 4] != mem[i:i + 4]]
    assert not diff, "the PMU pages were not put back: %d dwords differ, first at 0x%x" % (len(diff), diff[0])
    figure("CoreSight PMUs (APMT on q35)", "3 PMUs (%s), %d PMU register writes, backing file unchanged" % (
        ", ".join(recs[n]["pmu"] for n in sorted(recs)), len(w)))


@x86_64
def test_pcie_pmu_rp_not_a_root_port(scratch):
    # q35's AHCI controller 00:1f.2 is no NVIDIA root port: a config error naming the file line,
    # before any window
    d = scratch()
    text = cfg_text("x86_64", {"copy_size": "64K", "pcie": "off", "uncore": "on", "pcie_pmu_rp": "00:1f.2"})
    line = 1 + [ln.split("=")[0].strip() for ln in text.splitlines()].index("pcie_pmu_rp")
    run = boot("x86_64", make_image("x86_64", d, text), d)
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh exit %s, QEMU exit %s: expected status error and power-off" % (run.rc, run.qemu_exit)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    want = "efiperf.cfg:%d: pcie_pmu_rp: 0000:00:1f.2" % line
    assert any(m.endswith(want + " (8086:2922) is not a PCI Express Root Port") for m in errs), "no config error %r...: %s" % (want, errs)
    assert not run.of("measurement") and not run.of("uncore"), "a window ran before the refusal"
