# SPDX-License-Identifier: BSD-2-Clause
"""`make run` as the README shows it: the image's main job (boot/efiperf.cfg) on QEMU's machine for
it (boot/qemu.sh --main-job). The terminal gets the efiperf console and the closing lines (log:,
report:, console:, qemu:), not QEMU's warnings that TCG lacks a CPUID feature of the CPU model;
those are in the console log. Whatever else QEMU prints stays on the terminal. The x86_64 case
runs in a fresh copy of the source tree (every file git tracks or would track), as a new user's
clone: it builds, boots, and reports there. What the log holds is read from the log, not the
console: the NVMe points with their self-check and link limit, and the verdict; the report of
that log is checked in chromium (tests/report/pagecheck.py)."""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from efiperf_qemu import QEMU_SH, REPO, base_image_lock, make_image, qemu_slot

sys.path.insert(0, os.path.join(REPO, "tests", "report"))
import pagecheck  # noqa: E402

TCG_NOISE = "TCG doesn't support requested feature"
MAIN_CPU = "Icelake-Server,model=106"
# QEMU's machine for the main job (qemu.sh --main-job): two NVMe controllers
NVME_BDFS = ["0000:01:00.0", "0000:04:00.0"]


def fresh_tree(d):
    """A copy of the source tree as a clone would have it: the files git tracks, and the untracked
    ones it does not ignore (work not committed yet); nothing built."""
    files = subprocess.run(["git", "-C", REPO, "ls-files", "-z", "-co", "--exclude-standard"], capture_output=True,
                           check=True).stdout.split(b"\0")
    tree = os.path.join(d, "clone")
    for f in files:
        if not f:
            continue
        src, dst = os.path.join(REPO.encode(), f), os.path.join(tree.encode(), f)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(src, "rb") as a, open(dst, "wb") as b:
            b.write(a.read())
        os.chmod(dst, os.stat(src).st_mode & 0o777)
    return tree


def make_run(repo, env_extra, *args):
    def run():
        return subprocess.run(["make", "--no-print-directory", "-C", repo, "run"] + list(args), capture_output=True,
                              text=True, env=dict(os.environ, **env_extra), timeout=900)
    if repo == REPO:   # it boots build/<arch>/efiperf.img in place
        with base_image_lock(exclusive=True), qemu_slot():
            return run()
    with qemu_slot():
        return run()


@pytest.mark.timeout(900)   # the x86_64 case builds a fresh tree first; aarch64's main job under -icount is long
@pytest.mark.parametrize("arch, env, cpu", [
    pytest.param("x86_64", {}, MAIN_CPU, marks=pytest.mark.x86_64, id="x86_64"),
    pytest.param("x86_64", {"QEMU_CPU": "Skylake-Server"}, "Skylake-Server", marks=pytest.mark.x86_64, id="x86_64-QEMU_CPU=Skylake-Server"),
    pytest.param("aarch64", {}, "max", marks=[pytest.mark.aarch64, pytest.mark.slow], id="aarch64")])
