# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the Intel uncore CHA backend.

QEMU's x86 CPU models identify as Skylake-SP (family 6 model 0x55: Skylake-Server,
Cascadelake-Server) and Ice Lake-SP (model 0x6A: Icelake-Server), but QEMU has no CHA PMU:
unknown MSRs read 0 and drop writes (QEMU target/i386/tcg/sysemu/misc_helper.c: helper_rdmsr
/ helper_wrmsr ignore MSRs they do not model), and there is no CAPID device. So:
  - the platform table chosen must follow the model QEMU reports (QMP, not a table here);
  - without cha_count, discovery fails cleanly: a `cha` record with status "error" naming the
    missing CAPID device, an `error` record, end status "error", and the machine still powers off;
  - with cha_count=4 and trace=hw the hw records show the programming sequence at the MSR
    addresses Intel's uncore guides give for every CHA (Intel Xeon Processor Scalable Memory
    Family Uncore Performance Monitoring Reference Manual, CHA register table; 3rd Gen Intel Xeon
    Scalable (Ice Lake) Uncore Performance Monitoring Reference Manual, CHA MSR table; Linux
    arch/x86/events/intel/uncore_snbep.c skx_uncore_chabox, icx_cha_msr_offsets), computed
    here from those facts, not from efiperf's tables.

