# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of platform discovery: ACPI, SMBIOS and PCIe as QEMU was told to build
the machine.

The oracle is the QEMU command line itself: the CPU count (-smp), the SMBIOS type 1 strings
(-smbios), a root port told to train at 8 GT/s x4 (x-speed/x-width), a CXL type 3 device
behind a CXL root port (real CXL DVSECs, vendor 0x1E98, IDs from the CXL spec), and the PCIe
devices QEMU's virt and q35 machines always have.
"""
import hashlib
import os

import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64, aarch64 = pytest.mark.x86_64, pytest.mark.aarch64

SMALL_NO_COPY = {"copy_size": "4K", "copy_passes": "1", "loop_iterations": "1000"}
QEMU_REDHAT = "1b36"          # QEMU's PCI vendor ID (pcie-root-port 1b36:000c, virt host 1b36:0008)
NVME_CLASS = "0x010802"       # mass storage, NVM, NVMe
CXL_VENDOR = 0x1E98
# CXL 3.1 Table 8-2 "CXL DVSEC ID Assignment": what the spec requires of each (8.1.3 the PCIe
# DVSEC for CXL Devices and 8.1.9 the Register Locator for every CXL device; 8.1.5 Extensions
# DVSEC for Ports, 8.1.8 Flex Bus Port DVSEC and the Register Locator for a CXL root port).
CXL_PORT_IDS = {3, 7, 8}
CXL_DEVICE_IDS = {0, 8}
# The words each ID's name must carry (Table 8-2 names).
CXL_NAME_WORDS = {0: ("CXL", "Device"), 3: ("Extensions", "Port"), 4: ("GPF", "Port"), 5: ("GPF", "Device"),
                  7: ("Flex Bus",), 8: ("Register Locator",)}


def disc_boot(scratch, arch, extra=None, smp=None, cfg=None):
    """extra: QEMU arguments, or a function of the test's scratch dir returning them."""
    d = scratch()
    if callable(extra):
        extra = extra(d)
    img = make_image(arch, d, cfg_text(arch, dict(SMALL_NO_COPY, **(cfg or {}))))
    run = boot(arch, img, d, extra=extra, smp=smp)
    run.expect_ok()
    return run, d


def pcie_records(run):
    recs = run.of("pcie")
    assert recs, "no pcie records"
    return recs


@x86_64
def test_acpi_smbios_as_told(scratch, figure):
    serial = "EFIPERF-QA-42"
    run, _ = disc_boot(scratch, "x86_64", smp=3, extra=[
        "-smbios", "type=1,manufacturer=efiperf-lab,product=qa-box,serial=%s" % serial,
        "-object", "memory-backend-ram,id=m0,size=256M", "-object", "memory-backend-ram,id=m1,size=256M",
        "-numa", "node,nodeid=0,cpus=0-1,memdev=m0", "-numa", "node,nodeid=1,cpus=2,memdev=m1",
        "-numa", "dist,src=0,dst=1,val=21"])
    acpi = run.one("acpi")
    sigs = [t["sig"] for t in acpi.get("tables", [])]
    for sig in ("FACP", "APIC", "MCFG", "HPET"):
        assert sig in sigs, "ACPI table %s missing from %s" % (sig, sigs)
    assert all(t.get("valid") for t in acpi["tables"]), "a QEMU table failed validation: %s" % acpi["tables"]
    madt = acpi.get("madt", {})
    assert acpi.get("cpu_count_check", {}).get("madt_enabled") == 3, "MADT enabled CPUs %r, QEMU was given -smp 3" % acpi.get("cpu_count_check")
    assert acpi["cpu_count_check"].get("agree") is True, "MADT and MP services disagree: %s" % acpi["cpu_count_check"]
    # -numa: CPUs 0-1 on node 0, CPU 2 on node 1, distance 21 between them (SLIT: 10 local)
    srat = acpi.get("srat") or {}
    assert sorted(map(tuple, srat.get("cpus", []))) == [(0, 0), (1, 0), (2, 1)], "SRAT CPU -> proximity domain %s, QEMU was told CPUs 0-1 on node 0 and CPU 2 on node 1" % srat.get("cpus")
    assert {m_["domain"] for m_ in srat.get("memory", [])} == {0, 1}, "SRAT memory domains %s" % srat.get("memory")
    slit = acpi.get("slit") or {}
    assert slit.get("distance") == [[10, 21], [21, 10]], "SLIT %s, QEMU was told distance 21" % slit
    mcfg = acpi.get("mcfg", [])
    assert len(mcfg) == 1 and mcfg[0].get("segment") == 0 and mcfg[0].get("start_bus") == 0, "q35 MCFG should be one allocation for segment 0 from bus 0: %s" % mcfg
    fadt = acpi.get("fadt", {})
    tmr = fadt.get("pm_timer") or {}
    # ICH9 (q35): PMBASE 0x600 as OVMF programs it, PM1_TMR at PMBASE + 8 (ICH9 datasheet 13.8.3)
    assert tmr.get("space") == "io" and tmr.get("address") == "0x608" and tmr.get("bits") in (24, 32), "FADT PM timer %s, expected the ICH9 I/O port 0x608" % fadt
    smb = run.one("smbios")
    system = smb.get("system", {})
    for k, v in (("manufacturer", "efiperf-lab"), ("product", "qa-box"), ("serial", serial)):
        assert system.get(k) == v, "SMBIOS system.%s %r, QEMU was given %r" % (k, system.get(k), v)
    psys = run.one("platform").get("system") or {}
    assert psys.get("serial") == serial and psys.get("product") == "qa-box" and psys.get("bios_vendor"), "platform.system %s lacks the SMBIOS identity" % psys
    assert os.path.basename(run.jsonl).startswith(serial + "-"), "log %s is not named by the SMBIOS serial %s" % (os.path.basename(run.jsonl), serial)
    figure("discovery x86_64", "tables %s; MADT %s; MCFG %s; FADT PM timer %s; log %s" % (
        " ".join(sigs), madt.get("lapic"), mcfg, fadt.get("pm_timer"), os.path.basename(run.jsonl)))


