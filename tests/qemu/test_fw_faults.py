# SPDX-License-Identifier: BSD-2-Clause
"""QEMU test: firmware tables that give wrong register addresses never end a run.

One boot of the i440fx machine (-M pc: QEMU publishes no MCFG there, so the crafted one is the
only one and is used) with three tables handed over with -acpitable, all built here:
  - an APMT (layout as tests/qemu/test_cspmu.py builds it): node 20 at 0xFFFFFFFF00000000, an
    address no page table maps (#PF on x86_64); node 21 on the same page (firmware listing one
    PMU twice); node 22 at 0x10000, conventional RAM in OVMF's memory map;
  - an MCFG (PCI Firmware Specification 3.3 table 4-2/4-3: 36-byte header, 8 reserved bytes,
    16-byte allocations: u64 base, u16 segment, u8 start bus, u8 end bus, u32 reserved) with
    segment 0 at 0xFFFFFFFF00000000, segment 1 at 0x10000 and segment 2 at 0xFE000000 (one bus
    of an aperture where no device answers: its Vendor IDs do not read as a function);
  - an SSDT compiled by iasl with two NVIDIA CMEM latency PMUs (NVDA2021, 15 QWordMemory
    resources each): _UID 0 at 0xFFFFFFFF00000000 + i * 0x1000, _UID 1 at 0x10000 + i * 0x1000.
The faulting ones are read through the fault-safe accessors (#PF comes back as a status), the
RAM ones are refused by the address checker before any access (efi/fw/fwaddr.h). Each case is a
`firmware_defect` record naming the table and the field; the run goes on to its verdict and its
`end` record, and the machine powers off.

The aarch64 boot (virt refuses -acpitable: tests/efi/acpi_install.c installs the same APMT and
SSDT from startup.nsh, as tests/qemu/test_nv_acpi_pmu.py does; virt's own MCFG stays the only
one) takes the same cases through the synchronous Data Abort (ESR_ELx.EC 0x25): `data-abort`;
its RAM address is 0x48000000 (virt's RAM starts at 1 GiB; this is 128 MiB into it).

The FADT's X_PM_TMR_BLK cannot be crafted here: QEMU's FADT is built in (a second FACP is not
parsed) and puts the PM timer in I/O space; the memory-space path goes through the same
fw_addr_use / fw_addr_fault calls (efi/timer.c) this boot exercises for the other tables.
"""
import os
import shutil
import struct
import subprocess

import pytest

from efiperf_qemu import acpi_install_image, boot, cfg_text, make_image
from test_cspmu import apmt, node

x86_64 = pytest.mark.x86_64
aarch64 = pytest.mark.aarch64

UNMAPPED = 0xFFFFFFFF00000000
RAM = 0x10000
EMPTY = 0xFE000000

SSDT = """
DefinitionBlock ("", "SSDT", 2, "EFIPRF", "FWFAULT", 0x00000001)
{
    Scope (\\_SB)
    {
%s
    }
}
"""
DEVICE = """        Device (%s)
        {
            Name (_HID, "NVDA2021")
            Name (_UID, %d)
            Name (_CRS, ResourceTemplate ()
            {
%s
            })
        }
"""
QWORD = ("            QWordMemory (ResourceConsumer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,\n"
         "                0x0, 0x%X, 0x%X, 0x0, 0x1000)")


def mcfg(allocs):
    body = b"\0" * 8 + b"".join(struct.pack("<QHBBI", base, seg, lo, hi, 0) for base, seg, lo, hi in allocs)
    t = bytearray(struct.pack("<4sIBB6s8sI4sI", b"MCFG", 36 + len(body), 1, 0, b"EFIPRF", b"FWFAULT", 1, b"EFPT", 1) + body)
    t[9] = (-sum(t)) & 0xFF
    return bytes(t)


def ssdt(d, ram=RAM):
    if not shutil.which("iasl"):
        pytest.fail("iasl not installed (Debian acpica-tools; make deps)")
    devs = "".join(DEVICE % (name, uid, "\n".join(QWORD % (base + i * 0x1000, base + i * 0x1000 + 0xFFF) for i in range(15)))
                   for name, uid, base in (("CMF0", 0, UNMAPPED), ("CMR1", 1, ram)))
    src = os.path.join(d, "fwfault.asl")
    open(src, "w").write(SSDT % devs)
    out = os.path.join(d, "fwfault")
    p = subprocess.run(["iasl", "-p", out, src], capture_output=True, text=True)
    assert p.returncode == 0, "iasl failed: %s %s" % (p.stdout[-800:], p.stderr[-800:])
    return out + ".aml"


def one(defects, table, field):
    assert (table, field) in defects, "no firmware_defect for %s %s: %s" % (table, field, sorted(defects))
    return defects[(table, field)]


def write(d, name, data):
    path = os.path.join(d, name)
    open(path, "wb").write(data)
    return path


