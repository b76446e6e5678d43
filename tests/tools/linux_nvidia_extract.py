#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Print the NVIDIA uncore PMU facts of a Linux tree in tests/oracle/linux-nvidia/nvidia_pmu.txt's format.

usage: linux_nvidia_extract.py KERNEL_TREE > nvidia_pmu.txt

Reads drivers/perf/arm_cspmu/nvidia_cspmu.c (with arm_cspmu.h for the default format and
cycles macros), drivers/perf/nvidia_t410_c2c_pmu.c and drivers/perf/nvidia_t410_cmem_latency_pmu.c.
One fact a line, columns separated by one space:

  <file> match <prodid> <name_pattern> <event attr array> <format attr array> filter_mask=.. \
      filter_default_val=.. filter2_mask=.. filter2_default_val=..   (nv_cspmu_match[])
  <file> acpi <HID> <name_fmt> nr_inst=<n>                           (ACPI match tables)
  <file> <array> event <name> <code>                                 (event attributes)
  <file> <array> format <name> <configN>:<lo>-<hi>                   (format attributes)

Numbers are printed in hex (0x..), resolved through the file's #defines, GENMASK_ULL and BIT;
a single-bit format "config1:8" is printed as config1:8-8. Only names and numbers are kept.
"""
import os
import re
import sys

CSPMU = "drivers/perf/arm_cspmu/nvidia_cspmu.c"
CSPMU_H = "drivers/perf/arm_cspmu/arm_cspmu.h"
C2C = "drivers/perf/nvidia_t410_c2c_pmu.c"
CMEM = "drivers/perf/nvidia_t410_cmem_latency_pmu.c"


def read(tree, path):
    with open(os.path.join(tree, path)) as fh:
        return fh.read()


def defines(text):
    """Object-like #defines (one line) of text: name -> replacement text."""
    out = {}
    for m in re.finditer(r"^#define\s+(\w+)\s+([^\\\n]+)$", text, re.M):
        out[m.group(1)] = m.group(2).strip()
    return out


def value(expr, defs, depth=0):
    """Integer value of a C constant expression over defs, GENMASK_ULL, BIT, ULL suffixes."""
    if depth > 20:
        raise ValueError("macro loop in " + expr)
    expr = re.sub(r"\b(\w+)\b", lambda m: "(%s)" % value(defs[m.group(1)], defs, depth + 1)
                  if m.group(1) in defs else m.group(1), expr)
    expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uU]?[lL]{0,2}\b", r"\1", expr)
    env = {"GENMASK_ULL": lambda h, l: ((1 << (h - l + 1)) - 1) << l, "GENMASK": lambda h, l: ((1 << (h - l + 1)) - 1) << l,
           "BIT": lambda n: 1 << n, "__builtins__": {}}
    return eval(expr, env)  # noqa: S307 - constant expressions of a kernel source file


def arrays(text):
    """static struct attribute *NAME[] = { ... }; -> (NAME, body)."""
    for m in re.finditer(r"struct attribute \*(\w+)\[\]\s*=\s*\{(.*?)\n\};", text, re.S):
        yield m.group(1), m.group(2)


def fmt(spec):
    m = re.fullmatch(r"(config\d?):(\d+)(?:-(\d+))?", spec)
    lo = int(m.group(2))
    return "%s:%d-%d" % (m.group(1), lo, int(m.group(3) or lo))


