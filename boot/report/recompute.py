# SPDX-License-Identifier: BSD-2-Clause
"""Derived metrics recomputed from the raw values, written here from the definitions, never from
the firmware's code: a log whose derived values disagree with their raw values beyond the
rounding the log's format allows was changed or written by a broken build.

    GB/s        = bytes / ns (1 GB = 10^9 bytes), written with 3 decimals
    MB/s        = bytes / ns x 1000, STREAM's best rate from the best (minimum) time, truncated
    bw_bytes    = bytes x 10^9 / ns (fio's bytes per second), iops = commands x 10^9 / ns
    CHA PCIe    = 64 bytes (a cache line) x TOR_INSERTS counts of the platform's read/write
                  opcodes (PCM's PurleyPlatform / WhitleyPlatform formulas), GB/s over window_ns;
                  the total is the sum over sockets
    TopDown     = each category's slots / the sum of the level-1 categories (Linux
                  tools/perf/Documentation/topdown.txt), 3 decimals
    AMD pipeline utilization (topdown, pmu amd_core) = each category's numerator over
                  dispatch_width x ls_not_halted_cyc in 1/1000 % (Linux tools/perf/pmu-events/
                  arch/x86/amdzen4/pipeline.json, amdzen5/pipeline.json, PipelineL1), rounded;
                  level 2 (PipelineL2 of the same files) from counts and level2_counts: the
                  frontend split by the cmask=W form, the others a level-1 category times a
                  ratio of two level-2 (or ex_ret_ops) counts
    self-check  = counted bytes / expected bytes
"""
import re

# Rounding the log's fixed-point format allows: 3 decimals, round or truncate.
MILLI = 0.0015


def _close(have, want, tol):
    return have is not None and want is not None and abs(have - want) <= tol


# PipelineL1 numerators (event, sign) of Linux's amdzen4/amdzen5 pipeline.json; the denominator
# is total_dispatch_slots = dispatch_width * ls_not_halted_cyc.
AMD_PIPELINE = {
    "frontend_bound": (("de_no_dispatch_per_slot.no_ops_from_frontend", 1),),
    "bad_speculation": (("de_src_op_disp.all", 1), ("ex_ret_ops", -1)),
    "backend_bound": (("de_no_dispatch_per_slot.backend_stalls", 1),),
    "smt_contention": (("de_no_dispatch_per_slot.smt_contention", 1),),
    "retiring": (("ex_ret_ops", 1),),
}


# PipelineL2 of Linux's pipeline.json, written from its expressions; `v` holds the counts by role
# (cyc, fe, disp, ret, be, fel = the cmask form, misp, resync, ld, nc, ucode) and the width W.
def _ratio(a, b):
    return a / b if b else None


AMD_PIPELINE_L2 = (
    (("frontend_bound_latency", "frontend_bound_by_latency"), lambda v: _ratio(v["W"] * v["fel"], v["W"] * v["cyc"])),
    (("frontend_bound_bandwidth", "frontend_bound_by_bandwidth"),
     lambda v: _ratio(v["fe"] - v["W"] * v["fel"], v["W"] * v["cyc"])),
    (("bad_speculation_mispredicts", "bad_speculation_from_mispredicts"),
     lambda v: _ratio((v["disp"] - v["ret"]) / (v["W"] * v["cyc"]) * v["misp"], v["misp"] + v["resync"])),
    (("bad_speculation_pipeline_restarts", "bad_speculation_from_pipeline_restarts"),
     lambda v: _ratio((v["disp"] - v["ret"]) / (v["W"] * v["cyc"]) * v["resync"], v["misp"] + v["resync"])),
    (("backend_bound_memory", "backend_bound_by_memory"),
     lambda v: v["be"] / (v["W"] * v["cyc"]) * _ratio(v["ld"], v["nc"]) if v["nc"] else None),
    (("backend_bound_cpu", "backend_bound_by_cpu"),
     lambda v: v["be"] / (v["W"] * v["cyc"]) * (1 - _ratio(v["ld"], v["nc"])) if v["nc"] else None),
    (("retiring_fastpath", "retiring_from_fastpath"),
     lambda v: v["ret"] / (v["W"] * v["cyc"]) * (1 - _ratio(v["ucode"], v["ret"])) if v["ret"] else None),
    (("retiring_microcode", "retiring_from_microcode"),
     lambda v: v["ret"] / (v["W"] * v["cyc"]) * _ratio(v["ucode"], v["ret"]) if v["ret"] else None),
)


