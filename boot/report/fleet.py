# SPDX-License-Identifier: BSD-2-Clause
"""Fleet mode: logs of many machines side by side. One table per metric (machine, value, the
fleet median, and whether the machine is more than N% below it), the downtrained links and the
failed checks of every machine; as HTML and CSV. A machine with several logs is represented by
its newest complete one (the last given)."""
import csv
import html
import io
import statistics


def metrics(log):
    """{metric name: value} of one log; higher is better for every one."""
    out = {}
    for r in log.of("stream"):
        out["stream %s MB/s" % r["function"]] = r["best_rate_mbps"]
    for r in log.of("measurement"):
        if r.get("kernel") == "copy" and r.get("passes"):
            out["copy GB/s (best pass)"] = max(p["gbps"] for p in r["passes"])
    for r in log.of("nvme"):
        if r.get("bw_bytes") is not None:
            k = "nvme %s %s bs %s iodepth %s bw_bytes" % (r["bdf"], r.get("window", "alone"), r.get("bs"), r.get("iodepth"))
            out[k] = max(out.get(k, 0), r["bw_bytes"])
    return out


def build(logs, below_pct):
    machines = {}
    for lg in logs:
        if lg.ended or lg.serial not in machines:
            machines[lg.serial] = lg
    tables = {}
    for serial, lg in machines.items():
        for k, v in metrics(lg).items():
            tables.setdefault(k, []).append((serial, v))
    rows = []
    for k in sorted(tables):
        vals = tables[k]
        med = statistics.median(v for _, v in vals)
        for serial, v in sorted(vals):
            low = med > 0 and v < med * (1 - below_pct / 100.0)
            rows.append({"metric": k, "machine": serial, "value": v, "fleet_median": med,
                         "below": low, "pct_of_median": round(100.0 * v / med, 1) if med else None})
    downtrained, failed = [], []
    for serial, lg in sorted(machines.items()):
        for f in lg.of("pcie"):
            ln = f.get("link") or {}
            if ln.get("downtrained"):
                downtrained.append((serial, f["bdf"], "%s GT/s x%s of %s GT/s x%s" % (
                    ln.get("speed_gts"), ln.get("width"), ln.get("max_speed_gts"), ln.get("max_width"))))
        for c in lg.checks:
            if c["result"] != "PASS":
                failed.append((serial, c["setting"], c["value"], c.get("why")))
    return machines, rows, downtrained, failed


def to_csv(rows):
    buf = io.StringIO()
    w = csv.DictWriter(buf, ["metric", "machine", "value", "fleet_median", "pct_of_median", "below"])
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def page_link(lg, fleet_dir, html_dir):
    """Where a machine's serial links to: its run's HTML report when --html wrote one, else its log."""
    import os
    if html_dir:
        target = os.path.join(html_dir, os.path.splitext(lg.name)[0] + ".html")
    else:
        target = lg.path
    return os.path.relpath(os.path.abspath(target), os.path.abspath(fleet_dir))


def to_html(machines, rows, downtrained, failed, below_pct, fleet_dir=".", html_dir=None, link_of=None):
    """The fleet page. link_of(log) -> the URL a serial links to (default: page_link, relative to
    fleet_dir; the collector gives its /runs/RUN_ID pages)."""
    from .html import CSS, num
    E = html.escape
    metric_names = sorted({r["metric"] for r in rows})
    cell = {(r["machine"], r["metric"]): r for r in rows}
    med = {r["metric"]: r["fleet_median"] for r in rows}
    p = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>efiperf fleet</title><style>%s'
         'td.below{color:#cf222e;font-weight:bold;background:#ffebe9}table.fleet th{font-size:11px}</style></head><body>' % CSS]
    p.append("<h1>efiperf fleet: %d machines</h1>" % len(machines))
    p.append('<nav id="toc"><h2>Contents</h2><ol><li><a href="#matrix">Machines and metrics</a></li>'
             '<li><a href="#metrics">Each metric</a></li><li><a href="#downtrained-links">Downtrained links</a></li>'
             '<li><a href="#failed-checks">Failed checks</a></li></ol></nav>')
    p.append('<section id="matrix"><h2>Machines and metrics</h2><p>One row per machine (its newest complete log; the '
             'serial links to its run), one column per metric, higher is better; red: more than %g%% below the fleet '
             'median.</p>' % below_pct)
    head = "".join("<th>%s</th>" % E(m) for m in metric_names)
    body = []
    for s, lg in sorted(machines.items()):
        tds = []
        for m in metric_names:
            r = cell.get((s, m))
            if r is None:
                tds.append("<td>\u2013</td>")
            else:
                tds.append('<td class="n%s" title="%s%% of the median">%s</td>' % (
                    " below" if r["below"] else "", num(r["pct_of_median"]), num(r["value"])))
        body.append('<tr><td><a href="%s">%s</a></td><td>%s</td>%s</tr>' % (
            E(link_of(lg) if link_of else page_link(lg, fleet_dir, html_dir)), E(s), lg.result, "".join(tds)))
    body.append('<tr class="median"><th>fleet median</th><th></th>%s</tr>' % "".join(
        '<td class="n">%s</td>' % num(med[m]) for m in metric_names))
    p.append('<div class="tw"><table id="machines" class="fleet"><thead><tr><th>machine</th><th>result</th>%s</tr></thead>'
             '<tbody>%s</tbody></table></div></section>' % (head, "".join(body)))
    p.append('<section id="metrics"><h2>Each metric</h2>')
    metric = None
    for r in rows:
        if r["metric"] != metric:
            if metric is not None:
                p.append("</table>")
            metric = r["metric"]
            p.append("<h3>%s</h3><p>fleet median %s; marked: more than %g%% below it</p><table class=\"metric\">"
                     "<tr><th>machine</th><th>value</th><th>%% of median</th></tr>" % (E(metric), num(r["fleet_median"]), below_pct))
        p.append('<tr class="%s"><td>%s</td><td class="n">%s</td><td class="n">%s</td></tr>' % (
            "below" if r["below"] else "", E(r["machine"]), num(r["value"]), num(r["pct_of_median"])))
    if metric is not None:
        p.append("</table>")
    p.append("</section>")
    p.append('<section id="downtrained-links"><h2>Downtrained links</h2><table id="downtrained"><tr><th>machine</th><th>function</th>'
             '<th>link</th></tr>%s</table></section>' % "".join(
                 "<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % tuple(E(str(x)) for x in d) for d in downtrained))
    p.append('<section id="failed-checks"><h2>Failed checks</h2><table id="failed"><tr><th>machine</th><th>check</th><th>value</th>'
             '<th>why</th></tr>%s</table></section>' % "".join(
                 "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % tuple(E(str(x)) for x in f) for f in failed))
    p.append("</body></html>\n")
    return "".join(p)
