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
from perfmon_uncore_read import extract

KEYS = ("EventName", "EventCode", "UMask", "UMaskExt", "PortMask", "FCMask", "Counter", "Unit")
# GNR's files spell the memory controller's Unit "IMC", the older ones "iMC"
PREFIX = {"iMC": ("uncore_imc", "UNC_M_"), "IMC": ("uncore_imc", "UNC_M_"), "IIO": ("uncore_iio", "UNC_IIO_")}


def wanted(path):
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in ("uncore_imc", "uncore_iio"):
                out.setdefault(p[0], []).append((p[1], p[2]))
    return out


def pmu_name(e):
    """(efiperf pmu, name without Intel's prefix) of an IMC or IIO event, else None."""
    unit = e.get("Unit")
    if unit not in PREFIX:
        return None
    pmu, pre = PREFIX[unit]
    if not e["EventName"].startswith(pre):
        return None
    return (pmu, e["EventName"][len(pre):])


if __name__ == "__main__":
    extract("imc_iio", KEYS, wanted, pmu_name)
