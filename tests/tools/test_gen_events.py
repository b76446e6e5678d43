# SPDX-License-Identifier: BSD-2-Clause
"""The generated Intel event catalogue (pmu/events/gen_intel_uncore.c) against Intel's files.

- Regenerating from the committed extracts (tests/oracle/perfmon/gen/*.tsv, Intel's field strings
  verbatim) gives the committed C byte for byte.
- `make events` decodes the catalogue with the firmware's decoder and encodes every row with the
  firmware's encoders; its catalogue lines are compared with the extracts in both directions (no
  event lost, none invented) for every platform and unit, and every CTL with the vendor's fields
  at the bit positions of Linux's sysfs format files (event config:0-7, umask config:8-15,
  CHA umask_ext config:32-57, IIO ch_mask config:36 / fc_mask config:44 on SKX, 48 from ICX;
  UPI umask_ext config:32-43 on SKX, 32-55 from ICX; M2M umask_ext3 config:32-39 on ICX).
- The socket-link units (perfmon Unit "UPI LL", "M2M", "B2CMI") likewise, and `make events` lists
  the UPI data-flit event and an M2M or B2CMI event on every Intel platform.
"""
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GEN = os.path.join(ROOT, "tests", "oracle", "perfmon", "gen")
sys.path.insert(0, os.path.dirname(__file__))
import gen_events  # noqa: E402

# efiperf platform -> the perfmon folder Intel's mapfile.csv serves it with (GNR-D, model 0xAE:
# the GNR files).
SERVED_BY = {"SKX": "SKX", "ICX": "ICX", "SPR": "SPR", "EMR": "EMR", "GNR": "GNR", "GNR-D": "GNR",
             "SRF": "SRF", "CWF": "CWF"}
CHA_PLATFORMS = ["SKX", "ICX", "SPR", "EMR", "GNR", "SRF", "CWF"]
LINK_UNITS = ("upi", "m2m", "b2cmi")


