#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Print tests/oracle/arm-data/arm_pmu.txt from a checkout of github.com/ARM-software/data.

usage: arm_data_extract.py ARM_DATA_TREE > tests/oracle/arm-data/arm_pmu.txt

Reads pmu/common_armv8.json, pmu/common_armv9.json and every pmu/neoverse-*.json. Lines:
    <file> event <EventName> <code hex>      the events named below, as the file gives them
    <file> cpuid <cpuid hex> <cpu name>      a core file's "cpuid" (implementer << 12 | part)
Common files: every event whose name efiperf's pmu/events/arm_common_events.c names (read from
that file: names only, never codes). Core files: the Neoverse TopDown inputs (Arm Telemetry
Solution's level-1 formulas, pmu/core/arm_topdown.c), each only when the core lists it.
"""
import json
import os
import re
import sys

TOPDOWN = ("CPU_CYCLES", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND", "STALL_SLOT", "OP_RETIRED",
           "OP_SPEC", "BR_MIS_PRED", "STALL_FRONTEND_FLUSH")


def efiperf_names():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "../../pmu/events/arm_common_events.c")) as fh:
        return re.findall(r'\{ "([A-Z0-9_]+)", 0x', fh.read())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tree = sys.argv[1]
    names = set(efiperf_names())
    pmu = os.path.join(tree, "pmu")
    files = ["common_armv8.json", "common_armv9.json"]
    files += sorted(f for f in os.listdir(pmu) if f.startswith("neoverse-") and f.endswith(".json"))
    for f in files:
        with open(os.path.join(pmu, f)) as fh:
            d = json.load(fh)
        core = f.startswith("neoverse-")
        if core:
            print("%s cpuid %s %s" % (f, d["cpuid"], d["cpu"].replace(" ", "_")))
        want = set(TOPDOWN) if core else names
        for e in d["events"]:
            if e["name"] in want:
                print("%s event %s 0x%x" % (f, e["name"], e["code"]))


if __name__ == "__main__":
    main()