@x86_64
def test_pcie_root_port_8gt_x4_nvme(scratch, figure):
    run, d = disc_boot(scratch, "x86_64", extra=lambda d: [
        "-device", "pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1,x-speed=8,x-width=4",
        "-drive", "if=none,id=nvm,format=raw,file=%s" % blank(d, "nvme.raw", 1 << 20),
        "-device", "nvme,serial=efiperf1,drive=nvm,bus=rp1",
        "-device", "pcie-root-port,id=rp2,bus=pcie.0,chassis=2,slot=2,x-speed=8,x-width=4"])
    recs = pcie_records(run)
    scan = run.one("pcie_scan")
    assert scan.get("method") == "ECAM (MCFG)", "pcie_scan.method %r" % scan.get("method")
    by_bdf = {r.get("bdf"): r for r in recs}
    nvme = [r for r in recs if r.get("class") == NVME_CLASS]
    assert len(nvme) == 1, "expected one NVMe function, classes %s" % sorted({r.get("class") for r in recs})
    nv = nvme[0]
    caps = [c.get("name") for c in nv.get("capabilities", [])]
    assert "PCIe" in caps, "NVMe without its PCI Express capability: %s" % caps
    nl = nv.get("link") or {}
    rp_bdf = (nl.get("partner") or {}).get("bdf")
    assert rp_bdf in by_bdf, "NVMe link partner %r is not a listed function" % rp_bdf
    rl = by_bdf[rp_bdf].get("link") or {}
    # What QEMU was told: the port's capability is 8 GT/s x4 (x-speed=8,x-width=4).
    assert float(rl.get("max_speed_gts", 0)) == 8.0 and rl.get("max_width") == 4, "root port %s LnkCap %s, QEMU was told x-speed=8,x-width=4" % (rp_bdf, rl)
    # The link trains to what both ends support (PCIe 6.0 4.2.6): min of the two LnkCaps.
    want_speed = min(float(rl["max_speed_gts"]), float(nl.get("max_speed_gts", 0)))
    want_width = min(rl["max_width"], nl.get("max_width", 0))
    for who, l in (("root port", rl), ("NVMe", nl)):
        assert l.get("up") and float(l.get("speed_gts", 0)) == want_speed and l.get("width") == want_width, "%s link %s, expected trained at %s GT/s x%s" % (who, l, want_speed, want_width)
        assert l.get("downtrained") is False, "%s reported downtrained although at the common maximum: %s" % (who, l)
    limited = (want_speed, want_width) != (8.0, 4)
    assert rl.get("limited_by_partner") is limited, "root port limited_by_partner %r, expected %r" % (rl.get("limited_by_partner"), limited)
    # The port with nothing behind it: QEMU reports it trained at its capability, 8 GT/s x4.
    empty = [r for r in recs if r.get("bdf") != rp_bdf and r.get("vendor_device") == QEMU_REDHAT + ":000c"]
    assert len(empty) == 1, "expected the second (empty) root port, found %s" % [r.get("bdf") for r in empty]
    el = empty[0].get("link") or {}
    assert float(el.get("speed_gts", 0)) == 8.0 and el.get("width") == 4 and abs(float(el.get("gbps", 0)) - 3.938) < 0.0005, "empty root port link %s, expected trained at 8 GT/s x4 = 3.938 GB/s per direction (128b/130b)" % el
    figure("NVMe behind x-speed=8,x-width=4", "port %s cap 8 GT/s x4, NVMe %s cap %s GT/s x%s, link %s GT/s x%s%s; empty port %s: %s GT/s x%s, %s GB/s" % (
        rp_bdf, nv.get("bdf"), nl.get("max_speed_gts"), nl.get("max_width"), want_speed, want_width,
        " (limited by the NVMe)" if limited else "", empty[0].get("bdf"), el.get("speed_gts"), el.get("width"), el.get("gbps")))


