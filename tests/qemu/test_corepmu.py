# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the x86 core PMU backend: the backend chooser and what each emulated
CPU lacks.

The oracle is what QEMU TCG is known to emulate (README "What QEMU can and cannot show"):
Intel models report CPUID.0AH perfmon version 0 (no architectural perfmon), QEMU's EPYC models
do not set the IBS bit (CPUID 8000_0001:ECX[10]), and unknown MSRs read as 0. So every run must
pick the vendor's backend, say what is missing in plain words, report TopDown and IBS as not
measured with the reason, and end ok (no crash, every register put back).

Expected wiring (pmu/x86_corepmu.h), config keys:
  core_events = <event strings separated by spaces>   (default: empty)
  topdown     = on | off | l2 (the Zen 5 signature)    (default: off)
  ibs         = off | fetch | op                       (default: off)
  ibs_period  = N (bytes-style integer, 0x..)          (default: 0x10000)
  ibs_count   = cycles | ops                           (default: cycles)
Records (one per measured CPU and window; `cpu` = MP services processor number):
  `corepmu`        once per CPU after probe: cpu + corepmu_json_probe() fields
                   {backend, vendor, family, model, smt, ..., topdown{method, level, rule|why},
                   lacks[]}
  `core_counters`  cpu, kernel + corepmu_json_counters(): {backend, ticks, counters[{event,
                   config, state, before, after, reads, delta | why}]}
  `topdown`        cpu, kernel + corepmu_json_topdown(): {method, valid, why | level, slots,
                   ratio{...}, slots_by_category{...}, raw{read_path, ...}}; AMD (pmu amd_core):
                   {method amd-pipeline, formula, dispatch_width, counts{...}, slots, one object
                   per category}
  `ibs`            cpu, kernel + corepmu_json_ibs(): {mode, present, why | period, count, ...}
