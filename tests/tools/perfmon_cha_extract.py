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
from perfmon_uncore_read import extract

KEYS = ("EventName", "EventCode", "UMask", "UMaskExt", "PortMask", "FCMask", "Filter", "FILTER_VALUE",
        "Counter")
PREFIXES = ("UNC_CHA_", "UNC_C_")


def names_by_platform(path):
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            # (the generated catalogue's lines, "PLAT unit NAME ...", are not the CHA table's)
            if len(parts) >= 2 and parts[1] not in ("cha", "imc", "iio"):
                out.setdefault(parts[0], []).append(parts[1])
    return out


def cha_name(e):
    """The efiperf name (Intel's without its prefix) of a CHA event, else None."""
    if e.get("Unit") != "CHA":
        return None
    for p in PREFIXES:
        if e["EventName"].startswith(p):
            return e["EventName"][len(p):]
    return None


if __name__ == "__main__":
    extract("cha", KEYS, names_by_platform, cha_name)