def cxl_qemu_args(mem, lsa):
    """QEMU 7.2's CXL 2.0 topology: host bridge (pxb-cxl, bus 12), root port, a type 3 device
    whose memory and LSA are the host files mem and lsa (256 MiB each), one 4 GiB CFMWS."""
    return ["-M", "q35,cxl=on",
            "-object", "memory-backend-file,id=cxl-mem1,share=on,mem-path=%s,size=256M" % mem,
            "-object", "memory-backend-file,id=cxl-lsa1,share=on,mem-path=%s,size=256M" % lsa,
            "-device", "pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1",
            "-device", "cxl-rp,port=0,bus=cxl.1,id=root_port13,chassis=0,slot=2",
            "-device", "cxl-type3,bus=root_port13,memdev=cxl-mem1,lsa=cxl-lsa1,id=cxl-pmem0",
            "-M", "cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G"]


@x86_64
def test_cxl_dvsecs(scratch, figure):
    # QEMU 7.2 (Debian 12) names the type 3 backend `memdev` (`persistent-memdev` is 8.0+), and
    # has no volatile type 3 memory (`volatile-memdev` is 8.0+): the device's 256 MiB is persistent.
    files = {}

    def topology(d):
        files["mem"] = patterned(d, "cxl-mem.raw", CXL_MEM)
        files["lsa"] = patterned(d, "cxl-lsa.raw", CXL_LSA)
        files["before"] = {k: sha256(p) for k, p in files.items() if k in ("mem", "lsa")}
        return cxl_qemu_args(files["mem"], files["lsa"])
    run, _ = disc_boot(scratch, "x86_64", extra=topology,
                       cfg={"check": "cxl[0000:0d:00.0].identify.total_capacity_bytes == %d" % CXL_MEM,
                            "cxl_decoders": "commit"})
    found = {}
    for r in pcie_records(run):
        cxl = [v for v in r.get("dvsec", []) if int(str(v.get("vendor")), 16) == CXL_VENDOR]
        if not cxl:
            continue
        for v in cxl:
            vid = int(str(v.get("id")), 16)
            words = CXL_NAME_WORDS.get(vid, ())
            assert v.get("name") and all(w in v["name"] for w in words), "%s CXL DVSEC id %d named %r" % (r.get("bdf"), vid, v.get("name"))
        found[r.get("bdf")] = ((r.get("express") or {}).get("port_type"), {int(str(v["id"]), 16) for v in cxl})
    ports = [ids for t, ids in found.values() if t == "Root Port"]
    assert ports and CXL_PORT_IDS <= ports[0], "CXL root port DVSEC IDs %s, the spec requires %s (found %s)" % (ports, CXL_PORT_IDS, found)
    devs = [ids for t, ids in found.values() if t == "Endpoint"]
    assert devs and CXL_DEVICE_IDS <= devs[0], "CXL type 3 DVSEC IDs %s, the spec requires %s (found %s)" % (devs, CXL_DEVICE_IDS, found)
    figure("CXL DVSECs", "; ".join("%s %s ids %s" % (b, t, sorted(i)) for b, (t, i) in sorted(found.items())))
    check_cxl_records(run, files, figure)


# What QEMU 7.2 was told or builds (hw/acpi/cxl.c, hw/cxl/, hw/mem/cxl_type3.c):
CXL_MEM = CXL_LSA = 256 << 20
CXL_HB_UID = 12                  # CHBS _UID = the pxb-cxl's bus_nr
CXL_WINDOW = 4 << 30             # cxl-fmw.0.size
CXL_RESTRICTIONS = 0xF           # QEMU's CFMWS Window Restrictions (Type 2 + Type 3, volatile + persistent)
CAPACITY_UNIT = 256 << 20        # CXL 3.1 8.2.9.9.1.1: capacities in multiples of 256 MiB


