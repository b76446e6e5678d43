# SPDX-License-Identifier: BSD-2-Clause
"""The HTML report of one log, for a reader who would rather not read the JSONL: a summary first
(the machine, the run, the verdict, the run's quality), then one section per measurement the log
holds, each a table of the numbers and, where a picture says more, a plot (matplotlib's Agg
backend, Debian python3-matplotlib; PNG inline):

    memory    copy and STREAM per CPU (outliers marked), the latency curve with the CPU's cache
              sizes marked
    dma       per NVMe controller: every point's bs, iodepth, bw_bytes, IOPS, clat, self-check and
              link fraction; bandwidth by bs, one line per (window, iodepth) -- a line never joins
              points of different windows; the link limit with the emulated-link flag
    counters  TopDown, the CHA metrics and every self-check, the core counters' states
    matrices  c2c and NUMA as heat maps
    pcie      every function under its upstream port, downtrained links marked, and for CXL
              functions their role, decoders, capacity and health

Numbers are in the records' own units with thousands separators. For tests and scripts: the
summary is <section id="summary">, the verdict element has id="verdict", every plot is an
<img class="plot" data-plot=KIND> with alt text inside a <figure> whose data-series attribute
holds the plotted lines as JSON ([{"label", "window", "iodepth", "x", "y"}]), and the DMA
tables' cells carry data-field (the record member) and data-value (its value as JSON).
"""
import base64
import html
import io
import json
import re

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TD_L1 = ("retiring", "bad_speculation", "frontend_bound", "backend_bound")
COLORS = {"PASS": "#1a7f37", "FAIL": "#cf222e", "ERROR": "#bc4c00", "INCOMPLETE": "#9a6700", "INVALID": "#6e7781"}
RED, BLUE, GREY = "#cf222e", "#0969da", "#6e7781"
E = html.escape


# ---- numbers -----------------------------------------------------------------------------------
def num(v):
    """A record value as text: integers and decimals with thousands separators, as many decimals
    as the record gave; None as a dash."""
    if v is None:
        return "\u2013"
    if v is True or v is False:
        return "yes" if v else "no"
    if isinstance(v, int):
        return format(v, ",")
    if isinstance(v, float):
        return format(int(v), ",") if v.is_integer() and abs(v) >= 1000 else format(v, ",")
    return str(v)


def json_text(v):
    if v is None:
        return "-"
    if v is True or v is False:
        return "true" if v else "false"
    return str(v)


def mib(v):
    return "%s MiB" % num(v) if v is not None else num(None)


# ---- building blocks ---------------------------------------------------------------------------
NUMERIC = re.compile(r"^(-?[0-9][0-9,]*(\.[0-9]+)?|\u2013)$")


def table(headers, rows, tid=None, cls=None):
    """rows: lists of cells; a cell is text (escaped here), or a (html, attrs) pair already built."""
    out = ['<div class="tw"><table%s%s><thead><tr>%s</tr></thead><tbody>' % (
        ' id="%s"' % tid if tid else "", ' class="%s"' % cls if cls else "", "".join("<th>%s</th>" % E(h) for h in headers))]
    for r in rows:
        rc = ""
        if isinstance(r, tuple):
            rc, r = r
        cells = []
        for c in r:
            if isinstance(c, tuple):
                cells.append("<td%s>%s</td>" % (c[1], c[0]))
            elif NUMERIC.match(str(c)):
                cells.append('<td class="n">%s</td>' % E(str(c)))
            else:
                cells.append("<td>%s</td>" % E(str(c)))
        out.append('<tr%s>%s</tr>' % (' class="%s"' % rc if rc else "", "".join(cells)))
    out.append("</tbody></table></div>")
    return "".join(out)


def kv(pairs, tid=None):
    return ('<div class="tw"><table class="kv"%s><tbody>%s</tbody></table></div>' % (
        ' id="%s"' % tid if tid else "", "".join("<tr><th>%s</th><td>%s</td></tr>" % (E(k), E(str(v))) for k, v in pairs)))


def cell(rec, field, value, text=None):
    """A DMA table cell that says which record member it shows and its value as JSON."""
    return (E(text if text is not None else num(value)),
            ' data-field="%s" data-value="%s" class="n"' % (E(field), E(json.dumps(value))))


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def figure(kind, title, alt, fig, series=()):
    """A plot: title above (the figure's own), alt text for readers without images, and the lines
    it draws as JSON in data-series."""
    fig.suptitle(title, fontsize=10, y=1.0, va="bottom")
    return ('<figure data-series="%s"><img class="plot" data-plot="%s" alt="%s" src="data:image/png;base64,%s">'
            '<figcaption>%s</figcaption></figure>' % (E(json.dumps(list(series))), kind, E(alt), _png(fig), E(title)))