"""
import re

import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64


ZEN5 = "EPYC-Milan,family=26,model=2"
# Zen 6 (Linux arch/x86/kernel/cpu/amd.c X86_FEATURE_ZEN6: Family 1Ah models 50h-5Fh) and Sierra
# Forest (Intel family 6 model 0xAF, Linux intel-family.h INTEL_ATOM_CRESTMONT_X): QEMU 7.2 has
# neither CPU model, so their signatures are set with the family=/model= properties.
ZEN6 = "EPYC-Milan,family=26,model=80"
SRF = "Icelake-Server,family=6,model=175"
CORE_CFG = {"copy_size": "4M", "copy_passes": "1", "loop_iterations": "1000", "topdown": "on",
            "ibs": "op", "ibs_period": "0x10000"}
# Intel: CPUID.0AH version 0 under TCG. AMD: no IBS in CPUID; legacy or PerfCtrExtCore counters.
MODELS = {
    "Skylake-Server": ("intel-arch-perfmon", "INST_RETIRED.ANY_P cpu/event=0x0e,umask=0x1,cmask=1,inv=1/",
                       ("architectural perfmon",), "AMD only"),
    # QEMU's Icelake-Server reports model 0x86, which no Intel event table names: only the
    # architectural events and raw encodings apply (UOPS_ISSUED.ANY would be an error).
    "Icelake-Server": ("intel-arch-perfmon", "INST_RETIRED.ANY_P cpu/event=0xc2,umask=0x2/",
                       ("architectural perfmon",), "AMD only"),
    "EPYC-Rome": ("amd-core", "ex_ret_instr core/event=0xC0,umask=0x0,cmask=1,inv=1,edge=1,host=1/",
                  ("no IBS",), "8000_0001:ECX[10]"),
    "EPYC-Milan": ("amd-core", "ex_ret_instr ls_not_halted_cyc", ("no IBS",), "8000_0001:ECX[10]"),
    # A Zen 5 signature (Family 1Ah model 02h, as QEMU's family=/model= properties set CPUID 1):
    # the named events of Linux amdzen5/execution.json and load-store.json are accepted there.
    ZEN5: ("amd-core", "ex_ret_instr ls_not_halted_cyc ex_ret_fused_instr ex_tagged_ibs_ops.ibs_tagged_ops",
           ("no IBS",), "8000_0001:ECX[10]"),
    # Zen 6: no named core events yet (Linux amdzen6 not compared), raw encodings only
    ZEN6: ("amd-core", "core/event=0xC0,umask=0x0/ core/event=0x76/", ("no IBS", "Zen 6"), "8000_0001:ECX[10]"),
    # Sierra Forest: Crestmont's own rows (TOPDOWN_BE_BOUND.ALL 0x74/0x00, sierraforest_core.json)
    SRF: ("intel-arch-perfmon", "INST_RETIRED.ANY_P TOPDOWN_BE_BOUND.ALL TOPDOWN_FE_BOUND.ALL_P",
          ("architectural perfmon",), "AMD only"),
}
FAMILY_MODEL = {ZEN5: (0x1A, 0x02), ZEN6: (0x1A, 0x50), SRF: (0x06, 0xAF)}

# The uncore tables chosen for the signatures QEMU is told to report, in the same boot
# (uncore = on): platform of every record, and each box QEMU cannot show named absent with its
# reason. Zen 6 has no DF table at all (Linux perf publishes no amdzen6/data-fabric.json); TCG
# sets none of the AMD uncore CPUID bits, and the Intel machine has no uncore discovery device.
UNCORE = {
    ZEN5: ("Zen5", {"amd_df": "CPUID 0x80000001 ECX bit 24", "amd_l3": "CPUID 0x80000001 ECX bit 28",
                    "amd_umc": "PerfMonV2"}),
    ZEN6: ("Zen6", {"amd_df": "no data-fabric.json", "amd_l3": "CPUID 0x80000001 ECX bit 28",
                    "amd_umc": "PerfMonV2"}),
    SRF: ("SRF", {"uncore_imc": "", "uncore_iio": ""}),
}
# Records of a CPU in none of efiperf's tables carry the note (QEMU's stock Icelake-Server
# reports model 0x86, which no table serves); the known signatures carry none.
NOTE = {"Icelake-Server": "GenuineIntel family 0x6 model 0x86: not in efiperf's CPU tables, architectural events only"}


# The latency curve's load source on the AMD models, in the same boot (README "Caches and
# memory", load source): the table Linux's mapfile.csv gives the family/model, its events as
# Linux's perf JSON names them (amdzen2/memory.json, amdzen3/memory.json), written here by hand.
LOAD_SOURCE = {
    "EPYC-Rome": ("amd-zen2", ["ls_dispatch.ld_dispatch", "ls_refills_from_sys.ls_mabresp_lcl_l2",
                               "ls_refills_from_sys.ls_mabresp_lcl_cache", "ls_refills_from_sys.ls_mabresp_lcl_dram",
                               "ls_refills_from_sys.ls_mabresp_rmt_cache", "ls_refills_from_sys.ls_mabresp_rmt_dram"],
                  ["L1", "L2", "L3_or_near_cache", "dram_local", "far_cache", "dram_remote"]),
    "EPYC-Milan": ("amd-zen3", ["ls_dispatch.ld_dispatch", "ls_dmnd_fills_from_sys.lcl_l2", "ls_dmnd_fills_from_sys.int_cache",
                                "ls_dmnd_fills_from_sys.ext_cache_local", "ls_dmnd_fills_from_sys.mem_io_local",
                                "ls_dmnd_fills_from_sys.ext_cache_remote+mem_io_remote"],
                   ["L1", "L2", "L3", "near_cache", "dram_local", "far"]),
}
LATENCY_CFG = {"latency": "on", "latency_max": "64K"}


def cp_boot(scratch, model, extra_cfg=None, events=None):
    backend, model_events, _, _ = MODELS[model]
    events = events or model_events
    d = scratch()
    cfg = dict(CORE_CFG, core_events=events, **(extra_cfg or {}))
    if model in PIPELINE and cfg["topdown"] == "on":   # a Zen 4/5 signature asks for level 2 too
        cfg["topdown"] = "l2"
    if model in LOAD_SOURCE and extra_cfg is None:
        cfg.update(LATENCY_CFG)
    if model in UNCORE and extra_cfg is None:
        cfg.update(uncore="on", pcie="off")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, cpu=model)
    run.expect_ok()
    return run


@x86_64
@pytest.mark.parametrize("model", list(MODELS))
def test_corepmu_backend(model, scratch, figure):
    backend, events, lack_words, ibs_why = MODELS[model]
    run = cp_boot(scratch, model)
    probes = run.of("corepmu")
    assert probes, "no corepmu record"
    p = probes[0]
    assert p.get("backend") == backend, "%s: backend %r, expected %r" % (model, p.get("backend"), backend)
    if model in FAMILY_MODEL:
        assert (p.get("family"), p.get("model")) == FAMILY_MODEL[model], "%s: family/model %r/%r" % (
            model, p.get("family"), p.get("model"))
    lacks = p.get("lacks") or []
    for w in lack_words:
        assert any(w in l for l in lacks), "%s: lacks %s does not mention %r" % (model, lacks, w)
    td = (p.get("topdown") or {})
    assert td.get("method") is not None or td.get("why"), "%s: topdown neither chosen nor explained: %s" % (model, td)
    # core counters: every listed event is there; nothing absent or faulted without a why,
    # nothing counted with a zero delta (absent counters are never zero counts)
    cc = run.of("core_counters")
    assert cc, "no core_counters record"
    names = [c.get("event") for c in cc[0].get("counters", [])]
    for ev in events.split():
        assert ev in names, "%s: event %s missing from core_counters %s" % (model, ev, names)
    for c in cc[0]["counters"]:
        st = c.get("state")
        assert st in ("counted", "not-advancing", "absent", "faulted"), "unknown state %r" % st
        if st == "counted":
            assert isinstance(c.get("delta"), int) and c["delta"] > 0, "counted with delta %r" % c.get("delta")
        else:
            assert "delta" not in c, "%s %s carries a delta" % (c.get("event"), st)
        if st in ("absent", "faulted"):
            assert c.get("why"), "%s %s without why" % (c.get("event"), st)
    tds = run.of("topdown")
    assert tds and tds[0].get("valid") is False and tds[0].get("why"), "%s: topdown record should be not valid with a why: %s" % (model, tds[:1])
    if backend == "amd-core":
        check_amd_pipeline(model, p, tds[0])
    ibs = run.of("ibs")
    assert ibs and ibs[0].get("present") is False and ibs_why in (ibs[0].get("why") or ""), "%s: ibs record %s, expected not present because %r" % (model, ibs[:1], ibs_why)
    figure("corepmu " + model, "%s; lacks %s; topdown: %s; ibs: %s" % (
        p.get("backend"), lacks, tds[0].get("why"), ibs[0].get("why")))
    if model in LOAD_SOURCE:
        check_load_source(run, model, p, figure)
    if model in UNCORE:
        check_uncore(run, model, figure)
    note = NOTE.get(model)
    for r in run.records[1:]:
        if r.get("type") in ("corepmu", "core_counters", "topdown", "uncore", "end"):
            assert r.get("cpu_not_in_tables") == note, "%s: %s record says %r" % (model, r["type"], r.get("cpu_not_in_tables"))
    if model == SRF:
        assert "Crestmont has no PERF_METRICS" in td.get("why", ""), td


def check_uncore(run, model, figure):
    platform, boxes = UNCORE[model]
    recs = {r.get("pmu"): r for r in run.of("uncore")}
    assert set(recs) == set(boxes), "%s: uncore records %s, expected %s" % (model, sorted(recs), sorted(boxes))
    for pmu, why in boxes.items():
        r = recs[pmu]
        assert r.get("platform") == platform, "%s %s: platform %r, expected %s" % (model, pmu, r.get("platform"), platform)
        assert r.get("status") == "absent" and why in (r.get("why") or "") and r.get("why"), "%s %s: %s" % (model, pmu, r)
    figure("uncore " + model, "; ".join("%s %s: %s" % (p, r["status"], r["why"]) for p, r in sorted(recs.items())))


# AMD pipeline utilization (README "TopDown", AMD part): a Zen 4/5 signature gets method
# amd-pipeline with its dispatch width (Linux amdzen5/pipeline.json: total_dispatch_slots =
# 8 * ls_not_halted_cyc); Zen 2 and Zen 3 say why none. Under TCG no ratio can be made: with
# fewer than 6 counters (legacy layout) none of the inputs is programmed, with 6 the counters
# read 0 ("no cycles counted"). Either way every category carries the same why.
PIPELINE = {ZEN5: ("Zen 5", 8)}
# Linux amdzen5/pipeline.json PipelineL2 metric names
PIPELINE_L2 = ["frontend_bound_by_latency", "frontend_bound_by_bandwidth", "bad_speculation_from_mispredicts",
               "bad_speculation_from_pipeline_restarts", "backend_bound_by_memory", "backend_bound_by_cpu",
               "retiring_from_fastpath", "retiring_from_microcode"]
PIPELINE_INPUTS = ["ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend",
                   "de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention",
                   "de_src_op_disp.all", "ex_ret_ops"]


def check_amd_pipeline(model, probe, td):
    ptd = probe["topdown"]
    assert td.get("pmu") == "amd_core" and td["valid"] is False, td
    if model not in PIPELINE:
        assert ptd["method"] is None and "Zen 4/5 only" in ptd["why"], ptd
        assert td.get("method") is None and td["why"] == ptd["why"], td
        return
    gen, width = PIPELINE[model]
    assert ptd["method"] == "amd-pipeline" and ptd["level"] == 2 and "amdzen5/pipeline.json" in ptd["rule"], ptd
    assert td["method"] == "amd-pipeline" and td["formula"] == gen and td["dispatch_width"] == width, td
    if probe["counters"] >= 6:
        assert td["why"] == "ls_not_halted_cyc counted 0: no cycles counted", td
        assert td["counts"] == {k: 0 for k in PIPELINE_INPUTS}, td["counts"]
        # topdown = l2 on six counters: level 2 is group 1, every metric says why (no cycles)
        assert td["level"] == 2 and "level2_why" not in td and td["inputs_multiplexed"] is True, td
        assert sorted(td["level2"]) == sorted(PIPELINE_L2), td["level2"]
        assert all("why" in v for v in td["level2"].values()), td["level2"]
    else:
        # QEMU's EPYC models: four counters; neither level, and the record says why for both
        assert td["why"] == "pipeline utilization needs 6 core counters at once, this CPU has %d (%s)" % (
            probe["counters"], probe["layout"]), td
        assert td["counts"] == {k: None for k in PIPELINE_INPUTS}, td["counts"]
        assert td["level"] == 1 and td["level2_why"] == "level 2 needs level 1's 6 counters too", td
        assert "level2" not in td and "level2_counts" not in td, td
    assert td["slots"] is None and td["slots_why"] == td["why"], td
    for k in ("frontend_bound", "bad_speculation", "backend_bound", "smt_contention", "retiring"):
        assert td[k] == {"why": td["why"]}, (k, td)


def check_load_source(run, model, probe, figure):
    """Every latency point carries the generation's load-source events; under TCG the AMD
    counters read the same before and after (not-advancing), or are absent past the
    counters the CPU has, so no level is known and the point says why."""
    table, names, levels = LOAD_SOURCE[model]
    lat = run.one("latency")
    ev = lat["evidence"]
    assert ev["state"] == "counting" and ev["table"] == table and ev["events"] == " ".join(names), ev
    ncounters = probe["counters"]
    assert lat["points"], "no latency points"
    for pt in lat["points"]:
        ls = pt["load_source"]
        assert ls["table"] == table, ls
        assert [e["event"] for e in ls["events"]] == names, ls["events"]
        for i, e in enumerate(ls["events"]):
            if i < ncounters:
                assert e["state"] == "not-advancing" and "count" not in e, "%s at %s bytes: %s" % (model, pt["bytes"], e)
            else:
                assert e["state"] == "absent" and "no free core counter" in e["why"], e
        assert [l["level"] for l in ls["levels"]] == levels, ls["levels"]
        assert all(l["count"] is None and l["fraction"] is None and l["why"] for l in ls["levels"]), ls["levels"]
        assert ls["valid"] is False and "advanced" in ls["why"], ls
        # with nothing counted the denominator is the kernel's own loads: two passes over the lines
        assert ls["loads"] == pt["bytes"] // 64 * 2 == pt["loads_in_window"] == ls["denominator"], ls
        assert ls["denominator_from"] == "the kernel's loads"
        raw = [c["event"] for c in pt["core_counters"]["counters"]]
        assert raw[:2] == ["core/event=0x29,umask=0x1/", "core/event=0x43,umask=0x1/"], raw
    figure("load source %s (TCG)" % model, "%s: %d points, %s" % (table, len(lat["points"]), lat["points"][0]["load_source"]["why"]))


# Six events on EPYC-Rome's core counters (4 under QEMU: legacy PerfEvtSel0-3, or 6 with
# PerfCtrExtCore): more events than counters are multiplexed inside the copy window (README
# "x86 core counter multiplexing"). TCG's counters read 0, so QEMU shows the configuration
# accepted, the groups and rotations in the record, the rotation's register writes in the trace
# and every selector put back; the scaled arithmetic is the register model's
# (tests/unit/test_x86_mux.c).
MUX_EVENTS = "ex_ret_instr core/event=0x76/ core/event=0xC2/ core/event=0xC3/ core/event=0xC4/ core/event=0xC5/"


@x86_64
def test_corepmu_trace_hw_epyc_rome(scratch, figure):
    run = cp_boot(scratch, "EPYC-Rome", {"trace": "hw", "pcie": "off"}, events=MUX_EVENTS)
    hw = run.of("hw")
    assert hw, "no hw records with trace = hw"
    cpuid_leaves = {int(r["reg"], 16) for r in hw if r.get("op") == "cpuid"}
    # 0x80000022 (PerfMonV2) may only be asked where CPUID 0x80000000 says it exists
    max_ext = max((int(r["val"], 16) & 0xFFFFFFFF for r in hw if r.get("op") == "cpuid" and int(r["reg"], 16) == 0x80000000), default=0)
    for leaf in (0x80000001, 0x80000022):
        if leaf > max_ext:
            assert leaf not in cpuid_leaves, "CPUID 0x%x asked beyond the maximum extended leaf 0x%x" % (leaf, max_ext)
            continue
        assert leaf in cpuid_leaves, ("CPUID 0x%x (AMD core PMU enumeration) not traced: %s" %
              (leaf, sorted(hex(x) for x in cpuid_leaves)))
    probe = run.of("corepmu")[0]
    ctl0, stride = (0xC0010200, 2) if probe.get("perfctr_core") else (0xC0010000, 1)   # PERF_CTL0 / PerfEvtSel0
    ncnt = probe["counters"]
    writes = [(int(r["reg"], 16), int(r["val"], 16)) for r in hw if r.get("op") == "wrmsr"]
    sels = [v for reg, v in writes if reg == ctl0]
    # programmed (EN bit 22, USR|OS, ex_ret_instr 0xC0) and later restored to what was read
    assert any(v & 0x4300FF == 0x4300C0 for v in sels), "no PERF_CTL0 programming of ex_ret_instr in %s" % [hex(v) for v in sels]
    for i in range(ncnt):   # every selector the window wrote is put back: last write = first read
        reg = ctl0 + stride * i
        w = [v for r, v in writes if r == reg]
        reads = [int(r["val"], 16) for r in hw if r.get("op") == "rdmsr" and int(r["reg"], 16) == reg]
        if w:
            assert reads and w[-1] == reads[0], "selector 0x%x not restored: first read %s, last write %s" % (
                reg, [hex(v) for v in reads[:1]], hex(w[-1]))
    assert not any(reg in (0xC0011030, 0xC0011033, 0xC001103A) for reg, _ in writes), "IBS registers written although CPUID says there is no IBS"
    # multiplexed: six events in groups of ncnt; the copy window ticks between 1 MiB chunks, so
    # the groups rotate: ex_ret_instr written with EN off, group 1's first event (the one at
    # index ncnt) written on counter 0 with EN
    recs = [r for r in run.of("core_counters") if r.get("kernel") == "copy"]
    assert recs, "no copy core_counters record"
    cc = recs[0]
    ngroups = -(-6 // ncnt)
    if ngroups > 1:
        assert cc.get("multiplexed") is True and cc["group_count"] == ngroups, cc
        assert cc["rotations"] >= ngroups - 1, "copy window of %s rotated %s times" % (cc.get("window_ns"), cc["rotations"])
        assert cc["slice_ns"] == 100000 or abs(cc["slice_ns"] - 100000) < 1000, cc["slice_ns"]
        total = sum(g["running_ns"] for g in cc["groups"])
        assert abs(total - cc["window_ns"]) <= ngroups, (total, cc["window_ns"])
        evs = MUX_EVENTS.split()
        assert [g["events"] for g in cc["groups"]] == [evs[k:k + ncnt] for k in range(0, 6, ncnt)], cc["groups"]
        for i, c in enumerate(cc["counters"]):
            assert c["group"] == i // ncnt and c["time_enabled"] == cc["window_ns"], c
            assert c["state"] in ("not-advancing", "not-counted"), c   # TCG: counters read 0
            assert "delta" not in c, c
        assert any(v & 0x4300FF == 0x0300C0 for v in sels), "ex_ret_instr never switched out (EN off): %s" % [hex(v) for v in sels]
        code = int(evs[ncnt].split("=")[1].rstrip("/"), 16)
        assert any(v & 0x4300FF == 0x430000 | code for v in sels), "group 1 never switched in on counter 0: %s" % [hex(v) for v in sels]
    figure("corepmu trace EPYC-Rome (multiplexed)", "%d counters, %s groups, %s rotations in %s ns; PERF_CTL0 writes %s" % (
        ncnt, cc.get("group_count", 1), cc.get("rotations", 0), cc.get("window_ns"), [hex(v) for v in sels][:12]))


@x86_64
def test_corepmu_bad_event_named(scratch):
    d = scratch()
    cfg = dict(CORE_CFG, core_events="cpu/event=0xC0,cmask=256/")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, cpu="Skylake-Server")
    errs = run.of("error")
    assert any("cmask" in (e.get("message") or "") and "core_events" in (e.get("message") or "") for e in errs), "an out-of-range cmask must be an error naming core_events and cmask: %s" % errs
    assert run.records[-1].get("status") == "error", "end status %r" % run.records[-1].get("status")


@x86_64
def test_misspelt_event_names_line_and_closest(scratch):
    # a misspelt name in core_events is a config error naming the file and line it was set on
    # and the closest names of this CPU's table (Skylake-SP: INST_RETIRED.ANY_P, Intel perfmon
    # skylakex_core.json); nothing is measured
    d = scratch()
    cfg = dict(CORE_CFG, core_events="INST_RETIRD.ANY_P")
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, cpu="Skylake-Server")
    msgs = [e.get("message") or "" for e in run.of("error")]
    assert any(re.search(r"efiperf\.cfg:\d+: .*'INST_RETIRD\.ANY_P'.*\(closest: INST_RETIRED\.ANY_P", m) for m in msgs), msgs
    assert not run.of("core_counters") and run.records[-1].get("status") == "error", run.records[-1]


@x86_64
def test_corepmu_every_cpu_of_the_window_epyc_rome(scratch, figure):
    # cpus = all: each CPU's core PMU is probed, started and stopped on its own CPU, and
    # each writes its own records (with trace = hw the recorder takes all CPUs at once)
    d = scratch()
    cfg = dict(CORE_CFG, core_events="ex_ret_instr", cpus="all", trace="hw", pcie="off", ibs="off", topdown="off")
    img = make_image("x86_64", d, cfg_text("x86_64", cfg))
    run = boot("x86_64", img, d, cpu="EPYC-Rome", smp=4)
    run.expect_ok()
    recs = run.of("core_counters")
    assert sorted(r.get("cpu") for r in recs) == [0, 1, 2, 3], "core_counters for CPUs %s" % [r.get("cpu") for r in recs]
    for r in recs:
        names = [c.get("event") for c in r.get("counters", [])]
        assert "ex_ret_instr" in names, "CPU %s counters %s" % (r.get("cpu"), names)
    seqs = [r["seq"] for r in run.of("hw")]
    assert seqs == sorted(set(seqs)), "trace sequence numbers repeat or run backwards with 4 CPUs recording"
    assert run.records[-1].get("trace_dropped") == 0, "trace dropped %s" % run.records[-1].get("trace_dropped")
    figure("core PMU on every CPU", "%d core_counters records, %d hw records" % (len(recs), len(seqs)))
