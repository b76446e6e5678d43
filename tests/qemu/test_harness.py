# SPDX-License-Identifier: BSD-2-Clause
"""The harness itself, each time in a pytest of its own with its own work folder:
  - a boot that hangs (selftest/hung_boot.py under a short --timeout) is ended by pytest-timeout,
    reported as a failure that names the test and shows the console tail, its QEMU is killed,
    and the next test still runs (read back from that run's JUnit XML and terminal output);
  - the pytest command lines of the README (and its `-k "..."` example) select tests, and the
    first runs them; --keep keeps the hung boot's scratch image."""
import os
import re
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from efiperf_qemu import REPO, console_tail

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUNG = "test_boot_that_never_powers_off"
TIMEOUT = 30   # long enough for efiperf to run and hand back, under a second worker's load


def _qemu_pids_of(path):
    pids = []
    for name in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        if path in cmd and "qemu-system" in cmd:
            pids.append(int(name))
    return pids


@pytest.mark.x86_64
@pytest.mark.slow
def test_hung_boot_is_ended_by_pytest_timeout(scratch, figure):
    d = scratch()
    work, xml = os.path.join(d, "work"), os.path.join(d, "junit.xml")
    t0 = time.monotonic()
    # the path first: pytest finds tests/qemu/conftest.py (and its options) from it
    p = subprocess.run([sys.executable, "-m", "pytest", "qemu/selftest/hung_boot.py", "-o", "cache_dir=" + os.path.join(d, "cache"),
                        "--no-build", "--keep", "--qemu-work=" + work, "--timeout=%d" % TIMEOUT, "--junitxml=" + xml],
                       cwd=TESTS, capture_output=True, text=True, timeout=TIMEOUT + 240)
    wall = time.monotonic() - t0
    out = p.stdout + p.stderr
    assert p.returncode == 1, "inner pytest exit %d, expected 1 (one test failed):\n%s" % (p.returncode, out[-3000:])
    cases = {c.get("name"): c for c in ET.parse(xml).getroot().iter("testcase")}
    assert sorted(cases) == [HUNG, "test_the_next_test_still_runs"], "inner JUnit XML test cases %s" % sorted(cases)
    assert not list(cases["test_the_next_test_still_runs"]), "the test after the hang did not pass: %s" % (
        ET.tostring(cases["test_the_next_test_still_runs"], encoding="unicode"))
    fail = cases[HUNG].find("failure")
    assert fail is not None, "the hung boot is not a failure in the JUnit XML: %s" % ET.tostring(cases[HUNG], encoding="unicode")
    report = (fail.get("message") or "") + "\n" + (fail.text or "")
    assert "Timeout >%.1fs" % TIMEOUT in report, "the failure is not pytest-timeout's: %s" % report[-2000:]
    assert "hung_boot.py::" + HUNG in report, "the failure report does not name the test: %s" % report[-2000:]
    # the console capture of the hung boot: the report carries its last lines
    img_dir = os.path.join(work, HUNG)
    cons = [os.path.join(img_dir, "logs", f) for f in sorted(os.listdir(os.path.join(img_dir, "logs"))) if f.startswith("console-")]
    assert len(cons) == 1, "console captures of the hung boot: %s" % cons
    tail = console_tail(cons[0])
    with open(cons[0], "rb") as f:
        assert b"efiperf" in f.read(), "efiperf never ran in the hung boot: %s" % tail
    assert tail and "\n".join(tail[-5:]) in report, "the failure report lacks the console tail %r:\n%s" % (tail[-5:], report[-2000:])
    assert re.search(r"^FAILED qemu/selftest/hung_boot.py::%s\b" % HUNG, out, re.M), "pytest's summary does not name the failed test:\n%s" % out[-2000:]
    assert re.search(r"^=+ 1 failed, 1 passed in ", out, re.M), "inner pytest summary:\n%s" % out[-1000:]
    assert not _qemu_pids_of(os.path.join(img_dir, "efiperf.img")), "the hung boot's QEMU is still running"
    assert os.path.exists(os.path.join(img_dir, "efiperf.img")), "--keep did not keep the scratch image beside its logs"
    assert wall < TIMEOUT + 60, "the inner run took %.0f s with a %d s timeout" % (wall, TIMEOUT)
    figure("hung boot", "ended by pytest-timeout after %d s, console tail in the report; inner run %.0f s" % (TIMEOUT, wall))


def readme_pytest_commands():
    """The README's pytest command lines, then its inline selection examples (`-k "..."`) on tests/qemu."""
    with open(os.path.join(REPO, "README.md")) as f:
        text = f.read()
    return [shlex.split(m.group(1), comments=True) for m in re.finditer(r"^/usr/bin/python3 -m pytest (.*)$", text, re.M)] + \
        [["tests/qemu"] + shlex.split(m.group(1)) for m in re.finditer(r"\(`(-k \"[^\"`]+\")`\)", text)]


@pytest.mark.x86_64
def test_readme_pytest_commands(scratch):
    cmds = readme_pytest_commands()
    assert len(cmds) >= 4 and cmds[0] == ["tests/qemu", "-n", "2", "-k", "cpu_model"], "README pytest commands: %s" % cmds
    d = scratch()
    for i, args in enumerate(cmds):
        own = ["--qemu-work=%s/work%d" % (d, i), "-o", "cache_dir=%s/cache" % d, "--no-build"]
        p = subprocess.run(["/usr/bin/python3", "-m", "pytest"] + args + own + ["--collect-only", "-q"],
                           cwd=REPO, capture_output=True, text=True, timeout=120)
        m = re.search(r"^(\d+)/(\d+) tests collected \(\d+ deselected\)", p.stdout, re.M)
        assert p.returncode == 0 and m and 0 < int(m.group(1)) < int(m.group(2)), \
            "README `pytest %s` collects:\n%s" % (" ".join(args), (p.stdout + p.stderr)[-1500:])
    # the first as written: the four CPU-model boots on two workers
    p = subprocess.run(["/usr/bin/python3", "-m", "pytest"] + cmds[0] + ["--qemu-work=%s/run" % d, "-o", "cache_dir=%s/cache" % d, "--no-build"],
                       cwd=REPO, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and re.search(r"^=+ 4 passed(, \d+ deselected)? in ", p.stdout, re.M), \
        "README `pytest %s`:\n%s" % (" ".join(cmds[0]), (p.stdout + p.stderr)[-3000:])
