# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the Intel uncore_imc and uncore_iio backends on Skylake-Server (SKX, model 0x55)
and Icelake-Server,model=106 (ICX, 0x6A).

QEMU's TCG has no uncore PMU: unknown MSRs read 0 and writes are dropped, and the machine has no
IMC PCI function (no 8086:2042.. channel, no 8086:3451 memory controller) and no IIO stack
registers. What QEMU can show, and these tests check:
  - `uncore = on` with trace = hw: the IIO programming sequence at the MSR addresses Linux's
    driver uses (arch/x86/events/intel/uncore_snbep.c: SKX BOX_CTL 0xA40 + 0x20 s, ICX
    {0xA50, 0xA70, 0xA90, 0xAE0, 0xB00, 0xB20}; CTL i at BOX_CTL + 8 + i, CTR i at + 1 + i;
    U_MSR_PMON_GLOBAL_CTL 0x700): every BOX_CTL and CTL read before its first write, the box
    frozen (FRZ bit 8 with FRZ_EN bit 16) before the CTLs are written, the CTLs written with
    the events (EN bit 22, DATA_REQ_OF_CPU 0x83 on counters 0-1 and DATA_REQ_BY_CPU 0xC0 on
    2-3), unfrozen, and every register last written with the value first read; counters read;
  - the counts' state is "not-advancing", the metrics are left out, never zero traffic;
  - the IMC is reported absent, naming the PCI functions looked for, and its free-running DDR
    counters (`free_running`) say why there are none: SKX has no such counters, ICX's live in
    the memory controller's MMIO block, which needs the 8086:3451 function QEMU lacks;
  - the stack map is reported absent with its source's reason (SKX: MSR 0x300 valid bit clear;
    ICX: no SAD_CONTROL_CFG function).
