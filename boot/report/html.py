# SPDX-License-Identifier: BSD-2-Clause
"""The HTML report of one log: a summary, the verdict table, and plots as inline PNG images
(matplotlib's Agg backend; Debian python3-matplotlib):

    latency     ns per load against working-set bytes, log x axis
    stream      per-CPU best MB/s of each STREAM function, outliers in red
    dma         NVMe bw_bytes against bs, one curve per iodepth, the link limit as a line when
                the log has one
    topdown     level-1 TopDown ratios as stacked bars per kernel, pass and CPU
    pcie tree   (HTML) every function under its upstream port, negotiated and maximum link, CXL role/decoders/capacity/health,
                downtrained links in red
The page has one element with id="verdict" (the verdict table) and every image carries
class="plot" and its kind in data-plot, so a browser test can find them.
"""
import base64
import html
import io

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TD_L1 = ("retiring", "bad_speculation", "frontend_bound", "backend_bound")
COLORS = {"PASS": "#1a7f37", "FAIL": "#cf222e", "ERROR": "#bc4c00", "INCOMPLETE": "#9a6700", "INVALID": "#6e7781"}


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _img(kind, title, fig):
    return ('<figure><img class="plot" data-plot="%s" alt="%s" src="data:image/png;base64,%s">'
            '<figcaption>%s</figcaption></figure>' % (kind, html.escape(title), _png(fig), html.escape(title)))


def plot_latency(log):
    out = []
    for r in log.of("latency"):
        pts = r.get("points") or []
        if not pts:
            continue
        fig, ax = plt.subplots(figsize=(7, 3.5))
        ax.plot([p["bytes"] for p in pts], [p["ns_per_load"] for p in pts], marker="o")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("working set (bytes)")
        ax.set_ylabel("ns per load")
        ax.grid(True, which="both", alpha=0.3)
        out.append(_img("latency", "Load latency (%s)" % r.get("kernel"), fig))
    return out


def plot_stream(log):
    recs = [r for r in log.of("stream") if r.get("per_cpu")]
    if not recs:
        return []
    fig, axes = plt.subplots(len(recs), 1, figsize=(7, 1.9 * len(recs)), squeeze=False)
    for ax, r in zip(axes[:, 0], recs):
        pc = r["per_cpu"]
        ax.bar([str(c["cpu"]) for c in pc], [c["best_rate_mbps"] for c in pc],
               color=["#cf222e" if c.get("outlier") else "#0969da" for c in pc])
        if r.get("median_cpu_mbps"):
            ax.axhline(r["median_cpu_mbps"], color="#6e7781", lw=1, ls="--")
        ax.set_ylabel("MB/s")
        ax.set_title("%s: best %s MB/s, %d outliers" % (r["function"], r["best_rate_mbps"], r.get("outliers", 0)), fontsize=9)
    axes[-1, 0].set_xlabel("CPU")
    fig.tight_layout()
    return [_img("stream", "STREAM per-CPU best rate (outliers red)", fig)]


def _link_limit_gbps(log, bdf):
    for r in log.of("nvme") + log.of("measurement"):
        ll = r.get("link_limit")
        if isinstance(ll, dict) and r.get("bdf") == bdf and ll.get("effective_gbps"):
            return ll["effective_gbps"]
    return None


def plot_dma(log):
    out = []
    by_bdf = {}
    for r in log.of("nvme"):
        if r.get("bs") and r.get("bw_bytes") is not None:
            by_bdf.setdefault(r["bdf"], []).append(r)
    for bdf, recs in sorted(by_bdf.items()):
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for depth in sorted({r.get("iodepth") for r in recs}, key=lambda d: (d is None, d)):
            rs = sorted((r for r in recs if r.get("iodepth") == depth), key=lambda r: r["bs"])
            ax.plot([r["bs"] for r in rs], [r["bw_bytes"] / 1e9 for r in rs], marker="o", label="iodepth %s" % depth)
        lim = _link_limit_gbps(log, bdf)
        if lim:
            ax.axhline(lim, color="#cf222e", ls="--", label="link limit %.3g GB/s" % lim)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bs (bytes)")
        ax.set_ylabel("GB/s")
        ax.legend(fontsize=8)
        ax.grid(True, alpha=0.3)
        out.append(_img("dma", "NVMe %s: bandwidth by bs and iodepth" % bdf, fig))
    return out


