#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Extract the Intel IMC and IIO events efiperf names from Intel's perfmon event files
(github.com/intel/perfmon) into tests/oracle/perfmon/<platform>_imc_iio.json, the outside oracle
of tests/unit/test_intel_uncore_oracle.c.

    make events > /tmp/events.txt          # efiperf's names: lines "PLAT uncore_imc|uncore_iio NAME ..."
    python3 tests/tools/perfmon_uncore_extract.py PERFMON_CHECKOUT /tmp/events.txt tests/oracle/perfmon

Only names come from efiperf; every value is Intel's as written (EventCode, UMask, UMaskExt, PortMask,
FCMask, Counter, Unit). An efiperf event Intel does not list is left out (the test names it).
One event per line, keys in a fixed order, so the C test reads it with a line scanner.
"""
import json
import os
import subprocess
import sys

FILES = {"SKX": ("SKX", "skylakex"), "CLX": ("CLX", "cascadelakex"), "ICX": ("ICX", "icelakex"),
         "SPR": ("SPR", "sapphirerapids"), "EMR": ("EMR", "emeraldrapids"), "GNR": ("GNR", "graniterapids")}
TABLE = {"CLX": "SKX"}
KEYS = ("EventName", "EventCode", "UMask", "UMaskExt", "PortMask", "FCMask", "Counter", "Unit")
# GNR's files spell the memory controller's Unit "IMC", the older ones "iMC"
PREFIX = {"iMC": ("uncore_imc", "UNC_M_"), "IMC": ("uncore_imc", "UNC_M_"), "IIO": ("uncore_iio", "UNC_IIO_")}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True, text=True).stdout.strip()


def wanted(path):
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in ("uncore_imc", "uncore_iio"):
                out.setdefault(p[0], []).append((p[1], p[2]))
    return out


def main():
    repo, events_txt, outdir = sys.argv[1:4]
    names = wanted(events_txt)
    commit = git(repo, "rev-parse", "HEAD")
    for plat, (d, stem) in FILES.items():
        want = names.get(TABLE.get(plat, plat), [])
        sources, found = [], {}
        for kind in ("uncore", "uncore_experimental"):
            rel = "%s/events/%s_%s.json" % (d, stem, kind)
            with open(os.path.join(repo, rel)) as f:
                data = json.load(f)
            sources.append({"path": rel, "version": data["Header"]["Version"],
                            "file_commit": git(repo, "log", "-1", "--format=%H", "--", rel)})
            for e in data["Events"]:
                unit = e.get("Unit")
                if unit not in PREFIX:
                    continue
                pmu, pre = PREFIX[unit]
                if not e["EventName"].startswith(pre):
                    continue
                key = (pmu, e["EventName"][len(pre):])
                if key in want and key not in found:
                    found[key] = {k: e.get(k, "") for k in KEYS}
        rows = [json.dumps(found[k]) for k in want if k in found]
        lines = ['{', '  "platform": "%s",' % plat, '  "table": "%s",' % TABLE.get(plat, plat),
                 '  "repository": "https://github.com/intel/perfmon",', '  "commit": "%s",' % commit,
                 '  "license": "BSD-3-Clause (intel/perfmon LICENSE)",', '  "files": %s,' % json.dumps(sources),
                 '  "events": [']
        lines += ["    " + r + ("," if i + 1 < len(rows) else "") for i, r in enumerate(rows)]
        lines += ["  ]", "}"]
        with open(os.path.join(outdir, plat.lower() + "_imc_iio.json"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("%s: %d of %d named events found in %s" % (plat, len(rows), len(want),
                                                         ", ".join(s["path"] for s in sources)))


if __name__ == "__main__":
    main()
