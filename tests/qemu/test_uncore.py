# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the AMD uncore backends (amd_df, amd_l3) on EPYC-Rome (Zen 2) and EPYC-Milan (Zen 3).

QEMU's TCG has no Data Fabric or L3 PMU: unknown MSRs read 0 and writes are dropped, so the
counters never move. What QEMU can show, and these tests check:
  - the family table follows the CPU identity QEMU reports (QMP), not a table here;
  - `uncore = on` measures a box only when CPUID says it is there, and otherwise writes a
    record with status "absent" naming the CPUID bit;
  - `uncore = force` with trace = hw: the programming sequence at the MSR addresses Linux's
    driver uses (arch/x86/include/asm/msr-index.h MSR_F15H_NB_PERF_CTL 0xC0010240 and
    MSR_F16H_L2I_PERF_CTL 0xC0010230, CTL i at base + 2i, CTR i at base + 2i + 1): every CTL
    read before its first write, written with the enable bit (22) clear, then set, then clear,
    and last written with the value first read; counters read; nothing else in those ranges;
  - the counts' state is "not-advancing" and the metrics are left out, never shown as zero
    traffic; the self-check says absent.
Counting itself (metrics exact, restore under fault injection) is tested against the register
model (tests/unit/test_amd_uncore.c) and Linux's perf JSON (tests/unit/test_amd_uncore_oracle.c).
"""
import pytest

from efiperf_qemu import boot, cfg_text, make_image, qmp_cpu_identity

x86_64 = pytest.mark.x86_64

SMALL = {"copy_size": "64K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "off"}
MODELS = ["EPYC-Rome", "EPYC-Milan"]
# Linux arch/x86/kernel/cpu/amd.c: Zen 2 = Family 17h models 30h+, Zen 3 = Family 19h 00h-0Fh
FAMILY = {(0x17, True): "Zen2", (0x19, False): "Zen3"}
DF_CTL, L3_CTL = 0xC0010240, 0xC0010230
NCTR = {"amd_df": 4, "amd_l3": 6}
BASE = {"amd_df": DF_CTL, "amd_l3": L3_CTL}


def platform_of(model):
    ident, _ = qmp_cpu_identity(model)
    fam, mod = ident["family"], ident["model"]
    key = (fam, mod >= 0x30) if fam == 0x17 else (fam, mod > 0x0F)
    assert key in FAMILY, "%s: QMP says family 0x%x model 0x%x" % (model, fam, mod)
    return FAMILY[key]


def uncore_boot(scratch, model, cfg):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, **cfg)))
    return boot("x86_64", img, d, cpu=model)


def by_pmu(run):
    return {r.get("pmu"): r for r in run.of("uncore")}


@x86_64
@pytest.mark.parametrize("model", MODELS)
def test_uncore_on_follows_cpuid(model, scratch, figure):
    want = platform_of(model)
    run = uncore_boot(scratch, model, {"uncore": "on"})
    recs = by_pmu(run)
    assert set(recs) == {"amd_df", "amd_l3"}, "uncore records %s" % sorted(recs)
    for pmu, r in recs.items():
        assert r.get("platform") == want, "%s: platform %r, QEMU's CPU means %s" % (pmu, r.get("platform"), want)
        assert r.get("status") in ("absent", "ok"), "%s status %r" % (pmu, r.get("status"))
        if r["status"] == "absent":
            bit = "bit 24" if pmu == "amd_df" else "bit 28"
            assert "CPUID 0x80000001 ECX " + bit in r.get("why", ""), "%s absent without the CPUID reason: %r" % (pmu, r.get("why"))
        else:
            assert r.get("state") == "not-advancing", "%s counted under TCG: %s" % (pmu, r)
    assert run.qemu_exit == 0, "QEMU exit %r" % run.qemu_exit
    figure("uncore on " + model, "; ".join("%s %s" % (p, r.get("status")) for p, r in sorted(recs.items())))


@x86_64
@pytest.mark.parametrize("model", MODELS)
def test_uncore_force_sequence(model, scratch, figure):
    want = platform_of(model)
    run = uncore_boot(scratch, model, {"uncore": "force", "trace": "hw"})
    run.expect_ok()
    recs = by_pmu(run)
    hw = [r for r in run.of("hw") if r.get("op") in ("rdmsr", "wrmsr")]
    ops = [(r["op"], int(r["reg"], 16), int(r.get("val", "0x0"), 16)) for r in hw]
    for pmu in ("amd_df", "amd_l3"):
        r = recs.get(pmu)
        assert r and r.get("status") == "ok" and r.get("platform") == want, "%s record %s" % (pmu, r)
        assert r.get("state") == "not-advancing", "%s state %r: QEMU's counters cannot move" % (pmu, r.get("state"))
        assert isinstance(r.get("metrics"), str) and r["metrics"].startswith("absent"), "%s metrics shown: %r" % (pmu, r.get("metrics"))
        assert r.get("self_check", {}).get("state") == "absent", "%s self_check %s" % (pmu, r.get("self_check"))
        assert all(c.get("raw") == 0 for c in r.get("counts", [])), "%s counts %s" % (pmu, r.get("counts"))
        base, n = BASE[pmu], NCTR[pmu]
        ctls = {base + 2 * i for i in range(n)}
        ctrs = {base + 2 * i + 1 for i in range(n)}
        events = [int(e["ctl"], 16) for e in r.get("events", [])]
        assert events and all(v & (1 << 22) for v in events), "%s events %s lack the enable bit" % (pmu, events)
        written = {}
        for op, reg, val in ops:
            if op == "wrmsr" and reg in ctls:
                if reg not in written:
                    assert ("rdmsr", reg) in [(o, g) for o, g, _ in ops[:ops.index((op, reg, val))]], "%s CTL 0x%x written before read" % (pmu, reg)
                written.setdefault(reg, []).append(val)
        assert written, "%s: no CTL at 0x%x.. written" % (pmu, base)
        for reg, vals in written.items():
            assert not vals[0] & (1 << 22), "%s CTL 0x%x: first write 0x%x has the enable bit set" % (pmu, reg, vals[0])
            assert any(v & (1 << 22) for v in vals), "%s CTL 0x%x never enabled: %s" % (pmu, reg, [hex(v) for v in vals])
            assert vals[-1] == 0, "%s CTL 0x%x left 0x%x, QEMU read 0" % (pmu, reg, vals[-1])
        enabled = {v for vals in written.values() for v in vals if v & (1 << 22)}
        assert set(events) <= enabled, "%s: events %s not all written enabled (%s)" % (pmu, [hex(v) for v in events], [hex(v) for v in enabled])
        assert any(op == "rdmsr" and reg in ctrs for op, reg, _ in ops), "%s counters never read" % pmu
        stray = [hex(reg) for op, reg, _ in ops if op == "wrmsr" and base <= reg < base + 0x10 and reg not in ctls]
        assert not stray, "%s: writes outside its CTLs: %s" % (pmu, stray)
    figure("uncore force " + model, "%s: %d uncore MSR accesses; %s" % (
        want, sum(1 for _, g, _ in ops if DF_CTL <= g < DF_CTL + 8 or L3_CTL <= g < L3_CTL + 12),
        ", ".join("%s %d events in %s" % (p, len(recs[p].get("events", [])), recs[p].get("state")) for p in sorted(recs))))
