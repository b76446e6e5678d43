# SPDX-License-Identifier: BSD-2-Clause
"""The collector's HTTP service (Debian's python3-aiohttp).

    POST /api/v1/runs/RUN_ID/records   upload (Authorization: Bearer TOKEN), see ingest.py
    GET  /                             the fleet page: every serial, its last run and state, the
                                       fleet median of each key metric and the machines below it,
                                       downtrained links, failed checks, runs in progress
    GET  /runs/RUN_ID                  that run's HTML report (boot/report), also while it runs
    GET  /api/v1/runs                  JSON: runs, filtered by ?serial=&result=&since=&until=
    GET  /api/v1/runs/RUN_ID           JSON: one run
    GET  /api/v1/runs/RUN_ID/records   the run's records as JSON Lines, in order
    GET  /api/v1/runs.csv              CSV of the runs (same filters)
    GET  /api/v1/junit.xml             JUnit XML: a test suite per run, a case per check
    GET  /healthz                      "ok" and the counts

Uploads need the token; every other page is read-only and needs none. Bodies over --max-body
bytes are refused (413). The store is used from one worker thread, so uploads are applied one
at a time, in the order they arrive."""
import asyncio
import concurrent.futures
import csv
import hmac
import html
import io
import json
import time

from aiohttp import web

from report import logs as L
from . import ingest as I


