#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""make bench-dma: in one QEMU boot, efiperf's own NVMe queues (bs 128K, iodepth 32, interrupts
masked) against the firmware's Block IO (1 MiB ReadBlocks, interrupts on) reading the same
bytes from the start of the same NVMe disk; prints both rates and their ratio. A benchmark, not
a test: it fails only when the boot or a record is missing. Under QEMU the figures are the
emulator's, not a device's.

    tests/bench/bench_dma.py --image build/x86_64/efiperf.img [--size 64M] [--keep DIR]
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAGIC = 0x2166726570696665   # "efiperf!": efi/measure/dma_pattern.h, restated


def size_arg(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper()
    n = int(t[:-1]) * units[t[-1]] if t[-1] in units else int(t)
    if n < 128 << 10 or n % (128 << 10):
        raise argparse.ArgumentTypeError("%s: a multiple of 128K, at least 128K" % text)
    return n


def pattern_disk(path, size):
    step = 1 << 20
    with open(path, "wb") as f:
        for base in range(0, max(size, step), step):
            f.write(struct.pack("<%dQ" % (step // 8), *[((base // 8) + i) ^ MAGIC for i in range(step // 8)]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--image", required=True)
    ap.add_argument("--size", type=size_arg, default=64 << 20, help="bytes each path reads (default 64M)")
    ap.add_argument("--keep", help="keep the image, disk and logs in this folder")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="bench-dma-")
    os.makedirs(work, exist_ok=True)
    try:
        img, disk, cfg = (os.path.join(work, n) for n in ("efiperf.img", "disk.raw", "efiperf.cfg"))
        shutil.copyfile(a.image, img)
        pattern_disk(disk, a.size)
        with open(cfg, "w") as f:
            f.write("exit = shutdown\ncopy_size = 4K\ncopy_passes = 1\nloop_iterations = 1000\npcie = off\n"
                    "dma_blockio = 00:07.0\ndma_bytes = %d\n"
                    "nvme = 00:07.0\nnvme_bs = 128K\nnvme_iodepth = 32\nnvme_size = %d\n" % (a.size, a.size))
        subprocess.run(["mcopy", "-o", "-i", img, cfg, "::/efiperf/efiperf.cfg"], check=True)
        p = subprocess.run([os.path.join(REPO, "boot", "qemu.sh"), "--arch", "x86_64", "--image", img, "--logs",
                            os.path.join(work, "logs"), "--quiet", "--", "-drive",
                            "if=none,id=nvm,format=raw,file=%s" % disk, "-device", "nvme,serial=bench,drive=nvm,addr=0x7"],
                           capture_output=True, text=True)
        logs = [l[5:].strip() for l in p.stdout.splitlines() if l.startswith("log: ") and l.endswith(".jsonl")]
        if p.returncode != 0 or len(logs) != 1:
            print("bench-dma: the boot failed (qemu.sh exit %d): %s" % (p.returncode, p.stdout.strip()[-400:]), file=sys.stderr)
            return 1
        with open(logs[0]) as f:
            recs = [json.loads(l) for l in f if l.strip()]
        blk = [r for r in recs if r.get("type") == "measurement" and r.get("kernel") == "blockio_read"]
        own = [r for r in recs if r.get("type") == "nvme" and r.get("window") == "alone"]
        if len(blk) != 1 or len(own) != 1:
            print("bench-dma: expected one blockio_read and one nvme record, got %d and %d; errors: %s" % (
                len(blk), len(own), [r.get("message") for r in recs if r.get("type") == "error"]), file=sys.stderr)
            return 1
        b, o = blk[0], own[0]
        b_rate = b["bytes"] * 10 ** 9 // b["ns"] if b.get("ns") else 0
        print("bench-dma: %d bytes from the start of one NVMe disk, one QEMU boot (emulated: QEMU's figures, not a device's)" % a.size)
        print("  %-44s %12s B/s  %s" % ("firmware Block IO (1 MiB ReadBlocks)", b_rate,
                                        "verified" if b.get("verified") is True else "verified: %s" % b.get("verified")))
        print("  %-44s %12s B/s  %s, interrupts masked: %s, clat p50 %s ns" % (
            "efiperf own queues (bs 128K, iodepth 32)", o["bw_bytes"],
            "verified" if o.get("verified") is True else "verified: %s" % o.get("verified"),
            o.get("interrupts_masked"), (o.get("clat_ns") or {}).get("p50")))
        print("  ratio own / blockio: %.2f" % (o["bw_bytes"] / b_rate if b_rate else float("nan")))
        return 0
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
