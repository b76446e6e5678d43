# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of every aarch64 core without MP services (AAVMF has no
EFI_MP_SERVICES_PROTOCOL): the MADT's GICC CPUs started with PSCI CPU_ON on efiperf's own entry
code and turned off with CPU_OFF after each job, at EL1 (QEMU virt: PSCI over HVC) and at EL2
(virt,virtualization=on: AAVMF at EL2, PSCI over SMC), with the PMUv3 exception-level handling
each implies. The conduit expected is the one the FADT's ARM_BOOT_ARCH names in the run's own
acpi record; the instruction count expected from the known loop is 2N + 2 (arch/aarch64/
known_loop.S: two instructions a turn, the ISB and the counted MRS)."""
import os

import pytest

import efiperf_qemu as q
from efiperf_qemu import boot, cfg_text, make_image, parse_jsonl

aarch64 = pytest.mark.aarch64

N = 1000
SMALL = {"copy_size": "1M", "copy_passes": "1", "pcie": "off", "loop_iterations": str(N)}
EL2 = ["-machine", "virtualization=on"]


def check_all_cpus(recs, el, conduit_fadt_key="psci_conduit"):
    """Every check of one `cpus = all` run on -smp 4 without MP services."""
    by = {}
    for r in recs:
        by.setdefault(r["type"], []).append(r)
    assert recs[-1].get("status") == "ok", "run ended %s: %s" % (recs[-1], by.get("error"))
    topo = by["platform"][0]["topology"]
    fadt = by["acpi"][0]["fadt"]
    assert topo["mp_services"] is False and topo["mp_backend"] == "PSCI", "topology %s" % topo
    assert topo["logical_cpus"] == 4 and topo["cpu_count_source"] == "MADT GICC entries", "topology %s" % topo
    sel = by["cpus"][0]   # QEMU 7.2 virt writes a PPTT: -smp 4 is one socket of four cores
    assert sel["package_source"] == "PPTT" and sel["packages"] == 1 and {c["package"] for c in sel["selected"]} == {0}, "cpus %s" % sel
    assert fadt.get("psci_compliant") is True and topo["psci_conduit"] == fadt[conduit_fadt_key], "conduit %s vs FADT %s" % (topo, fadt)
    meas = by["measurement"][0]
    per = meas["passes"][0]["per_cpu"]
    assert [c["cpu"] for c in per] == [0, 1, 2, 3] and meas["verified"] is True, "copy per-CPU %s" % per
    assert all(c["ns"] > 0 for c in per), "a CPU without a time: %s" % per
    ctr = meas["passes"][0]
    assert ctr.get("current_el") == el, "copy counters current_el %r, expected %d" % (ctr.get("current_el"), el)
    check_default_fits(ctr, "copy pass")
    # each CPU started and stopped its own PMUv3 counters around its kernel, and they were put back
    cc = [r for r in by.get("core_counters", []) if r.get("kernel") == "copy"]
    assert sorted(r["cpu"] for r in cc) == [0, 1, 2, 3], "copy core_counters records for CPUs %s" % [r["cpu"] for r in cc]
    for r in cc:
        st = {c["event"]: c["state"] for c in r["counters"]}
        assert st.get("CPU_CYCLES") == "counted" and st.get("INST_RETIRED") == "counted", "CPU %s counters %s" % (r["cpu"], r["counters"])
        assert r.get("current_el") == el and r["restore"]["status"] == "ok", "CPU %s: %s" % (r["cpu"], r)
        # no core_events: the default set on QEMU's six event counters; QEMU 7.2 implements few
        # common events (PMCEID0/1_EL0), so every event of the list it lacks is named, none
        # for want of a counter, and STALL_FRONTEND/STALL_BACKEND (which it does report) are on
        left = {x["event"]: x["why"] for x in r["not_programmed"]}
        events = [c["event"] for c in r["counters"]]
        assert r["event_set"] == "default" and r["event_counters"] == 6, "CPU %s: %s" % (r["cpu"], r)
        assert r["event_counters_used"] == len(events) - 1 and {"STALL_FRONTEND", "STALL_BACKEND"} <= set(events), "CPU %s counters %s" % (r["cpu"], events)
        assert left.get("L1D_CACHE_REFILL") == "not implemented (PMCEID0/1_EL0)" and not set(left) & set(events), "CPU %s left out %s" % (r["cpu"], left)
        assert all(w.startswith("not implemented") for w in left.values()), "CPU %s left out %s" % (r["cpu"], left)
        check_default_fits(r, "CPU %s" % r["cpu"])
    loop = by["loop"][0]["per_cpu"]
    assert [(c["cpu"], c.get("counted")) for c in loop] == [(k, 2 * N + 2) for k in range(4)], "per-CPU loop %s" % loop
    # a read of write-only PMSWINC_EL0 is UNDEFINED: on every CPU, APs included, the exception
    # vectors turn it into a status and the run goes on
    assert [c.get("pmswinc_read") for c in loop] == ["sync-exception"] * 4, "PMSWINC_EL0 reads %s" % loop
    return by, topo, fadt, ctr


@aarch64
def test_arm_all_cpus_psci_el1(scratch, figure):
    d = scratch()
    img = make_image("aarch64", d, cfg_text("aarch64", dict(SMALL, cpus="all", stream="on", stream_size="1M", stream_passes="1")))
    run = boot("aarch64", img, d, smp=4)
    run.expect_ok()
    by, topo, fadt, ctr = check_all_cpus(run.records, 1)
    assert fadt["psci_conduit"] == "HVC", "QEMU virt at EL1 has PSCI over HVC: FADT says %s" % fadt
    assert ctr["exception_levels"] == "EL1" and "mdcr_el2" not in ctr, "at EL1: %s" % ctr
    streams = by.get("stream", [])
    assert len(streams) == 6, "stream records: %d" % len(streams)
    for s in streams:
        assert [c["cpu"] for c in s["per_cpu"]] == [0, 1, 2, 3] and s.get("cpus") == 4, "%s per-CPU %s" % (s["function"], s["per_cpu"])
    figure("aarch64 cpus = all (PSCI CPU_ON, EL1, HVC)", "copy per CPU ns %s; loop counted %s" % (
        [c["ns"] for c in by["measurement"][0]["passes"][0]["per_cpu"]], [c["counted"] for c in by["loop"][0]["per_cpu"]]))


@aarch64
def test_arm_all_cpus_psci_el2(scratch, figure):
    # AAVMF at EL2: the FADT says SMC; NSH counts EL2 and MDCR_EL2 is read and recorded
    d = scratch()
    img = make_image("aarch64", d, cfg_text("aarch64", dict(SMALL, cpus="all")))
    run = boot("aarch64", img, d, smp=4, extra=EL2)
    run.expect_ok()
    by, topo, fadt, ctr = check_all_cpus(run.records, 2)
    assert fadt["psci_conduit"] == "SMC", "virtualization=on has PSCI over SMC: FADT says %s" % fadt
    md = ctr.get("mdcr_el2")
    assert md and md["value"].startswith("0x") and isinstance(md["hpmn"], int), "mdcr_el2 %s" % md
    assert ctr["exception_levels"].startswith("EL1, EL2") or "HPMD" in ctr["exception_levels"], "exception_levels %r" % ctr["exception_levels"]
    figure("aarch64 cpus = all at EL2 (PSCI over SMC)", "MDCR_EL2 %s; exception_levels %s" % (md, ctr["exception_levels"]))


@aarch64
def test_arm_cpus_absent_is_a_config_error(scratch):
    d = scratch()
    text = cfg_text("aarch64", dict(SMALL, cpus="7"))
    line = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith("cpus")][0]
    img = make_image("aarch64", d, text)
    run = boot("aarch64", img, d, smp=4)
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s: expected status error and power-off" % (run.rc, run.qemu_exit)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert errs and "efiperf.cfg:%d" % line in errs[0] and "CPU 7 does not exist" in errs[0], "no config error naming the line and CPU 7: %s" % run.of("error")
    assert not run.of("measurement"), "measurements ran after the cpus error"


@aarch64
@pytest.mark.slow
def test_arm_second_run_from_shell(scratch):
    # the UEFI shell runs efiperf twice in one boot: the APs the first run turned off with
    # CPU_OFF start again for the second
    d = scratch()
    img = make_image("aarch64", d, cfg_text("aarch64", dict(SMALL, cpus="all")), shell_args="exit=return")
    q.startup_twice(img, d, "exit=return")
    run = boot("aarch64", img, d, smp=4)
    logs = sorted(x for x in run.paths if x.endswith(".jsonl"))
    assert len(logs) == 2, "expected two runs' logs, got %s (%s)" % (logs, run.why())
    for path in logs:
        with open(path, "rb") as f:
            check_all_cpus(parse_jsonl(f.read(), os.path.basename(path)), 1)


@aarch64
def test_arm_core_events(scratch, figure):
    # events QEMU implements (CPU_CYCLES in perf syntax on an event counter, INST_RETIRED by
    # name, SW_INCR) count; one its PMCEID0/1_EL0 leave out is a config error naming it
    d = scratch()
    img = make_image("aarch64", d, cfg_text("aarch64", dict(SMALL, core_events="armv8_pmuv3/event=0x11/,INST_RETIRED,SW_INCR")))
    run = boot("aarch64", img, d)
    run.expect_ok()
    ctrs = run.one("measurement")["passes"][0]["counters"]
    got = [(c["event"], c["state"]) for c in ctrs]
    assert got[2:] == [("CPU_CYCLES", "counted"), ("INST_RETIRED", "counted"), ("SW_INCR", "not-advancing")], "counters %s" % got
    # the same event on the cycle counter and on an event counter: the same window
    cyc, ev = ctrs[0]["delta"], ctrs[2]["delta"]
    assert abs(cyc - ev) * 100 <= cyc, "PMCCNTR %d vs CPU_CYCLES on an event counter %d" % (cyc, ev)
    d2 = scratch()
    text = cfg_text("aarch64", dict(SMALL, core_events="CPU_CYCLES,STALL_SLOT_BACKEND"))
    line = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith("core_events")][0]
    run = boot("aarch64", make_image("aarch64", d2, text), d2)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert run.rc == 1 and errs and "efiperf.cfg:%d" % line in errs[0] and "STALL_SLOT_BACKEND (0x3d) is not implemented" in errs[0], "errors %s" % run.of("error")
    assert not run.of("measurement"), "measured after a core_events error"
    figure("aarch64 core_events", "%s; %s" % (got, errs[0]))


def check_default_fits(r, who):
    """The default set as QEMU 7.2 -cpu max has it: the two events of the list it implements and the
    fillers CPU_CYCLES and STALL fit its five event counters beside INST_RETIRED's, so the default set
    is one group, not multiplexed (QEMU 7.2 has no option to lower PMCR_EL0.N, so its split into
    groups is shown by the unit tests): one window, counters with before/after and no group/raw/scaled."""
    events = [c["event"] for c in r["counters"]]
    assert events == ["CPU_CYCLES", "INST_RETIRED", "STALL_FRONTEND", "STALL_BACKEND", "CPU_CYCLES", "STALL"], "%s counters %s" % (who, events)
    assert "multiplexed" not in r and "groups" not in r and "windows" not in r, "%s: the default set multiplexed: %s" % (who, r)
    for c in r["counters"]:
        assert not {"group", "raw", "scaled"} & set(c) and ("before" in c) == (c["state"] in ("counted", "not-advancing")), "%s counter %s" % (who, c)


# Nine events for QEMU's six event counters (INST_RETIRED keeps counter 0): two groups of five and
# four, each run in 2 rounds of copy windows; QEMU implements (PMCEID0/1_EL0) only SW_INCR,
# INST_RETIRED, CPU_CYCLES, STALL_FRONTEND, STALL_BACKEND and STALL, so some repeat.
MUX_EVENTS = "STALL_FRONTEND,STALL_BACKEND,STALL,SW_INCR,INST_RETIRED,CPU_CYCLES,INST_RETIRED,CPU_CYCLES,STALL"


@aarch64
def test_arm_multiplexed_core_events(scratch, figure):
    d = scratch()
    # two CPUs (PSCI): each multiplexes its own set around its kernel, the pass holds the boot CPU's
    run = boot("aarch64", make_image("aarch64", d, cfg_text("aarch64", dict(SMALL, core_events=MUX_EVENTS, cpus="all"))), d, smp=2)
    run.expect_ok()
    p = run.one("measurement")["passes"][0]
    assert p["windows"] == 4 and [c["cpu"] for c in p["per_cpu"]] == [0, 1] and all(c["ns"] > 0 for c in p["per_cpu"]), p
    cc = [r for r in run.of("core_counters") if r.get("kernel") == "copy"]
    assert [r["cpu"] for r in cc] == [0, 1], "copy core_counters records %s" % cc
    for r in [p] + cc:
        check_multiplexed(r)
    assert p["counters"] == cc[0]["counters"], "the pass's counters are the boot CPU's"
    # the known loop's INST_RETIRED is still exact on each CPU
    loop = run.one("loop")
    assert loop["masked"]["counted"] == 2 * N + 2 and [c.get("counted") for c in loop["per_cpu"]] == [2 * N + 2] * 2, "loop %s" % loop
    figure("aarch64 multiplexed core_events", "9 events on 2 CPUs, groups %s, INST_RETIRED %d, scaled per group %s" % (
        [(len(g["events"]), g["fraction"]) for g in p["groups"]], p["counters"][1]["delta"],
        [c["scaled"] for c in p["counters"][2:] if c["event"] == "INST_RETIRED"]))


def check_multiplexed(p):
    """One multiplexed set (a copy pass or a CPU's core_counters record) of MUX_EVENTS."""
    ctrs = p["counters"]
    want = MUX_EVENTS.split(",")
    assert [c["event"] for c in ctrs] == ["CPU_CYCLES", "INST_RETIRED"] + want, "counters %s" % [c["event"] for c in ctrs]
    assert p["multiplexed"] is True and p["rounds"] == 2 and p["not_programmed"] == [], p
    # every event counted (SW_INCR counts only software writes: not-advancing) in some group
    groups = p["groups"]
    assert [len(g["events"]) for g in groups] == [5, 4], "groups %s" % groups
    assert sorted(e for g in groups for e in g["events"]) == sorted(want), "groups %s" % groups
    assert abs(sum(g["fraction"] for g in groups) - 1) <= 0.002, "fractions %s" % [g["fraction"] for g in groups]
    assert sum(g["running_ns"] for g in groups) == p["window_ns"] and all(g["running_ns"] > 0 for g in groups), groups
    for c in ctrs[2:]:
        assert c["state"] in ("counted", "not-advancing") and c["group"] in (0, 1) and "raw" in c, "counter %s" % c
        assert c["event"] in groups[c["group"]]["events"], "counter %s not in its group %s" % (c, groups[c["group"]])
        if c["state"] == "counted":   # scaled = raw x window / running, as the record's own times say
            run_ns = groups[c["group"]]["running_ns"]
            assert c["scaled"] == c["delta"] == c["raw"] * p["window_ns"] // run_ns, "counter %s, %s" % (c, groups)
    assert [c["state"] for c in ctrs if c["event"] == "SW_INCR"] == ["not-advancing"], ctrs
    # INST_RETIRED on counter 0 counts every window (exact, raw = scaled); each group's scaled
    # INST_RETIRED estimates it (-icount: the windows run the same instructions), and each group's
    # CPU_CYCLES on an event counter the cycle counter's
    total_inst, total_cyc = ctrs[1]["delta"], ctrs[0]["delta"]
    assert ctrs[1]["raw"] == total_inst and ctrs[1]["state"] == "counted", ctrs[1]
    for name, total in (("INST_RETIRED", total_inst), ("CPU_CYCLES", total_cyc)):
        est = [c["scaled"] for c in ctrs[2:] if c["event"] == name]
        assert len(est) == 2 and all(abs(e - total) * 50 <= total for e in est), "%s scaled %s vs %d" % (name, est, total)
    assert p["restore"]["status"] == "ok" and p["event_set"] == "core_events", p


@aarch64
def test_arm_topdown_names_what_is_absent(scratch, figure):
    # QEMU -cpu max has no PMMIR_EL1.SLOTS and none of the STALL_SLOT*/OP_* events: every item
    # of the topdown record says why it has no value, and none carries a ratio; topdown = l2 is
    # level 1 on Arm, and the record says so
    d = scratch()
    run = boot("aarch64", make_image("aarch64", d, cfg_text("aarch64", dict(SMALL, topdown="l2"))), d)
    run.expect_ok()
    tds = run.of("topdown")
    assert len(tds) == 1 and tds[0]["pmu"] == "armv8_pmuv3", "topdown records %s" % tds
    td = tds[0]
    assert td["slots"] is None and "PMMIR_EL1" in td["slots_why"] and td["valid"] is False, "slots %r (%r)" % (td["slots"], td.get("slots_why"))
    assert td["level2_why"] == "Arm: Neoverse TopDown level 1 only; topdown = l2 counts as on", td
    assert isinstance(td["counts"]["CPU_CYCLES"], int) and td["counts"]["CPU_CYCLES"] > 0, "counts %s" % td["counts"]
    for item in ("frontend_bound", "backend_bound", "retiring", "bad_speculation"):
        assert "pct" not in td[item] and "milli_pct" not in td[item] and "PMMIR_EL1" in td[item]["why"], "%s: %s" % (item, td[item])
    assert "STALL_SLOT_FRONTEND absent" in td["frontend_bound"]["why"] or td["counts"]["STALL_SLOT_FRONTEND"] is not None, td
    figure("aarch64 topdown under QEMU", "slots: %s; frontend_bound: %s" % (td["slots_why"], td["frontend_bound"]["why"]))


# Two NUMA nodes of 256 MiB, CPUs 0-1 on node 0 and 2-3 on node 1: QEMU virt writes SRAT GICC
# affinity entries (ACPI 6.5 5.2.16.4) and memory affinity from -numa.
TWO_NODES = ["-object", "memory-backend-ram,id=m0,size=256M", "-object", "memory-backend-ram,id=m1,size=256M",
             "-numa", "node,nodeid=0,cpus=0-1,memdev=m0", "-numa", "node,nodeid=1,cpus=2-3,memdev=m1"]


@aarch64
def test_arm_numa_from_srat_gicc(scratch, figure):
    # two sockets of two cores: QEMU 7.2 virt writes a PPTT (ACPI 6.5 5.2.30) with one package
    # node per socket, and -numa puts each socket on its own node
    d = scratch()
    cfg = dict(SMALL, cpus="all", c2c="on", c2c_rounds="3", c2c_trips="10")
    run = boot("aarch64", make_image("aarch64", d, cfg_text("aarch64", cfg)), d, smp="4,sockets=2,cores=2", extra=TWO_NODES)
    run.expect_ok()
    sel = run.one("cpus")
    assert sel.get("numa") == "SRAT" and [(c["cpu"], c["node"]) for c in sel["selected"]] == [(0, 0), (1, 0), (2, 1), (3, 1)], "cpus %s" % sel
    pptt = run.one("acpi")["pptt"]
    assert pptt["present"] is True and pptt["defect"] is None and pptt["packages"] == 2, "acpi pptt %s" % pptt
    assert sel["package_source"] == "PPTT" and sel["packages"] == 2, "cpus %s" % sel
    assert [c["package"] for c in sel["selected"]] == [0, 0, 1, 1], "packages %s" % sel["selected"]
    assert len({(c["package"], c["core"]) for c in sel["selected"]}) == 4, "cores %s" % sel["selected"]
    c2c = run.one("c2c")
    assert c2c["package_from"] == "PPTT" and [x["package"] for x in c2c["cpus"]] == [0, 0, 1, 1], "c2c cpus %s" % c2c["cpus"]
    # pairs inside a package share its (package-wide) L3 domain; the four across packages are remote
    rel = c2c["by_relation"]
    assert rel["remote"]["pairs"] == 4 and rel["l3"]["pairs"] == 2 and rel["smt"]["pairs"] == 0, "by_relation %s" % rel
    assert all(c2c["median_ns"][i][j] > 0 for i in range(4) for j in range(4) if i != j), c2c["median_ns"]
    nodes = {}
    for r in (run.one("acpi").get("srat") or {}).get("memory", []):
        nodes.setdefault(r["domain"], []).append((int(r["base"], 16), int(r["base"], 16) + int(r["length"], 16)))
    meas = run.one("measurement")
    size = meas["buffer_bytes"]
    for c in meas["passes"][0]["per_cpu"]:
        a = int(c["buffer"], 16)
        assert c["node_local"] is True and any(lo <= a and a + size <= hi for lo, hi in nodes[c["node"]]), "CPU %s buffer %s not in node %s %s" % (c["cpu"], c["buffer"], c["node"], nodes)
    figure("aarch64 NUMA (SRAT GICC affinity)", "CPUs on nodes %s; buffers %s" % (
        [c["node"] for c in sel["selected"]], [c["buffer"] for c in meas["passes"][0]["per_cpu"]]))