def patterned(d, name, size):
    """A backing file filled with a repeated random MiB, so any write shows in its hash."""
    p = os.path.join(d, name)
    block = os.urandom(1 << 20)
    with open(p, "wb") as f:
        for _ in range(size >> 20):
            f.write(block)
    return p


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 22), b""):
            h.update(chunk)
    return h.hexdigest()


def check_cxl_records(run, files, figure):
    cedt = (run.one("acpi") or {}).get("cedt")
    assert cedt, "no CEDT in the acpi record"
    chbs, cfmws = cedt["chbs"], cedt["cfmws"]
    assert [int(h["uid"], 16) for h in chbs] == [CXL_HB_UID] and chbs[0]["cxl_version"] == 1 and int(chbs[0]["length"], 16) == 0x10000, chbs
    assert len(cfmws) == 1, cfmws
    w = cfmws[0]
    assert int(w["size"], 16) == CXL_WINDOW and w["ways"] == 1 and [int(t, 16) for t in w["targets"]] == [CXL_HB_UID], w
    assert int(w["restrictions"], 16) == CXL_RESTRICTIONS and w["defect"] is None, w
    hbs = run.of("cxl_host_bridge")
    assert len(hbs) == 1 and hbs[0]["component"]["present"] and hbs[0]["component"]["hdm"]["present"], hbs
    recs = {r["bdf"]: r for r in run.of("cxl")}
    roles = {r["role"]: r for r in recs.values()}
    assert set(roles) == {"root_port", "device"}, sorted((b, r["role"]) for b, r in recs.items())
    rp, dev = roles["root_port"], roles["device"]
    assert dev["parent"] == rp["bdf"], (dev["parent"], rp["bdf"])
    # Register Locator: the component block in BAR 0 for both, the device registers in BAR 2
    # (QEMU include/hw/cxl/cxl.h CXL_COMPONENT_REG_BAR_IDX 0, CXL_DEVICE_REG_BAR_IDX 2).
    used = lambda r: sorted((b["name"], b["bir"]) for b in r["register_blocks"] if b["block_id"])
    assert used(rp) == [("component", 0)], rp["register_blocks"]
    assert used(dev) == [("component", 0), ("memdev", 2)], dev["register_blocks"]
    assert all(b["defect"] is None for r in (rp, dev) for b in r["register_blocks"]), [r["register_blocks"] for r in (rp, dev)]
    # Every decoder as QEMU leaves it under OVMF: present, not committed, no range.
    for who, comp in (("host bridge", hbs[0]["component"]), ("root port", rp["component"]), ("device", dev["component"])):
        decs = comp["hdm"]["decoders"]
        assert decs and len(decs) == comp["hdm"]["decoder_count"], (who, comp["hdm"])
        for dd in decs:
            assert not dd["committed"] and not dd["error_not_committed"] and int(dd["size"], 16) == 0, (who, dd)
    assert rp["flexbus"]["io"] and rp["flexbus"]["mem"], rp["flexbus"]
    dv = dev["device_dvsec"]
    assert dv["mem_capable"] and dv["hdm_count"] == 1 and int(dv["ranges"][0]["size"], 16) == CXL_MEM, dv
    assert dev["ras"]["correctable"] == 0 and dev["ras"]["uncorrectable"] == 0, dev["ras"]
    md = dev["memdev"]
    assert md["present"] and md["mailbox"] and md["mailbox_ready"] and md["media_status"] == "ready", md
    idf = dev["identify"]
    assert idf["ok"], idf
    assert idf["total_capacity_bytes"] == CXL_MEM and idf["persistent_only_bytes"] == CXL_MEM and idf["volatile_only_bytes"] == 0, idf
    assert idf["lsa_size_bytes"] == CXL_LSA, idf
    pt = dev["partition"]
    assert pt["ok"] and pt["active_persistent_bytes"] == CXL_MEM and pt["active_volatile_bytes"] == 0, pt
    # QEMU 7.2 answers Get Health Info with Unsupported (its command table has no 4200h) and
    # Get Event Records with an empty log: both are QEMU's values, as the record gives them.
    hl = dev["health"]
    assert not hl["ok"] and hl["return_code"] == "0x3" and "Unsupported" in hl["why"], hl
    for name, ev in dev["events"].items():
        assert ev["ok"] and ev["count"] == 0 and not ev["more"], (name, ev)
    assert dev["ndefects"] == 0 and rp["ndefects"] == 0, (dev["defects"], rp["defects"])
    # cxl_decoders = commit, after the listing above: the window's decoders committed down to the
    # device (QEMU sets Committed). QEMU 7.2 cannot uncommit (its Control register keeps Committed,
    # which only a reset clears: hw/cxl/cxl-component-utils.c has no uncommit before 8.0), so after
    # the restore every decoder is still committed and each Control register is named as not put
    # back; base, size and target registers are put back.
    cm = run.one("cxl_commit")
    assert cm["ok"] and cm["why"] is None, cm
    assert int(cm["window_base"], 16) == int(w["base"], 16) and int(cm["size"], 16) == CXL_MEM, cm
    assert [h["name"] for h in cm["hops"]] == ["host bridge _UID 0x%x" % CXL_HB_UID, rp["bdf"], dev["bdf"]], cm["hops"]
    assert all(h["committed"] and h["committed_after_restore"] for h in cm["hops"]), cm["hops"]
    rs = cm["restore"]
    ctrl = sorted(int(h["component"], 16) + 0x1000 + 0x110 + 0x20 for h in cm["hops"])   # HDM capability at 0x110 (QEMU)
    named = sorted(int(f["register"].split()[-1], 16) for f in rs["failed"])
    assert rs["status"] != "ok" and named == ctrl and rs["written"] == 3 * 8, rs
    v = run.one("verdict")
    assert v["result"] == "PASS" and v["passed"] == 1, v
    # Read-only: the memory and LSA backing files are byte for byte as before the boot.
    after = {k: sha256(files[k]) for k in ("mem", "lsa")}
    assert after == files["before"], "a CXL backing file changed: %s -> %s" % (files["before"], after)
    figure("CXL", "CEDT CHBS _UID %d, CFMWS %s GiB; %s root port, %s device: Identify %d MiB, LSA %d MiB, health %s; backing files unchanged" % (
        CXL_HB_UID, CXL_WINDOW >> 30, rp["bdf"], dev["bdf"], idf["total_capacity_bytes"] >> 20, idf["lsa_size_bytes"] >> 20, hl["why"]))


