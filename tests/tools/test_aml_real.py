# SPDX-License-Identifier: BSD-2-Clause
"""The AML reader (efi/fw/aml.c) on real machines' DSDTs and SSDTs, compared with `iasl -d`.

tests/aml/real/ holds tables taken unchanged from public acpidump collections (README.md there
names each one's repository, path and commit), xz-compressed. For each machine its tables are
read in order into one namespace by build/host/aml_dump (the reader under ASan/UBSan, built by
tests/unit.mk), and each table is disassembled by Debian's iasl (acpica-tools). The oracle is
the .dsl text, parsed here on its own (tokens, braces, the ASL operator names): every Device
outside a Method body, its path, its Name(_HID) (a string, or EisaId; a string that is neither a
PNP nor an ACPI ID must be flagged hid_odd), its Name(_UID) and the
memory descriptors of a Name(_CRS, ResourceTemplate () {...}) (Memory32Fixed, DWordMemory,
QWordMemory, ExtendedMemory). The reader must give the same devices with a _HID, in the same
order, with the same _HID, _UID and ranges, and name no defect: none may be lost behind a
well-formed object.
"""
import json
import lzma
import os
import re
import shutil
import subprocess

import pytest

# one worker builds and runs aml_dump (tests/pytest.ini: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("aml_real")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REAL = os.path.join(ROOT, "tests", "aml", "real")
DUMP = os.path.join(ROOT, "build", "host", "aml_dump")

# machine -> its tables in load order (DSDT first): the files under tests/aml/real/
MACHINES = {}
for name in sorted(os.listdir(REAL)) if os.path.isdir(REAL) else []:
    if name.endswith(".dat.xz"):
        machine, table = name[: -len(".dat.xz")].split("__")
        MACHINES.setdefault(machine, []).append(table)
for tables in MACHINES.values():
    tables.sort(key=lambda t: (not t.startswith("dsdt"), len(t), t))


@pytest.fixture(scope="module")
def aml_dump():
    subprocess.run(["make", "-s", "-C", os.path.join(ROOT, "tests"), "-f", "unit.mk", "../build/host/aml_dump"],
                   check=True, stdout=subprocess.DEVNULL)
    return DUMP


# ---- the oracle: iasl -d text -----------------------------------------------------------------
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/|[A-Za-z_\\^][A-Za-z0-9_.\\^]*|0x[0-9A-Fa-f]+|\d+|\S',
                   re.S)
SCOPES = {"Scope", "Device", "Processor", "ThermalZone", "PowerResource"}
TRANSPARENT = {"DefinitionBlock", "If", "Else", "ElseIf", "While"}
# ACPI 6.5 6.1.5: a _HID string is a PNP ID (3 uppercase letters, 4 hex digits) or an ACPI ID
# (4 uppercase letters or digits, 4 hex digits); anything else the reader flags (hid_odd).
HID_ID = r"[A-Z]{3}[0-9A-F]{4}|[A-Z0-9]{4}[0-9A-F]{4}"
MEMORY = {"Memory32Fixed": (0, 1), "DWordMemory": (1, 4), "QWordMemory": (1, 4), "ExtendedMemory": (1, 4)}


def tokens(text):
    return [t for t in TOKEN.findall(text) if not t.startswith("//") and not t.startswith("/*")]


def seg4(s):
    return s + "_" * (4 - len(s))


def join_path(scope, name):
    """ACPI name resolution of an ASL NamePath against scope (a list of NameSegs)."""
    path = list(scope)
    if name.startswith("\\"):
        path, name = [], name[1:]
    while name.startswith("^"):
        path, name = path[:-1], name[1:]
    return path + [seg4(s) for s in name.split(".") if s]


def path_text(path):
    return "\\" + ".".join(path)


def eisaid(v):
    """ACPI 6.5 19.6 EISAID, as the integer sits in memory: 3 x 5-bit letters, 4 hex digits."""
    b = v.to_bytes(4, "little")
    w = b[0] << 8 | b[1]
    return "".join(chr(64 + (w >> s & 31)) for s in (10, 5, 0)) + "%02X%02X" % (b[2], b[3])