def _amd_pipeline_l2(cmp, where, r, c):
    c2 = r.get("level2_counts") or {}
    fel = [n for k, n in c2.items() if k.startswith("cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=")]
    v = {"W": r["dispatch_width"], "cyc": c.get("ls_not_halted_cyc"), "fe": c.get("de_no_dispatch_per_slot.no_ops_from_frontend"),
         "be": c.get("de_no_dispatch_per_slot.backend_stalls"), "disp": c.get("de_src_op_disp.all"), "ret": c.get("ex_ret_ops"),
         "fel": fel[0] if fel else None, "misp": c2.get("ex_ret_brn_misp"),
         "resync": c2.get("resyncs_or_nc_redirects", c2.get("bp_redirects.resync")),
         "ld": c2.get("ex_no_retire.load_not_complete"), "nc": c2.get("ex_no_retire.not_complete"),
         "ucode": c2.get("ex_ret_ucode_ops")}
    if any(x is None for x in v.values()) or not v["cyc"]:
        return
    level2 = r.get("level2") or {}
    for names, f in AMD_PIPELINE_L2:
        for name in names:
            if name in level2:
                want = f(v)
                cmp("%s level2 %s milli_pct" % (where, name), level2[name].get("milli_pct"),
                    None if want is None else 100000.0 * want, 0.5)


def _amd_pipeline(cmp, issues, r):
    c, where = r.get("counts") or {}, "topdown %s cpu %s" % (r.get("kernel"), r.get("cpu"))
    if c.get("ls_not_halted_cyc") is None or not r.get("dispatch_width"):
        issues.append("%s is valid but has no counts.ls_not_halted_cyc or dispatch_width to recompute it from" % where)
        return
    slots = r["dispatch_width"] * c["ls_not_halted_cyc"]
    cmp(where + " slots", r.get("slots"), slots, 0)
    for k, terms in AMD_PIPELINE.items():
        if slots and all(c.get(e) is not None for e, _ in terms):
            cmp("%s %s milli_pct" % (where, k), (r.get(k) or {}).get("milli_pct"),
                100000.0 * sum(sign * c[e] for e, sign in terms) / slots, 0.5)
    if r.get("level") == 2:
        _amd_pipeline_l2(cmp, where, r, c)


def _gbps(nbytes, ns):
    return nbytes / ns if ns else None


# Read and write opcodes of TOR_INSERTS.IO_* per CHA platform (PCM: PurleyPlatform for SKX/CLX,
# WhitleyPlatform and later for ICX..GNR).
CHA_OPS = {
    "SKX": ({"RDCUR", "RFO", "CRD", "DRD"}, {"RFO", "ITOM"}),
    "CLX": ({"RDCUR", "RFO", "CRD", "DRD"}, {"RFO", "ITOM"}),
    "ICX": ({"PCIRDCUR"}, {"ITOM", "ITOMCACHENEAR"}),
    "SPR": ({"PCIRDCUR"}, {"ITOM", "ITOMCACHENEAR"}),
    "EMR": ({"PCIRDCUR"}, {"ITOM", "ITOMCACHENEAR"}),
    "GNR": ({"PCIRDCUR"}, {"ITOM", "ITOMCACHENEAR"}),
}
_EV = re.compile(r"^(?:UNC_CHA_)?TOR_INSERTS\.IO_(?:(HIT|MISS)_)?([A-Z0-9]+)$")


def _cha_lines(counts, ops):
    """Cache lines of the opcodes in ops: an opcode's all-requests count, else hit + miss."""
    per = {}
    for c in counts:
        m = _EV.match(c.get("event", ""))
        if not m or m.group(2) not in ops:
            continue
        part = m.group(1) or "ALL"
        per.setdefault(m.group(2), {})[part] = c.get("scaled", c.get("raw", 0))
    total = 0
    for op in ops:
        p = per.get(op)
        if not p:
            return None
        if "ALL" in p:
            total += p["ALL"]
        elif "HIT" in p and "MISS" in p:
            total += p["HIT"] + p["MISS"]
        else:
            return None
    return total