Counting, metrics, the IMC's PCI and MMIO access and restore under fault injection are tested
against the register model (tests/unit/test_intel_uncore.c), the encodings against Intel's
perfmon files (tests/unit/test_intel_uncore_oracle.c), the IMC free-running reader against the
register model and Linux's icx_imc_freerunning values (tests/unit/test_intel_imc_free.c).
"""
import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64

SMALL = {"copy_size": "64K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "off"}
MODELS = {"Skylake-Server": "SKX", "Icelake-Server,model=106": "ICX"}
IIO_BOX = {"SKX": [0xA40 + 0x20 * s for s in range(6)], "ICX": [0xA50, 0xA70, 0xA90, 0xAE0, 0xB00, 0xB20]}
IMC_WHY = {"SKX": "8086:2042", "ICX": "3451"}
FREE_WHY = {"SKX": "no free-running counters", "ICX": "the IMC MMIO block is unavailable"}
MAP_WHY = {"SKX": "MSR 0x300 CPU_BUS_NUMBER bit 63 (valid) is clear", "ICX": "no 8086:09a2"}
GLOBAL = 0x700
FRZ, FRZ_EN, EN = 1 << 8, 1 << 16, 1 << 22


def uncore_boot(scratch, model, cfg):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, **cfg)))
    return boot("x86_64", img, d, cpu=model)


@x86_64
@pytest.mark.parametrize("model", sorted(MODELS))
def test_intel_uncore_iio_sequence(model, scratch, figure):
    plat = MODELS[model]
    run = uncore_boot(scratch, model, {"uncore": "on", "trace": "hw"})
    run.expect_ok()
    recs = {r.get("pmu"): r for r in run.of("uncore")}
    imc, iio = recs.get("uncore_imc"), recs.get("uncore_iio")
    assert imc and imc.get("status") == "absent" and IMC_WHY[plat] in imc.get("why", ""), "IMC record %s" % imc
    assert imc.get("platform") == plat
    free = imc.get("free_running")
    assert free and list(free) == ["why"] and FREE_WHY[plat] in free["why"], "free_running %s" % free
    if plat == "ICX":
        assert "3451" in free["why"], free
    assert iio and iio.get("status") == "ok" and iio.get("platform") == plat, "IIO record %s" % iio
    assert iio.get("scope") == "stack"
    assert iio.get("state") == "not-advancing", "IIO state %r: QEMU's counters cannot move" % iio.get("state")
    assert isinstance(iio.get("metrics"), str) and iio["metrics"].startswith("absent"), iio.get("metrics")
    assert iio.get("self_check", {}).get("state") == "absent"
    assert all(c.get("raw") == 0 for c in iio.get("counts", []))
    assert sorted({c["unit"] for c in iio["counts"]}) == list(range(6)), "stacks counted: %s" % iio["counts"]
    maps = run.of("uncore_iio_map")
    assert maps and all(m.get("status") == "absent" and MAP_WHY[plat] in m.get("why", "") for m in maps), maps

    events = [(int(e["ctl"], 16), e["counter"]) for e in iio["events"]]
    for ctl, ctr in events:
        assert ctl & EN, "IIO event 0x%x lacks EN" % ctl
        assert (ctl & 0xFF) in (0x83, 0xC0)
        assert ctr in ((0, 1) if (ctl & 0xFF) == 0x83 else (2, 3)), "event 0x%x on counter %d" % (ctl, ctr)
    hw = [(r["op"], int(r["reg"], 16), int(r.get("val", "0x0"), 16)) for r in run.of("hw") if r.get("op") in ("rdmsr", "wrmsr")]
    watched = {GLOBAL}
    for b in IIO_BOX[plat]:
        watched |= {b} | {b + 8 + i for i in range(4)}
    seen_read, writes = set(), {}
    for op, reg, val in hw:
        if reg not in watched:
            continue
        if op == "rdmsr":
            seen_read.add(reg)
        else:
            assert reg in seen_read, "MSR 0x%x written before it was read" % reg
            writes.setdefault(reg, []).append(val)
    for b in IIO_BOX[plat]:
        box = writes.get(b)
        assert box, "%s: BOX_CTL 0x%x never written" % (plat, b)
        assert box[0] & FRZ and box[0] & FRZ_EN, "BOX_CTL 0x%x first write 0x%x does not freeze" % (b, box[0])
        assert any(not v & FRZ for v in box[1:-1] or box), "BOX_CTL 0x%x never unfrozen: %s" % (b, [hex(v) for v in box])
        assert box[-1] == 0, "BOX_CTL 0x%x left 0x%x, QEMU read 0" % (b, box[-1])
        ctl_vals = set()
        for i in range(4):
            w = writes.get(b + 8 + i, [])
            assert w, "CTL%d 0x%x never written" % (i, b + 8 + i)
            assert w[-1] == 0, "CTL 0x%x left 0x%x" % (b + 8 + i, w[-1])
            ctl_vals |= {(v, i) for v in w}
        assert all((ctl, ctr) in ctl_vals for ctl, ctr in events), "%s stack 0x%x: events not all written on their counters" % (plat, b)
        first_ctl = min(hw.index(("wrmsr", b + 8, writes[b + 8][0])), hw.index(("wrmsr", b + 9, writes[b + 9][0])))
        assert hw.index(("wrmsr", b, box[0])) < first_ctl, "BOX_CTL 0x%x frozen after a CTL was written" % b
        assert any(op == "rdmsr" and b + 1 <= reg <= b + 4 for op, reg, _ in hw), "counters of 0x%x never read" % b
    g = writes.get(GLOBAL)
    assert g and g[0] == 1 << 61 and g[-1] == 0, "global control writes %s" % [hex(v) for v in g or []]
    figure("uncore_iio " + plat, "%d IIO MSR writes over %d stacks, %d events in %d groups; IMC absent; map absent" % (
        sum(len(v) for v in writes.values()), len(IIO_BOX[plat]), len(events), len({e["group"] for e in iio["events"]})))


@x86_64
def test_intel_uncore_events_typo(scratch):
    run = uncore_boot(scratch, "Skylake-Server", {"uncore": "on", "uncore_events": "uncore_iio_0/event=0x83,ch_mask=0x100/"})
    recs = {r.get("pmu"): r for r in run.of("uncore")}
    iio = recs.get("uncore_iio")
    assert iio and iio.get("status") == "error" and "ch_mask" in iio.get("why", ""), iio
    assert recs.get("uncore_imc", {}).get("status") == "off", recs.get("uncore_imc")


@x86_64
def test_intel_uncore_catalogue_name(scratch):
    """A perfmon name only Intel's generated catalogue knows (pmu/events/gen_intel_uncore.c) is
    programmed as Intel's SKX file encodes it: UNC_IIO_TXN_REQ_OF_CPU.MEM_READ.PART0, EventCode
    0x84, UMask 0x04, PortMask 0x01, FCMask 0x07 (skylakex_uncore_experimental.json v1.37), at
    SKX IIO's ch_mask config:36-43 and fc_mask config:44-46 (Linux uncore_snbep.c skx formats)."""
    run = uncore_boot(scratch, "Skylake-Server", {"uncore": "on", "uncore_events": "UNC_IIO_TXN_REQ_OF_CPU.MEM_READ.PART0"})
    run.expect_ok()
    iio = {r.get("pmu"): r for r in run.of("uncore")}.get("uncore_iio")
    assert iio and iio.get("status") == "ok", iio
    ctls = {int(e["ctl"], 16) for e in iio["events"]}
    assert ctls == {EN | 0x84 | 0x04 << 8 | 0x01 << 36 | 0x07 << 44}, [hex(c) for c in ctls]


