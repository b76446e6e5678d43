# SPDX-License-Identifier: BSD-2-Clause
"""efiperf-report LOG.jsonl... [--html DIR] [--fleet DIR] [--below PCT] [--junit FILE] [--quiet]

Reads each log strictly (logs.py), recomputes its derived values (recompute.py) and prints one
line per log: RESULT serial=S log=PATH checks=P/N. --html writes DIR/<log>.html for each log;
--fleet writes DIR/fleet.html and DIR/fleet.csv over all logs; --junit writes JUnit XML.
Exit status, the worst over the logs: 0 PASS, 1 FAIL, 2 INCOMPLETE or ERROR, 3 invalid log
(unreadable, not JSONL, not matching its schema, a newer schema, recomputed values that
disagree, or a bad command line).
"""
import argparse
import os
import sys

from . import logs as L


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("efiperf-report: %s\n" % message)
        sys.exit(L.EXIT["INVALID"])


def _write(path, text):
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv=None):
    ap = Parser(prog="efiperf-report", description="Classify, check and report efiperf JSONL logs.")
    ap.add_argument("logs", nargs="+", metavar="LOG.jsonl")
    ap.add_argument("--html", metavar="DIR", help="write DIR/<log name>.html for each log")
    ap.add_argument("--fleet", metavar="DIR", help="write DIR/fleet.html and DIR/fleet.csv over all logs")
    ap.add_argument("--below", metavar="PCT", type=float, default=10.0,
                    help="fleet: mark machines more than PCT%% below the fleet median (default 10)")
    ap.add_argument("--junit", metavar="FILE", help="write JUnit XML: one test case per check")
    ap.add_argument("--quiet", action="store_true", help="print nothing but errors")
    a = ap.parse_args(argv)

    from . import recompute
    worst = 0
    good, entries = [], []
    for path in a.logs:
        try:
            log = L.read_log(path)
        except L.InvalidLog as e:
            sys.stderr.write("efiperf-report: invalid log: %s\n" % e)
            entries.append((os.path.basename(path), None, "INVALID", str(e)))
            worst = max(worst, L.EXIT["INVALID"])
            continue
        recompute.check(log)
        res = log.result
        worst = max(worst, L.EXIT[res])
        if not a.quiet:
            print(log.summary())
        for i in log.issues:
            sys.stderr.write("efiperf-report: %s: recomputed value disagrees: %s\n" % (path, i))
        good.append(log)
        entries.append((log.name, log, res, log.summary()))
        if a.html:
            from . import html
            out = os.path.join(a.html, os.path.splitext(log.name)[0] + ".html")
            _write(out, html.report(log))
            if not a.quiet:
                print("html: %s" % out)
    if a.fleet and good:
        from . import fleet
        machines, rows, down, failed = fleet.build(good, a.below)
        _write(os.path.join(a.fleet, "fleet.csv"), fleet.to_csv(rows))
        _write(os.path.join(a.fleet, "fleet.html"), fleet.to_html(machines, rows, down, failed, a.below, a.fleet, a.html))
        if not a.quiet:
            print("fleet: %s (%d machines, %d marked below the median)" % (
                os.path.join(a.fleet, "fleet.html"), len(machines), len({r["machine"] for r in rows if r["below"]})))
    if a.junit:
        from . import junit
        _write(a.junit, junit.build(entries))
    return worst


def run():
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(L.EXIT["INVALID"])
    except ImportError as e:
        sys.stderr.write("efiperf-report: %s: install Debian's python3-matplotlib and python3-jsonschema "
                         "(boot/deps.sh report)\n" % e)
        sys.exit(L.EXIT["INVALID"])
    except OSError as e:
        sys.stderr.write("efiperf-report: %s\n" % e)
        sys.exit(L.EXIT["INVALID"])
    except Exception as e:   # a log shaped in a way no check foresaw: say so, no traceback
        sys.stderr.write("efiperf-report: cannot report: %s: %s (please report this log)\n" % (type(e).__name__, e))
        sys.exit(L.EXIT["INVALID"])
