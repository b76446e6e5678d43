# SPDX-License-Identifier: BSD-2-Clause
"""make usb / boot/usb.sh against a fake sysfs root and mounts file, with a regular file standing
in for the disk: never a real device. Sizes and flags are sysfs's (Linux
Documentation/ABI/stable/sysfs-block: size in 512-byte sectors, removable 0/1)."""
import os
import subprocess
import sys

import pytest

from conftest import REPO

USB = os.path.join(REPO, "boot", "usb.sh")
GIB = 1 << 30


def built_image_alone():
    """The lock the QEMU tests hold while `make run` boots build/x86_64/efiperf.img in place (and
    writes its logs into it): make usb reads that image, and the tests compare the stick with it."""
    sys.path.insert(0, os.path.join(REPO, "tests", "qemu"))
    import efiperf_qemu
    os.makedirs(efiperf_qemu.Settings.work, exist_ok=True)
    return efiperf_qemu.base_image_lock(exclusive=True)


def fake(tmp_path, name="sdz", removable=1, size_bytes=8 * GIB, mounts=""):
    sysfs = tmp_path / "sys"
    d = sysfs / "block" / name
    (d / "device").mkdir(parents=True)
    (d / "removable").write_text("%d\n" % removable)
    (d / "size").write_text("%d\n" % (size_bytes // 512))
    (d / "device" / "vendor").write_text("TestCo  \n")
    (d / "device" / "model").write_text("Stick 3000      \n")
    (tmp_path / "mounts").write_text(mounts)
    dev = tmp_path / name
    dev.write_bytes(b"\xee" * (1 << 20))        # the "disk": 1 MiB of 0xee before the write
    img = tmp_path / "efiperf.img"
    img.write_bytes(bytes(range(256)) * 2048)     # 512 KiB
    env = dict(os.environ, EFIPERF_SYSFS=str(sysfs), EFIPERF_MOUNTS=str(tmp_path / "mounts"))
    env.pop("FORCE", None)
    return dev, img, env


def usb(img, dev, env, *extra):
    return subprocess.run([USB, "--image", str(img), "--dev", str(dev)] + list(extra), capture_output=True, text=True,
                          env=env, timeout=120)


def test_writes_and_verifies(tmp_path):
    dev, img, env = fake(tmp_path)
    p = usb(img, dev, env)
    assert p.returncode == 0, p.stderr
    data = dev.read_bytes()
    assert data[:512 * 1024] == img.read_bytes() and data[512 * 1024:] == b"\xee" * (512 * 1024)
    assert "usb: wrote %s (524288 bytes, sha256 " % img in p.stdout
    assert "to %s (TestCo Stick 3000, 8.0 GiB, removable=1); read back: identical" % dev in p.stdout


@pytest.mark.parametrize("kw, extra, message", [
    (dict(removable=0), [], "is not removable"),
    (dict(size_bytes=512 * GIB), [], "is 512.0 GiB, larger than 256 GiB"),
    (dict(mounts="/dev/sdz1 /media/stick vfat rw 0 0\n"), [], "is mounted: /dev/sdz1 on /media/stick"),
    (dict(mounts="/dev/sdz /mnt vfat rw 0 0\n"), ["--force"], "is mounted: /dev/sdz on /mnt"),
    (dict(size_bytes=256 * 1024), [], "is smaller than the image"),
])
def test_refuses(tmp_path, kw, extra, message):
    dev, img, env = fake(tmp_path, **kw)
    p = usb(img, dev, env, *extra)
    assert p.returncode == 1 and message in p.stderr, p.stdout + p.stderr
    assert dev.read_bytes() == b"\xee" * (1 << 20), "a refused device was written"


def test_mounts_of_other_disks_do_not_count(tmp_path):
    dev, img, env = fake(tmp_path, mounts="/dev/sdz9x /x vfat rw 0 0\n/dev/sdza1 /y vfat rw 0 0\n/dev/sda1 / ext4 rw 0 0\n")
    # sdza1 is a partition of sdza, not of sdz; sdz9x is no partition name Linux gives
    p = usb(img, dev, env)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("kw", [dict(removable=0), dict(size_bytes=300 * GIB)])
def test_force(tmp_path, kw):
    dev, img, env = fake(tmp_path, **kw)
    p = usb(img, dev, env, "--force")
    assert p.returncode == 0, p.stderr
    assert "FORCE=1 given" in p.stdout and "read back: identical" in p.stdout


def test_not_a_disk(tmp_path):
    dev, img, env = fake(tmp_path)
    part = tmp_path / "sdz1"
    part.write_bytes(b"\0" * 4096)
    p = usb(img, part, env)
    assert p.returncode == 1 and "is not a whole disk" in p.stderr
    env.pop("EFIPERF_SYSFS")
    p = usb(img, dev, env)      # outside the test mode a regular file is never written
    assert p.returncode == 1 and "is not a block device" in p.stderr
    assert dev.read_bytes() == b"\xee" * (1 << 20)


def make_usb(env, *args):
    """`make usb` with the given arguments (DEV=..., FORCE=1) in the fake stick's environment."""
    return subprocess.run(["make", "--no-print-directory", "-C", REPO, "usb"] + list(args), capture_output=True,
                          text=True, env=env, timeout=600)


def test_make_usb(tmp_path):
    """make usb DEV=... as the README shows it (the built image onto a fake 1 GiB stick), and
    make usb without DEV."""
    dev, _, env = fake(tmp_path, size_bytes=GIB)
    env["FORCE"] = "0"
    img = os.path.join(REPO, "build", "x86_64", "efiperf.img")
    with built_image_alone():
        p = make_usb(env, "DEV=%s" % dev)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "read back: identical" in p.stdout
        with open(img, "rb") as f:
            assert dev.read_bytes() == f.read()
    p = make_usb(env)
    assert p.returncode != 0 and "no device: make usb DEV=/dev/sdX" in p.stderr


def test_make_usb_force(tmp_path):
    """make usb DEV=... FORCE=1 as the README shows it: a stick sysfs calls not removable is
    written (refused without FORCE=1), a mounted one still refused."""
    dev, _, env = fake(tmp_path, removable=0, size_bytes=GIB)
    img = os.path.join(REPO, "build", "x86_64", "efiperf.img")
    p = make_usb(env, "DEV=%s" % dev)
    assert p.returncode != 0 and "is not removable" in p.stderr, p.stdout + p.stderr
    assert dev.read_bytes() == b"\xee" * (1 << 20), "written without FORCE=1"
    with built_image_alone():
        p = make_usb(env, "DEV=%s" % dev, "FORCE=1")
        assert p.returncode == 0 and "FORCE=1 given" in p.stdout and "read back: identical" in p.stdout, p.stdout + p.stderr
        with open(img, "rb") as f:
            assert dev.read_bytes() == f.read()
    (tmp_path / "mounts").write_text("%s /mnt vfat rw 0 0\n" % dev)
    p = make_usb(env, "DEV=%s" % dev, "FORCE=1")
    assert p.returncode != 0 and "is mounted" in p.stderr, p.stdout + p.stderr


def test_lsblk_columns():
    """The README's way to find the stick, `lsblk -d -o NAME,SIZE,RM,MODEL`: those columns exist."""
    p = subprocess.run(["lsblk", "-d", "-o", "NAME,SIZE,RM,MODEL"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr   # lsblk refuses an unknown column before listing anything
    lines = p.stdout.splitlines()
    assert not lines or lines[0].split() == ["NAME", "SIZE", "RM", "MODEL"], p.stdout   # nothing: no disks
