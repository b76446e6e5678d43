# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the verdict: checks that hold end PASS and an impossible one FAIL (the verdict
names it with its value, the console's last line is the result line); expect_link on an NVMe
behind a root port QEMU was told x-speed=8,x-width=4; a run killed mid-way is reported as
`incomplete` by the next boot and classified INCOMPLETE by efiperf-report; the per-machine config
\\efiperf\\<serial>.cfg. Expected values come from what QEMU was given (-smp 4, -m 512, -smbios,
the root port's x-speed/x-width) and from the log's own platform record, never from tables here."""
import json
import os
import re
import subprocess
import time
import xml.etree.ElementTree as ET

import pytest

from efiperf_qemu import (QEMU_SH, REPO, SMALL, Settings, boot, cfg_text, console_text, image_logs,
                          kill_session, make_image, qemu_slot, read_image_file, sh)

REPORT = os.path.join(REPO, "boot", "efiperf-report")
RESULT_RE = re.compile(r"^EFIPERF RESULT: (PASS|FAIL|ERROR) serial=(\S+) log=(\S+) checks=(\d+)/(\d+)$")
x86_64 = pytest.mark.x86_64


def result_line(run):
    """The console's last non-blank line, parsed as the result line."""
    lines = [l.strip() for l in console_text(run).splitlines() if l.strip()]
    last = lines[-1] if lines else ""
    m = RESULT_RE.match(last)
    assert m, "the console's last line is not the result line: %r" % last
    return m.groups()


def report(*args):
    return subprocess.run(["/usr/bin/python3", REPORT] + [str(a) for a in args], capture_output=True, text=True, timeout=300)


def vrecord(run):
    v = run.one("verdict")
    assert run.records[-2] is v, "the verdict is not the record before end"
    return v


def boot_checks(scratch, checks, extra_cfg=None, qemu_extra=None):
    d = scratch()
    cfg = dict(SMALL, **(extra_cfg or {}))
    text = cfg_text("x86_64", cfg) + "".join("%s\n" % c for c in checks)
    run = boot("x86_64", make_image("x86_64", d, text), d, extra=qemu_extra)
    return run, d


@x86_64
def test_checks_hold_pass(scratch, figure):
    run, d = boot_checks(scratch, [
        "expect_cpus = 4",                     # qemu.sh -smp 4
        "expect_memory = 0.5",                 # qemu.sh -m 512
        "expect_no_downtrain = on",
        "expect_microcode >= 0x1",
        "check = measurement[copy].passes[0].gbps >= 0.001",
        "check = stream.triad.best_rate_mbps >= 1",
        "check = smbios.memory.total_mib within 5% of 500",  # 512: 2.4% off
        "check = platform.cpu.vendor == \"GenuineIntel\"",
    ], {"cpus": "all", "stream": "on", "stream_size": "1M", "stream_passes": "2", "latency": "on", "latency_max": "256K"})
    run.expect_ok()
    v = vrecord(run)
    bad = [c for c in v["checks"] if c["result"] != "PASS"]
    assert v["result"] == "PASS" and not bad, "verdict %s; failing: %s" % (v["result"], bad)
    assert (v["passed"], v["total"]) == (8, 8)
    by = {c["path"]: c for c in v["checks"]}
    assert by["platform.topology.enabled_cpus"]["value"] == 4
    assert [c["value"] for c in v["checks"] if c["path"] == "smbios.memory.total_mib"] == [512, 512]
    assert by["platform.cpu.microcode"]["value"] == run.one("platform")["cpu"]["microcode"]
    triad = [s for s in run.of("stream") if s["function"] == "triad"][0]
    assert by["stream[triad].best_rate_mbps"]["value"] == triad["best_rate_mbps"]
    res, serial, log, passed, total = result_line(run)
    assert (res, serial, passed, total) == ("PASS", "noserial", "8", "8")
    assert log == run.records[0]["log"] + ".jsonl"
    # the host side agrees, and its report of this QEMU log has the plots the log allows
    out = os.path.join(d, "report")
    p = report(run.jsonl, "--html", out, "--junit", os.path.join(out, "j.xml"))
    assert p.returncode == 0, p.stdout + p.stderr
    with open(os.path.join(out, os.path.basename(run.jsonl)[:-6] + ".html")) as f:
        html = f.read()
    assert set(re.findall(r'data-plot="([a-z]+)"', html)) == {"copy", "latency", "stream"}
    cases = ET.parse(os.path.join(out, "j.xml")).getroot().findall("testsuite/testcase")
    assert len(cases) == 8 and not any(c.find("failure") is not None for c in cases)
    figure("verdict PASS", "checks 8/8, result line %s" % " ".join(result_line(run)))


@x86_64
def test_impossible_check_fails(scratch):
    run, d = boot_checks(scratch, ["expect_cpus = 4", "check = platform.cpu.family == 99"])
    run.expect_ok()   # the run itself went well: the machine does not qualify
    v = vrecord(run)
    assert v["result"] == "FAIL" and (v["passed"], v["total"]) == (1, 2)
    fam = run.one("platform")["cpu"]["family"]
    bad = [c for c in v["checks"] if c["result"] == "FAIL"]
    assert len(bad) == 1 and bad[0]["setting"] == "check = platform.cpu.family == 99", bad
    assert bad[0]["value"] == fam and bad[0]["threshold"] == 99 and bad[0]["where"].endswith("efiperf.cfg:%d" % (
        len(cfg_text("x86_64", SMALL).splitlines()) + 2))
    assert result_line(run)[0] == "FAIL" and result_line(run)[3:] == ("1", "2")
    assert "  FAIL  platform.cpu.family == 99: %d" % fam in console_text(run)
    p = report(run.jsonl, "--junit", os.path.join(d, "j.xml"))
    assert p.returncode == 1 and p.stdout.startswith("FAIL"), p.stdout + p.stderr
    fails = [c for c in ET.parse(os.path.join(d, "j.xml")).getroot().iter("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in fails] == ["platform.cpu.family == 99"]


@x86_64
def test_expect_link_behind_8gt_x4_port(scratch, figure):
    def extra(d):
        disk = os.path.join(d, "nvme.raw")
        with open(disk, "wb") as f:
            f.truncate(1 << 20)
        return ["-device", "pcie-root-port,id=rp1,bus=pcie.0,chassis=1,addr=0x10,x-speed=8,x-width=4",
                "-drive", "if=none,id=nvm,format=raw,file=%s" % disk,
                "-device", "nvme,serial=efiperf-v1,drive=nvm,bus=rp1"]
    d = scratch()
    base = cfg_text("x86_64", SMALL)
    # the NVMe's address is the log's: the function of class 0x010802 (NVM Express, PCI code and ID
    # assignment specification) behind the port
    run = boot("x86_64", make_image("x86_64", d, base + "expect_link = 0000:01:00.0 8 x4\n"), d, extra=extra(d))
    run.expect_ok()
    nv = [r for r in run.of("pcie") if r["class"] == "0x010802"]
    assert len(nv) == 1 and nv[0]["bdf"] == "0000:01:00.0", [r["bdf"] for r in nv]
    link = nv[0]["link"]
    assert (link["speed_gts"], link["width"]) == (2.5, 1), "the NVMe trained at %s GT/s x%s" % (link["speed_gts"], link["width"])
    v = vrecord(run)
    assert v["result"] == "FAIL" and v["total"] == 2
    got = {c["path"]: (c["threshold"], c["value"], c["result"]) for c in v["checks"]}
    assert got == {"pcie[0000:01:00.0].link.speed_gts": (8, 2.5, "FAIL"),
                   "pcie[0000:01:00.0].link.width": (4, 1, "FAIL")}, got
    assert all(c["setting"] == "expect_link = 0000:01:00.0 8 x4" for c in v["checks"])
    assert result_line(run)[0] == "FAIL"
    figure("expect_link", "asked 8 GT/s x4, the NVMe trained at %s GT/s x%s: FAIL" % (link["speed_gts"], link["width"]))


def _wait_console(logs, text, timeout):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        for fn in os.listdir(logs) if os.path.isdir(logs) else []:
            if fn.startswith("console-"):
                with open(os.path.join(logs, fn), "rb") as f:
                    if text in f.read().decode("utf-8", "replace"):
                        return True
        time.sleep(0.5)
    return False


@x86_64
@pytest.mark.slow
def test_killed_run_is_incomplete(scratch, figure):
    d = scratch()
    # a copy long enough (1000 passes of 2 x 128 MiB) to be killed inside
    img = make_image("x86_64", d, cfg_text("x86_64", {"copy_size": "128M", "copy_passes": "1000"}))
    before = set(image_logs(img))   # the built image may hold logs of `make run`
    logs1 = os.path.join(d, "logs1")
    with qemu_slot():
        p = subprocess.Popen([QEMU_SH, "--arch", "x86_64", "--image", img, "--logs", logs1, "--quiet", "--timeout",
                              str(Settings.boot_timeout)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            # "acpi:" is printed after the run record and the marker are on the volume
            started = _wait_console(logs1, "acpi:", 240)
            time.sleep(2)
        finally:
            kill_session(p)
    assert started, "the first boot never reached its acpi line"
    first = [f for f in image_logs(img) if f.endswith(".jsonl") and f not in before]
    assert len(first) == 1, first
    marker = read_image_file(img, "::/efiperf/state/noserial.running").decode()
    assert "log=\\efiperf\\logs\\%s" % first[0] in marker, marker
    # the first log as the stick holds it: no end record
    first_path = os.path.join(d, first[0])
    with open(first_path, "wb") as f:
        f.write(read_image_file(img, "::/efiperf/logs/" + first[0]))
    rep = report(first_path)
    assert rep.returncode == 2 and rep.stdout.startswith("INCOMPLETE"), rep.stdout + rep.stderr
    assert "no end record" in rep.stdout

    cfgf = os.path.join(d, "small.cfg")
    with open(cfgf, "w") as f:
        f.write(cfg_text("x86_64", SMALL))
    assert sh(["mcopy", "-o", "-i", img, cfgf, "::/efiperf/efiperf.cfg"]).returncode == 0
    run = boot("x86_64", img, d, tag="logs2")
    run.expect_ok()
    inc = run.one("incomplete")
    assert inc["log"] == "\\efiperf\\logs\\" + first[0], inc
    with open(first_path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    complete = [l for l in lines[:-1]]
    assert inc["records"] == len(complete) and inc["partial_bytes"] == len(lines[-1]), (inc, len(complete))
    assert inc["last_record"] == json.loads(complete[-1])["type"]
    assert run.records.index(inc) == 1, "the incomplete record is not the first after the run record"
    assert "noserial.running" not in " ".join(sh(["mdir", "-b", "-i", img, "::/efiperf/state"]).stdout.split()), \
        "the marker is still there after a run that ended"
    rep2 = report(run.jsonl)
    assert rep2.returncode == 0, rep2.stdout + rep2.stderr
    figure("incomplete", "killed after %d records (last %s); the next boot said so" % (inc["records"], inc["last_record"]))


@x86_64
def test_per_machine_config(scratch):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", SMALL))
    lab = os.path.join(d, "LAB7.cfg")
    with open(lab, "w") as f:
        f.write(cfg_text("x86_64", dict(SMALL, copy_passes="2")) + "expect_cpus = 4\n")
    assert sh(["mcopy", "-i", img, lab, "::/efiperf/LAB7.cfg"]).returncode == 0
    run = boot("x86_64", img, d, extra=["-smbios", "type=1,serial=LAB7"])
    run.expect_ok()
    r = run.records[0]
    assert r["config_file"] == "\\efiperf\\LAB7.cfg", r["config_file"]
    assert r["config_search"] == ["\\efiperf\\LAB7.cfg", "\\efiperf\\efiperf.cfg"], r["config_search"]
    assert r["config"]["copy_passes"] == 2 and r["config"]["origin"]["copy_passes"].startswith("\\efiperf\\LAB7.cfg:")
    assert r["config"]["expect_cpus"] == ["4"]
    assert os.path.basename(run.jsonl).startswith("LAB7-")
    assert result_line(run)[:2] == ("PASS", "LAB7")
    # another serial falls back to efiperf.cfg
    d2 = scratch("other")
    img2 = make_image("x86_64", d2, cfg_text("x86_64", SMALL))
    assert sh(["mcopy", "-i", img2, lab, "::/efiperf/LAB7.cfg"]).returncode == 0
    run2 = boot("x86_64", img2, d2, extra=["-smbios", "type=1,serial=LAB8"])
    run2.expect_ok()
    assert run2.records[0]["config_file"] == "\\efiperf\\efiperf.cfg"
    assert run2.records[0]["config"]["copy_passes"] == 3 and run2.records[0]["config"]["expect_cpus"] == []