def check(log):
    """Fill log.issues with a sentence per disagreement; return the number of values compared."""
    issues, n = log.issues, 0

    def cmp(where, have, want, tol):
        nonlocal n
        if have is None or want is None:
            return
        n += 1
        if not _close(have, want, tol):
            issues.append("%s is %s, its raw values give %.6g" % (where, have, want))

    for r in log.of("measurement"):
        k = r.get("kernel")
        per_pass = r.get("bytes_moved_per_pass")
        for p in r.get("passes") or []:
            if per_pass is not None:
                cmp("measurement %s pass %s gbps" % (k, p.get("pass")), p.get("gbps"), _gbps(per_pass, p.get("ns")), MILLI)
                cpus = len(p.get("per_cpu") or []) or None
                for c in p.get("per_cpu") or []:
                    cmp("measurement %s pass %s cpu %s gbps" % (k, p.get("pass"), c.get("cpu")), c.get("gbps"),
                        _gbps(per_pass / cpus, c.get("ns")), MILLI)
        if "bytes" in r and "ns" in r and "gbps" in r:
            cmp("measurement %s gbps" % k, r["gbps"], _gbps(r["bytes"], r["ns"]), MILLI)
        sc = r.get("self_check")
        if sc:
            _self_check(cmp, "measurement %s self_check" % k, sc)
    for r in log.of("stream"):
        if r.get("min_ns"):
            cmp("stream %s best_rate_mbps" % r.get("function"), r.get("best_rate_mbps"),
                r["app_bytes_per_pass"] * 1000.0 / r["min_ns"], 1.0)
    for r in log.of("nvme"):
        if r.get("ns") and "bytes" in r:
            cmp("nvme %s bs %s iodepth %s bw_bytes" % (r.get("bdf"), r.get("bs"), r.get("iodepth")), r.get("bw_bytes"),
                r["bytes"] * 1e9 / r["ns"], 1.0)
            if "commands" in r and "iops" in r:
                cmp("nvme %s bs %s iodepth %s iops" % (r.get("bdf"), r.get("bs"), r.get("iodepth")), r["iops"],
                    r["commands"] * 1e9 / r["ns"], 1.0)
    for r in log.of("cha"):
        _cha(cmp, r)
    for r in log.of("topdown"):
        if r.get("valid") and r.get("pmu") == "amd_core":
            _amd_pipeline(cmp, issues, r)
        elif r.get("valid"):
            cats = r.get("slots_by_category") or {}
            l1 = sum(cats.get(k, 0) for k in ("retiring", "bad_speculation", "frontend_bound", "backend_bound"))
            for k, v in (r.get("ratio") or {}).items():
                if k in cats and l1:
                    cmp("topdown %s cpu %s %s" % (r.get("kernel"), r.get("cpu"), k), v, cats[k] / l1, MILLI)
    return n


def _self_check(cmp, where, sc):
    for d in ("read", "write"):
        exp, got = sc.get("expected_%s_bytes" % d), sc.get("counted_%s_bytes" % d)
        if exp and got is not None and sc.get("ratio_%s" % d) is not None:
            cmp("%s ratio_%s" % (where, d), sc["ratio_%s" % d], got / exp, MILLI)


def _cha(cmp, r):
    ops = CHA_OPS.get(r.get("platform") or "")
    window = r.get("window_ns")
    sums = {}
    for s in r.get("sockets") or []:
        m = s.get("metrics") or {}
        for d, opset in (("read", ops[0] if ops else None), ("write", ops[1] if ops else None)):
            key = "pcie_%s_bytes" % d
            if key not in m:
                continue
            sums[key] = sums.get(key, 0) + m[key]
            if opset:
                lines = _cha_lines(s.get("counts") or [], opset)
                if lines is not None:
                    cmp("cha %s socket %s %s" % (r.get("kernel"), s.get("socket"), key), m[key], 64 * lines, 0.5)
            if window and "pcie_%s_gbps" % d in m:
                cmp("cha %s socket %s pcie_%s_gbps" % (r.get("kernel"), s.get("socket"), d), m["pcie_%s_gbps" % d],
                    m[key] / window, MILLI)
    tot = r.get("total") or {}
    for key, v in sums.items():
        if key in tot:
            cmp("cha %s total %s" % (r.get("kernel"), key), tot[key], v, 0.5)
    sc = r.get("self_check")
    if sc:
        _self_check(cmp, "cha %s self_check" % r.get("kernel"), sc)
