#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Extract the CHA events efiperf names from Intel's perfmon event files (github.com/intel/perfmon)
into tests/oracle/perfmon/<platform>_cha.json, the outside oracle of tests/unit/test_cha_perfmon.c.

    make events > /tmp/events.txt          # efiperf's event names per platform (first two columns)
    python3 tests/tools/perfmon_cha_extract.py PERFMON_CHECKOUT /tmp/events.txt tests/oracle/perfmon

Only names are taken from efiperf; every value comes from Intel's files as written there (EventCode,
UMask, UMaskExt, PortMask, FCMask, Filter, FILTER_VALUE, Counter). An efiperf event Intel does not list is
left out (the test lists it). One event per line, keys in a fixed order, so the C test reads it
with a line scanner.
"""
import json
import os
import subprocess
import sys

# platform -> perfmon directory and file stem; CLX is Skylake-SP's table in efiperf, compared with
# Intel's Cascade Lake file too
FILES = {
    "SKX": ("SKX", "skylakex"),
    "CLX": ("CLX", "cascadelakex"),
    "ICX": ("ICX", "icelakex"),
    "SPR": ("SPR", "sapphirerapids"),
    "EMR": ("EMR", "emeraldrapids"),
    "GNR": ("GNR", "graniterapids"),
}
TABLE = {"CLX": "SKX"}      # efiperf table the platform uses
KEYS = ("EventName", "EventCode", "UMask", "UMaskExt", "PortMask", "FCMask", "Filter", "FILTER_VALUE",
        "Counter")
PREFIXES = ("UNC_CHA_", "UNC_C_")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True,
                          text=True).stdout.strip()


def names_by_platform(path):
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                out.setdefault(parts[0], []).append(parts[1])
    return out


def main():
    repo, events_txt, outdir = sys.argv[1:4]
    names = names_by_platform(events_txt)
    commit = git(repo, "rev-parse", "HEAD")
    for plat, (d, stem) in FILES.items():
        wanted = names.get(TABLE.get(plat, plat), [])
        sources, found = [], {}
        for kind in ("uncore", "uncore_experimental"):
            rel = "%s/events/%s_%s.json" % (d, stem, kind)
            with open(os.path.join(repo, rel)) as f:
                data = json.load(f)
            sources.append({"path": rel, "version": data["Header"]["Version"],
                            "file_commit": git(repo, "log", "-1", "--format=%H", "--", rel)})
            for e in data["Events"]:
                if e.get("Unit") != "CHA":
                    continue
                for p in PREFIXES:
                    if e["EventName"].startswith(p):
                        short = e["EventName"][len(p):]
                        if short in wanted and short not in found:
                            found[short] = {k: e.get(k, "") for k in KEYS}
        lines = ['{', '  "platform": "%s",' % plat, '  "table": "%s",' % TABLE.get(plat, plat),
                 '  "repository": "https://github.com/intel/perfmon",', '  "commit": "%s",' % commit,
                 '  "license": "BSD-3-Clause (intel/perfmon LICENSE)",',
                 '  "files": %s,' % json.dumps(sources), '  "events": [']
        rows = [json.dumps(found[n]) for n in wanted if n in found]
        lines += ["    " + r + ("," if i + 1 < len(rows) else "") for i, r in enumerate(rows)]
        lines += ["  ]", "}"]
        with open(os.path.join(outdir, plat.lower() + "_cha.json"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("%s: %d of %d named events found in %s" % (plat, len(rows), len(wanted),
                                                         ", ".join(s["path"] for s in sources)))


if __name__ == "__main__":
    main()
