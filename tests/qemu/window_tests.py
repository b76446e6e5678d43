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