@x86_64
def test_pcie_without_mcfg_root_bridge_io(scratch, figure):
    # i440fx (-M pc) has no PCI Express and publishes no MCFG: efiperf must fall back to
    # EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL and still list the chipset's functions.
    run, _ = disc_boot(scratch, "x86_64", extra=["-M", "pc"])
    acpi = run.one("acpi")
    assert "MCFG" not in [t["sig"] for t in acpi.get("tables", [])], "the pc machine published an MCFG"
    scan = run.one("pcie_scan")
    assert scan.get("method", "").startswith("EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL"), "pcie_scan.method %r" % scan.get("method")
    ids = [r.get("vendor_device") for r in pcie_records(run)]
    # i440FX host bridge 8086:1237 and PIIX3 ISA bridge 8086:7000 (QEMU hw/pci-host/i440fx.c)
    assert "8086:1237" in ids and "8086:7000" in ids, "i440fx functions missing: %s" % ids
    assert scan.get("read_errors") == 0, "config reads failed through the root bridge protocol: %s" % scan
    figure("no MCFG (-M pc)", "%d functions via %s" % (len(ids), scan.get("method")))


@aarch64
def test_pcie_through_mcfg(scratch, figure):
    run, _ = disc_boot(scratch, "aarch64", extra=["-device", "virtio-rng-pci"])
    scan = run.one("pcie_scan")
    assert scan.get("method") == "ECAM (MCFG)", "pcie_scan.method %r: virt publishes an MCFG" % scan.get("method")
    ids = [r.get("vendor_device") for r in pcie_records(run)]
    assert "1b36:0008" in ids, "virt's PCIe host bridge 1b36:0008 not listed: %s" % ids
    # virtio-rng-pci: vendor 0x1AF4, transitional device ID 0x1005 or modern 0x1040 + 4
    # (virtio 1.1 4.1.2.1, 4.1.2.3)
    assert "1af4:1005" in ids or "1af4:1044" in ids, "the virtio-rng-pci QEMU was given is not listed: %s" % ids
    acpi = run.one("acpi")
    assert acpi.get("cpu_count_check", {}).get("madt_enabled") == 4, "MADT GICC enabled %r, QEMU was given -smp 4" % acpi.get("cpu_count_check")
    figure("aarch64 pcie", "%s via %s" % (ids, scan.get("method")))


def blank(d, name, size):
    p = os.path.join(d, name)
    with open(p, "wb") as f:
        f.truncate(size)
    return p
