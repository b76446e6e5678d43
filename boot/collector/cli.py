# SPDX-License-Identifier: BSD-2-Clause
"""efiperf-collector [--listen HOST:PORT] [--db URL] (--token-file FILE | EFIPERF_COLLECTOR_TOKEN)
                     [--max-body BYTES] [--stale SECONDS] [--migrate-only]

--db: a file path or sqlite:///PATH (the default, collector.sqlite in the working folder), or
postgresql://USER@HOST/DB (psycopg's connection strings, a Unix socket folder as host=... too).
The token comes from a file (first line) or the environment, never the command line (which
every user of the machine can read)."""
import argparse
import os
import sys

from .store import Store


def main(argv=None):
    ap = argparse.ArgumentParser(prog="efiperf-collector", description="Collect efiperf records from a lab fleet.")
    ap.add_argument("--listen", default="127.0.0.1:8080", metavar="HOST:PORT")
    ap.add_argument("--db", default="collector.sqlite", metavar="URL")
    ap.add_argument("--token-file", metavar="FILE")
    ap.add_argument("--max-body", type=int, default=4 << 20, metavar="BYTES",
                    help="largest upload body (default 4 MiB)")
    ap.add_argument("--stale", type=float, default=300.0, metavar="SECONDS",
                    help="a run with no record for this long and no end is INCOMPLETE (default 300)")
    ap.add_argument("--migrate-only", action="store_true", help="create or update the database and exit")
    a = ap.parse_args(argv)
    if a.migrate_only:
        s = Store(a.db)
        print("efiperf-collector: %s at schema version %d" % (a.db, s.version()))
        s.close()
        return 0
    token = None
    if a.token_file:
        with open(a.token_file, encoding="utf-8") as f:
            token = f.readline().strip()
    else:
        token = os.environ.get("EFIPERF_COLLECTOR_TOKEN", "").strip()
    if not token:
        ap.error("no upload token: give --token-file FILE or set EFIPERF_COLLECTOR_TOKEN")
    host, _, port = a.listen.rpartition(":")
    if not host or not port.isdigit():
        ap.error("--listen must be HOST:PORT, not %r" % a.listen)
    from aiohttp import web
    from .app import Collector, make_app
    c = Collector(lambda: Store(a.db), token, a.stale)
    print("efiperf-collector: listening on http://%s:%s/, database %s" % (host, port, a.db), flush=True)
    web.run_app(make_app(c, a.max_body), host=host, port=int(port), print=None, access_log=None)
    return 0


def run():
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
