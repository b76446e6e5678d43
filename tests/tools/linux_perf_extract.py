#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Print the AMD uncore rows of Linux perf JSON in tests/oracle/linux-perf/amd_uncore.txt's format.

usage: linux_perf_extract.py KERNEL_TREE > amd_uncore.txt
       linux_perf_extract.py --core KERNEL_TREE > amd_core.txt

For amdzen2..amdzen5 under tools/perf/pmu-events/arch/x86/, every row whose Unit is DFPMC,
L3PMC or UMCPMC: <dir> <file> <Unit> <EventName> <EventCode> <UMask|RdWrMask|-> [extra fields].
With --core: the core events of EventCode 0x29, 0x43 and 0x44 (ls_dispatch, demand and any
data-cache fills by source): <dir> <file> <EventName> <EventCode> <UMask|->, then the AMD rows
of mapfile.csv as `mapfile <regex> <dir>` (amd_core.txt's format).
"""
import json
import os
import sys

EXTRA = ("EnAllCores", "EnAllSlices", "SliceId", "ThreadMask")


def events(tree):
    """(dir, file, event) for every event of amdzen2..amdzen5 (recommended.json left out)."""
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
                    yield d, f, e


def rows(tree):
    for d, f, e in events(tree):
        unit = e.get("Unit")
        if unit not in ("DFPMC", "L3PMC", "UMCPMC"):
            continue
        mask = e.get("UMask", e.get("RdWrMask", "-"))
        extra = ",".join("%s=%s" % (k.lower(), e[k]) for k in EXTRA if k in e)
        yield " ".join(x for x in (d, f, unit, e["EventName"], e["EventCode"], mask, extra) if x)


CORE_CODES = (0x29, 0x43, 0x44)


def core_rows(tree):
    for d, f, e in events(tree):
        if "Unit" in e or "EventCode" not in e or int(e["EventCode"], 16) not in CORE_CODES:
            continue
        yield " ".join((d, f, e["EventName"], e["EventCode"], e.get("UMask", "-")))
    with open(os.path.join(tree, "tools/perf/pmu-events/arch/x86/mapfile.csv")) as fh:
        for line in fh:
            cols = line.strip().split(",")
            if len(cols) >= 3 and cols[0].startswith("AuthenticAMD"):
                yield "mapfile %s %s" % (cols[0], cols[2])


def main():
    args = sys.argv[1:]
    core = args[:1] == ["--core"]
    if core:
        args = args[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    for r in (core_rows if core else rows)(args[0]):
        print(r)


if __name__ == "__main__":
    main()
