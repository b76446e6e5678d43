# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the cache and memory characterisation: the core-to-core latency matrix (c2c),
the latency curve's knees beside the cache levels CPUID reports, the NUMA matrices, the
per-level bandwidth and the loaded latency, on x86_64 TCG with -smp 4 and two -numa nodes; and `c2c = on` with one CPU
as a config error. Under TCG the figures say little about caches (QEMU emulates no cache
timing): what is checked is the shape of every record, its quietness fields, that CPUID's levels
are set beside the knees, and that the record says the run is emulated."""
import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64

TWO_NODES = ["-object", "memory-backend-ram,id=m0,size=256M", "-object", "memory-backend-ram,id=m1,size=256M",
             "-numa", "node,nodeid=0,cpus=0-1,memdev=m0", "-numa", "node,nodeid=1,cpus=2-3,memdev=m1"]
SMALL = {"copy_size": "4M", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000"}


def quiet(rec, what):
    assert isinstance(rec.get("interrupts_masked"), bool) and rec["interrupts_masked"], "%s: interrupts_masked %r" % (what, rec.get("interrupts_masked"))
    assert "smi_delta" in rec, "%s: no smi_delta" % what


@pytest.fixture(scope="module")
def cache_run(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("cache"))
    cfg = dict(SMALL, cpus="all", c2c="on", c2c_rounds="5", c2c_trips="20", latency="on", latency_max="1M",
               numa_matrix="on", numa_size="1M", cache_bw="on", cache_bw_passes="1", cache_bw_dram="8M",
               loaded_latency="on", loaded_size="1M", loaded_delays="0,1000")
    img = make_image("x86_64", d, cfg_text("x86_64", cfg))
    run = boot("x86_64", img, d, smp=4, extra=TWO_NODES)
    run.expect_ok()
    return run


@x86_64
def test_c2c_matrix(cache_run, figure):
    c = cache_run.one("c2c")
    assert [x["cpu"] for x in c["cpus"]] == [0, 1, 2, 3], "c2c CPUs %s" % c["cpus"]
    assert [x["node"] for x in c["cpus"]] == [0, 0, 1, 1], "c2c nodes %s" % c["cpus"]
    for key in ("min_ns", "median_ns"):
        m = c[key]
        assert len(m) == 4 and all(len(r) == 4 for r in m), "%s is not 4x4: %s" % (key, m)
        for i in range(4):
            for k in range(4):
                if i == k:
                    assert m[i][k] == 0, "%s[%d][%d] = %r, not 0" % (key, i, k, m[i][k])
                else:
                    assert m[i][k] > 0 and m[i][k] == m[k][i], "%s[%d][%d] = %r (transposed %r)" % (key, i, k, m[i][k], m[k][i])
                    assert c["min_ns"][i][k] <= c["median_ns"][i][k]
    assert len(c["pairs"]) == 6 and all(p["ok"] for p in c["pairs"]), "pairs %s" % c["pairs"]
    for p in c["pairs"]:
        quiet(p, "c2c pair %s-%s" % (p["a"], p["b"]))
    quiet(c, "c2c")
    assert c["emulated"] is True, "c2c record does not say the run is emulated: %r" % c.get("emulated")
    assert c["by_node"]["same_node"]["pairs"] == 2 and c["by_node"]["other_node"]["pairs"] == 4, "by_node %s" % c["by_node"]
    assert c["failed_pairs"] == 0
    figure("c2c median matrix (ns, TCG)", c["median_ns"])


@x86_64
def test_c2c_one_cpu_is_a_config_error(scratch, figure):
    d = scratch()
    text = cfg_text("x86_64", dict(SMALL, c2c="on"))
    line = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith("c2c")][0]
    img = make_image("x86_64", d, text)
    run = boot("x86_64", img, d, smp=2)
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s: expected status error and power-off" % (run.rc, run.qemu_exit)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert errs and "efiperf.cfg:%d" % line in errs[0] and "a pair needs two CPUs" in errs[0] and "selects 1" in errs[0], "no config error naming c2c's line and why: %s" % run.of("error")
    assert not run.of("measurement") and not run.of("c2c"), "measurements ran after the c2c error"
    figure("c2c = on with cpus = boot", errs[0])


@x86_64
def test_latency_knees_beside_cpuid(cache_run, figure):
    lat = cache_run.one("latency")
    assert lat["emulated"] is True, "latency record does not say the run is emulated: %r" % lat.get("emulated")
    assert lat["cache_source"] == "CPUID.04H", "cache_source %r (Icelake-Server under TCG has leaf 4)" % lat.get("cache_source")
    caches = lat["cpu_caches"]
    assert [c["level"] for c in caches if c["cache_type"] != "instruction"] == [1, 2, 3], "CPUID levels %s" % caches
    assert all(c["bytes"] > 0 and c["line_bytes"] == 64 for c in caches), caches
    levels = lat["levels"]
    assert [l["level"] for l in levels] == [1, 2, 3], "levels beside the knees %s" % levels
    for l in levels:
        assert l["reported_bytes"] == [c["bytes"] for c in caches if c["level"] == l["level"] and c["cache_type"] != "instruction"][0]
        assert "knee_bytes" in l and isinstance(l["agrees"], bool) and (l["agrees"] or l.get("why")), "level %s" % l
    assert isinstance(lat["knees"], list) and isinstance(lat["disagreements"], int)
    for pt in lat["points"]:
        quiet(pt, "latency point %s" % pt["bytes"])
    ev = lat["evidence"]
    assert ev["events"] == "MEM_LOAD_RETIRED.L1_HIT MEM_LOAD_RETIRED.L2_HIT MEM_LOAD_RETIRED.L3_HIT MEM_LOAD_RETIRED.L3_MISS", ev
    assert ev["table"] is None if ev["state"] == "absent" else ev["table"] == "intel-mem-load-retired", ev
    if ev["state"] == "counting":
        assert all("core_counters" in pt and pt["loads_in_window"] > 0 for pt in lat["points"]), lat["points"][0]
    else:   # TCG emulates no PMU: the record says why there is no evidence
        assert ev["state"] == "absent" and ev["why"], ev
        assert not any("core_counters" in pt or "load_source" in pt for pt in lat["points"])
    figure("latency evidence under TCG", "%s: %s" % (ev["state"], ev.get("why")))
    figure("latency levels under TCG", ["L%d %d/%s %s" % (l["level"], l["reported_bytes"], l["knee_bytes"], l["agrees"]) for l in levels])


@x86_64
def test_numa_matrix_2x2(cache_run, figure):
    nm = cache_run.one("numa_matrix")
    assert [(n["node"], n["cpus"]) for n in nm["nodes"]] == [(0, 2), (1, 2)], "nodes %s" % nm["nodes"]
    assert all(n["memory_bytes"] > 0 and "why" not in n for n in nm["nodes"]), nm["nodes"]
    for key in ("latency_ns", "read_gbps"):
        m = nm[key]
        assert len(m) == 2 and all(len(r) == 2 for r in m) and all(v > 0 for r in m for v in r), "%s %s" % (key, m)
    assert len(nm["cells"]) == 4
    for c in nm["cells"]:
        quiet(c["latency_window"], "numa cell %s->%s latency" % (c["cpu_node"], c["memory_node"]))
        quiet(c["read_window"], "numa cell %s->%s read" % (c["cpu_node"], c["memory_node"]))
    figure("numa latency ns / read GB/s (TCG)", [nm["latency_ns"], nm["read_gbps"]])


@x86_64
def test_cache_bw_per_level(cache_run, figure):
    recs = cache_run.of("cache_bw")
    lat = cache_run.one("latency")
    want = ["L%d" % c["level"] for c in lat["cpu_caches"] if c["cache_type"] != "instruction"] + ["DRAM"]
    assert [r["level"] for r in recs] == want, "cache_bw levels %s, CPUID says %s" % ([r["level"] for r in recs], want)
    for r in recs:
        assert r["cpus"] == 4 and r["emulated"] is True, r
        if r["level"] == "DRAM":
            assert r["array_bytes_one_cpu"] == 8 << 20
        else:
            # three arrays fit in half the level
            assert 3 * r["array_bytes_one_cpu"] <= r["level_bytes"] // 2 and 3 * r["array_bytes_per_cpu_all"] <= r["level_bytes"] // 2, r
        assert [k["function"] for k in r["kernels"]] == ["load", "store", "copy", "triad"], r["kernels"]
        for k in r["kernels"]:
            streams = {"load": 1, "store": 1, "copy": 2, "triad": 3}[k["function"]]
            for w, arr in (("one_cpu", "array_bytes_one_cpu"), ("all_cpus", "array_bytes_per_cpu_all")):
                assert k[w]["ran"] and k[w]["gbps"] > 0, "%s %s %s" % (r["level"], k["function"], k[w])
                # each timed pass is 8 MiB worth of kernel calls, at least one call
                assert k[w]["calls_per_pass"] == max(1, (8 << 20) // (streams * r[arr])), (r["level"], k["function"], w, k[w])
                quiet(k[w], "%s %s %s" % (r["level"], k["function"], w))
            assert len(k["per_cpu_gbps"]) == 4 and all(g > 0 for g in k["per_cpu_gbps"])
            # the level's own tuner pick: probe = the working set of all streams, calls per pass
            # worth 8 MiB, the pick a verified candidate that ran
            t = k["tuner"]
            assert t["choice"] == k["kernel"] and t["cpu"] == 0, t
            assert t["probe_bytes"] == streams * r["array_bytes_one_cpu"] and t["slices"] == 1, t
            assert t["reps"] == max(1, (8 << 20) // t["probe_bytes"]), t
            picked = [c for c in t["candidates"] if c["kernel"] == t["choice"]]
            assert picked and picked[0]["verified"] and picked[0]["passes"] >= 1 and picked[0]["mbps"] > 0, t
            assert all(c["kernel"].startswith(k["function"] + "_") for c in t["candidates"]), t
    figure("cache_bw load GB/s one CPU per level (TCG)", {r["level"]: r["kernels"][0]["one_cpu"]["gbps"] for r in recs})


@x86_64
def test_loaded_latency_curve(cache_run, figure):
    ll = cache_run.one("loaded_latency")
    assert ll["chase_cpu"] == 0 and ll["bandwidth_cpus"] == 3 and ll["emulated"] is True, ll
    pts = ll["points"]
    assert [p["delay"] for p in pts] == [None, 0, 1000], "delays %s" % [p["delay"] for p in pts]
    assert all(p["ok"] and p["ns_per_load"] > 0 for p in pts), pts
    assert pts[0]["read_gbps"] == 0, "the idle point has no bandwidth CPUs: %s" % pts[0]
    # every loaded point moved bytes in its window (read_gbps rounds to 0.001 GB/s: a delay-1000
    # point on a loaded emulator can read less than that)
    assert pts[1]["read_bytes"] > 0 and pts[2]["read_bytes"] > 0, pts
    assert pts[1]["read_gbps"] > 0, pts
    for p in pts:
        quiet(p, "loaded point delay %s" % p["delay"])
    figure("loaded latency (delay: ns, GB/s; TCG)", [(p["delay"], p["ns_per_load"], p["read_gbps"]) for p in pts])


@x86_64
def test_loaded_latency_one_cpu_is_a_config_error(scratch):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, loaded_latency="on")))
    run = boot("x86_64", img, d)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert run.rc == 1 and errs and "loaded_latency = on" in errs[0] and "needs two CPUs" in errs[0], "errors %s" % run.of("error")
    assert not run.of("measurement") and not run.of("loaded_latency")


@pytest.mark.aarch64
def test_aarch64_levels_and_boot_cpu_only(scratch, figure):
    """aarch64 (AAVMF, no MP services): the latency curve, its knees beside CLIDR_EL1/CCSIDR_EL1
    and the cache_bw levels on the boot CPU; with -smp 4 the c2c matrix on every CPU efiperf
    starts through PSCI."""
    d = scratch()
    cfg = dict(SMALL, latency="on", latency_max="1M", cache_bw="on", cache_bw_passes="1", cache_bw_dram="4M")
    img = make_image("aarch64", d, cfg_text("aarch64", cfg))
    run = boot("aarch64", img, d)
    run.expect_ok()
    lat = run.one("latency")
    assert lat["cache_source"] == "CLIDR_EL1/CCSIDR_EL1", "cache_source %r" % lat.get("cache_source")
    assert lat["cpu_caches"] and [l["level"] for l in lat["levels"]] == sorted({c["level"] for c in lat["cpu_caches"] if c["cache_type"] != "instruction"}), lat["levels"]
    # load source: QEMU's PMUv3 (target/arm/helper.c pm_events) implements SW_INCR, INST_RETIRED
    # (with -icount), CPU_CYCLES, STALL_FRONTEND, STALL_BACKEND and STALL only, so PMCEID0/1_EL0
    # say none of the five Arm ARM events is implemented: each is named absent on every point,
    # no level is known, and the point's core counters still hold the cycle counter
    ev = lat["evidence"]
    arm_events = ["L1D_CACHE", "MEM_ACCESS", "L1D_CACHE_REFILL", "L2D_CACHE_REFILL", "LL_CACHE_MISS_RD"]
    assert ev["state"] == "counting" and ev["table"] == "arm-pmuv3-common" and ev["events"] == " ".join(arm_events), ev
    for pt in lat["points"]:
        quiet(pt, "aarch64 latency point %s" % pt["bytes"])
        ls = pt["load_source"]
        assert [e["event"] for e in ls["events"]] == arm_events, ls["events"]
        for e in ls["events"]:
            assert e["state"] == "absent" and "is not implemented by this CPU (PMCEID" in e["why"], e
        assert [l["level"] for l in ls["levels"]] == ["L1", "L2", "L3", "memory"], ls["levels"]
        assert all(l["count"] is None and l["why"] for l in ls["levels"]) and ls["valid"] is False, ls
        assert ls["loads"] == pt["loads_in_window"] == pt["bytes"] // 64 * 2 and ls["denominator_from"] == "the kernel's loads", ls
        cc = {c["event"]: c for c in pt["core_counters"]["counters"]}
        assert cc["CPU_CYCLES"]["state"] in ("counted", "not-advancing"), cc
        assert set(arm_events).isdisjoint(cc), "absent events were programmed: %s" % sorted(cc)
    figure("aarch64 load source (TCG)", "%s; CPU_CYCLES %s" % (lat["points"][0]["load_source"]["events"][0]["why"],
                                                              {c["event"]: c.get("delta") for c in lat["points"][-1]["core_counters"]["counters"]}))
    assert lat["emulated"] is True and lat["hypervisor"] == "QEMU", "QEMU -cpu max is not said to be emulated: %r" % lat.get("emulated")
    assert [r["level"] for r in run.of("cache_bw")][-1] == "DRAM"
    assert all(r["cpus"] == 1 for r in run.of("cache_bw"))
    figure("aarch64 CLIDR/CCSIDR levels (TCG)", [(c["level"], c["cache_type"], c["bytes"]) for c in lat["cpu_caches"]])

    d2 = scratch("c2c")
    # without MP services efiperf starts the other CPUs through PSCI: the matrix runs on all four
    img = make_image("aarch64", d2, cfg_text("aarch64", dict(SMALL, c2c="on", cpus="all", c2c_rounds="3", c2c_trips="10")))
    run = boot("aarch64", img, d2, smp=4)
    run.expect_ok()
    c = run.one("c2c")
    m = c["median_ns"]
    assert len(m) == 4 and all(len(row) == 4 for row in m), "c2c matrix %s" % m
    assert all(m[i][i] == 0 for i in range(4)) and all(m[i][j] > 0 for i in range(4) for j in range(4) if i != j), m
    figure("aarch64 c2c medians over PSCI (TCG)", m)


@x86_64
def test_health_on_cpu_windows(cache_run):
    # every CPU window carries health: machine checks, energy and frequency; no AER (no device on its path)
    want = {"aer", "mca", "energy", "freq"}
    windows = [("latency %s" % p["bytes"], p) for p in cache_run.one("latency")["points"]]
    windows += [("loaded %s" % p["delay"], p) for p in cache_run.one("loaded_latency")["points"]]
    windows += [("numa %s->%s" % (c["cpu_node"], c["memory_node"]), c) for c in cache_run.one("numa_matrix")["cells"]]
    for r in cache_run.of("cache_bw"):
        for k in r["kernels"]:
            windows += [("cache_bw %s %s" % (r["level"], w), k[w]) for w in ("one_cpu", "all_cpus")]
    for what, w in windows:
        h = w.get("health") or {}
        assert want <= set(h) and "absent" in h["aer"], "%s health %s" % (what, sorted(h))
        assert h["mca"].get("new", 0) == 0, "%s machine checks %s" % (what, h["mca"])
    windows.append(("c2c (all pairs)", cache_run.one("c2c")))
    windows += [("copy (all passes)", r) for r in cache_run.of("measurement") if r.get("kernel") == "copy" and "passes" in r]
    assert len(windows) > 10, windows