def plot_topdown(log):
    recs = [r for r in log.of("topdown") if r.get("valid") and r.get("ratio")]
    if not recs:
        return []
    labels = ["%s p%s c%s" % (r.get("kernel"), r.get("pass"), r.get("cpu")) for r in recs]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    bottom = [0.0] * len(recs)
    for k in TD_L1:
        vals = [r["ratio"].get(k, 0) for r in recs]
        ax.bar(labels, vals, bottom=bottom, label=k)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("fraction of slots")
    ax.legend(fontsize=8, ncol=4)
    plt.setp(ax.get_xticklabels(), rotation=45, ha="right", fontsize=7)
    return [_img("topdown", "TopDown level 1", fig)]


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

    def walk(up, depth):
        for f in sorted(kids.get(up, []), key=lambda f: f["bdf"]):
            text, bad = link_text(f)
            kind = (f.get("express") or {}).get("port_type", "")
            rows.append('<tr class="%s"><td style="padding-left:%dem">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>' % (
                "downtrained" if bad else "", 1 + 2 * depth, html.escape(f["bdf"]), html.escape(f.get("vendor_device", "")),
                html.escape(kind), html.escape(text), html.escape(cxl_text(cxl.get(f["bdf"])))))
            walk(f["bdf"], depth + 1)
    walk(None, 0)
    return ('<table id="pcie-tree"><tr><th>function</th><th>vendor:device</th><th>port</th>'
            '<th>negotiated link (max)</th><th>CXL</th></tr>%s</table>' % "".join(rows))


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


def verdict_table(log):
    v = log.verdict
    if not v:
        why = ("no verdict: the log has no end record (INCOMPLETE)" if not log.ended
               else "no verdict record in this log")
        return '<table id="verdict"><tr><td>%s</td></tr></table>' % html.escape(why)
    rows = ["<tr><th>result</th><th>check</th><th>path</th><th>threshold</th><th>value</th><th>why</th></tr>"]
    for c in v["checks"]:
        thr = "%s %s" % (c["op"], json_text(c["threshold"]))
        if c["op"] == "within":
            thr = "within %s%% of %s" % (json_text(c.get("within_pct")), json_text(c["threshold"]))
        rows.append('<tr class="%s"><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>' % (
            c["result"].lower(), c["result"], html.escape(c["setting"]), html.escape(c["path"]), html.escape(thr),
            html.escape(json_text(c["value"])), html.escape(c.get("why") or "")))
    return '<table id="verdict">%s</table>' % "".join(rows)


def json_text(v):
    if v is None:
        return "-"
    if v is True or v is False:
        return "true" if v else "false"
    return str(v)


CSS = """body{font-family:sans-serif;margin:1.5em;max-width:80em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #d0d7de;padding:.2em .5em;font-size:90%;text-align:left}tr.fail td,tr.downtrained td{color:#cf222e}
tr.pass td:first-child{color:#1a7f37}.result{font-size:150%;font-weight:bold}figure{margin:1em 0}
.issue{color:#cf222e}"""


def report(log):
    """The HTML text of one log's report."""
    res = log.result
    parts = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>efiperf %s %s</title><style>%s</style></head><body>'
             % (html.escape(log.serial), res, CSS)]
    parts.append('<h1>efiperf report: %s</h1>' % html.escape(log.name))
    parts.append('<p class="result" id="result" style="color:%s">%s</p>' % (COLORS.get(res, "#000"), res))
    run = log.run
    parts.append("<p>serial %s, %s %s, version %s, started %s, config %s</p>" % tuple(html.escape(str(x)) for x in (
        log.serial, run.get("arch"), (log.first("platform") or {}).get("cpu", {}).get("brand", ""), run.get("version"),
        run.get("started"), run.get("config_file"))))
    for inc in log.of("incomplete"):
        parts.append('<p class="issue">An earlier run never ended: %s (%s records, the last %s)</p>' % (
            html.escape(str(inc.get("log"))), inc.get("records"), html.escape(str(inc.get("last_record")))))
    if log.issues:
        parts.append('<h2>Recomputed values that disagree</h2><ul>%s</ul>' % "".join(
            '<li class="issue">%s</li>' % html.escape(i) for i in log.issues))
    parts.append("<h2>Verdict</h2>" + verdict_table(log))
    errs = log.of("error")
    if errs:
        parts.append("<h2>Errors</h2><ul>%s</ul>" % "".join(
            "<li>%s: %s</li>" % (html.escape(e["where"]), html.escape(e["message"])) for e in errs))
    for title, imgs in (("Latency", plot_latency(log)), ("STREAM", plot_stream(log)), ("DMA", plot_dma(log)),
                        ("TopDown", plot_topdown(log))):
        if imgs:
            parts.append("<h2>%s</h2>%s" % (title, "".join(imgs)))
    tree = pcie_tree(log)
    if tree:
        parts.append("<h2>PCIe</h2>" + tree)
    parts.append("</body></html>\n")
    return "".join(parts)