@x86_64
def test_intel_uncore_spr_without_discovery_table(scratch, figure):
    """Sapphire Rapids (family 6 model 0x8F; QEMU 7.2 has no SapphireRapids CPU model, so the
    Icelake-Server model with model=143): IMC and IIO units come from the uncore discovery table
    only, and QEMU's machine has no 8086:09A7 function. Both boxes are reported absent with that
    reason, the stack map names its source (discovery_table) and the same reason, nothing is
    programmed, and the run ends ok. The same boot reads 64 KiB of its own AHCI disk (00:1f.2)
    through Block IO as a DMA window: its iio_self_check is absent, naming the controller's BDF
    and the missing table (the device's stack is programmed at the table's addresses when there
    is one: tests/unit/test_iio_attrib.c)."""
    run = uncore_boot(scratch, "Icelake-Server,model=143", {"uncore": "on", "trace": "hw", "dma_blockio": "00:1f.2",
                                                             "dma_bytes": "64K"})
    run.expect_ok()
    recs = {r.get("pmu"): r for r in run.of("uncore")}
    for pmu in ("uncore_imc", "uncore_iio"):
        r = recs.get(pmu)
        assert r and r.get("platform") == "SPR" and r.get("status") == "absent", "%s record %s" % (pmu, r)
        assert "no uncore discovery table found" in r.get("why", "") and "09a7" in r["why"], r
    free = recs["uncore_imc"].get("free_running")
    assert free and "no DDR bytes" in free.get("why", "") and "spr_imc_freerunning" in free["why"], free
    maps = run.of("uncore_iio_map")
    assert maps and all(m.get("status") == "absent" and m.get("map_source") == "discovery_table" and
                        "no uncore discovery table found" in m.get("why", "") for m in maps), maps
    spr_msrs = [r for r in run.of("hw") if r.get("op") == "wrmsr" and 0x3000 <= int(r["reg"], 16) < 0x3100]
    assert not spr_msrs, "IIO MSRs written without a table: %s" % spr_msrs[:4]
    dma = [r for r in run.records if "iio_self_check" in r]
    assert dma, "no DMA window record with iio_self_check: %s" % sorted({r.get("type") for r in run.records})
    for r in dma:
        iio = r["iio_self_check"]
        assert iio.get("state") == "absent" and iio.get("counted_read_bytes") is None, "iio_self_check %s" % iio
        assert "0000:00:1f.2" in iio.get("why", "") and "no uncore discovery table found" in iio["why"], iio
    figure("uncore SPR", "IMC and IIO absent without a discovery table; map_source discovery_table; the Block IO "
           "window's iio_self_check absent naming 0000:00:1f.2 and the missing table; run ok")
