#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""make bench-collector: a replay client posts the recorded QEMU log of tests/report/logs as N
simulated machines (serial and run id rewritten per machine) to boot/efiperf-collector over
loopback, C machines at a time, one record per POST as efiperf sends them, on SQLite and on a
PostgreSQL 15 server of its own. Prints records per second, p50/p99 ingest latency per POST, and
the records lost and duplicated (counted back from the database through the API: both must be
0). A benchmark, not a test: state the machine with its figures.

    tests/bench/bench_collector.py [--machines 1000] [--concurrency 64] [--db sqlite,postgresql]"""
import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "collector"))
from collector_fixtures import Postgres, Server, TOKEN, records_of  # noqa: E402


async def machine(session, base, serial, recs, lat):
    run_id = "bench-" + serial
    for seq, r in enumerate(recs):
        body = json.dumps({"seq": seq, "record": r}) + "\n"
        for attempt in range(20):
            t0 = time.perf_counter()
            async with session.post("%s/api/v1/runs/%s/records" % (base, run_id), data=body,
                                    headers={"Authorization": "Bearer " + TOKEN}) as resp:
                await resp.read()
                lat.append(time.perf_counter() - t0)
                if resp.status == 200:
                    break
            await asyncio.sleep(0.05 * (attempt + 1))
        else:
            raise RuntimeError("%s seq %d refused 20 times" % (run_id, seq))


async def replay(base, n, conc):
    import aiohttp
    template = records_of()
    lat = []
    sem = asyncio.Semaphore(conc)
    conn = aiohttp.TCPConnector(limit=conc)
    async with aiohttp.ClientSession(connector=conn) as s:
        async def one(i):
            async with sem:
                serial = "SIM%04d" % i
                recs = [dict(r) for r in template]
                for r in recs:
                    if r["type"] == "run":
                        r["log"] = "\\efiperf\\logs\\%s-20261127-120000" % serial
                    if r["type"] == "smbios":
                        r["log_serial"] = serial
                await machine(s, base, serial, recs, lat)
        t0 = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(n)))
        wall = time.perf_counter() - t0
        lost = dup = 0
        for i in range(n):
            async with s.get("%s/api/v1/runs/bench-SIM%04d/records" % (base, i)) as resp:
                got = (await resp.text()).splitlines()
            lost += max(0, len(template) - len(got))
            dup += max(0, len(got) - len(set(got)))
    return len(template) * n, wall, lat, lost, dup


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machines", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--db", default="sqlite,postgresql")
    a = ap.parse_args()
    print("bench-collector: %d machines x %d records, %d at a time, one record per POST, loopback" % (
        a.machines, len(records_of()), a.concurrency))
    print("%-11s %10s %9s %9s %9s %5s %5s" % ("db", "records", "rec/s", "p50 ms", "p99 ms", "lost", "dup"))
    for kind in a.db.split(","):
        tmp = tempfile.mkdtemp(prefix="efiperf-bench-")
        pg = None
        try:
            if kind == "postgresql":
                pg = Postgres().start()
                db = pg.createdb("bench")
            else:
                db = os.path.join(tmp, "bench.sqlite")
            srv = Server(db, tmp).start()
            try:
                total, wall, lat, lost, dup = asyncio.run(replay(srv.client.base, a.machines, a.concurrency))
            finally:
                srv.stop()
        finally:
            if pg:
                pg.stop()
        q = statistics.quantiles(lat, n=100)
        print("%-11s %10d %9.0f %9.2f %9.2f %5d %5d" % (kind, total, total / wall, q[49] * 1e3, q[98] * 1e3, lost, dup))
    return 0


if __name__ == "__main__":
    sys.exit(main())
