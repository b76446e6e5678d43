# SPDX-License-Identifier: BSD-2-Clause
"""Synthetic efiperf logs for the report tests: records shaped like the firmware's (see the
README's record table), with values worked out by hand here, never by the report's code."""
import copy
import json

RUN = {"type": "run", "schema": 1, "tool": "efiperf", "version": "test", "arch": "x86_64",
       "started": "2026-11-24T10:00:00", "log": "\\efiperf\\logs\\S1-20261124-100000", "cmdline": "",
       "config_file": "\\efiperf\\efiperf.cfg", "config_search": ["\\efiperf\\efiperf.cfg"],
       "config": {"exit": "shutdown", "check": ["stream.triad.best_rate_mbps >= 20000"], "origin": {"exit": "default"}}}


def pcie(bdf, upstream=None, link=None, port="Endpoint"):
    r = {"type": "pcie", "bdf": bdf, "vendor_device": "8086:1234", "class": "0x010802", "revision": 0,
         "header_type": 0, "multi_function": False, "capabilities": [], "ext_capabilities": [], "dvsec": [],
         "defects": [], "express": {"port_type": port}}
    if upstream:
        r["upstream"] = upstream
    if link:
        sp, w, msp, mw = link
        r["link"] = {"max_speed_gts": msp, "max_width": mw, "max_gbps": 1.0, "up": True, "speed_gts": sp, "width": w,
                     "gbps": 1.0, "downtrained": (sp, w) != (msp, mw), "limited_by_partner": False,
                     "supported_speeds": "0x1", "port_number": 0}
    return r