def integer(tok):
    return {"Zero": 0, "One": 1, "Ones": (1 << 64) - 1}.get(tok, None) if not tok[0].isdigit() else int(tok, 0)


def args_of(toks, i):
    """toks[i] == '(': the top-level comma-separated arguments and the index past ')'."""
    depth, cur, out = 0, [], []
    for j in range(i, len(toks)):
        t = toks[j]
        if t in "({":
            depth += 1
            if depth == 1:
                continue
        elif t in ")}":
            depth -= 1
            if depth == 0:
                out.append(cur)
                return out, j + 1
        if depth == 1 and t == ",":
            out.append(cur)
            cur = []
        else:
            cur.append(t)
    raise ValueError("unbalanced parentheses")


def resources(toks, i):
    """toks[i] == '{' of a ResourceTemplate: its memory ranges and the index past '}'."""
    ranges, depth, j = [], 0, i
    while True:
        t = toks[j]
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                return ranges, j + 1
        elif t in MEMORY and toks[j + 1] == "(":
            args, j = args_of(toks, j + 1)
            nums = [integer(a[0]) for a in args if len(a) == 1 and a[0][0].isdigit()]
            b, l = MEMORY[t]
            ranges.append([nums[b], nums[l]])
            continue
        j += 1


def oracle(dsl):
    """Devices of an iasl -d listing: [{path, hid, uid, crs}] in the order they open."""
    toks = tokens(dsl)
    devices, stack = [], []          # stack: (kind, scope path, device index or None)
    scope, dev, opaque, pending = [], None, 0, None
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "{":
            kind = pending[0] if pending else "data"
            stack.append((kind, scope, dev, opaque))
            if opaque or kind in ("Method", "data"):
                opaque += 1
            elif kind in SCOPES:
                scope = join_path(scope, pending[1])
                dev = None
                if kind == "Device":
                    devices.append({"path": path_text(scope), "hid": None, "odd": False, "uid": None, "crs": None})
                    dev = devices[-1]
            pending = None
            i += 1
            continue
        if t == "}":
            _, scope, dev, opaque = stack.pop()
            pending = None
            i += 1
            continue
        if t in SCOPES | TRANSPARENT | {"Method"} and not opaque:
            if t in ("Else",) and toks[i + 1] == "{":
                pending = (t, None)
                i += 1
                continue
            if toks[i + 1] == "(":
                args, j = args_of(toks, i + 1)
                if toks[j] == "{":
                    pending = (t, args[0][0] if args and args[0] else None)
                    i = j
                    continue
        if t == "Name" and not opaque and dev is not None and toks[i + 1] == "(" and toks[i + 3] == ",":
            name, v = toks[i + 2], toks[i + 4]
            if name == "_HID":
                if v.startswith('"'):
                    dev["hid"] = json.loads(v)
                    dev["odd"] = not re.fullmatch(HID_ID, dev["hid"])
                elif v == "EisaId":
                    dev["hid"], dev["odd"] = json.loads(toks[i + 6]), False
                elif integer(v) is not None:
                    dev["hid"], dev["odd"] = eisaid(integer(v)), False
            elif name == "_UID":
                dev["uid"] = json.loads(v) if v.startswith('"') else integer(v)
            elif name == "_CRS":
                if v == "ResourceTemplate" and toks[i + 7] == "{":
                    dev["crs"], i = resources(toks, i + 7)
                    continue
                dev["crs"] = "not a ResourceTemplate"
        i += 1
    return [d for d in devices if d["hid"] is not None]