def attr_rows(fname, text, defs, macros):
    """event and format rows of every attribute array of one file."""
    for name, body in arrays(text):
        for line in body.splitlines():
            line = line.strip().rstrip(",")
            if not line or line == "NULL":
                continue
            # neither event nor format: the identifier/peer attributes (&<name>_attr.attr)
            # and the cpumask/associated_cpus attributes of the ACPI-namespace drivers
            if re.fullmatch(r"&\w+\.attr", line) or re.match(r"\w*_CPUMASK_ATTR\(", line):
                continue
            if line in macros:            # ARM_CSPMU_FORMAT_EVENT_ATTR and kin
                line = macros[line]
            m = re.match(r"\w*FORMAT_ATTR\((\w+),\s*\"([^\"]+)\"\)$", line) or \
                re.match(r"NV_PMU_EXT_ATTR\((\w+),\s*device_show_string,\s*\"([^\"]+)\"\)$", line)
            if m:
                yield "%s %s format %s %s" % (fname, name, m.group(1), fmt(m.group(2)))
                continue
            m = re.match(r"NV_CSPMU_EVENT_ATTR_4\((\w+),\s*(\w+),\s*(\w+)\)$", line)
            if m:                         # <pref>_<k>_<suff> = base + k, k = 0..3
                base = value(m.group(3), defs)
                for k in range(4):
                    yield "%s %s event %s_%d_%s 0x%x" % (fname, name, m.group(1), k, m.group(2), base + k)
                continue
            m = re.match(r"\w*EVENT_ATTR\((\w+),\s*(.+)\)$", line)
            if m:
                yield "%s %s event %s 0x%x" % (fname, name, m.group(1), value(m.group(2), defs))
                continue
            raise ValueError("%s %s: unread line %r" % (fname, name, line))


def format_macros(text):
    """#define X \\ <newline> Y(...) two-line format macros -> {X: Y(...)}."""
    return {m.group(1): m.group(2).strip() for m in
            re.finditer(r"^#define\s+(\w+)\s*\\\n\s*(\w+\([^\n]*\))\s*$", text, re.M)}


def cspmu_rows(tree):
    text, head = read(tree, CSPMU), read(tree, CSPMU_H)
    defs = defines(head)
    defs.update(defines(text))
    macros = format_macros(head)
    fname = os.path.basename(CSPMU)
    table = text[text.index("nv_cspmu_match[] = {"):]
    for ent in re.finditer(r"\.prodid\s*=\s*(\w+),(.*?)\n\t\},", table, re.S):
        body = ent.group(2)
        get = lambda k: re.search(r"\.%s\s*=\s*([^,\n]+)," % k, body).group(1).strip()
        cols = [fname, "match", "0x%x" % value(ent.group(1), defs), get("name_pattern").strip('"'),
                get("event_attr"), get("format_attr")]
        cols += ["%s=0x%x" % (k, value(get(k), defs))
                 for k in ("filter_mask", "filter_default_val", "filter2_mask", "filter2_default_val")]
        yield " ".join(cols)
    yield from attr_rows(fname, text, defs, macros)


def acpi_rows(tree, path):
    text = read(tree, path)
    defs = defines(text)
    fname = os.path.basename(path)
    data = {}
    for m in re.finditer(r"\[(\w+)\]\s*=\s*\{(.*?)\}", text, re.S):
        nr = re.search(r"\.nr_inst\s*=\s*(\w+)", m.group(2))
        fm = re.search(r"\.name_fmt\s*=\s*\"([^\"]+)\"", m.group(2))
        if nr and fm:
            data[m.group(1)] = (fm.group(1), value(nr.group(1), defs))
    for m in re.finditer(r"\{\s*\"(NVDA\w+)\"(?:,\s*\(kernel_ulong_t\)&\w+\[(\w+)\])?\s*\}", text):
        if m.group(2):
            name, nr = data[m.group(2)]
        else:                             # CMEM: one device, the name and count in the file
            name = re.search(r"\"(nvidia_\w+_%u)\"", text).group(1)
            nr = value("NUM_INSTANCES", defs)
        yield "%s acpi %s %s nr_inst=%d" % (fname, m.group(1), name, nr)
    yield from attr_rows(fname, text, defs, format_macros(text))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tree = sys.argv[1]
    for r in cspmu_rows(tree):
        print(r)
    for p in (C2C, CMEM):
        for r in acpi_rows(tree, p):
            print(r)


if __name__ == "__main__":
    main()
