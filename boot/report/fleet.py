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
            k = "nvme %s bs %s iodepth %s bw_bytes" % (r["bdf"], r.get("bs"), r.get("iodepth"))
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


def to_html(machines, rows, downtrained, failed, below_pct):
    p = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>efiperf fleet</title><style>'
         'body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:.5em 0}'
         'td,th{border:1px solid #d0d7de;padding:.2em .5em}tr.below td{color:#cf222e;font-weight:bold}</style></head><body>']
    p.append("<h1>efiperf fleet: %d machines</h1><table id=\"machines\"><tr><th>machine</th><th>result</th><th>log</th></tr>%s</table>" % (
        len(machines), "".join("<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (html.escape(s), lg.result, html.escape(lg.path))
                               for s, lg in sorted(machines.items()))))
    metric = None
    for r in rows:
        if r["metric"] != metric:
            if metric is not None:
                p.append("</table>")
            metric = r["metric"]
            p.append("<h2>%s</h2><p>fleet median %s; marked: more than %g%% below it</p><table class=\"metric\">"
                     "<tr><th>machine</th><th>value</th><th>%% of median</th></tr>" % (html.escape(metric), r["fleet_median"], below_pct))
        p.append('<tr class="%s"><td>%s</td><td>%s</td><td>%s</td></tr>' % (
            "below" if r["below"] else "", html.escape(r["machine"]), r["value"], r["pct_of_median"]))
    if metric is not None:
        p.append("</table>")
    p.append("<h2>Downtrained links</h2><table id=\"downtrained\"><tr><th>machine</th><th>function</th><th>link</th></tr>%s</table>" % "".join(
        "<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % tuple(html.escape(str(x)) for x in d) for d in downtrained))
    p.append("<h2>Failed checks</h2><table id=\"failed\"><tr><th>machine</th><th>check</th><th>value</th><th>why</th></tr>%s</table>" % "".join(
        "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % tuple(html.escape(str(x)) for x in f) for f in failed))
    p.append("</body></html>\n")
    return "".join(p)