@x86_64
def test_bad_firmware_addresses_end_with_defects(scratch, figure):
    d = scratch()
    tables = [
        write(d, "apmt.dat", apmt([node(0x0, 0, 20, UNMAPPED), node(0x0, 0, 21, UNMAPPED), node(0x0, 0, 22, RAM)])),
        write(d, "mcfg.dat", mcfg([(UNMAPPED, 0, 0, 0xFF), (RAM, 1, 0, 0), (EMPTY, 2, 0, 0)])),
        ssdt(d),
    ]
    cfg = {"copy_size": "64K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "on", "uncore": "on"}
    extra = ["-M", "pc"]
    for t in tables:
        extra += ["-acpitable", "file=%s" % t]
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, extra=extra)
    defects = check(run, "#PF", RAM)

    # MCFG: segment 0 faults on its first Vendor ID, segment 1 is RAM, segment 2 has no function
    r = one(defects, "MCFG", "allocation 0 Base Address (segment 0 buses 00-ff)")
    assert r["status"] == "#PF" and int(r["address"], 16) == UNMAPPED, r
    r = one(defects, "MCFG", "allocation 1 Base Address (segment 1 buses 00-00)")
    assert r["status"] == "refused" and r["length"] == 1 << 20, r
    r = one(defects, "MCFG", "allocation 2 Base Address (segment 2 buses 00-00)")
    assert r["status"] == "no functions" and int(r["address"], 16) == EMPTY and r["length"] == 1 << 20, r
    scan = run.one("pcie_scan")
    assert scan["method"] == "ECAM (MCFG)" and [x["segment"] for x in scan["ranges"]] == [2], scan

    figure("bad firmware addresses (pc + APMT/MCFG/SSDT)", "%d firmware_defect records, verdict %s, end %s" % (
        len(defects), run.one("verdict").get("result"), run.records[-1].get("status")))


def check(run, fault, ram):
    """The APMT and AML cases of either boot; returns the defects by (table, field)."""
    # the run ended: a verdict, then the end record last, and QEMU powered off
    assert run.records and run.records[-1].get("type") == "end", "no end record last: %s" % run.why()
    assert run.of("verdict"), "no verdict record"
    assert run.qemu_exit == 0, "QEMU exit %r: the machine did not power off" % run.qemu_exit

    defects = {(r["table"], r["field"]): r for r in run.of("firmware_defect")}

    # APMT: a #PF at the unmapped page, its twin named a duplicate, the RAM node refused
    r = one(defects, "APMT", "node 20 Base Address 0")
    assert r["status"] == fault and int(r["address"], 16) == UNMAPPED + 0xE00, r   # PMCFGR, the first read
    r = one(defects, "APMT", "node 21 Base Address 0")
    assert r["status"] == "duplicate" and "APMT node 20" in r["why"], r
    r = one(defects, "APMT", "node 22 Base Address 0")
    assert r["status"] == "refused" and "(memory, not registers)" in r["why"], r
    cs = {x["apmt"]["id"]: x for x in run.of("uncore") if x.get("scope") == "apmt_node" and x.get("window") == "copy"}
    assert sorted(cs) == [20, 21, 22], "CoreSight records %s" % sorted(cs)
    assert cs[21]["status"] == "off" and cs[22]["status"] == "error", (cs[21], cs[22])

    # AML _CRS: the faulting CMEM PMU is named by its path and the resource; the RAM one refused
    # before any access (resource 0 is the first one checked)
    faults = [k for k in defects if k[0] == "SSDT" and k[1].startswith("\\_SB_.CMF0 _CRS memory resource")]
    assert faults and defects[faults[0]]["status"] == fault, "CMF0: %s" % sorted(defects)
    r = one(defects, "SSDT", "\\_SB_.CMR1 _CRS memory resource 0")
    assert r["status"] == "refused" and int(r["address"], 16) == ram, r
    nv = {x["identity"]["path"]: x for x in run.of("uncore") if x.get("scope") == "acpi_device"}
    assert nv.get("\\_SB_.CMF0", {}).get("status") == "error" and nv.get("\\_SB_.CMR1", {}).get("status") == "error", nv

    with open(run.jsonl, "rb") as f:
        f.read().decode("utf-8")        # strict UTF-8
    return defects


@aarch64
def test_bad_firmware_addresses_aarch64_data_abort(scratch, figure):
    d = scratch()
    ram = 0x48000000
    apmt_path = write(d, "apmt.dat", apmt([node(0x0, 0, 20, UNMAPPED), node(0x0, 0, 21, UNMAPPED), node(0x0, 0, 22, ram)]))
    cfg = {"copy_size": "64K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "off", "uncore": "on"}
    img = acpi_install_image(d, cfg_text("aarch64", cfg), [(ssdt(d, ram), "ssdt.aml"), (apmt_path, "apmt.dat")])
    run = boot("aarch64", img, d)
    defects = check(run, "data-abort", ram)
    figure("bad firmware addresses (virt + acpi_install.efi)", "%d firmware_defect records, verdict %s, end %s" % (
        len(defects), run.one("verdict").get("result"), run.records[-1].get("status")))
