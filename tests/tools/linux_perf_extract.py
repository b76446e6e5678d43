#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Print the AMD uncore rows of Linux perf JSON in tests/oracle/linux-perf/amd_uncore.txt's format.

usage: linux_perf_extract.py [--core|--named|--pipeline] KERNEL_TREE
       linux_perf_extract.py [--core|--named|--pipeline] --check EXTRACT KERNEL_TREE

The committed extracts were written by hand from the files their README names: amd_uncore.txt
and amd_core.txt keep a subset of the rows printed here, and the committed files order some
files of a directory differently. So compare with --check, not by redirecting over them:
--check EXTRACT reads EXTRACT's lines (comments left out) and fails, naming each, if one is not
printed from KERNEL_TREE; it then counts the printed rows EXTRACT leaves out. (amd_uncore.txt:
no flag; amd_core.txt: --core; amd_core_named.txt: --named; amd_pipeline.txt: --pipeline.)

For amdzen2..amdzen6 under tools/perf/pmu-events/arch/x86/, every row whose Unit is DFPMC,
L3PMC or UMCPMC: <dir> <file> <Unit> <EventName> <EventCode> <UMask|RdWrMask|-> [extra fields].
With --core: the core events of EventCode 0x29, 0x43 and 0x44 (ls_dispatch, demand and any
data-cache fills by source): <dir> <file> <EventName> <EventCode> <UMask|->, then the AMD rows
of mapfile.csv as `mapfile <regex> <dir>` (amd_core.txt's format).
With --named: the amdzen5 rows of NAMED (efiperf's Zen core event names and the neighbours
amd_core_named.txt keeps) in the same <dir> <file> <EventName> <EventCode> <UMask|-> format.
With --pipeline: for amdzen4 and amdzen5, every metric of pipeline.json as
<dir> pipeline.json metric <MetricName> <MetricGroup|-> <MetricExpr>, then every event its
expressions name as <dir> <file> event <EventName> <EventCode> <UMask|-> (files in name order).
"""
import json
import os
import re
import sys

EXTRA = ("EnAllCores", "EnAllSlices", "SliceId", "ThreadMask")


def events(tree):
    """(dir, file, event) for every event of amdzen2..amdzen6 (recommended.json left out)."""
    base = os.path.join(tree, "tools/perf/pmu-events/arch/x86")
    for d in ("amdzen2", "amdzen3", "amdzen4", "amdzen5", "amdzen6"):
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
    yield from amdc_rows(tree)


def amdc_rows(tree):
    """Family 1Ah model ranges of arch/x86/kernel/cpu/amd.c bsp_init_amd as `amdc 0x1a LO HI ZENn`
    (each `case LO ... HI:` up to the setup_force_cpu_cap(X86_FEATURE_ZENn) it falls into)."""
    with open(os.path.join(tree, "arch/x86/kernel/cpu/amd.c")) as fh:
        text = fh.read()
    body = text[text.index("static void bsp_init_amd"):]
    body = body[body.index("case 0x1a:") + len("case 0x1a:"):]
    body = body[:body.index("default:")]
    pending = []
    for line in body.splitlines():
        m = re.match(r"\s*case (0x[0-9a-f]+)(?: \.\.\. (0x[0-9a-f]+))?:", line)
        if m:
            pending.append((m.group(1), m.group(2) or m.group(1)))
            continue
        m = re.search(r"X86_FEATURE_(ZEN\d+)", line)
        if m:
            for lo, hi in pending:
                yield "amdc 0x1a %s %s %s" % (lo, hi, m.group(1))
            pending = []


NAMED = (
    "ex_ret_instr", "ex_ret_ops", "ex_ret_brn", "ex_ret_brn_misp", "ex_ret_brn_tkn", "ex_ret_brn_tkn_misp",
    "ex_ret_brn_ind_misp", "ex_ret_cond", "ex_div_busy", "ex_div_count", "ex_tagged_ibs_ops.ibs_tagged_ops",
    "ex_tagged_ibs_ops.ibs_tagged_ops_ret", "ex_tagged_ibs_ops.ibs_count_rollover", "ex_ret_fused_instr",
    "ls_dispatch.ld_dispatch", "ls_dispatch.store_dispatch", "ls_dispatch.ld_st_dispatch", "ls_not_halted_cyc",
    "ls_not_halted_p0_cyc.p0_freq_cyc", "de_src_op_disp.all", "de_no_dispatch_per_slot.no_ops_from_frontend",
    "de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention",
    "ex_ret_ucode_ops", "ex_no_retire.not_complete", "ex_no_retire.load_not_complete", "bp_redirects.resync",
)


def named_rows(tree):
    for d, f, e in events(tree):
        if d == "amdzen5" and e.get("EventName") in NAMED:
            yield " ".join((d, f, e["EventName"], e["EventCode"], e.get("UMask", "-")))


def pipeline_rows(tree):
    base = os.path.join(tree, "tools/perf/pmu-events/arch/x86")
    for d in ("amdzen4", "amdzen5"):
        with open(os.path.join(base, d, "pipeline.json")) as fh:
            metrics = json.load(fh)
        words = set()
        for m in metrics:
            yield " ".join((d, "pipeline.json", "metric", m["MetricName"], m.get("MetricGroup", "-"), m["MetricExpr"]))
            # event names: the identifiers of the expression, cpu@NAME\,...@ forms included
            words.update(re.findall(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)?", m["MetricExpr"]))
        for dd, f, e in events(tree):
            if dd == d and e.get("EventName") in words and "EventCode" in e:
                yield " ".join((d, f, "event", e["EventName"], e["EventCode"], e.get("UMask", "-")))


def check(extract, printed):
    """Exit status 1 naming every line of extract (comments left out) absent from printed."""
    with open(extract) as fh:
        kept = [line.rstrip("\n") for line in fh if line.strip() and not line.startswith("#")]
    have = set(printed)
    missing = [line for line in kept if line not in have]
    for line in missing:
        print("%s: not in the tree: %s" % (extract, line))
    left = len(have - set(kept))
    print("%s: %d lines, %d not in the tree; the tree has %d rows the extract leaves out"
          % (extract, len(kept), len(missing), left))
    return 1 if missing else 0


def main():
    args = sys.argv[1:]
    mode = {"--core": core_rows, "--named": named_rows, "--pipeline": pipeline_rows}.get(args[0] if args else "")
    if mode:
        args = args[1:]
    extract = None
    if len(args) == 3 and args[0] == "--check":
        extract, args = args[1], args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    printed = list((mode or rows)(args[0]))
    if extract:
        sys.exit(check(extract, printed))
    for r in printed:
        print(r)


if __name__ == "__main__":
    main()
