# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of measurement windows (issue 6): kernels on every CPU at once through MP services,
interrupts masked, per-CPU results, the noise-floor window. Registered into test_qemu.py's runner
with register(m)."""


def register(m):
    check, figure, test = m.check, m.figure, m.test

    @test("x86_64.window_all_cpus", "x86_64")
    def t_all_cpus():
        d = m.test_dir("x86_64.all_cpus")
        img = m.make_image("x86_64", d, m.cfg_text("x86_64", {"copy_size": "4M", "copy_passes": "2", "cpus": "all", "pcie": "off"}))
        run = m.boot("x86_64", img, d, smp=4)
        run.expect_ok()
        meas = run.one("measurement")
        check(meas.get("cpus") == 4, "measurement.cpus %r, QEMU was given -smp 4" % meas.get("cpus"))
        check(meas.get("verified") is True, "a CPU's copy is wrong")
        nf = meas.get("noise_floor") or {}
        check(nf.get("interrupts_masked") is True and isinstance(nf.get("ns"), int), "noise floor window %s" % nf)
        for p in meas.get("passes", []):
            check(p.get("interrupts_masked") is True, "pass %s ran with interrupts unmasked" % p.get("pass"))
            per = p.get("per_cpu", [])
            check(sorted(c.get("cpu") for c in per) == [0, 1, 2, 3], "per-CPU results for CPUs %s" % [c.get("cpu") for c in per])
            check(all(c.get("ns", 0) > 0 and float(c.get("gbps", 0)) > 0 for c in per), "a CPU reported no time: %s" % per)
            check(p.get("ns", 0) >= max(c["ns"] for c in per), "window span %s shorter than a CPU's own time" % p.get("ns"))
        figure("all CPUs (-smp 4)", "best %s GB/s aggregate; noise floor %s ns; per CPU %s" % (
            meas.get("best_gbps"), nf.get("ns"), [(c["cpu"], c["gbps"]) for c in meas["passes"][0]["per_cpu"]]))

    @test("x86_64.tsc_calibrated_against_pm_timer", "x86_64")
    def t_pm_timer():
        # QEMU TCG's Icelake-Server enumerates no CPUID 0x15 crystal: the TSC must be calibrated
        # against the FADT's ACPI PM timer (100 ms) and cross-checked with gBS->Stall.
        run = m.default_boot("x86_64")
        run.expect_ok()
        t = run.one("platform").get("timer") or {}
        check("ACPI PM timer" in (t.get("source") or ""), "timer.source %r" % t.get("source"))
        check(t.get("hz", 0) > 0 and t.get("stall_hz", 0) > 0, "timer %s" % t)
        # Both run on the emulator's clock: they agree to well within 2% even under TCG.
        check(abs(t.get("stall_ppm", 10 ** 9)) < 20000, "Stall disagrees with the PM timer by %s ppm" % t.get("stall_ppm"))
        figure("TSC calibration", "%s Hz via %s; gBS->Stall %s Hz (%s ppm)" % (t.get("hz"), t.get("source"), t.get("stall_hz"), t.get("stall_ppm")))
