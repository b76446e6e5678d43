#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Print the AMD uncore rows of Linux perf JSON in tests/oracle/linux-perf/amd_uncore.txt's format.

usage: linux_perf_extract.py KERNEL_TREE > amd_uncore.txt

For amdzen2..amdzen5 under tools/perf/pmu-events/arch/x86/, every row whose Unit is DFPMC,
L3PMC or UMCPMC: <dir> <file> <Unit> <EventName> <EventCode> <UMask|RdWrMask|-> [extra fields].
"""
import json
import os
import sys

EXTRA = ("EnAllCores", "EnAllSlices", "SliceId", "ThreadMask")


def rows(tree):
    base = os.path.join(tree, "tools/perf/pmu-events/arch/x86")
    for d in ("amdzen2", "amdzen3", "amdzen4", "amdzen5"):
        path = os.path.join(base, d)
        if not os.path.isdir(path):
            continue
        for f in sorted(os.listdir(path)):
            if not f.endswith(".json") or f == "recommended.json":
                continue
            with open(os.path.join(path, f)) as fh:
                for e in json.load(fh):
                    unit = e.get("Unit")
                    if unit not in ("DFPMC", "L3PMC", "UMCPMC"):
                        continue
                    mask = e.get("UMask", e.get("RdWrMask", "-"))
                    extra = ",".join("%s=%s" % (k.lower(), e[k]) for k in EXTRA if k in e)
                    yield " ".join(x for x in (d, f, unit, e["EventName"], e["EventCode"], mask, extra) if x)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for r in rows(sys.argv[1]):
        print(r)


if __name__ == "__main__":
    main()
