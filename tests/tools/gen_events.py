#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Generate efiperf's event catalogue (pmu/events/gen_intel_uncore.c) from Intel's perfmon JSON.

Two stages, so that the firmware build needs no JSON and no Python, and a test can regenerate the
committed C from committed inputs:

  extract  PERFMON_GIT OUT_DIR   read every uncore file of every server platform efiperf serves
                                 (PLATFORMS below) from a clone of https://github.com/intel/perfmon
                                 (a checkout or a bare mirror: files are read with `git show
                                 HEAD:path`) and write OUT_DIR/<plat>_uncore.tsv: one line per event
                                 of the units efiperf programs (UNITS), the vendor's field strings
                                 verbatim, with the file, its Header.Version and the repository
                                 commit in the header lines.
  emit     TSV_DIR OUT_C         read those extracts and write the compact C tables.
  all      PERFMON_GIT TSV_DIR OUT_C   both.

The encoding (decoded by pmu/events/gen_events.c, described in pmu/events/gen_events.h): per unit
one byte stream, the union over platforms of (EventName, encoding) rows sorted by name, each name
front-coded against the previous one (bytes shared, then the rest), then a byte of platform bits
(bit i = PLATFORMS[i]) and the encoding: EventCode, UMask, a flag byte and the optional fields
(UMaskExt, PortMask as LEB128 varints, FCMask, FILTER_VALUE). Same input, same bytes: nothing
depends on dict order, time or the environment.
"""
import json
import os
import subprocess
import sys

# efiperf's Intel server uncore platforms (pmu/uncore/intel_cha_platforms.c, intel_uncore.c) and
# the perfmon folder and file stem serving each. Cascade Lake-SP (CLX) is served by the SKX row.
PLATFORMS = [
    ("SKX", "SKX", "skylakex"),
    ("ICX", "ICX", "icelakex"),
    ("SPR", "SPR", "sapphirerapids"),
    ("EMR", "EMR", "emeraldrapids"),
    ("GNR", "GNR", "graniterapids"),
    ("SRF", "SRF", "sierraforest"),
    ("CWF", "CWF", "clearwaterforest"),
]
# efiperf unit -> perfmon "Unit" values, and the name prefix a user may leave out.
UNITS = [
    ("cha", ("CHA",), "UNC_CHA_"),
    ("imc", ("iMC", "IMC"), "UNC_M_"),
    ("iio", ("IIO",), "UNC_IIO_"),
    ("upi", ("UPI LL",), "UNC_UPI_"),
    ("m2m", ("M2M",), "UNC_M2M_"),
    ("b2cmi", ("B2CMI",), "UNC_B2CMI_"),
]
FIELDS = ["EventCode", "UMask", "UMaskExt", "PortMask", "FCMask", "FILTER_VALUE", "Deprecated", "CounterType"]


def kept(deprecated, counter_type):
    """What the catalogue leaves out (the image has a size limit): events Intel marks Deprecated
    (older names kept for compatibility), and free-running or fixed counters (CounterType FREERUN,
    FIXED: no event select to program; efiperf reads the IMC's free-running counters itself)."""
    return not deprecated and counter_type in ("PGMABLE", "-")


REPO = "https://github.com/intel/perfmon"


def git(repo, *args):
    return subprocess.check_output(["git", "-C", repo] + list(args))


def extract(perfmon, out_dir):
    commit = git(perfmon, "rev-parse", "HEAD").decode().strip()
    os.makedirs(out_dir, exist_ok=True)
    for plat, folder, stem in PLATFORMS:
        lines = ["# " + REPO + " commit " + commit]
        rows = []
        for suffix in ("_uncore.json", "_uncore_experimental.json"):
            path = folder + "/events/" + stem + suffix
            d = json.loads(git(perfmon, "show", "HEAD:" + path))
            lines.append("# file %s Version %s" % (path, d["Header"]["Version"]))
            for e in d["Events"]:
                unit = next((u for u, names, _ in UNITS if e.get("Unit") in names), None)
                if unit is None:
                    continue
                rows.append("\t".join([unit, e["EventName"]] + [str(e.get(f, "-")) for f in FIELDS]))
        lines.append("# unit\tEventName\t" + "\t".join(FIELDS))
        with open(os.path.join(out_dir, plat.lower() + "_uncore.tsv"), "w", newline="\n") as f:
            f.write("\n".join(lines + rows) + "\n")


def num(s):
    return 0 if s in ("-", "", "na") else int(s, 0)


def read_tsv(path):
    """(commit, sources, rows): rows are (unit, name, (event, umask, ext, port, fc, filter), deprecated,
    CounterType)."""
    src, rows = [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# file "):
                src.append(line[len("# file "):])
            elif line.startswith("# ") and " commit " in line:
                commit = line.split(" commit ")[1]
            elif line and not line.startswith("#"):
                c = line.split("\t")
                rows.append((c[0], c[1], tuple(num(v) for v in c[2:8]), c[8] == "1", c[9]))
    return commit, src, rows


def source_text(src):
    """The files read for one platform, short: "SKX/events/skylakex_uncore{,_experimental}.json 1.37"
    when both files have the same version (as Intel publishes them), else each in full."""
    (f1, v1), (f2, v2) = (x.split(" Version ") for x in src)
    if v1 == v2 and f2 == f1.replace(".json", "_experimental.json"):
        return "%s{,_experimental}.json %s" % (f1[:-len(".json")], v1)
    return "; ".join(src)


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


# flag bits of a row (pmu/events/gen_events.h GEN_F_*)
F_EXT, F_PORT, F_FC, F_FILTER = 1, 2, 4, 8
# The fields of a row in stream order, each Huffman-coded with its own table (a "column"):
COLUMNS = ["common", "suflen", "char", "plats", "evx", "umask", "flags", "ext", "port", "fc", "filter"]
MAX_BITS = 15


def rows_symbols(rows):
    """rows: {(name, enc): platform bits} -> [(column, symbol)] in stream order, and the count."""
    out = []
    prev, prev_ev = b"", 0
    for (name, enc), bits in sorted(rows.items()):
        n = name.encode("ascii")
        common = 0
        while common < min(len(n), len(prev)) and n[common] == prev[common]:
            common += 1
        ev, umask, ext, port, fc, filt = enc
        assert len(n) < 80 and ev <= 0xFF and umask <= 0xFF and fc <= 0xFF and bits <= 0xFF, (name, enc)
        flags = (F_EXT if ext else 0) | (F_PORT if port else 0) | (F_FC if fc else 0) | (F_FILTER if filt else 0)
        out += [("common", common), ("suflen", len(n) - common)] + [("char", c) for c in n[common:]]
        out += [("plats", bits), ("evx", ev ^ prev_ev), ("umask", umask), ("flags", flags)]
        if flags & F_EXT:
            out += [("ext", b) for b in varint(ext)]
        if flags & F_PORT:
            out += [("port", b) for b in varint(port)]
        if flags & F_FC:
            out.append(("fc", fc))
        if flags & F_FILTER:
            out += [("filter", b) for b in varint(filt)]
        prev, prev_ev = n, ev
    return out


def code_lengths(freq):
    """Huffman code lengths {symbol: bits} of freq {symbol: count}, ties broken by symbol (the
    same input gives the same lengths); a lone symbol gets 1 bit."""
    if len(freq) == 1:
        return {next(iter(freq)): 1}
    import heapq
    heap = [(c, (s,), s) for s, c in sorted(freq.items())]
    heapq.heapify(heap)
    depth = {s: 0 for s in freq}
    while len(heap) > 1:
        c1, g1, k1 = heapq.heappop(heap)
        c2, g2, k2 = heapq.heappop(heap)
        for s in g1 + g2:
            depth[s] += 1
        heapq.heappush(heap, (c1 + c2, g1 + g2, min(k1, k2)))
    assert max(depth.values()) <= MAX_BITS, "code longer than %d bits" % MAX_BITS
    return depth


def canonical(lengths):
    """Canonical codes (RFC 1951 3.2.2): symbols ordered by (length, symbol) get consecutive codes."""
    code, prev_len, codes = 0, 0, {}
    for s in sorted(lengths, key=lambda s: (lengths[s], s)):
        code <<= lengths[s] - prev_len
        prev_len = lengths[s]
        codes[s] = (code, lengths[s])
        code += 1
    return codes


def encode_unit(rows):
    """-> (tables bytes, stream bytes, stream bits). Tables: per column, the count of codes of each
    length 1..15 (15 bytes) then the symbols in canonical order (one byte each). Stream: the
    codes, most significant bit first."""
    syms = rows_symbols(rows)
    tables = bytearray()
    codes = {}
    for col in COLUMNS:
        freq = {}
        for c, s in syms:
            if c == col:
                freq[s] = freq.get(s, 0) + 1
        if not freq:
            freq = {0: 1}
        lengths = code_lengths(freq)
        codes[col] = canonical(lengths)
        tables += bytes(sum(1 for s in lengths if lengths[s] == l) for l in range(1, MAX_BITS + 1))
        tables += bytes(sorted(lengths, key=lambda s: (lengths[s], s)))
    bits = []
    for c, s in syms:
        code, n = codes[c][s]
        bits += [(code >> (n - 1 - i)) & 1 for i in range(n)]
    stream = bytearray()
    for k in range(0, len(bits), 8):
        chunk = bits[k:k + 8] + [0] * (8 - len(bits[k:k + 8]))
        stream.append(sum(b << (7 - i) for i, b in enumerate(chunk)))
    return bytes(tables), bytes(stream), len(bits)


def emit(tsv_dir, out_c):
    units = {u: {} for u, _, _ in UNITS}
    commits, sources = set(), []
    for i, (plat, _, _) in enumerate(PLATFORMS):
        commit, src, rows = read_tsv(os.path.join(tsv_dir, plat.lower() + "_uncore.tsv"))
        commits.add(commit)
        sources.append((plat, src))
        seen = {}
        for unit, name, enc, deprecated, ctype in rows:
            if not kept(deprecated, ctype):
                continue
            if (unit, name) in seen:
                if seen[(unit, name)] != enc:
                    sys.exit("%s %s %s: two encodings in Intel's files" % (plat, unit, name))
                continue                      # listed in both files alike
            seen[(unit, name)] = enc
            units[unit][(name, enc)] = units[unit].get((name, enc), 0) | (1 << i)
    if len(commits) != 1:
        sys.exit("extracts from different perfmon commits: %s" % sorted(commits))
    commit = commits.pop()
    w = []
    w.append("/* SPDX-License-Identifier: BSD-2-Clause */")
    w.append("/* GENERATED by tests/tools/gen_events.py from Intel's perfmon files (BSD-3-Clause, Copyright (c)")
    w.append(" * 2021 Intel Corporation); do not edit: regenerate (README, Event reference). Encoding:")
    w.append(" * pmu/events/gen_events.h. Source: %s commit %s. */" % (REPO, commit))
    w.append('#include "pmu/events/gen_events.h"')
    w.append("")
    w.append('const char gen_intel_commit[] = "%s";' % commit)
    w.append("const struct gen_platform gen_intel_platforms[GEN_INTEL_NPLAT] = {")
    for plat, src in sources:
        w.append('\t{ "%s", "%s" },' % (plat, source_text(src)))
    w.append("};")
    sizes = []
    for unit, _, prefix in UNITS:
        tables, stream, nbits = encode_unit(units[unit])
        sizes.append((unit, len(units[unit]), len(tables), len(stream), nbits))
        for what, data in (("tables", tables), ("stream", stream)):
            w.append("")
            w.append("static const uint8_t %s_%s[%d] = {" % (unit, what, len(data)))
            for k in range(0, len(data), 16):
                w.append("\t" + ", ".join("0x%02x" % b for b in data[k:k + 16]) + ",")
            w.append("};")
    w.append("")
    w.append("const struct gen_unit gen_intel_units[GEN_INTEL_NUNIT] = {")
    for (unit, _, prefix), (_, nrows, _, _, nbits) in zip(UNITS, sizes):
        w.append('\t{ "%s", "%s", %s_tables, %s_stream, %d, %d },' % (unit, prefix, unit, unit, nbits, nrows))
    w.append("};")
    os.makedirs(os.path.dirname(out_c) or ".", exist_ok=True)
    with open(out_c, "w", newline="\n") as f:
        f.write("\n".join(w) + "\n")
    return sizes


def main(argv):
    if len(argv) >= 3 and argv[0] == "extract":
        extract(argv[1], argv[2])
    elif len(argv) >= 3 and argv[0] == "emit":
        for unit, nrows, ntab, nstream, _ in emit(argv[1], argv[2]):
            print("%s: %d rows, %d bytes (tables %d, stream %d)" % (unit, nrows, ntab + nstream, ntab, nstream))
    elif len(argv) >= 4 and argv[0] == "all":
        extract(argv[1], argv[2])
        main(["emit", argv[2], argv[3]])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
