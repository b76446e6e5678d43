# SPDX-License-Identifier: BSD-2-Clause
"""`make run` as the README shows it: the terminal gets the efiperf console and the closing
lines (log:, console:, qemu:), not QEMU's warnings that TCG lacks a CPUID feature of the CPU
model; those are in the console log. Whatever else QEMU prints stays on the terminal."""
import os
import re
import subprocess

import pytest

from efiperf_qemu import QEMU_SH, REPO, base_image_lock, make_image, qemu_slot

TCG_NOISE = "TCG doesn't support requested feature"


def make_run(env_extra, *args):
    with base_image_lock(exclusive=True), qemu_slot():   # it boots build/<arch>/efiperf.img in place
        return subprocess.run(["make", "--no-print-directory", "-C", REPO, "run"] + list(args), capture_output=True,
                              text=True, env=dict(os.environ, **env_extra), timeout=600)


@pytest.mark.parametrize("arch, env, cpu", [
    pytest.param("x86_64", {}, "Icelake-Server", marks=pytest.mark.x86_64, id="x86_64"),
    pytest.param("x86_64", {"QEMU_CPU": "Skylake-Server"}, "Skylake-Server", marks=pytest.mark.x86_64, id="x86_64-QEMU_CPU=Skylake-Server"),
    pytest.param("aarch64", {}, "max", marks=pytest.mark.aarch64, id="aarch64")])
def test_make_run_terminal(arch, env, cpu, figure):
    # the README's command lines as written: `make run`, `QEMU_CPU=Skylake-Server make run`, `make run ARCH=aarch64`
    p = make_run(env, *([] if arch == "x86_64" else ["ARCH=" + arch]))
    term = p.stdout + p.stderr
    assert p.returncode == 0, "make run ARCH=%s exit %d:\n%s" % (arch, p.returncode, term[-3000:])
    assert TCG_NOISE not in term, "make run printed TCG feature warnings:\n%s" % "\n".join(
        l for l in term.splitlines() if TCG_NOISE in l)
    assert "efiperf: run ok" in term, "the efiperf console is not on the terminal:\n%s" % term[-2000:]
    last = term.rstrip("\n").splitlines()[-4:]
    assert [l.split(":")[0] for l in last] == ["log", "log", "console", "qemu"], "make run's closing lines: %s" % last
    assert re.fullmatch(r"log: build/%s/logs/\S+\.jsonl" % arch, last[0]) and last[1].endswith(".txt"), last
    assert re.fullmatch(r"qemu: %s %s wall [0-9.]+s exit 0" % (arch, re.escape(cpu)), last[3]), last[3]
    console = os.path.join(REPO, last[2][len("console: "):])
    with open(console, encoding="utf-8", errors="replace") as f:
        con = f.read()
    assert "efiperf: run ok" in con, "the console log lacks the run: %s" % console
    if arch == "x86_64":   # TCG lacks features of these Intel models: the warnings went to the log
        assert TCG_NOISE in con, "no TCG feature warning in %s: nothing was filtered, or QEMU changed" % console
    figure(" ".join(["%s=%s" % kv for kv in env.items()] + ["make run"] + ([] if arch == "x86_64" else ["ARCH=" + arch])),
           "%d terminal lines, %d TCG warnings kept in the console log" % (len(term.splitlines()), con.count(TCG_NOISE)))


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