def disassemble(tmp, machine, tables):
    """iasl -d of each table (the machine's other tables as -e externals): table -> .dsl text."""
    out = {}
    for t in tables:
        src = os.path.join(REAL, f"{machine}__{t}.dat.xz")
        with lzma.open(src) as f, open(os.path.join(tmp, f"{t}.dat"), "wb") as g:
            g.write(f.read())
    for t in tables:
        ext = [a for o in tables if o != t for a in ("-e", f"{o}.dat")]
        r = subprocess.run(["iasl", *ext, "-d", f"{t}.dat"], cwd=tmp, capture_output=True, text=True)
        dsl = os.path.join(tmp, f"{t}.dsl")
        assert r.returncode == 0 and os.path.getsize(dsl), \
            f"iasl -d {t}.dat (status {r.returncode}) wrote no listing: {r.stdout[-2000:]}{r.stderr[-2000:]}"
        with open(dsl, encoding="latin-1") as f:
            out[t] = f.read()
    return out


@pytest.mark.skipif(not shutil.which("iasl"), reason="iasl (acpica-tools) is not installed")
@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_reader_equals_iasl(machine, aml_dump, tmp_path):
    tables = MACHINES[machine]
    dsl = disassemble(str(tmp_path), machine, tables)
    r = subprocess.run([aml_dump, *[f"{t}.dat" for t in tables]], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, f"aml_dump failed (sanitizer report?):\n{r.stderr[-4000:]}"
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    defects = [x["defect"] for x in lines if "defect" in x]
    assert defects == [], "\n".join(defects)
    got = [x["dev"] for x in lines if "dev" in x]
    total = 0
    for k, t in enumerate(tables):
        want = oracle(dsl[t])
        have = [d for d in got if d["table"] == k]
        total += len(want)
        assert [(d["path"], d["hid"]) for d in have] == [(d["path"], d["hid"]) for d in want], t
        for h, w in zip(have, want):
            assert h["uid"] == w["uid"], (t, w["path"])
            assert h["hid_odd"] == w["odd"], (t, w["path"], w["hid"])
            if isinstance(w["crs"], list):
                assert h["ranges"] == w["crs"], (t, w["path"])
            elif w["crs"] is None:
                assert h["crs"] == 0 and h["ranges"] == [], (t, w["path"])
    assert total == len(got)
    assert total > 0


def test_oracle_reads_iasl_text():
    """The .dsl parser on a listing written by hand in iasl -d's layout."""
    dsl = r'''
    DefinitionBlock ("", "SSDT", 2, "X", "Y", 1)
    {
        External (_SB_.PCI0, DeviceObj)
        Method (FOO, 1, NotSerialized) { Device (NOPE) { Name (_HID, "NOT00001") } }
        Scope (_SB)
        {
            If ((OSYS >= 0x07DC)) { Device (DEV1) { Name (_HID, EisaId ("PNP0C02") /* x */)  // _HID: Hardware ID
                Name (_UID, "USB _PLD Object Container")
                Name (_CRS, ResourceTemplate ()  // _CRS: Current Resource Settings
                {
                    Memory32Fixed (ReadWrite,
                        0xFED00000,         // Address Base
                        0x00000400,         // Address Length
                        )
                    QWordMemory (ResourceProducer, PosDecode, MinFixed, MaxFixed, Cacheable, ReadWrite,
                        0x0000000000000000, // Granularity
                        0x0000000800000000, // Range Minimum
                        0x0000000800000FFF, // Range Maximum
                        0x0000000000000000, // Translation Offset
                        0x0000000000001000, // Length
                        ,, , AddressRangeMemory, TypeStatic)
                })
                Device (^DEV2) { Name (_HID, "OEM2UPDX65MPA") Name (_UID, One) }
            } }
            Else { Device (\_SB.PCI0.DEV3) { Name (_HID, 0x080AD041) Name (_UID, 0x05) } }
        }
    }
    '''
    got = oracle(dsl)
    assert got == [
        {"path": "\\_SB_.DEV1", "hid": "PNP0C02", "odd": False, "uid": "USB _PLD Object Container",
         "crs": [[0xFED00000, 0x400], [0x800000000, 0x1000]]},
        {"path": "\\_SB_.DEV2", "hid": "OEM2UPDX65MPA", "odd": True, "uid": 1, "crs": None},
        {"path": "\\_SB_.PCI0.DEV3", "hid": "PNP0A08", "odd": False, "uid": 5, "crs": None},
    ]
