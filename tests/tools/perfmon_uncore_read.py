# SPDX-License-Identifier: BSD-2-Clause
"""The walk the Intel perfmon uncore extractors share (perfmon_cha_extract.py for the CHA,
perfmon_uncore_extract.py for IMC and IIO): for each platform, read Intel's uncore and
uncore_experimental event files of a checkout of github.com/intel/perfmon, keep the first event
each wanted name matches, and write tests/oracle/perfmon/<platform>_<suffix>.json with the
repository commit, each file's path, Header "Version" and last commit, and one event per line
(keys in a fixed order, so the C tests read it with a line scanner).
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
    "SRF": ("SRF", "sierraforest"),
    "CWF": ("CWF", "clearwaterforest"),
}
TABLE = {"CLX": "SKX"}      # efiperf table the platform uses


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True,
                          text=True).stdout.strip()


def extract(suffix, keys, wanted_by_table, match):
    """Command line PERFMON_CHECKOUT EVENTS_TXT OUTDIR. wanted_by_table(events_txt) -> {efiperf
    table: [wanted key, ...]} (output order); match(event) -> its wanted key, or None to skip it."""
    if len(sys.argv) != 4:
        sys.exit("usage: %s PERFMON_CHECKOUT EVENTS_TXT OUTDIR" % os.path.basename(sys.argv[0]))
    repo, events_txt, outdir = sys.argv[1:4]
    names = wanted_by_table(events_txt)
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
                key = match(e)
                if key is not None and key in want and key not in found:
                    found[key] = {k: e.get(k, "") for k in keys}
        rows = [json.dumps(found[k]) for k in want if k in found]
        lines = ['{', '  "platform": "%s",' % plat, '  "table": "%s",' % TABLE.get(plat, plat),
                 '  "repository": "https://github.com/intel/perfmon",', '  "commit": "%s",' % commit,
                 '  "license": "BSD-3-Clause (intel/perfmon LICENSE)",',
                 '  "files": %s,' % json.dumps(sources), '  "events": [']
        lines += ["    " + r + ("," if i + 1 < len(rows) else "") for i, r in enumerate(rows)]
        lines += ["  ]", "}"]
        with open(os.path.join(outdir, "%s_%s.json" % (plat.lower(), suffix)), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("%s: %d of %d named events found in %s" % (plat, len(rows), len(want),
                                                         ", ".join(s["path"] for s in sources)))