class Collector:
    def __init__(self, store_factory, token, stale, below=10.0):
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self.store = self.pool.submit(store_factory).result()
        self.token = token.encode()
        self.stale = stale
        self.below = below

    async def db(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    # --- upload -----------------------------------------------------------------------------
    async def upload(self, request):
        auth = request.headers.get("Authorization", "")
        given = auth[len("Bearer "):].encode() if auth.startswith("Bearer ") else b""
        if not hmac.compare_digest(given, self.token):
            return web.json_response({"error": "missing or wrong token (Authorization: Bearer ...)"}, status=401)
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return web.json_response({"error": "body over %d bytes" % request.app["max_body"]}, status=413)
        run_id = request.match_info["run_id"]
        try:
            out = await self.db(I.ingest, self.store, run_id, body)
        except I.Refused as e:
            return web.json_response({"error": e.reason}, status=e.status)
        return web.json_response(out)

    # --- reading ----------------------------------------------------------------------------
    def _runs(self, q):
        now = time.time()
        out = []
        for r in self.store.runs(q.get("serial"), q.get("since"), q.get("until")):
            r["state"] = I.status(r, now, self.stale)
            if q.get("result") and r["state"] != q["result"]:
                continue
            out.append(r)
        return out

    def _log(self, run_id):
        recs = [json.loads(b) for _, _, b in self.store.records(run_id)]
        return L.Log("/runs/%s" % run_id, recs) if recs else None

    async def api_runs(self, request):
        return web.json_response(await self.db(self._runs, request.query))

    async def api_run(self, request):
        run = await self.db(self.store.run, request.match_info["run_id"])
        if run is None:
            raise web.HTTPNotFound(text="no such run\n")
        run["state"] = I.status(run, time.time(), self.stale)
        return web.json_response(run)

    async def api_records(self, request):
        rows = await self.db(self.store.records, request.match_info["run_id"])
        if not rows:
            raise web.HTTPNotFound(text="no such run\n")
        return web.Response(text="".join(b + "\n" for _, _, b in rows), content_type="application/x-ndjson")

    async def api_csv(self, request):
        runs = await self.db(self._runs, request.query)
        buf = io.StringIO()
        cols = ("run_id", "serial", "product", "started", "state", "next_seq", "invalid_reason")
        w = csv.DictWriter(buf, cols, extrasaction="ignore")
        w.writeheader()
        for r in runs:
            w.writerow(r)
        return web.Response(text=buf.getvalue(), content_type="text/csv")

    def _junit(self, q):
        from report import junit
        entries = []
        for r in self._runs(q):
            log = self._log(r["run_id"])
            entries.append((r["run_id"], log, r["state"] if r["state"] != "RUNNING" else "INCOMPLETE",
                            r["invalid_reason"] or ""))
        return junit.build(entries)

    async def api_junit(self, request):
        return web.Response(text=await self.db(self._junit, request.query), content_type="application/xml")

    def _report(self, run_id):
        from report import html as H, recompute
        log = self._log(run_id)
        if log is None:
            return None
        recompute.check(log)
        return H.report(log)

    async def run_page(self, request):
        run_id = request.match_info["run_id"]
        if not I.RUN_ID_RE.match(run_id):
            raise web.HTTPNotFound(text="no such run\n")
        text = await self.db(self._report, run_id)
        if text is None:
            raise web.HTTPNotFound(text="no such run\n")
        return web.Response(text=text, content_type="text/html")

    def _fleet(self):
        from report import fleet
        runs = self._runs({})
        last = {}
        for r in runs:
            last[r["serial"]] = r      # ordered by first_seen: the newest stays
        p = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>efiperf collector</title><style>'
             'body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:.5em 0}'
             'td,th{border:1px solid #d0d7de;padding:.2em .5em}.FAIL,.ERROR,.INVALID,.INCOMPLETE{color:#cf222e}'
             '.PASS{color:#1a7f37}</style></head><body><h1>efiperf collector: %d machines, %d runs</h1>' % (len(last), len(runs))]
        p.append('<table id="serials"><tr><th>serial</th><th>product</th><th>last run</th><th>started</th>'
                 '<th>state</th><th>records</th><th>why</th></tr>')
        for s, r in sorted(last.items()):
            p.append('<tr><td>%s</td><td>%s</td><td><a href="/runs/%s">%s</a></td><td>%s</td><td class="%s">%s</td>'
                     '<td>%d</td><td>%s</td></tr>' % (
                         html.escape(s), html.escape(r["product"] or ""), html.escape(r["run_id"]), html.escape(r["run_id"]),
                         html.escape(r["started"] or ""), r["state"], r["state"], r["next_seq"],
                         html.escape(r["invalid_reason"] or "")))
        p.append("</table>")
        running = [r for r in runs if r["state"] == "RUNNING"]
        p.append("<h2>Runs in progress</h2><ul id=\"running\">%s</ul>" % "".join(
            '<li><a href="/runs/%s">%s</a> (%s, %d records)</li>' % (
                html.escape(r["run_id"]), html.escape(r["run_id"]), html.escape(r["serial"]), r["next_seq"]) for r in running))
        logs = [self._log(r["run_id"]) for r in last.values() if r["ended"] and not r["invalid_reason"]]
        logs = [lg for lg in logs if lg is not None]
        if logs:
            body = fleet.to_html(*fleet.build(logs, self.below), self.below, link_of=lambda lg: lg.path)
            p.append(body[body.index("<body>") + 6:body.rindex("</body>")])
        p.append("</body></html>\n")
        return "".join(p)

    async def fleet_page(self, request):
        return web.Response(text=await self.db(self._fleet), content_type="text/html")

    async def healthz(self, request):
        runs, recs = await self.db(self.store.counts)
        return web.json_response({"ok": True, "runs": runs, "records": recs})


def make_app(collector, max_body):
    app = web.Application(client_max_size=max_body)
    app["max_body"] = max_body
    app.add_routes([
        web.post("/api/v1/runs/{run_id}/records", collector.upload),
        web.get("/api/v1/runs", collector.api_runs),
        web.get("/api/v1/runs.csv", collector.api_csv),
        web.get("/api/v1/junit.xml", collector.api_junit),
        web.get("/api/v1/runs/{run_id}", collector.api_run),
        web.get("/api/v1/runs/{run_id}/records", collector.api_records),
        web.get("/runs/{run_id}", collector.run_page),
        web.get("/", collector.fleet_page),
        web.get("/healthz", collector.healthz),
    ])
    return app