def section(sid, title, body):
    return '<section id="%s"><h2>%s</h2>%s</section>' % (sid, E(title), body)


# ---- the summary -------------------------------------------------------------------------------
def walk(obj):
    """Every dict inside a record, the record first."""
    if isinstance(obj, dict):
        yield obj
        for v in obj.values():
            yield from walk(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from walk(v)


def quality(log):
    """The run's quality: windows quiet or not, SMIs, emulated links, counters that did not
    advance, errors. [(what, value, bad)]."""
    masked = unmasked = smis = 0
    for r in log.records:
        for d in walk(r):
            if isinstance(d.get("interrupts_masked"), bool):
                if d["interrupts_masked"]:
                    masked += 1
                else:
                    unmasked += 1
            if isinstance(d.get("smi_delta"), int):
                smis += d["smi_delta"]
    links = [r for r in log.records if isinstance(r.get("link_limit"), dict) and r["link_limit"].get("impossible")]
    sc_states = {}
    for r in log.records:
        for k in ("self_check", "iio_self_check"):
            s = r.get(k)
            if isinstance(s, dict) and s.get("state"):
                sc_states[s["state"]] = sc_states.get(s["state"], 0) + 1
    absent = set()
    for r in log.records:
        for d in walk(r):
            if d.get("event") and d.get("state") in ("absent", "not-advancing", "faulted"):
                absent.add((d["event"], d["state"]))
    plat = log.first("platform") or {}
    hyp = any(p.get("hypervisor") or p.get("emulated") for p in log.records if p.get("type") in ("latency", "c2c", "cache_bw"))
    out = [("windows", "%s with interrupts masked, %s not" % (num(masked), num(unmasked)), unmasked > 0),
           ("SMIs during windows", num(smis), smis > 0)]
    if hyp or "hypervisor" in json.dumps(plat.get("probes", {})):
        out.append(("emulated or virtual machine", "yes: timings are the emulator's, counters may not count", True))
    out.append(("links above their negotiated limit", "%s windows (impossible on real hardware: an emulated link, or a "
                                                       "counting error)" % num(len(links)) if links else "none", bool(links)))
    out.append(("self-checks", ", ".join("%s %s" % (num(n), s) for s, n in sorted(sc_states.items())) or "none ran",
                any(s not in ("ok", "absent") for s in sc_states)))
    out.append(("counters that did not count", "; ".join("%s (%s)" % e for e in sorted(absent)) or "none", bool(absent)))
    errs = log.of("error")
    out.append(("errors", "; ".join("%s: %s" % (e.get("where"), e.get("message")) for e in errs) or "none", bool(errs)))
    return out


def summary(log):
    plat = log.first("platform") or {}
    sm = log.first("smbios") or {}
    cpu, topo, fw = plat.get("cpu") or {}, plat.get("topology") or {}, plat.get("firmware") or {}
    mem, bios, system = sm.get("memory") or {}, sm.get("bios") or {}, sm.get("system") or plat.get("system") or {}
    run, end = log.run, (log.records[-1] if log.ended else {})
    machine = [
        ("serial", log.serial),
        ("system", " ".join(x for x in (system.get("manufacturer"), system.get("product")) if x) or num(None)),
        ("CPU", "%s (%s, family %s model %s stepping %s, microcode %s)" % (
            cpu.get("brand") or cpu.get("vendor") or plat.get("arch", "?"), cpu.get("vendor", "?"), cpu.get("family", "?"),
            cpu.get("model", "?"), cpu.get("stepping", "?"), cpu.get("microcode", "-"))),
        ("sockets", num(topo.get("packages"))),
        ("CPUs", "%s logical, %s enabled, %s per core" % (num(topo.get("logical_cpus")), num(topo.get("enabled_cpus")),
                                                         num(topo.get("threads_per_core")))),
        ("memory", "%s in %s of %s DIMM slots, %s MT/s" % (mib(mem.get("total_mib")), num(mem.get("populated")),
                                                          num(mem.get("devices")), num(mem.get("configured_mts") or mem.get("speed_mts")))),
        ("firmware", "%s rev %s, UEFI %s; BIOS %s %s (%s)" % (fw.get("vendor", "?"), fw.get("revision", "?"), fw.get("uefi", "?"),
                                                             bios.get("vendor", "?"), bios.get("version", "?"), bios.get("date", "?"))),
    ]
    elapsed = end.get("elapsed_ms")
    runinfo = [
        ("efiperf version", run.get("version")), ("arch", run.get("arch")), ("started", run.get("started")),
        ("duration", "%s ms" % num(elapsed) if elapsed is not None else "unknown: the run has no end record"),
        ("config source", run.get("config_file") or "defaults and arguments"),
        ("log", log.name), ("status", end.get("status", "no end record")),
    ]
    q = quality(log)
    parts = ['<div class="cols"><div><h3>Machine</h3>%s</div><div><h3>Run</h3>%s</div></div>' % (
        kv(machine, "machine"), kv(runinfo, "run"))]
    parts.append("<h3>Verdict</h3>" + verdict_table(log))
    parts.append("<h3>Run quality</h3>" + table(["", "what the log says"], [
        ("bad" if bad else "good", [k, v]) for k, v, bad in q], tid="quality"))
    for inc in log.of("incomplete"):
        parts.append('<p class="issue">An earlier run never ended: %s (%s records, the last %s)</p>' % (
            E(str(inc.get("log"))), inc.get("records"), E(str(inc.get("last_record")))))
    if log.issues:
        parts.append('<h3>Recomputed values that disagree</h3><ul>%s</ul>' % "".join(
            '<li class="issue">%s</li>' % E(i) for i in log.issues))
    return section("summary", "Summary", "".join(parts))


def verdict_table(log):
    v = log.verdict
    if not v:
        why = ("no verdict: the log has no end record (INCOMPLETE)" if not log.ended
               else "no verdict record in this log")
        return '<p id="verdict" class="issue">%s</p>' % E(why)
    if not v["checks"]:
        return ('<p id="verdict" class="nochecks">No checks configured: %s is the run\'s status alone (%s). Add '
                '<code>check</code> or <code>expect_*</code> keys to the configuration to qualify the machine.</p>' % (
                    E(v["result"]), E(v.get("why") or "no errors")))
    rows = []
    for c in v["checks"]:
        thr = "%s %s" % (c["op"], json_text(c["threshold"]))
        if c["op"] == "within":
            thr = "within %s%% of %s" % (json_text(c.get("within_pct")), json_text(c["threshold"]))
        rows.append((c["result"].lower(), [c["result"], c["setting"], c["path"], thr, json_text(c["value"]), c.get("why") or ""]))
    return table(["result", "check", "path", "threshold", "value", "why"], rows, tid="verdict")


# ---- memory ------------------------------------------------------------------------------------
def outlier_bars(ax, labels, values, outliers, median, unit):
    ax.bar(labels, values, color=[RED if o else BLUE for o in outliers])
    if median:
        ax.axhline(median, color=GREY, lw=1, ls="--", label="median %s %s" % (num(median), unit))
        ax.legend(fontsize=7, loc="lower right")
    ax.set_ylabel(unit)
    ax.grid(True, axis="y", alpha=0.3)


def memory(log):
    parts = []
    for m in log.of("measurement"):
        if m.get("kernel") != "copy" or not m.get("passes"):
            continue
        rows = []
        for p in m["passes"]:
            pc = p.get("per_cpu") or []
            rows.append([num(p.get("pass")), num(p.get("ns")), num(p.get("gbps")), num(p.get("median_cpu_gbps")),
                         num(p.get("outliers")), ", ".join("CPU %s" % c["cpu"] for c in pc if c.get("outlier")) or "none",
                         "yes" if p.get("interrupts_masked") else "no", num(p.get("smi_delta"))])
        parts.append("<h3>Memory copy</h3><p>%s bytes per CPU on %s CPU(s), bytes moved = 2 x buffer per CPU (STREAM "
                     "convention); best %s GB/s.</p>" % (num(m.get("buffer_bytes")), num(m.get("cpus")), num(m.get("best_gbps"))))
        parts.append(table(["pass", "ns", "GB/s", "median CPU GB/s", "outliers", "outlier CPUs", "interrupts masked", "SMIs"], rows))
        best = max(m["passes"], key=lambda p: p.get("gbps") or 0)
        pc = best.get("per_cpu") or []
        if pc:
            fig, ax = plt.subplots(figsize=(7, 2.6))
            outlier_bars(ax, [str(c["cpu"]) for c in pc], [c["gbps"] for c in pc], [c.get("outlier") for c in pc],
                         best.get("median_cpu_gbps"), "GB/s")
            ax.set_xlabel("CPU")
            parts.append(figure("copy", "Memory copy per CPU, pass %s (outliers red)" % best.get("pass"),
                                "Bar chart of copy GB/s per CPU in the best pass; %d outlier(s)" % sum(1 for c in pc if c.get("outlier")),
                                fig, [{"label": "pass %s" % best.get("pass"), "window": "copy pass %s" % best.get("pass"),
                                       "x": [c["cpu"] for c in pc], "y": [c["gbps"] for c in pc]}]))
    st = log.of("stream")
    if st:
        rows = [[r["function"], r.get("kernel", ""), num(r.get("cpus")), num(r.get("array_bytes")), num(r["best_rate_mbps"]),
                 num(r.get("avg_ns")), num(r.get("min_ns")), num(r.get("max_ns")), num(r.get("median_cpu_mbps")),
                 num(r.get("outliers")), num(r.get("smi_delta"))] for r in st]
        parts.append("<h3>STREAM</h3>" + table(["function", "kernel", "CPUs", "array bytes", "best MB/s", "avg ns", "min ns",
                                                 "max ns", "median CPU MB/s", "outliers", "SMIs"], rows, tid="stream"))
        recs = [r for r in st if r.get("per_cpu")]
        if recs:
            fig, axes = plt.subplots(len(recs), 1, figsize=(7, 1.5 * len(recs) + 0.5), squeeze=False)
            series = []
            for ax, r in zip(axes[:, 0], recs):
                pc = r["per_cpu"]
                outlier_bars(ax, [str(c["cpu"]) for c in pc], [c["best_rate_mbps"] for c in pc], [c.get("outlier") for c in pc],
                             r.get("median_cpu_mbps"), "MB/s")
                ax.set_title("%s: best %s MB/s, %s outlier(s)" % (r["function"], num(r["best_rate_mbps"]), num(r.get("outliers", 0))),
                             fontsize=8)
                series.append({"label": r["function"], "window": "stream %s" % r["function"],
                               "x": [c["cpu"] for c in pc], "y": [c["best_rate_mbps"] for c in pc]})
            axes[-1, 0].set_xlabel("CPU")
            fig.tight_layout()
            parts.append(figure("stream", "STREAM best rate per CPU (outliers red)",
                                "Bar charts of each STREAM function's best MB/s per CPU, outliers in red", fig, series))
    for r in log.of("latency"):
        pts = r.get("points") or []
        if not pts:
            continue
        caches = {}
        for c in r.get("cpu_caches") or []:
            if c.get("cache_type") in ("data", "unified", "Data", "Unified") or c.get("level", 0) >= 2:
                caches.setdefault(c["level"], c["bytes"])
        lv = {l["level"]: l for l in r.get("levels") or []}
        rows = [[num(p["bytes"]), num(p["ns_per_load"]), "yes" if p.get("interrupts_masked") else "no", num(p.get("smi_delta"))]
                for p in pts]
        parts.append("<h3>Load latency (%s)</h3>" % E(str(r.get("kernel"))))
        if lv:
            parts.append(table(["cache", "reported size (bytes)", "knee (bytes)", "ns per load at the knee", "agrees", "why"], [
                ["L%s" % k, num(l.get("reported_bytes")), num(l.get("knee_bytes")), num(l.get("knee_ns_per_load")),
                 "yes" if l.get("agrees") else "no", l.get("why", "")] for k, l in sorted(lv.items())]))
        parts.append(table(["working set (bytes)", "ns per load", "interrupts masked", "SMIs"], rows, cls="latency"))
        fig, ax = plt.subplots(figsize=(7, 3.2))
        ax.plot([p["bytes"] for p in pts], [p["ns_per_load"] for p in pts], marker="o", color=BLUE, label="ns per load")
        for k, b in sorted(caches.items()):
            ax.axvline(b, color=GREY, ls=":", lw=1)
            ax.text(b, ax.get_ylim()[1], " L%s %s" % (k, size_text(b)), fontsize=7, va="top", color=GREY)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("working set (bytes)")
        ax.set_ylabel("ns per load")
        ax.grid(True, which="both", alpha=0.3)
        if r.get("emulated"):
            ax.text(0.01, 0.02, "emulated CPU: the knees say little about real caches", transform=ax.transAxes, fontsize=7, color=RED)
        parts.append(figure("latency", "Load latency against working set (cache sizes dotted)",
                            "Line plot of ns per load over %d working sets from %s to %s bytes, log axes" % (
                                len(pts), num(pts[0]["bytes"]), num(pts[-1]["bytes"])), fig,
                            [{"label": "ns per load", "window": "latency", "x": [p["bytes"] for p in pts],
                              "y": [p["ns_per_load"] for p in pts]}]))
    return section("memory", "Memory", "".join(parts)) if parts else ""


def size_text(b):
    for unit, n in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= n and b % n == 0:
            return "%d %s" % (b // n, unit)
    return "%d B" % b


# ---- DMA ---------------------------------------------------------------------------------------
DMA_COLS = ("window", "controllers", "bs", "iodepth", "bw_bytes", "iops", "clat_ns.p50", "clat_ns.p99", "clat_ns.max",
            "verified", "self_check.state", "self_check.ratio_read", "self_check.ratio_write", "link_limit.fraction")


def member(r, path):
    v = r
    for k in path.split("."):
        v = v.get(k) if isinstance(v, dict) else None
    return v


def dma_series(recs):
    """One line per (window, iodepth): points of different windows are never joined."""
    lines = {}
    for r in recs:
        if r.get("bs") is None or r.get("bw_bytes") is None:
            continue
        lines.setdefault((r.get("window") or "-", r.get("iodepth")), []).append(r)
    out = []
    for (w, d), rs in sorted(lines.items(), key=lambda kv: (kv[0][0], kv[0][1] if kv[0][1] is not None else -1)):
        rs.sort(key=lambda r: r["bs"])
        out.append({"label": "%s, iodepth %s" % (w, d), "window": w, "iodepth": d,
                    "x": [r["bs"] for r in rs], "y": [r["bw_bytes"] for r in rs]})
    return out


def link_limit(recs):
    for r in recs:
        ll = r.get("link_limit")
        if isinstance(ll, dict) and ll.get("effective_gbps"):
            return ll
    return None


def dma(log):
    by_bdf = {}
    for r in log.of("nvme"):
        by_bdf.setdefault(r.get("bdf"), []).append(r)
    if not by_bdf:
        return ""
    ctl = {c.get("bdf"): c for c in log.of("nvme_controller")}
    parts = ["<p>efiperf's own NVMe queues: each point alone on its controller (<i>alone</i>) and with every "
             "controller in one window (<i>shared</i>). bw_bytes in bytes/s, clat in ns (doorbell to completion seen). "
             "The self-check compares the bytes the counters saw with the bytes the commands moved.</p>"]
    lim_rows = []
    for bdf, recs in sorted(by_bdf.items(), key=lambda kv: str(kv[0])):
        c = ctl.get(bdf) or {}
        recs = sorted(recs, key=lambda r: (r.get("window") or "", r.get("bs") or 0, r.get("iodepth") or 0))
        parts.append('<h3 id="nvme-%s">NVMe %s%s</h3>' % (E(str(bdf)).replace(":", "-"), E(str(bdf)), E(
            " (%s %s, %s LBAs of %s bytes, MQES %s)" % (c.get("mn", ""), c.get("sn", ""), num(c.get("nsze")), num(c.get("lba_bytes")),
                                                         num(c.get("mqes")))) if c else ""))
        rows = []
        for r in recs:
            ll = r.get("link_limit") or {}
            frac = ll.get("fraction")
            row = [cell(r, "window", r.get("window"), r.get("window") or "-"), cell(r, "controllers", r.get("controllers"))]
            for f in DMA_COLS[2:]:
                v = member(r, f)
                row.append(cell(r, f, v, (num(v) + (" !" if f == "link_limit.fraction" and ll.get("impossible") else ""))
                                if f != "verified" else json_text(v)))
            rows.append(("impossible" if ll.get("impossible") or (frac or 0) > 1 else "", row))
        parts.append(table(["window", "ctrls", "bs", "iodepth", "bw_bytes", "IOPS", "clat p50", "clat p99", "clat max",
                            "verified", "self-check", "ratio read", "ratio write", "link fraction"], rows,
                           tid="dma-%s" % str(bdf).replace(":", "-").replace(".", "-"), cls="dma"))
        ll = link_limit(recs)
        series = dma_series(recs)
        if series:
            fig, ax = plt.subplots(figsize=(7, 3.3))
            for s in series:
                ax.plot(s["x"], [y / 1e9 for y in s["y"]], marker="o" if s["window"] == "alone" else "s",
                        ls="-" if s["window"] == "alone" else "--", label=s["label"])
            title = "NVMe %s: bandwidth by bs, one line per window and iodepth" % bdf
            if ll:
                emu = any((r.get("link_limit") or {}).get("impossible") for r in recs)
                ax.axhline(ll["effective_gbps"], color=RED, ls=":", lw=1.5,
                           label="link limit %s GB/s%s" % (num(ll["effective_gbps"]), " (emulated link: exceeded)" if emu else ""))
            ax.set_xscale("log", base=2)
            ax.set_xlabel("bs (bytes)")
            ax.set_ylabel("GB/s (10^9 bytes/s)")
            ax.legend(fontsize=7)
            ax.grid(True, alpha=0.3)
            parts.append(figure("dma", title, "Line plot of %s's bw_bytes against bs: %s" % (
                bdf, "; ".join(s["label"] for s in series)), fig, series))
        if ll:
            worst = max(((r.get("link_limit") or {}).get("fraction") or 0) for r in recs)
            emu = any((r.get("link_limit") or {}).get("impossible") for r in recs)
            bn = ll.get("bottleneck") or {}
            lim_rows.append(("impossible" if emu else "", [
                str(bdf), " \u2192 ".join(ll.get("path") or []), "%s GT/s x%s at %s" % (num(bn.get("gts")), num(bn.get("width")), bn.get("port", "?")),
                num(ll.get("raw_gbps")), num(ll.get("effective_read_gbps")), num(ll.get("effective_write_gbps")), num(worst),
                "yes: impossible on real hardware (emulated link or counting error)" if emu else "no"]))
    if lim_rows:
        parts.append("<h3>Link limit</h3><p>The narrowest link on each controller's path to its root port, and what its "
                     "MPS/MRRS leave of it (GB/s = 10^9 bytes/s). A fraction above 1 means the device moved data faster "
                     "than its negotiated link can carry: an emulated link is not held to its speed.</p>")
        parts.append(table(["controller", "path", "narrowest link", "raw GB/s", "effective read GB/s", "effective write GB/s",
                            "largest fraction", "above the limit"], lim_rows, tid="link-limit"))
    return section("dma", "DMA (NVMe)", "".join(parts))


# ---- counters ----------------------------------------------------------------------------------
def counters(log):
    parts = []
    td = [r for r in log.of("topdown") if r.get("valid") and r.get("ratio")]
    if td:
        parts.append("<h3>TopDown level 1</h3>" + table(["kernel", "pass", "CPU"] + list(TD_L1), [
            [r.get("kernel"), num(r.get("pass")), num(r.get("cpu"))] + [num(r["ratio"].get(k)) for k in TD_L1] for r in td]))
        labels = ["%s p%s c%s" % (r.get("kernel"), r.get("pass"), r.get("cpu")) for r in td]
        fig, ax = plt.subplots(figsize=(7, 3.2))
        bottom = [0.0] * len(td)
        for k in TD_L1:
            vals = [r["ratio"].get(k, 0) or 0 for r in td]
            ax.bar(labels, vals, bottom=bottom, label=k)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("fraction of slots")
        ax.legend(fontsize=7, ncol=4)
        plt.setp(ax.get_xticklabels(), rotation=45, ha="right", fontsize=7)
        parts.append(figure("topdown", "TopDown level 1 per kernel, pass and CPU",
                            "Stacked bars of the four TopDown level-1 fractions for %d windows" % len(td), fig))
    cha = log.of("cha")
    if cha:
        rows = []
        for r in cha:
            t = r.get("total") or {}
            sc = r.get("self_check") or {}
            rows.append(("bad" if r.get("status") != "ok" else "", [
                r.get("kernel") or "-", r.get("platform") or "-", r.get("status"), num(r.get("window_ns")),
                num(t.get("pcie_read_bytes")), num(t.get("pcie_write_bytes")), num(t.get("pcie_read_gbps")), num(t.get("pcie_write_gbps")),
                num(t.get("io_llc_hit_ratio")), sc.get("state", "-") if sc else "-", r.get("why") or t.get("missing") or ""]))
        parts.append("<h3>Uncore CHA</h3>" + table(["window", "platform", "status", "window ns", "PCIe read bytes", "PCIe write bytes",
                                                     "read GB/s", "write GB/s", "IO LLC hit ratio", "self-check", "why"], rows))
    unc = log.of("uncore")
    if unc:
        parts.append("<h3>Uncore boxes</h3>" + table(["PMU", "window", "status", "metrics"], [
            [r.get("pmu") or r.get("box") or "-", r.get("kernel") or "-", r.get("status") or "-",
             json.dumps(r.get("metrics"))[:200] if r.get("metrics") is not None else "-"] for r in unc]))
    scs = []
    for r in log.records:
        for k in ("self_check", "iio_self_check"):
            s = r.get(k)
            if isinstance(s, dict) and r.get("type") != "cha":
                scs.append((r, k, s))
    if scs:
        parts.append("<h3>Self-checks</h3>" + table(
            ["record", "check", "state", "expected read", "expected write", "counted read", "counted write", "ratio read",
             "ratio write", "why"],
            [("bad" if s.get("state") not in ("ok", "absent") else "", [
                "%s %s %s" % (r.get("type"), r.get("bdf") or r.get("kernel") or "", ("bs %s qd %s %s" % (r.get("bs"), r.get("iodepth"), r.get("window")))
                              if r.get("type") == "nvme" else ""),
                k, s.get("state"), num(s.get("expected_read_bytes")), num(s.get("expected_write_bytes")),
                num(s.get("counted_read_bytes")), num(s.get("counted_write_bytes")), num(s.get("ratio_read")),
                num(s.get("ratio_write")), s.get("why") or ""]) for r, k, s in scs], cls="selfcheck"))
    states = {}
    for r in log.of("core_counters"):
        for c in r.get("counters") or []:
            states.setdefault((c.get("event"), c.get("state")), [0, c.get("why") or ""])[0] += 1
    if states:
        parts.append("<h3>Core counters</h3>" + table(["event", "state", "windows", "why"], [
            ("bad" if st != "counted" else "", [ev, st, num(n), why]) for (ev, st), (n, why) in sorted(states.items(), key=lambda kv: str(kv[0]))]))
    return section("counters", "Counters", "".join(parts)) if parts else ""


# ---- matrices ----------------------------------------------------------------------------------
def heatmap(kind, title, alt, matrix, labels, unit):
    n = len(matrix)
    fig, ax = plt.subplots(figsize=(min(7, 2 + 0.35 * n), min(6, 1.6 + 0.3 * n)))
    vals = [[v if v is not None else float("nan") for v in row] for row in matrix]
    im = ax.imshow(vals, cmap="viridis")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=7)
    if n <= 16:
        for i, row in enumerate(matrix):
            for j, v in enumerate(row):
                if v is not None:
                    ax.text(j, i, "%.0f" % v if v >= 10 else "%.2g" % v, ha="center", va="center", fontsize=6, color="w")
    fig.colorbar(im, ax=ax, label=unit)
    return figure(kind, title, alt, fig)


def matrices(log):
    parts = []
    for r in log.of("c2c"):
        cpus = [c["cpu"] for c in r.get("cpus") or []]
        med = r.get("median_ns")
        if med and cpus:
            parts.append("<h3>Core to core</h3>" + heatmap(
                "c2c", "Core-to-core latency, median ns (round trip / 2)",
                "Heat map of the median one-way latency between %d CPUs" % len(cpus), med, [str(c) for c in cpus], "ns"))
    for r in log.of("numa_matrix"):
        nodes = [str(n["node"]) for n in r.get("nodes") or []]
        for key, title, unit in (("latency_ns", "NUMA idle latency (ns), CPU node rows, memory node columns", "ns"),
                                 ("read_gbps", "NUMA read bandwidth (GB/s), CPU node rows, memory node columns", "GB/s")):
            if r.get(key) and nodes:
                parts.append(heatmap("numa", title, "Heat map: %s between %d nodes" % (key, len(nodes)), r[key], nodes, unit))
    return section("matrices", "Core-to-core and NUMA", "".join(parts)) if parts else ""


# ---- PCIe --------------------------------------------------------------------------------------
def pcie_tree(log):
    funcs = log.of("pcie")
    if not funcs:
        return ""
    kids, have = {}, {f["bdf"] for f in funcs}
    for f in funcs:
        up = f.get("upstream") if f.get("upstream") in have else None
        kids.setdefault(up, []).append(f)
    rows = []
    cxl = {r.get("bdf"): r for r in log.of("cxl")}

    def link_text(f):
        ln = f.get("link")
        if not ln:
            return "", False
        mx = "%g GT/s x%s" % (ln["max_speed_gts"], ln["max_width"])
        if not ln.get("up"):
            return "link down (max %s)" % mx, False
        return "%g GT/s x%s (max %s)%s" % (ln["speed_gts"], ln["width"], mx,
                                            " DOWNTRAINED" if ln.get("downtrained") else ""), bool(ln.get("downtrained"))

    def walk_tree(up, depth):
        for f in sorted(kids.get(up, []), key=lambda f: f["bdf"]):
            text, bad = link_text(f)
            kind = (f.get("express") or {}).get("port_type", "")
            rows.append('<tr class="%s"><td style="padding-left:%dem">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>' % (
                "downtrained" if bad else "", 1 + 2 * depth, E(f["bdf"]), E(f.get("vendor_device", "")), E(f.get("class", "")),
                E(kind), E(text), E(cxl_text(cxl.get(f["bdf"])))))
            walk_tree(f["bdf"], depth + 1)
    walk_tree(None, 0)
    down = sum(1 for f in funcs if (f.get("link") or {}).get("downtrained"))
    return section("pcie", "PCIe", '<p>%s functions; %s downtrained link(s), marked red.</p><div class="tw"><table id="pcie-tree">'
                   '<thead><tr><th>function</th><th>vendor:device</th><th>class</th><th>port</th><th>negotiated link (max)</th><th>CXL</th></tr>'
                   '</thead><tbody>%s</tbody></table></div>' % (num(len(funcs)), num(down), "".join(rows)))


def cxl_text(r):
    """One cell for a `cxl` record: its role, decoders (committed ones with their range), capacity,
    health and defects."""
    if not r:
        return ""
    parts = ["CXL " + r.get("role", "")]
    hdm = ((r.get("component") or {}).get("hdm") or {})
    decs = hdm.get("decoders") or []
    if decs:
        done = ["%s+%s" % (d["base"], d["size"]) for d in decs if d.get("committed")]
        parts.append("%d decoder(s), %s" % (len(decs), "committed " + ", ".join(done) if done else "none committed"))
    idf = r.get("identify") or {}
    if idf.get("ok"):
        parts.append("%d MiB" % (idf["total_capacity_bytes"] >> 20))
    hl = r.get("health") or {}
    if hl.get("ok") and hl.get("life_used_pct") is not None:
        parts.append("life used %d%%" % hl["life_used_pct"])
    if r.get("ndefects"):
        parts.append("%d defect(s): %s" % (r["ndefects"], "; ".join(r.get("defects") or [])))
    return ", ".join(parts)


# ---- the page ----------------------------------------------------------------------------------
CSS = """@page{size:A4;margin:12mm}
body{font-family:"DejaVu Sans",sans-serif;margin:1.2em auto;max-width:72em;padding:0 1em;color:#1f2328;font-size:14px}
h1{font-size:1.5em}h2{border-bottom:2px solid #d0d7de;margin-top:1.6em}h3{margin-top:1.2em}
.tw{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #d0d7de;padding:.15em .45em;font-size:12px;text-align:left}
td{overflow-wrap:break-word}th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.kv th{width:9em}tr.fail td,tr.downtrained td,tr.bad td,tr.impossible td{color:#cf222e}tr.good td:first-child{color:#1a7f37}
tr.pass td:first-child{color:#1a7f37}.result{font-size:1.6em;font-weight:bold;margin:.2em 0}
figure{margin:.8em 0;break-inside:avoid}figure img{max-width:100%;height:auto}figcaption{font-size:12px;color:#57606a}
.cols{display:flex;flex-wrap:wrap;gap:1.5em}.cols>div{flex:1 1 28em;min-width:0}
nav ol{columns:2;font-size:13px}.issue{color:#cf222e}.nochecks{background:#fff8c5;padding:.4em .6em}
@media print{body{max-width:none;margin:0;padding:0;font-size:11px}.tw{overflow:visible}td,th{font-size:9px}
table.dma td,table.dma th{font-size:8px;padding:.1em .2em}
nav{break-after:avoid}section{break-before:auto}h2,h3{break-after:avoid}table{break-inside:auto}tr{break-inside:avoid}}"""


def report(log):
    """The HTML text of one log's report."""
    res = log.result
    sections = [summary(log), memory(log), dma(log), counters(log), matrices(log), pcie_tree(log)]
    errs = log.of("error")
    if errs:
        sections.append(section("errors", "Errors", table(["where", "message"], [[e.get("where"), e.get("message")] for e in errs])))
    sections = [s for s in sections if s]
    toc = []
    for s in sections:
        sid = s.split('id="', 1)[1].split('"', 1)[0]
        title = s.split("<h2>", 1)[1].split("</h2>", 1)[0]
        toc.append('<li><a href="#%s">%s</a></li>' % (sid, title))
    return "".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        '<title>efiperf %s %s</title><style>%s</style></head><body>' % (E(log.serial), res, CSS),
        '<h1>efiperf report: %s</h1>' % E(log.name),
        '<p class="result" id="result" style="color:%s">%s</p>' % (COLORS.get(res, "#000"), res),
        '<nav id="toc"><h2>Contents</h2><ol>%s</ol></nav>' % "".join(toc),
        "".join(sections), "</body></html>\n"])