def test_make_run_terminal(arch, env, cpu, figure, scratch, tmp_path):
    # the README's command lines as written: `make run`, `QEMU_CPU=Skylake-Server make run`, `make run ARCH=aarch64`
    fresh = arch == "x86_64" and not env
    repo = fresh_tree(scratch()) if fresh else REPO
    p = make_run(repo, env, *([] if arch == "x86_64" else ["ARCH=" + arch]))
    term = p.stdout + p.stderr
    assert p.returncode == 0, "make run ARCH=%s exit %d:\n%s" % (arch, p.returncode, term[-3000:])
    assert TCG_NOISE not in term, "make run printed TCG feature warnings:\n%s" % "\n".join(
        l for l in term.splitlines() if TCG_NOISE in l)
    assert "efiperf: run ok" in term, "the efiperf console is not on the terminal:\n%s" % term[-2000:]
    last = term.rstrip("\n").splitlines()[-5:]
    assert [l.split(":")[0] for l in last] == ["log", "log", "report", "console", "qemu"], "make run's closing lines: %s" % last
    assert re.fullmatch(r"log: build/%s/logs/\S+\.jsonl" % arch, last[0]) and last[1].endswith(".txt"), last
    assert re.fullmatch(r"report: build/%s/report/\S+\.html" % arch, last[2]), last[2]
    assert re.fullmatch(r"qemu: %s %s wall [0-9.]+s exit 0" % (arch, re.escape(cpu)), last[4]), last[4]
    console = os.path.join(repo, last[3][len("console: "):])
    with open(console, encoding="utf-8", errors="replace") as f:
        con = f.read()
    assert "efiperf: run ok" in con, "the console log lacks the run: %s" % console
    if arch == "x86_64":   # TCG lacks features of these Intel models: the warnings went to the log
        assert TCG_NOISE in con, "no TCG feature warning in %s: nothing was filtered, or QEMU changed" % console
    log = os.path.join(repo, last[0][len("log: "):])
    with open(log, encoding="utf-8") as f:
        recs = [json.loads(l) for l in f]
    kinds = {r["type"] for r in recs}
    # the main job, read from the log: every CPU's copy and STREAM, the latency curve, PCIe
    assert {"platform", "pcie", "measurement", "stream", "latency", "verdict", "end"} <= kinds, sorted(kinds)
    assert recs[-1].get("status") == "ok" and recs[-2]["type"] == "verdict" and recs[-2]["result"] == "PASS", recs[-2:]
    cpus = [r for r in recs if r["type"] == "cpus"]
    assert cpus and cpus[0]["setting"] == "all" and cpus[0]["count"] == 4, cpus
    nv = [r for r in recs if r["type"] == "nvme"]
    if arch == "x86_64":
        # efiperf's own queues on both controllers, alone and shared, 2 bs x 2 iodepths
        assert sorted({r["bdf"] for r in nv}) == NVME_BDFS and len(nv) == 16, [(r["bdf"], r["window"]) for r in nv]
        for r in nv:
            assert r["verified"] is True and r["status"] == "ok", r
            assert (r.get("self_check") or {}).get("state"), "no self_check: %s" % r
            assert (r.get("link_limit") or {}).get("status") == "ok", "no link_limit: %s" % r.get("link_limit")
        if cpu == MAIN_CPU:   # the CHA counters ran around the NVMe windows (TCG: they do not advance)
            assert all(r["self_check"]["state"] == "not-advancing" for r in nv), {r["self_check"]["state"] for r in nv}
            assert any(r["type"] == "cha" and r.get("kernel") == "nvme_read" and r["status"] == "ok" for r in recs)
        # what the emulator cannot show is said once, not under every window
        for what in ("link limit: ", "INST_RETIRED.ANY "):
            n = sum(1 for l in con.splitlines() if l.strip().startswith(what))
            assert n == 1, "%r %d times on the console" % (what, n)
        assert "efiperf verdict: PASS (no checks configured)" in con
    else:
        assert not nv, "NVMe points on aarch64's virt, which has no controller"
        # cha = auto on a CPU without a CHA: off, said once, and no error (the end status is ok)
        assert con.count("cha = auto: no CHA efiperf programs") == 1 and not any(r["type"] == "cha" for r in recs), \
            "cha = auto on aarch64: %s" % [l for l in con.splitlines() if "cha" in l][:5]
    page = pathlib.Path(repo) / last[2][len("report: "):]
    if arch == "x86_64" and not env:
        pagecheck.check_page(page, recs, tmp_path, pathlib.Path(REPO) / "build" / "report-pages" / "make-run-x86_64")
    else:
        assert page.stat().st_size > 10000, page
    figure(" ".join(["%s=%s" % kv for kv in env.items()] + ["make run"] + ([] if arch == "x86_64" else ["ARCH=" + arch])),
           "%d terminal lines, %d TCG warnings kept in the console log; %s" % (
               len(term.splitlines()), con.count(TCG_NOISE), last[4]))


@pytest.mark.x86_64
def test_other_qemu_messages_stay_on_the_terminal(scratch):
    d = scratch()
    img = make_image("x86_64", d)
    with qemu_slot():
        p = subprocess.run([QEMU_SH, "--arch", "x86_64", "--image", img, "--logs", os.path.join(d, "logs"),
                            "--", "-device", "no-such-device"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, "qemu.sh exit %d with a bogus device" % p.returncode
    assert "'no-such-device' is not a valid device model name" in p.stdout + p.stderr, \
        "QEMU's error did not reach the terminal:\n%s" % (p.stdout + p.stderr)