def stream(function, mbps_per_cpu, outliers=()):
    # 4 CPUs x 3 arrays x 1 MiB for triad: app bytes 3 x 4 MiB; best rate = bytes / min_ns x 1000
    app = 3 * 4 * 1048576
    total = sum(mbps_per_cpu)
    min_ns = app * 1000 // total
    return {"type": "stream", "function": function, "kernel": function + "_c", "cpus": len(mbps_per_cpu),
            "array_bytes": 1048576, "app_bytes_per_pass": app, "passes": 5, "best_rate_mbps": app * 1000 // min_ns,
            "avg_ns": min_ns, "min_ns": min_ns, "max_ns": min_ns, "interrupts_masked": True, "smi_delta": 0,
            "per_cpu": [{"cpu": i, "best_rate_mbps": v, "outlier": i in outliers} for i, v in enumerate(mbps_per_cpu)],
            "median_cpu_mbps": sorted(mbps_per_cpu)[len(mbps_per_cpu) // 2], "outliers": len(outliers), "verified": True}


def records(serial="S1", triad=(6000, 6100, 5900, 3000), verdict="PASS"):
    run = copy.deepcopy(RUN)
    run["log"] = "\\efiperf\\logs\\%s-20261124-100000" % serial
    recs = [run,
            {"type": "platform", "arch": "x86_64", "cpu": {"brand": "Test CPU", "microcode": "0x2b000461"},
             "system": {"serial": serial}, "topology": {"enabled_cpus": 4, "logical_cpus": 4}, "timer": {"hz": 1000000000}},
            {"type": "smbios", "system": {"serial": serial}, "memory": {"total_mib": 524288}, "log_serial": serial},
            pcie("0000:00:00.0"),
            pcie("0000:00:02.0", link=(16.0, 16, 16.0, 16), port="Root Port"),
            pcie("0000:01:00.0", upstream="0000:00:02.0", link=(16.0, 16, 16.0, 16)),
            pcie("0000:00:03.0", link=(8.0, 4, 16.0, 16), port="Root Port"),
            pcie("0000:02:00.0", upstream="0000:00:03.0", link=(8.0, 4, 16.0, 16)),
            # copy: 2 passes of 134217728 bytes; 2 CPUs each moving half
            {"type": "measurement", "kernel": "copy", "cpus": 2, "bytes_moved_per_pass": 134217728,
             "passes": [{"pass": 0, "ns": 50000000, "gbps": 2.684,
                         "per_cpu": [{"cpu": 0, "ns": 50000000, "gbps": 1.342}, {"cpu": 1, "ns": 40000000, "gbps": 1.678}]},
                        {"pass": 1, "ns": 40000000, "gbps": 3.355, "per_cpu": []}]},
            stream("copy", [5000, 5000, 5000, 5000]),
            stream("triad", list(triad), outliers=(3,) if triad[3] < 0.8 * triad[0] else ()),
            {"type": "latency", "kernel": "chase_c", "line_bytes": 64,
             "points": [{"bytes": 4096 << i, "ns_per_load": v, "ticks_per_load": v, "cycle_complete": True}
                        for i, v in enumerate([1.2, 1.2, 1.3, 4.0, 4.1, 12.0, 80.5])]},
            # nvme: bw_bytes = bytes x 1e9 / ns, iops = commands x 1e9 / ns (worked by hand)
            {"type": "nvme", "bdf": "0000:01:00.0", "rw": "read", "bs": 4096, "iodepth": 1, "bytes": 4096000,
             "ns": 2000000, "bw_bytes": 2048000000, "iops": 500000, "commands": 1000, "clat_ns": {"p50": 1}},
            {"type": "nvme", "bdf": "0000:01:00.0", "rw": "read", "bs": 131072, "iodepth": 1, "bytes": 131072000,
             "ns": 40000000, "bw_bytes": 3276800000, "iops": 25000, "commands": 1000, "clat_ns": {"p50": 1}},
            {"type": "nvme", "bdf": "0000:01:00.0", "rw": "read", "bs": 4096, "iodepth": 32, "bytes": 4096000,
             "ns": 1000000, "bw_bytes": 4096000000, "iops": 1000000, "commands": 1000, "clat_ns": {"p50": 1}},
            {"type": "nvme", "bdf": "0000:01:00.0", "rw": "read", "bs": 131072, "iodepth": 32, "bytes": 131072000,
             "ns": 20000000, "bw_bytes": 6553600000, "iops": 50000, "commands": 1000, "clat_ns": {"p50": 1},
             "link_limit": {"status": "ok", "path": ["0000:00:02.0", "0000:01:00.0"],
                            "links": [{"port": "0000:00:02.0", "device": "0000:01:00.0", "gts": 16.0, "width": 16,
                                       "raw_gbps": 31.508, "ends_disagree": False}],
                            "bottleneck": {"port": "0000:00:02.0", "device": "0000:01:00.0", "gts": 16.0, "width": 16},
                            "raw_gbps": 31.508, "mps": 256, "mrrs": 512, "effective_read_gbps": 7.0,
                            "effective_write_gbps": 7.0, "direction": "device writes memory", "effective_gbps": 7.0,
                            "fraction": 0.936}},
            # TopDown: 1000 slots, 400/100/200/300 -> 0.4/0.1/0.2/0.3
            {"type": "topdown", "kernel": "copy", "pass": 0, "cpu": 0, "method": "PERF_METRICS", "valid": True, "level": 1,
             "slots": 1000, "ratio": {"retiring": 0.4, "bad_speculation": 0.1, "frontend_bound": 0.2, "backend_bound": 0.3},
             "slots_by_category": {"retiring": 400, "bad_speculation": 100, "frontend_bound": 200, "backend_bound": 300}},
            # CHA on ICX: PCIe read = 64 x PCIRDCUR (hit + miss), write = 64 x (ITOM + ITOMCACHENEAR)
            {"type": "cha", "kernel": "dma", "platform": "ICX", "status": "ok", "window_ns": 1000000,
             "events": [], "sockets": [{"socket": 0, "cpu": 0, "cha_count": 40, "cha_count_source": "test", "counts": [
                 {"event": "TOR_INSERTS.IO_HIT_PCIRDCUR", "raw": 1000, "scaled": 1000},
                 {"event": "TOR_INSERTS.IO_MISS_PCIRDCUR", "raw": 24, "scaled": 24},
                 {"event": "TOR_INSERTS.IO_ITOM", "raw": 10, "scaled": 10},
                 {"event": "TOR_INSERTS.IO_ITOMCACHENEAR", "raw": 6, "scaled": 6}],
                 "metrics": {"pcie_read_bytes": 65536, "pcie_read_gbps": 0.066, "pcie_write_bytes": 1024,
                             "pcie_write_gbps": 0.001, "io_llc_hits": 1000, "io_llc_misses": 24}}],
             "total": {"pcie_read_bytes": 65536, "pcie_read_gbps": 0.066, "pcie_write_bytes": 1024, "pcie_write_gbps": 0.001},
             "self_check": {"state": "ok", "expected_read_bytes": 65536, "expected_write_bytes": 0,
                            "counted_read_bytes": 65536, "counted_write_bytes": 1024, "ratio_read": 1.0,
                            "ratio_write": None, "tolerance": 0.1, "why": None}},
            # AMD pipeline utilization, Zen 5: slots 8 x 1000 = 8000; 1200/8000 = 15 %, (2500 - 2100)/8000
            # = 5 %, 1500/8000 = 18.75 %, 300/8000 = 3.75 %, 2100/8000 = 26.25 %; level 2: 8 x 150/8000 =
            # 15 %, (1200 - 1200)/8000 = 0, 5 % x 30/40 = 3.75 %, x 10/40 = 1.25 %, 18.75 % x 400/1000 =
            # 7.5 %, x 600/1000 = 11.25 %, 26.25 % x 1890/2100 = 23.625 %, x 210/2100 = 2.625 %
            {"type": "topdown", "kernel": "copy", "pass": 0, "cpu": 0, "method": "amd-pipeline", "pmu": "amd_core",
             "valid": True, "level": 2, "formula": "Zen 5",
             "formula_source": "Linux tools/perf/pmu-events/arch/x86/amdzen5/pipeline.json", "dispatch_width": 8,
             "slots": 8000, "slots_source": "x",
             "counts": {"ls_not_halted_cyc": 1000, "de_no_dispatch_per_slot.no_ops_from_frontend": 1200,
                        "de_no_dispatch_per_slot.backend_stalls": 1500, "de_no_dispatch_per_slot.smt_contention": 300,
                        "de_src_op_disp.all": 2500, "ex_ret_ops": 2100},
             "frontend_bound": {"milli_pct": 15000, "pct": 15.0}, "bad_speculation": {"milli_pct": 5000, "pct": 5.0},
             "backend_bound": {"milli_pct": 18750, "pct": 18.75}, "smt_contention": {"milli_pct": 3750, "pct": 3.75},
             "retiring": {"milli_pct": 26250, "pct": 26.25},
             "inputs_multiplexed": True, "inputs_time_enabled": 300000, "inputs_time_running": 150000,
             "level2_time_running": 150000,
             "level2_counts": {"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/": 150, "ex_ret_brn_misp": 30,
                               "bp_redirects.resync": 10, "ex_no_retire.load_not_complete": 400,
                               "ex_no_retire.not_complete": 1000, "ex_ret_ucode_ops": 210},
             "level2_mixed_groups": ["frontend_bound_by_latency", "frontend_bound_by_bandwidth", "retiring_from_fastpath",
                                     "retiring_from_microcode"],
             "level2": {"frontend_bound_by_latency": {"milli_pct": 15000, "pct": 15.0},
                        "frontend_bound_by_bandwidth": {"milli_pct": 0, "pct": 0.0},
                        "bad_speculation_from_mispredicts": {"milli_pct": 3750, "pct": 3.75},
                        "bad_speculation_from_pipeline_restarts": {"milli_pct": 1250, "pct": 1.25},
                        "backend_bound_by_memory": {"milli_pct": 7500, "pct": 7.5},
                        "backend_bound_by_cpu": {"milli_pct": 11250, "pct": 11.25},
                        "retiring_from_fastpath": {"milli_pct": 23625, "pct": 23.625},
                        "retiring_from_microcode": {"milli_pct": 2625, "pct": 2.625}}},
            ]
    triad_best = recs[10]["best_rate_mbps"]
    ok = triad_best >= 20000
    recs.append({"type": "verdict", "result": verdict if verdict != "PASS" else ("PASS" if ok else "FAIL"),
                 "passed": int(ok), "total": 1, "errors": 0, "why": None,
                 "checks": [{"setting": "check = stream.triad.best_rate_mbps >= 20000", "where": "\\efiperf\\efiperf.cfg:3",
                             "path": "stream[triad].best_rate_mbps", "op": ">=", "threshold": 20000, "value": triad_best,
                             "result": "PASS" if ok else "FAIL", "why": None}]})
    recs.append({"type": "end", "status": "ok", "elapsed_ms": 1000, "faults_recovered": 0, "exit": "shutdown"})
    return recs


def write(path, recs):
    with open(path, "w") as f:
        for r in recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    return str(path)
