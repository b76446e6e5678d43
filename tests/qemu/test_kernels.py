# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the kernel variants, the tuner and the vector state inside the firmware.

OVMF leaves CR4.OSXSAVE clear and XCR0 at x87|SSE, so a UEFI application sees SSE2 only until it
enables the AVX state itself. QEMU's TCG emulates AVX and AVX2 (QEMU 7.2) but not AVX-512: under
-cpu Skylake-Server CPUID.(EAX=0DH,ECX=0):EAX offers the AVX state and QEMU filters AVX512F out,
so efiperf enables CR4.OSXSAVE (bit 18, SDM Vol. 3A 2.5) and XCR0 bits 0-2 (x87, SSE, AVX; SDM
Vol. 1 13.3), runs the AVX2 variants and gives both registers back; under -cpu qemu64 (no XSAVE,
CPUID.1:ECX bit 26 clear) the SSE2 variants run and the record says why. Under aarch64 -cpu max
(SVE in ID_AA64PFR0_EL1[35:32]) efiperf enables SVE (CPACR_EL1.ZEN, Arm ARM D19.2) and offers
the SVE variants, or says why not.

What QEMU cannot show (AVX-512 kernels, a fault half-way through the enable sequence, a firmware
that already enabled the state) is tested on the register model in tests/unit/test_kernel_vecstate.c;
every variant against the C reference at every alignment and tail in tests/unit/test_kernels.c.
The tuner budget is kept small here (kernel_budget) to keep the suite fast.
"""
import os

import pytest

import efiperf_qemu as q
from efiperf_qemu import boot, cfg_text, make_image, parse_jsonl

x86_64 = pytest.mark.x86_64
aarch64 = pytest.mark.aarch64

KINDS = ["load", "store", "ntstore", "copy", "ntcopy", "triad"]
CR4_OSXSAVE = 1 << 18          # SDM Vol. 3A 2.5, Figure 2-7
XCR0_AVX_STATE = 0x7           # x87 | SSE | AVX, SDM Vol. 1 Figure 13-1
CPACR_ZEN = 0x3 << 16          # Arm ARM D19.2 CPACR_EL1.ZEN


def stream_cfg(arch, **extra):
    cfg = {"copy_size": "4K", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000", "cpus": "all",
           "stream": "on", "stream_size": "256K", "stream_passes": "1", "kernel_budget": "120"}
    cfg.update(extra)
    return cfg_text(arch, cfg)


def check_tuned(rec, isa):
    """A tuned stream record: every candidate verified against the reference, the choice the fastest
    candidate that ran, of this ISA set."""
    tune = rec.get("tune") or {}
    classes = tune.get("classes") or []
    assert rec.get("kernel_from") == "tuner" and len(classes) == 1, "%s: tune %s" % (rec["function"], tune)
    cl = classes[0]
    cands = cl.get("candidates") or []
    assert cands and all(c.get("verified") is True for c in cands), "%s: a candidate failed the reference check: %s" % (rec["function"], cands)
    ran = [c for c in cands if c.get("passes", 0) > 0]
    assert ran and all(isinstance(c.get("mbps"), int) and c["mbps"] > 0 for c in ran), "%s: candidates that ran %s" % (rec["function"], ran)
    assert all(c.get("mbps") is None for c in cands if not c.get("passes")), "%s: a rate without a pass" % rec["function"]
    best = max(ran, key=lambda c: c["mbps"])
    assert cl.get("choice") == rec.get("kernel"), "%s: record kernel %s, tuner chose %s" % (rec["function"], rec.get("kernel"), cl.get("choice"))
    assert best["mbps"] <= [c for c in ran if c["kernel"] == cl["choice"]][0]["mbps"] * 1.001 + 1, "%s: choice %s is not the fastest %s" % (rec["function"], cl["choice"], best)
    assert cl.get("spent_ns", 0) > 0 and cl.get("budget_ns", 0) > 0, "%s: tuner time %s" % (rec["function"], cl)
    isas = {c["kernel"].rsplit("_", 1)[-1] for c in cands}
    assert isa <= isas, "%s: candidates' ISAs %s lack %s" % (rec["function"], isas, isa)
    return cl


@x86_64
def test_skylake_enables_avx_runs_avx2_and_restores(scratch, figure):
    d = scratch()
    img = make_image("x86_64", d, stream_cfg("x86_64", kernel="avx2"))
    run = boot("x86_64", img, d, cpu="Skylake-Server", smp=2)
    run.expect_ok()
    vs = run.one("platform").get("vector_state") or {}
    fw, on, back = vs.get("firmware") or {}, vs.get("efiperf_enabled") or {}, vs.get("restored") or {}
    assert vs.get("ctl_register") == "CR4" and vs.get("xcr_register") == "XCR0", "registers %s" % vs
    assert vs.get("why_not") is None and int(vs["supported"], 16) & XCR0_AVX_STATE == XCR0_AVX_STATE, "plan %s" % vs
    # OVMF left CR4.OSXSAVE clear: kernels were SSE2 only
    assert int(fw["ctl"], 16) & CR4_OSXSAVE == 0 and fw.get("kernel_isa") == "sse2", "firmware state %s" % fw
    assert on.get("changed") is True and on.get("cpus") == 2, "enabled %s" % on
    assert int(on["ctl"], 16) == int(fw["ctl"], 16) | CR4_OSXSAVE, "CR4 while enabled %s" % on
    assert int(on["xcr"], 16) & XCR0_AVX_STATE == XCR0_AVX_STATE and "avx2" in on.get("kernel_isa", ""), "XCR0 while enabled %s" % on
    assert "avx512" not in on.get("kernel_isa", ""), "TCG has no AVX-512, yet %s" % on
    assert back.get("all") is True and back.get("cpus") == 2, "not restored: %s" % back
    assert back.get("ctl_read_back") == fw["ctl"] and back.get("xcr_read_back") == fw["xcr"], "read back %s, firmware %s" % (back, fw)
    assert back.get("kernel_isa") == "sse2" and vs.get("failures") == [], "after restore %s" % vs

    st = {r["function"]: r for r in run.of("stream")}
    assert sorted(st) == sorted(KINDS), "stream functions %s" % sorted(st)
    for f, r in st.items():
        assert r.get("verified") is True and r.get("interrupts_masked") is True, "%s: %s" % (f, r)
        assert r.get("kernel_isa") == "avx2" and r["kernel"].endswith("_avx2"), "%s ran %s, not an AVX2 variant" % (f, r.get("kernel"))
        assert all(c.get("kernel") == r["kernel"] for c in r.get("per_cpu", [])), "%s per-CPU kernels %s" % (f, r.get("per_cpu"))
        # kernel = avx2: the tuner chose among the AVX2 variants only, each checked and timed
        cl = check_tuned(r, {"avx2"})
        assert all(c["kernel"].endswith("_avx2") for c in cl["candidates"]), "%s: a non-AVX2 candidate" % f
    vr = run.one("vector_state")
    state = vr.get("state") or {}
    rs = state.get("restored") or {}
    assert vr.get("for") == "stream" and rs.get("all") is True and rs.get("cpus") == 2, "stream vector state %s" % vr
    assert rs.get("ctl_read_back") == fw["ctl"] and rs.get("xcr_read_back") == fw["xcr"], "stream restore read back %s" % rs
    figure("Skylake-Server (TCG)", "CR4 %s -> %s -> %s, XCR0 %s -> %s -> %s; %s" % (
        fw["ctl"], on["ctl"], rs["ctl_read_back"], fw["xcr"], on["xcr"], rs["xcr_read_back"],
        ", ".join("%s %s" % (f, st[f]["kernel"]) for f in KINDS)))


@x86_64
def test_state_given_back_after_exit_return(scratch):
    # the UEFI shell starts efiperf twice in one boot, the first with exit=return: the second run
    # finds CR4 and XCR0 on every CPU as the firmware had them before the first (OSXSAVE clear)
    d = scratch()
    img = make_image("x86_64", d, stream_cfg("x86_64", kernel_budget="30", stream_size="64K"), shell_args="exit=return")
    script = ["@echo -off"]
    for v in ["fs%d" % i for i in range(10)]:
        script += ["if exist %s:\\efiperf\\efiperf.efi then" % v, "  %s:" % v,
                   "  \\efiperf\\efiperf.efi exit=return", "  \\efiperf\\efiperf.efi", "  goto done", "endif"]
    nsh = os.path.join(d, "startup.nsh")
    with open(nsh, "w", newline="") as f:
        f.write("\r\n".join(script + [":done", ""]))
    p = q.sh(["mcopy", "-o", "-i", img, nsh, "::/startup.nsh"])
    assert p.returncode == 0, p.stderr
    run = boot("x86_64", img, d, cpu="Skylake-Server", smp=2)
    logs = sorted(x for x in run.paths if x.endswith(".jsonl"))
    assert len(logs) == 2, "expected two runs' logs, got %s (%s)" % (logs, run.why())
    runs = []
    for path in logs:
        with open(path, "rb") as f:
            runs.append(parse_jsonl(f.read(), os.path.basename(path)))
    # the run given exit=return first: both cmdlines hold the program path (the shell passes it),
    # and the log names only order the runs when they started in different seconds
    runs.sort(key=lambda recs: "exit=return" not in (recs[0].get("cmdline") or ""))
    states = []
    for recs in runs:
        assert recs[-1].get("status") == "ok", "run ended %s" % recs[-1]
        vs = [r for r in recs if r["type"] == "platform"][0]["vector_state"]
        stream_vs = [r for r in recs if r["type"] == "vector_state"][0]["state"]
        assert stream_vs["restored"]["all"] is True and vs["restored"]["all"] is True, "not restored: %s" % stream_vs
        states.append((vs["firmware"]["ctl"], vs["firmware"]["xcr"], vs["firmware"]["kernel_isa"]))
    assert states[0] == states[1], "the second run found %s, the first %s: not given back" % (states[1], states[0])
    assert int(states[1][0], 16) & CR4_OSXSAVE == 0 and states[1][2] == "sse2", "second run's firmware state %s" % (states[1],)


@x86_64
def test_qemu64_runs_sse2_and_says_why(scratch):
    d = scratch()
    img = make_image("x86_64", d, stream_cfg("x86_64", kernel_budget="60", kernel="copy_s1_sse2"))
    run = boot("x86_64", img, d, cpu="qemu64", smp=2)
    run.expect_ok()
    vs = run.one("platform").get("vector_state") or {}
    assert "XSAVE" in (vs.get("why_not") or ""), "no reason for SSE2: %s" % vs
    assert (vs.get("efiperf_enabled") or {}).get("changed") is False and (vs.get("restored") or {}).get("all") is True, "state %s" % vs
    for r in run.of("stream"):
        assert r.get("verified") is True and r["kernel"].endswith("_sse2") and r.get("kernel_isa") == "sse2", "%s: %s" % (r["function"], r["kernel"])
        if r["function"] == "copy":   # kernel = copy_s1_sse2 pins copy only
            assert r["kernel"] == "copy_s1_sse2" and r.get("kernel_from") == "pinned", "copy not pinned: %s" % r
            continue
        check_tuned(r, {"sse2"})
        assert all(c["kernel"].endswith("_sse2") for c in r["tune"]["classes"][0]["candidates"]), "a non-SSE2 candidate under qemu64"
    vr = run.one("vector_state")
    assert "XSAVE" in (vr.get("state") or {}).get("why_not", ""), "stream vector state gives no reason: %s" % vr


@x86_64
def test_kernel_not_a_variant_is_a_config_error(scratch):
    d = scratch()
    img = make_image("x86_64", d, stream_cfg("x86_64", kernel="copy_s3_avx2"))
    run = boot("x86_64", img, d)
    assert run.rc != 0 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s" % (run.rc, run.qemu_exit)
    errs = [e for e in run.of("error") if e.get("where") == "config"]
    assert errs and "efiperf.cfg:" in errs[0]["message"] and "copy_s3_avx2" in errs[0]["message"], "config error %s" % run.of("error")
    assert not run.of("stream"), "a stream window ran after a config error"


@aarch64
@pytest.mark.slow
def test_aarch64_max_sve_path(scratch, figure):
    d = scratch()
    img = make_image("aarch64", d, stream_cfg("aarch64", kernel_budget="40", stream_size="64K", cpus="boot"))
    run = boot("aarch64", img, d)
    run.expect_ok()
    vs = run.one("platform").get("vector_state") or {}
    fw, on, back = vs.get("firmware") or {}, vs.get("efiperf_enabled") or {}, vs.get("restored") or {}
    assert back.get("all") is True and back.get("ctl_read_back") == fw.get("ctl"), "not restored: %s" % vs
    st = {r["function"]: r for r in run.of("stream")}
    assert sorted(st) == sorted(KINDS), "stream functions %s" % sorted(st)
    if vs.get("why_not") is None:
        # -cpu max has SVE: efiperf untraps it and the SVE variants are candidates, verified
        assert int(vs["supported"], 16) >= 1 and "sve" in on.get("kernel_isa", ""), "SVE not enabled: %s" % vs
        # QEMU virt without virtualization=on starts the firmware at EL1: CPACR_EL1 and ZCR_EL1
        assert vs.get("ctl_register") == "CPACR_EL1" and vs.get("xcr_register") == "ZCR_EL1", "registers %s" % vs
        assert int(fw["ctl"], 16) & CPACR_ZEN != CPACR_ZEN and int(on["ctl"], 16) & CPACR_ZEN == CPACR_ZEN, "ZEN %s -> %s" % (fw, on)
        for f, r in st.items():
            assert r.get("verified") is True, "%s: %s" % (f, r)
            check_tuned(r, {"sve", "neon"})
        path = "SVE enabled (%s %s -> %s), kernels %s" % (vs["ctl_register"], fw["ctl"], on["ctl"],
                                                          ", ".join(st[f]["kernel"] for f in KINDS))
    else:
        assert "SVE" in vs["why_not"], "reason %s" % vs["why_not"]
        assert all(r["kernel"].endswith("_neon") for r in st.values()), "kernels %s" % [r["kernel"] for r in st.values()]
        path = "SVE not used: %s" % vs["why_not"]
    figure("aarch64 -cpu max", path)
