#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Extract, from a checkout of Intel's perfmon event files (https://github.com/intel/perfmon,
BSD-3-Clause), the core events efiperf's table names, as an outside oracle for
tests/unit/test_core_perfmon.c.

    python3 tests/tools/perfmon_core_extract.py /path/to/perfmon [--commit SHA]

Reads mapfile.csv (family-6 model -> core event file) and, for each platform below, the core
event file; writes tests/oracle/perfmon/<platform>_core.json holding the file's path, the
repository commit, the file's Header "Version", the models the mapfile serves with it, and for
each event of pmu/events/intel_core_events.c the encoding fields as Intel publishes them
(EventCode, UMask, CounterMask, Invert, EdgeDetect, AnyThread), one event per line. Names the
file lacks are listed under "missing". Nothing else of the file is copied.
"""
import argparse, csv, io, json, os, re, subprocess, sys

# platform directory -> (output name, core role for hybrid parts or None)
PLATFORMS = [
    ("SNB", "snb", None), ("JKT", "jkt", None), ("IVB", "ivb", None), ("IVT", "ivt", None),
    ("HSW", "hsw", None), ("HSX", "hsx", None), ("BDW", "bdw", None), ("BDX", "bdx", None),
    ("BDW-DE", "bdwde", None),
    ("SKL", "skl", None), ("SKX", "skx", None), ("CLX", "clx", None),
    ("ICL", "icl", None), ("ICX", "icx", None), ("TGL", "tgl", None), ("RKL", "rkl", None),
    ("SPR", "spr", None), ("EMR", "emr", None), ("GNR", "gnr", None),
    ("SRF", "srf", None), ("CWF", "cwf", None),
    ("ADL", "adl", "Core"), ("MTL", "mtl", "Core"),
]
FIELDS = ["EventCode", "UMask", "CounterMask", "Invert", "EdgeDetect", "AnyThread"]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def table_names():
    src = open(os.path.join(ROOT, "pmu/events/intel_core_events.c")).read()
    names = []
    for m in re.finditer(r'^\s*\{\s*"([A-Z0-9_.]+)"', src, re.M):
        if m.group(1) not in names:
            names.append(m.group(1))
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("perfmon", help="checkout of github.com/intel/perfmon")
    ap.add_argument("--commit", help="its commit (default: git rev-parse HEAD there)")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/oracle/perfmon"))
    a = ap.parse_args()
    commit = a.commit or subprocess.run(["git", "-C", a.perfmon, "rev-parse", "HEAD"], capture_output=True,
                                        text=True, check=True).stdout.strip()
    rows = list(csv.DictReader(open(os.path.join(a.perfmon, "mapfile.csv"))))
    names = table_names()
    os.makedirs(a.out, exist_ok=True)
    for pdir, out, role in PLATFORMS:
        files, models = set(), []
        for r in rows:
            fn = r["Filename"].lstrip("/")
            if not fn.startswith(pdir + "/events/") or r["EventType"] not in ("core", "hybridcore"):
                continue
            if role and r.get("Core Role Name") != role:
                continue
            m = re.fullmatch(r"GenuineIntel-6-([0-9A-F]{2})(-\[[0-9A-F]+\])?", r["Family-model"])
            if not m:
                continue
            files.add(fn)
            mod = "0x" + m.group(1) + (m.group(2) or "")
            if mod not in models:
                models.append(mod)
        if len(files) != 1:
            sys.exit("%s: %d core event files in mapfile.csv" % (pdir, len(files)))
        path = files.pop()
        doc = json.load(open(os.path.join(a.perfmon, path)))
        by = {}
        for e in doc["Events"]:
            by.setdefault(e["EventName"], e)
        lines = ["{",
                 '  "source": %s,' % json.dumps({
                     "repository": "https://github.com/intel/perfmon", "commit": commit, "path": path,
                     "Version": doc["Header"].get("Version"), "DatePublished": doc["Header"].get("DatePublished"),
                     "license": "BSD-3-Clause (LICENSE at the repository root)"}),
                 '  "models": %s,' % json.dumps(models),
                 '  "events": [']
        evs = []
        for n in names:
            if n in by:
                e = by[n]
                evs.append("    " + json.dumps(dict([("EventName", n)] + [(f, e.get(f, "0")) for f in FIELDS])))
        lines.append(",\n".join(evs))
        lines.append("  ],")
        lines.append('  "missing": %s' % json.dumps([n for n in names if n not in by]))
        lines.append("}")
        with open(os.path.join(a.out, out + "_core.json"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("%s: %s v%s, %d of %d events, models %s" % (out, path, doc["Header"].get("Version"), len(evs),
                                                         len(names), " ".join(models)))


if __name__ == "__main__":
    main()
