# SPDX-License-Identifier: BSD-2-Clause
"""Secure Boot with Debian's snakeoil firmware (boot/qemu.sh --secure-boot): the image signed by
boot/sign.sh with Debian's snakeoil key boots and runs to its end record on both arches; the same
image unsigned is refused by the firmware (x86_64: OVMF says Access Denied and efiperf never
prints a line)."""
import os
import subprocess
import time

import pytest

from efiperf_qemu import (BOOTNAME, MKIMAGE_SH, QEMU_SH, REPO, SMALL, base_efi, boot, cfg_text, console_tail,
                          kill_session, sh)

SNAKEOIL_KEY = "/usr/share/ovmf/PkKek-1-snakeoil.key"
SNAKEOIL_CERT = "/usr/share/ovmf/PkKek-1-snakeoil.pem"
SIGN_SH = os.path.join(REPO, "boot", "sign.sh")


def image(arch, d, signed):
    cfg = os.path.join(d, "efiperf.cfg")
    with open(cfg, "w") as f:
        f.write(cfg_text(arch, dict(SMALL, pcie="off", stream="off", latency="off")))
    efi = base_efi(arch)
    if signed:
        efi = os.path.join(d, "signed.efi")
        p = subprocess.run([SIGN_SH, "--key", SNAKEOIL_KEY, "--cert", SNAKEOIL_CERT, base_efi(arch), efi],
                           capture_output=True, text=True, env=dict(os.environ, SIGN_PASS="snakeoil"), timeout=120)
        assert p.returncode == 0, p.stderr
        assert "signed " in p.stdout
    img = os.path.join(d, "efiperf.img")
    p = sh([MKIMAGE_SH, img, efi, BOOTNAME[arch], cfg])
    assert p.returncode == 0, p.stderr
    return img


@pytest.mark.parametrize("arch", [pytest.param("x86_64", marks=pytest.mark.x86_64),
                                  pytest.param("aarch64", marks=[pytest.mark.aarch64, pytest.mark.slow])])
def test_signed_image_runs(arch, scratch):
    d = scratch()
    run = boot(arch, image(arch, d, signed=True), d, secure_boot=True)
    run.expect_ok()
    assert run.records[0]["type"] == "run" and run.records[-1]["type"] == "end"


@pytest.mark.x86_64
def test_unsigned_image_refused(scratch):
    """The firmware refuses the unsigned loader (BdsDxe: Access Denied), then its shell's
    startup.nsh is refused too. QEMU is stopped once the refusal is seen and the shell has had
    time to try: efiperf never ran (no banner, no log)."""
    d = scratch()
    img = image("x86_64", d, signed=False)
    logs = os.path.join(d, "logs")
    p = subprocess.Popen([QEMU_SH, "--arch", "x86_64", "--image", img, "--logs", logs, "--quiet", "--secure-boot",
                          "--timeout", "240"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    seen, deadline = None, time.time() + 240
    try:
        while time.time() < deadline and p.poll() is None:
            cons = [f for f in os.listdir(logs) if f.startswith("console-")] if os.path.isdir(logs) else []
            if cons:
                with open(os.path.join(logs, cons[0]), "rb") as f:
                    text = f.read().decode("utf-8", "replace")
                if "Access Denied" in text and seen is None:
                    seen = time.time()
                if seen and time.time() - seen > 25:
                    break
            time.sleep(1)
    finally:
        kill_session(p)
        p.communicate()
    cons = [f for f in os.listdir(logs) if f.startswith("console-")]
    text = open(os.path.join(logs, cons[0]), "rb").read().decode("utf-8", "replace")
    assert "Access Denied" in text, "no refusal on the console: %s" % console_tail(os.path.join(logs, cons[0]))
    assert "bare-metal performance measurement" not in text, \
        "efiperf's banner is on the console: %s" % console_tail(os.path.join(logs, cons[0]))
    assert not [f for f in os.listdir(logs) if f.endswith(".jsonl")]
