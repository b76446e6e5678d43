# SPDX-License-Identifier: BSD-2-Clause
"""QEMU test of an unexpected exception on an AP (config test hook `fault_test = ap`: once as a
plain job, once inside a quiesced window): the AP's job ends at the exception instead of the AP calling boot services on the boot CPU's fatal path;
the boot CPU writes an `exception` error record naming the CPU, the vector and the IP, and the
run goes on to its end record and powers off (no hang: qemu.sh's timeout would end it)."""
import os
import re
import subprocess

import pytest

from efiperf_qemu import base_efi, boot, cfg_text, make_image

SMALL = {"copy_size": "4M", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000"}


@pytest.mark.x86_64
def test_ap_exception_is_reported_and_the_run_ends(scratch):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, fault_test="ap")))
    run = boot("x86_64", img, d, smp=2)
    # no hang: the machine powered off by itself (exit = shutdown) before qemu.sh's timeout
    assert run.qemu_exit == 0, "QEMU exit %r: the run did not power off after the AP's fault (%s)" % (run.qemu_exit, run.why())
    assert run.rc == 1, "qemu.sh exit %d, expected 1 (end status error) (%s)" % (run.rc, run.why())
    recs = run.records
    end = recs[-1]
    assert end["type"] == "end" and end.get("status") == "error", "last record %r, expected end with status error" % end
    topo = run.one("platform").get("topology", {})
    assert topo.get("mp_backend") == "EFI_MP_SERVICES_PROTOCOL", "mp_backend %r" % topo.get("mp_backend")
    errs = [e for e in run.of("error") if e["where"] == "exception"]
    # two: the hook's plain job (mp_run_on_cpu) and its window (mp_start_on_cpu, the barrier)
    assert len(errs) == 2, "exception error records: %s (all errors %s)" % (errs, run.of("error"))
    so = os.path.join(os.path.dirname(base_efi("x86_64")), "efiperf.so")
    syms = subprocess.run(["nm", so], capture_output=True, text=True).stdout
    addr = [int(l.split()[0], 16) for l in syms.splitlines() if l.endswith(" arch_undefined_insn")]
    for e in errs:
        m = re.fullmatch(r"CPU (\d+): unexpected (\S+) at IP 0x([0-9a-f]+) \(efiperf\.so\+0x([0-9a-f]+)\) "
                         r"on an AP \(hwid 0x([0-9a-f]+)\); its job ended there", e["message"])
        assert m, "exception message %r" % e["message"]
        assert m.group(1) == "1", "faulting CPU %s, expected 1 (the only AP under -smp 2)" % m.group(1)
        assert m.group(2) == "#UD", "vector %r, expected #UD (UD2)" % m.group(2)
        # QEMU's APIC IDs under -smp 2 are 0 and 1 (the boot CPU 0)
        assert int(m.group(5), 16) == 1, "hwid 0x%s, expected APIC ID 1" % m.group(5)
        ip, off = int(m.group(3), 16), int(m.group(4), 16)
        assert ip > off > 0, "IP 0x%x and image offset 0x%x" % (ip, off)
        # the IP is arch_undefined_insn's UD2, its first instruction: the symbol's address in the .so
        assert addr == [off], "efiperf.so+0x%x, expected arch_undefined_insn at %s" % (off, [hex(a) for a in addr])
    # the run went on after the fault: the measurements after the hook ran and the log is complete
    assert recs.index(errs[-1]) < len(recs) - 1 and run.of("measurement"), "no measurement after the AP's fault"
    assert "efiperf: run FAILED" in run.text(), "console log has no end line"


@pytest.mark.aarch64
def test_aarch64_psci_ap_exception_is_reported(scratch):
    """AAVMF has no MP services: the same hook on an AP efiperf started through PSCI CPU_ON, whose
    own vectors report the exception with ESR_EL1 and ELR (arch/aarch64/psci.c)."""
    d = scratch()
    img = make_image("aarch64", d, cfg_text("aarch64", dict(SMALL, fault_test="ap")))
    run = boot("aarch64", img, d, smp=2)
    assert run.qemu_exit == 0, "QEMU exit %r: the run did not power off after the AP's fault (%s)" % (run.qemu_exit, run.why())
    assert run.rc == 1, "qemu.sh exit %d, expected 1 (end status error) (%s)" % (run.rc, run.why())
    end = run.records[-1]
    assert end["type"] == "end" and end.get("status") == "error", "last record %r" % end
    assert run.one("platform").get("topology", {}).get("mp_backend") == "PSCI"
    errs = [e for e in run.of("error") if e["where"] == "exception"]
    assert len(errs) == 2, "exception error records (job, window): %s (all errors %s)" % (errs, run.of("error"))
    for e in errs:
        m = re.fullmatch(r"exception on CPU 1: ESR 0x([0-9a-f]+) at 0x([0-9a-f]+), then CPU_OFF", e["message"])
        assert m, "exception message %r" % e["message"]
        # ESR_ELx.EC (bits 31:26) 0x00: Unknown reason, what UDF raises (Arm ARM, ESR_EL1: EC 0b000000)
        assert int(m.group(1), 16) >> 26 == 0, "ESR 0x%s: EC is not 0 (unknown reason)" % m.group(1)
    assert run.of("measurement"), "no measurement after the AP's fault"