def vendor_rows(folder):
    """{(unit, EventName): fields} Intel's extract lists for folder, by the documented rule (not
    Deprecated, a programmable counter), parsed here from the strings, not by the generator."""
    out = {}
    with open(os.path.join(GEN, folder.lower() + "_uncore.tsv")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            c = line.rstrip("\n").split("\t")
            unit, name, ev, um, ext, port, fc, filt, dep, ctype = c
            if dep == "1" or ctype in ("FREERUN", "FIXED"):
                continue
            val = [0 if v in ("-", "na", "") else int(v, 16 if v.lower().startswith("0x") else 10)
                   for v in (ev, um, ext, port, fc, filt)]
            out[(unit, name)] = tuple(val)
    return out


@pytest.fixture(scope="module")
def events_out():
    r = subprocess.run(["make", "-s", "events"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout, r.stderr


def catalogue_lines(stdout):
    """{(platform, unit, name): (fields dict, ctl)} of the catalogue lines of `make events`."""
    rows = {}
    for line in stdout.splitlines():
        p = line.split()
        if len(p) == 5 and p[1] in ("cha", "imc", "iio") + LINK_UNITS and p[4].startswith("ctl="):
            fields = dict(kv.split("=") for kv in p[3].split(","))
            key = (p[0], p[1], p[2])
            assert key not in rows, "listed twice: %s" % (key,)
            rows[key] = ({k: int(v, 16) for k, v in fields.items()}, int(p[4][4:], 16))
    return rows


def test_regenerate_same_bytes(tmp_path):
    out = tmp_path / "gen_intel_uncore.c"
    gen_events.emit(GEN, str(out))
    with open(os.path.join(ROOT, "pmu", "events", "gen_intel_uncore.c"), "rb") as f:
        committed = f.read()
    assert out.read_bytes() == committed, "pmu/events/gen_intel_uncore.c differs from what gen_events.py emits"


def test_catalogue_is_the_vendor_files(events_out):
    got = catalogue_lines(events_out[0])
    assert got, "make events listed no catalogue row"
    skx_filter = 0
    for plat, folder in SERVED_BY.items():
        want = vendor_rows(folder)
        units = ("imc", "iio") + (("cha",) + LINK_UNITS if plat in CHA_PLATFORMS else ())
        for (unit, name), (ev, um, ext, port, fc, filt) in want.items():
            if unit not in units:
                continue
            key = (plat, unit, name)
            if filt:   # SKX rows with a CHA FILTER_VALUE: counted, not listed
                assert key not in got
                skx_filter += 1
                continue
            assert key in got, "%s %s %s: in Intel's %s file, not in efiperf's catalogue" % (plat, unit, name, folder)
            fields, ctl = got.pop(key)
            assert (fields["event"], fields["umask"]) == (ev, um), key
            assert fields.get("umask_ext", 0) == ext, key
            assert (fields.get("ch_mask", 0), fields.get("fc_mask", 0)) == (port, fc), key
            assert ctl & 0xFF == ev and (ctl >> 8) & 0xFF == um, (key, hex(ctl))
            if unit in ("cha",) + LINK_UNITS:
                assert ctl >> 32 == ext, (key, hex(ctl))   # umask_ext: config:32-57 (ICX), 32-63 (SPR+)
            if unit in LINK_UNITS:
                assert ctl & 0xFFFFFFFF == ev | um << 8 | 1 << 22, (key, hex(ctl))   # en: bit 22
            if unit == "iio":
                if plat == "SKX":
                    assert ((ctl >> 36) & 0xFF, (ctl >> 44) & 7) == (port, fc), (key, hex(ctl))
                elif port or fc:   # PortMask / FCMask win over UMaskExt (Intel's create_perf_json.py)
                    assert ((ctl >> 36) & 0xFFF, (ctl >> 48) & 7) == (port, fc), (key, hex(ctl))
                else:              # else UMaskExt is CTL bits 63:32 (SPR and later)
                    assert ctl >> 32 == ext, (key, hex(ctl), hex(ext))
    assert not got, "in efiperf's catalogue, not in Intel's files: %s" % sorted(got)[:10]
    assert "%u SKX rows needing a CHA filter value" % skx_filter in events_out[1]


def test_llc_lookup_data_read_icx(events_out):
    got = catalogue_lines(events_out[0])
    fields, ctl = got[("ICX", "cha", "UNC_CHA_LLC_LOOKUP.DATA_READ")]
    assert (fields["event"], fields["umask"], fields["umask_ext"]) == (0x34, 0xFF, 0x1BC1)
    assert ctl == 0x00001BC10040FF34   # ICX CHA enable bit 22


def test_link_units_every_platform(events_out):
    """A UPI data-flit event (perfmon metric upi_data_transmit_bw: UNC_UPI_TxL_FLITS.ALL_DATA,
    EventCode 0x02 UMask 0x0F) and an M2M (SKX..EMR) or B2CMI (GNR, SRF, CWF) clock event on every
    Intel platform; the literals are Intel's files', written out here."""
    got = catalogue_lines(events_out[0])
    for plat in CHA_PLATFORMS:
        fields, ctl = got[(plat, "upi", "UNC_UPI_TxL_FLITS.ALL_DATA")]
        assert (fields["event"], fields["umask"], ctl) == (0x02, 0x0F, 0x400F02), plat
        mem = "m2m" if plat in ("SKX", "ICX", "SPR", "EMR") else "b2cmi"
        assert (plat, mem, "UNC_%s_CLOCKTICKS" % mem.upper()) in got, plat
        assert not any(k[0] == plat and k[1] in LINK_UNITS and k[1] != mem and k[1] != "upi" for k in got), plat


def test_a_changed_bit_fails(tmp_path):
    """The extract is the oracle: one UMask bit changed in it no longer matches the catalogue."""
    src = os.path.join(GEN, "icx_uncore.tsv")
    rows = open(src).read().replace("\tUNC_CHA_LLC_LOOKUP.DATA_READ\t0x34\t0xFF\t", "\tUNC_CHA_LLC_LOOKUP.DATA_READ\t0x34\t0xFE\t")
    assert rows != open(src).read()
    for f in os.listdir(GEN):
        (tmp_path / f).write_text(open(os.path.join(GEN, f)).read())
    (tmp_path / "icx_uncore.tsv").write_text(rows)
    out = tmp_path / "gen.c"
    gen_events.emit(str(tmp_path), str(out))
    assert out.read_bytes() != open(os.path.join(ROOT, "pmu", "events", "gen_intel_uncore.c"), "rb").read()