Config keys expected: cha = on|off, cha_count = 0 (discover) | 1..N, cha_events = list of
perf-style strings or named events separated by ';' (empty: the platform's default PCIe set).
"""
import re

import pytest

from efiperf_qemu import boot, cfg_text, make_image, qmp_cpu_identity

x86_64 = pytest.mark.x86_64


SMALL = {"copy_size": "4K", "copy_passes": "1", "loop_iterations": "1000", "pcie": "off"}
# QEMU's Icelake-Server reports model 0x86 (ATOM_TREMONT_D's number in Linux intel-family.h),
# not Ice Lake-SP's 0x6A; the ICX table is exercised with the model QEMU is told to report.
ICX_QEMU = "Icelake-Server,model=106"
MODELS = {"Skylake-Server": "SKX", "Cascadelake-Server": "SKX", ICX_QEMU: "ICX"}
# CPU model (Linux arch/x86/include/asm/intel-family.h) -> platform and its CAPID device (SKX and
# ICX uncore manuals: CAPID6 on device 30 function 3)
PLATFORM_OF_MODEL = {0x55: ("SKX", "8086:2083"), 0x6A: ("ICX", "8086:345b"), 0x6C: ("ICX", "8086:345b")}
NCHA = 4
# TOR latency classes of the default set: IO RdCur and ItoM hits and misses on SKX, PCIRdCur,
# ItoM and ItoMCacheNear on ICX (the requests of PCM src/pcm-pcie.h's read and write formulas)
LATENCY_CLASSES = {"SKX": 4, "ICX": 6}


def box_ctl(platform, n):
    """BOX_CTL MSR of CHA n: SKX 0xE00 + 0x10 n (SKX uncore manual, CHA table); ICX stride 0xE
    with the 0x1C step after CHA 17 and the drop to 0xB60 at CHA 34 (Linux uncore_snbep.c
    icx_cha_msr_offsets)."""
    if platform == "SKX":
        return 0xE00 + 0x10 * n
    if n < 18:
        return 0xE00 + 0xE * n
    if n < 34:
        return 0xF0A + 0xE * (n - 18)
    return 0xB60 + 0xE * (n - 34)


def cha_boot(scratch, model, cfg):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, **cfg)))
    return boot("x86_64", img, d, cpu=model)  # "Name,prop=value" passes through to -cpu


def expected_platform(model):
    ident, _ = qmp_cpu_identity(model)
    assert ident["family"] == 6 and ident["model"] in PLATFORM_OF_MODEL, "%s: QMP says family %d model 0x%x, not a CHA platform" % (model, ident["family"], ident["model"])
    return PLATFORM_OF_MODEL[ident["model"]]


@x86_64
@pytest.mark.parametrize("model", list(MODELS))
def test_cha_platform_and_discovery(model, scratch, figure):
    want, device = expected_platform(model)
    run = cha_boot(scratch, model, {"cha": "on"})
    assert run.rc != 0 or run.records[-1].get("status") == "error", "run did not end in error"
    cha = run.one("cha")
    assert cha.get("platform") == want, "%s: cha.platform %r, QEMU's model means %s" % (model, cha.get("platform"), want)
    assert cha.get("status") == "error", "cha.status %r without cha_count" % cha.get("status")
    why = cha.get("why", "")
    assert device in why and "not found" in why, "cha.why %r does not name the missing %s" % (why, device)
    errs = [e for e in run.of("error") if e.get("where") == "cha"]
    assert errs and device in errs[0].get("message", ""), "no error record naming %s: %s" % (device, run.of("error"))
    end = run.records[-1]
    assert end.get("type") == "end" and end.get("status") == "error", "end record %r" % end
    assert run.qemu_exit == 0, "QEMU exit %r: the machine did not power off" % run.qemu_exit
    figure("cha " + model, "%s; discovery: %s" % (want, why))


@x86_64
@pytest.mark.parametrize("model", ["Skylake-Server", ICX_QEMU])
def test_cha_sequence_trace(model, scratch, figure):
    want, _ = expected_platform(model)
    run = cha_boot(scratch, model, {"cha": "on", "cha_count": str(NCHA), "trace": "hw"})
    run.expect_ok()
    cha = run.one("cha")
    assert cha.get("platform") == want and cha.get("status") == "ok", "cha record %s" % {k: cha.get(k) for k in ("platform", "status", "why")}
    sock = cha.get("sockets", [{}])[0]
    assert sock.get("cha_count") == NCHA and sock.get("cha_count_source") == "config cha_count", "socket 0: %s" % sock
    assert isinstance(sock.get("cpu"), int), "socket 0 does not name the CPU used: %s" % sock
    hw = [r for r in run.of("hw") if r.get("op") in ("rdmsr", "wrmsr")]
    writes = [(int(r["reg"], 16), int(r["val"], 16)) for r in hw if r["op"] == "wrmsr"]
    reads = {int(r["reg"], 16) for r in hw if r["op"] == "rdmsr"}
    ctls = [int(e["ctl"], 16) for e in cha.get("events", [])]
    assert ctls, "cha record lists no events"
    for n in range(NCHA):
        b = box_ctl(want, n)
        box_w = [v for r, v in writes if r == b]
        assert b in reads, "BOX_CTL 0x%x of CHA %d never read before being written" % (b, n)
        assert box_w and box_w[0] & 0x100, "CHA %d BOX_CTL 0x%x: first write %s does not freeze (bit 8)" % (n, b, box_w[:1])
        assert any(not v & 0x100 for v in box_w), "CHA %d BOX_CTL 0x%x never unfrozen" % (n, b)
        ctl_w = [v for r, v in writes if b + 1 <= r <= b + 4]
        assert set(ctls) <= set(ctl_w), ("CHA %d: CTL writes at 0x%x.. %s lack the events' %s" % (
            n, b + 1, [hex(v) for v in ctl_w], [hex(v) for v in ctls]))
        assert any(b + 8 <= r <= b + 11 for r in reads), "CHA %d: counters 0x%x.. never read" % (n, b + 8)
        if want == "SKX":
            f1 = [v for r, v in writes if r == b + 6]
            assert 0x43C33 in f1, "CHA %d FILTER1 0x%x never given RdCur (0x43c33): %s" % (n, b + 6, [hex(v) for v in f1])
    # TOR latency (the default set): TOR_OCCUPANCY (event 0x36) counts on counter 0 alone (Intel
    # perfmon UNC_CHA_TOR_OCCUPANCY.* "Counter": "0"; Linux uncore_snbep.c
    # skx_uncore_chabox_constraints), so it is written to CTL0 = BOX_CTL + 1 of each CHA (SKX
    # uncore manual, CHA register table: Cn_MSR_PMON_CTL0) and nowhere else
    occ = [e for e in cha.get("events", []) if int(e["ctl"], 16) & 0xFF == 0x36]
    assert len(occ) == LATENCY_CLASSES[want], "%d TOR_OCCUPANCY events, want one per latency class (%d)" % (len(occ), LATENCY_CLASSES[want])
    assert all(e.get("counter") == 0 for e in occ), "TOR_OCCUPANCY on counters %s" % [e.get("counter") for e in occ]
    ctl0 = {box_ctl(want, n) + 1 for n in range(NCHA)}
    occ_w = {r for r, v in writes if v & 0xFF == 0x36 and v & (1 << 22)}
    assert occ_w == ctl0, "TOR_OCCUPANCY written to %s, want CTL0 of every CHA %s" % (sorted(map(hex, occ_w)), sorted(map(hex, ctl0)))
    # QEMU's TCG reads the counters as 0: every class says why, never a latency of 0
    lat = cha.get("tor_latency") or {}
    assert len(lat) == LATENCY_CLASSES[want], "tor_latency classes %s" % list(lat)
    for name, v in lat.items():
        assert v.get("latency_ns") is None and "not advancing" in (v.get("why") or ""), "tor_latency %s: %s" % (name, v)
        assert v.get("inserts") == 0 and v.get("clockticks") == 0, "tor_latency %s counts %s" % (name, v)
        # per socket: QEMU has one; its entry covers every CHA and its counts sum to the class's
        socks = v.get("sockets")
        assert isinstance(socks, list) and [s.get("socket") for s in socks] == [0], "tor_latency %s sockets %s" % (name, socks)
        assert sum(s.get("chas", 0) for s in socks) == NCHA, "tor_latency %s sockets' chas %s" % (name, socks)
        for k in ("inserts", "occupancy", "clockticks"):
            assert sum(s[k] for s in socks) == v[k], "tor_latency %s: sockets' %s %s, class %s" % (name, k, socks, v[k])
        assert all(s.get("latency_ns") is None and s.get("why") == v["why"] for s in socks), "tor_latency %s sockets %s" % (name, socks)
    # nothing outside the platform's CHA boxes and the global control was written
    boxes = {box_ctl(want, n) + k for n in range(NCHA) for k in range(12)}
    stray = [hex(r) for r, _ in writes if 0x700 <= r <= 0x2FFF and r not in boxes | {0x700}]
    assert not stray, "writes outside the CHA boxes: %s" % stray[:5]
    # every register written ends at the value first read (QEMU reads 0)
    last = {}
    for r, v in writes:
        last[r] = v
    assert all(v == 0 for r, v in last.items() if r in boxes or r == 0x700), "registers not restored: %s" % {hex(r): hex(v) for r, v in last.items() if (r in boxes or r == 0x700) and v}
    figure("cha trace " + model, "%s: %d MSR accesses for %d CHAs, %d events in %d groups" % (
        want, len(hw), NCHA, len(ctls), len(cha.get("groups", []))))


@x86_64
def test_cha_two_sockets(scratch, figure):
    """Two sockets (QEMU -smp 4,sockets=2,cores=2): every socket's CHAs are counted on a CPU of
    that socket, each TOR latency class has one entry per socket, and the console gives the
    classes over both sockets and then each socket's own line."""
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, cha="on", cha_count=str(NCHA))))
    run = boot("x86_64", img, d, cpu="Skylake-Server", smp="4,sockets=2,cores=2,threads=1")
    run.expect_ok()
    cha = run.one("cha")
    socks = cha.get("sockets") or []
    assert [s.get("socket") for s in socks] == [0, 1], "cha.sockets %s" % [s.get("socket") for s in socks]
    assert all(s.get("cha_count") == NCHA for s in socks), "cha_count per socket %s" % [s.get("cha_count") for s in socks]
    assert socks[0].get("cpu") != socks[1].get("cpu"), "both sockets counted on CPU %s" % socks[0].get("cpu")
    lat = cha.get("tor_latency") or {}
    assert len(lat) == LATENCY_CLASSES["SKX"], "tor_latency classes %s" % list(lat)
    for name, v in lat.items():
        per = v.get("sockets") or []
        assert [s.get("socket") for s in per] == [0, 1], "tor_latency %s sockets %s" % (name, per)
        assert [s.get("chas") for s in per] == [NCHA, NCHA], "tor_latency %s chas %s" % (name, per)
        for k in ("inserts", "occupancy", "clockticks"):
            assert sum(s[k] for s in per) == v[k], "tor_latency %s: sockets' %s %s, class %s" % (name, k, per, v[k])
    # console: the classes over both sockets, then one line per socket, each naming every class
    text = run.text()
    total = re.findall(r"^cha: +copy: TOR latency (?!\(socket)(.*)$", text, re.M)
    assert len(total) == 1, "console lines of the classes over both sockets: %s" % total
    for s in (0, 1):
        line = re.findall(r"^cha: +copy: TOR latency \(socket %d\) (.*)$" % s, text, re.M)
        assert len(line) == 1, "console line of socket %d: %s" % (s, line)
        assert all(name in line[0] for name in lat), "socket %d line %r lacks a class of %s" % (s, line[0], list(lat))
    figure("cha two sockets", "%d classes per socket; socket CPUs %s" % (len(lat), [s.get("cpu") for s in socks]))


@x86_64
def test_cha_refuses_unknown_model(scratch):
    # stock Icelake-Server: model 0x86 has no CHA table; a clear error, no guess
    ident, _ = qmp_cpu_identity("Icelake-Server")
    assert ident["model"] not in PLATFORM_OF_MODEL, "QEMU's Icelake-Server now reports model 0x%x" % ident["model"]
    run = cha_boot(scratch, "Icelake-Server", {"cha": "on", "cha_count": str(NCHA)})
    cha = run.one("cha")
    assert cha.get("status") == "error" and not cha.get("platform"), "cha record %s" % cha
    assert "0x%x" % ident["model"] in (cha.get("why") or "").lower(), "cha.why %r does not name model 0x%x" % (cha.get("why"), ident["model"])
    assert run.records[-1].get("status") == "error" and run.qemu_exit == 0, "the run must end in error and power off"
