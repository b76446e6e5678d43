# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the boot, the config and the logs: CPU identities as QEMU reports them, RDPMC's
#UD, config and argument errors by line and position, a second run beside the first, trace=hw,
read-only and full volumes, the measurement of the image as built with the tests' base configuration (both arches), aarch64's exact
INST_RETIRED count of the known loop."""
import os
import re

import pytest

from efiperf_qemu import (ARCHES, CFG_PATH, DEFAULT_X86_CPU, SMALL, boot, cfg_text, check_measurement,
                          console_only_checks, console_text, decode_signature, image_logs, known_loop_constants,
                          make_image, qmp_cpu_identity, read_image_file, sh)

X86_MODELS = ["Skylake-Server", "Icelake-Server", "EPYC-Rome", "qemu64"]
ARCH_PARAMS = [pytest.param(a, marks=getattr(pytest.mark, a), id=a) for a in ARCHES]
x86_64, aarch64 = pytest.mark.x86_64, pytest.mark.aarch64


# The default model's boot is the shared image-as-built boot: its readers share one xdist worker.
@x86_64
@pytest.mark.parametrize("model", [
    pytest.param(m, marks=pytest.mark.xdist_group("default_x86_64")) if m == DEFAULT_X86_CPU else m for m in X86_MODELS])


def test_cpu_model(model, request, scratch, figure):
    want, etype = qmp_cpu_identity(model)
    if model == DEFAULT_X86_CPU:
        run = request.getfixturevalue("default_x86_64")
    else:
        d = scratch()
        run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", SMALL)), d, cpu=model)
    run.expect_ok()
    cpu = run.one("platform")["cpu"]
    got = {k: cpu.get(k) for k in ("family", "model", "stepping", "vendor")}
    assert got == want, "%s: log says %s, QEMU (QMP %s expansion) says %s" % (model, got, etype, want)
    sig = int(cpu["signature"], 16)
    dec = decode_signature(sig, cpu["vendor"])
    assert dec == (want["family"], want["model"], want["stepping"]), "signature %s decodes to family/model/stepping %s, QMP says %s" % (cpu["signature"], dec, want)
    figure("cpu " + model, "%s family %d model %d (0x%x) stepping %d, CPUID.1:EAX %s (QMP %s)" % (
        want["vendor"], want["family"], want["model"], want["model"], want["stepping"], cpu["signature"], etype))


@x86_64
def test_rdpmc_ud_recovered(default_x86_64):
    run = default_x86_64
    run.expect_ok()
    plat = run.one("platform")
    assert plat.get("probes", {}).get("rdpmc") == "#UD", "probes.rdpmc is %r, not \"#UD\"" % plat.get("probes", {}).get("rdpmc")
    exc = plat.get("exceptions", {})
    # #UD (6), #GP (13) and #PF (14): SDM Vol. 3A 6.15
    assert exc.get("vectors_registered") == 3, "exceptions.vectors_registered %r, not 3 (why %r)" % (exc.get("vectors_registered"), exc.get("why"))
    fr = run.records[-1].get("faults_recovered")
    assert isinstance(fr, int) and fr >= 1, "end.faults_recovered %r, not >= 1" % fr
    assert plat.get("topology", {}).get("logical_cpus") == 4, "topology.logical_cpus %r under -smp 4" % plat.get("topology", {}).get("logical_cpus")


@pytest.mark.parametrize("insert_line, drop, what", [
    pytest.param("copy_sise = 1M", (), "unknown key", id="key_line3"),
    pytest.param("copy_size = 12Q", ("copy_size",), "bad value", id="value_line3")])


@pytest.mark.parametrize("arch", ARCH_PARAMS)
def test_bad_config(arch, insert_line, drop, what, scratch, figure):
    d = scratch()
    small = {k: v for k, v in SMALL.items() if k not in drop}
    img = make_image(arch, d, cfg_text(arch, small, drop_keys=drop, insert={3: insert_line}))
    run = boot(arch, img, d)
    assert run.qemu_exit == 0, "QEMU exit %r: the machine did not power off after the config error (%s)" % (run.qemu_exit, run.why())
    assert run.rc == 1, "qemu.sh exit %d, expected 1 (end status error) (%s)" % (run.rc, run.why())
    assert run.records[-1].get("status") == "error", "end status %r, expected error" % run.records[-1].get("status")
    errs = run.of("error")
    key = insert_line.split("=")[0].strip()
    where = CFG_PATH + ":3"
    hits = [e for e in errs if where in e.get("message", "") and key in e.get("message", "")]
    assert hits, "no error record naming %r and %r: %s" % (where, key, errs)
    assert len(errs) == 1, "expected exactly one error, got %s" % errs
    msg = hits[0]["message"]
    assert msg in run.text(), "the .txt log does not contain the error message %r" % msg
    assert not run.of("measurement"), "a measurement ran despite the config error"
    figure("%s config error (%s)" % (arch, what), msg)


@x86_64
def test_second_run_keeps_first_log(scratch, figure):
    arch = "x86_64"
    d = scratch()
    img = make_image(arch, d, cfg_text(arch, SMALL))
    r1 = boot(arch, img, d, tag="logs1")
    r1.expect_ok()
    with open(r1.jsonl, "rb") as f:
        first_jsonl = f.read()
    with open(r1.txt, "rb") as f:
        first_txt = f.read()
    n1 = os.path.basename(r1.jsonl)
    r2 = boot(arch, img, d, tag="logs2")
    r2.expect_ok()
    n2 = os.path.basename(r2.jsonl)
    assert n1 != n2, "second run wrote the same log name %s" % n1
    on_image = image_logs(img)
    for n in (n1, n2, n1[:-6] + ".txt", n2[:-6] + ".txt"):
        assert n.lower() in [x.lower() for x in on_image], "%s missing from the image after two runs (image has %s)" % (n, on_image)
    assert read_image_file(img, "::/efiperf/logs/" + n1) == first_jsonl, "first run's %s changed after the second run" % n1
    assert read_image_file(img, "::/efiperf/logs/" + n1[:-6] + ".txt") == first_txt, "first run's .txt changed after the second run"
    assert r2.records[0]["log"] != r1.records[0]["log"], "both run records name log %s" % r1.records[0]["log"]
    figure("second run", "%s then %s" % (n1, n2))


@x86_64
def test_trace_hw(scratch, figure):
    arch = "x86_64"
    d = scratch()
    # pcie = off: an ECAM bus scan alone is 8192+ reads, more than the 4096-entry trace ring
    run = boot(arch, make_image(arch, d, cfg_text(arch, dict(SMALL, trace="hw", pcie="off"))), d)
    run.expect_ok()
    assert run.records[0]["config"].get("trace") == "hw", "run.config.trace is %r" % run.records[0]["config"].get("trace")
    hw = run.of("hw")
    assert hw, "no hw records with trace = hw"
    ops = {}
    for r in hw:
        ops.setdefault(r.get("op"), []).append(r)
    assert "cpuid" in ops, "no cpuid op among hw records (ops %s)" % sorted(map(str, ops))
    assert "rdpmc" in ops, "no rdpmc op among hw records (ops %s)" % sorted(map(str, ops))
    assert any(r.get("status") == "#UD" for r in ops["rdpmc"]), "no rdpmc hw record with status #UD: %s" % ops["rdpmc"][:3]
    seqs = [r.get("seq") for r in hw]
    assert all(isinstance(s, int) for s in seqs) and seqs == sorted(seqs), "hw seq numbers not increasing"
    assert run.records[-1].get("trace_dropped") == 0, "end.trace_dropped %r" % run.records[-1].get("trace_dropped")
    figure("trace=hw", "%d hw records, ops %s" % (len(hw), {k: len(v) for k, v in sorted(ops.items())}))


@x86_64
def test_readonly_volume_console_only(scratch, figure):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", SMALL))
    before = image_logs(img)
    run = boot("x86_64", img, d, readonly=True)
    assert run.jsonl_count == 0, "a log was written to a write-protected volume"
    lines = console_only_checks(run, ["write-protected"])
    assert image_logs(img) == before, "the image changed although attached read-only"
    figure("read-only volume", lines[0] if lines else "")


@x86_64
def test_full_volume_console_only(scratch, figure):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", SMALL))
    p = sh(["mdir", "-i", img, "::/"])
    m = re.search(r"([0-9 ]+) bytes free", p.stdout)
    assert m, "cannot read free space of the image: %s" % p.stdout
    free = int(m.group(1).replace(" ", ""))
    filler = os.path.join(d, "filler.bin")
    with open(filler, "wb") as f:
        f.truncate(free)
    p = sh(["mcopy", "-i", img, filler, "::/filler.bin"])
    assert p.returncode == 0, "cannot fill the image: %s" % p.stderr
    os.remove(filler)
    m = re.search(r"([0-9 ]+) bytes free", sh(["mdir", "-i", img, "::/"]).stdout)
    assert m and int(m.group(1).replace(" ", "")) == 0, "image not full after filling"
    run = boot("x86_64", img, d)
    lines = console_only_checks(run, ["volume full"])
    figure("full volume", lines[0] if lines else "")


@x86_64
def test_volume_fills_during_run_keeps_marker(scratch):
    # room for the logs' first records and the run-state marker, not for the whole run: a log
    # write fails mid-run, the run carries on console-only to its end, and the marker stays
    # (the log on the volume has no `end`; deleting the marker would hide that from the next run)
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", SMALL))
    m = re.search(r"([0-9 ]+) bytes free", sh(["mdir", "-i", img, "::/"]).stdout)
    free = int(m.group(1).replace(" ", ""))
    room = 12 << 10   # 1 KiB clusters: ~2 of early text, 3 of run record, the state folder, the marker, and margin
    filler = os.path.join(d, "filler.bin")
    with open(filler, "wb") as f:
        f.truncate(free - room)
    assert sh(["mcopy", "-i", img, filler, "::/filler.bin"]).returncode == 0, "cannot fill the image"
    os.remove(filler)
    run = boot("x86_64", img, d)
    con = console_text(run)
    assert run.qemu_exit == 0, "QEMU exit %r: no power-off (%s)" % (run.qemu_exit, run.why())
    assert "continuing on the console only" in con, "no log write failed: %s" % run.why()
    assert "efiperf: run ok; log (console only)" in con, "the run did not carry on to its end (%s)" % run.why()
    kept = [l for l in con.splitlines() if l.startswith("state:")]
    assert any("could not be written to its end" in l and "is kept" in l for l in kept), "console state lines: %s" % kept
    p = sh(["mdir", "-b", "-i", img, "::/efiperf/state"])
    assert p.returncode == 0 and ".running" in p.stdout.lower(), "no marker left in \\efiperf\\state: %s" % p.stdout
    jsonl = [x for x in image_logs(img) if x.endswith(".jsonl")]
    assert len(jsonl) == 1, "logs: %s" % image_logs(img)
    text = read_image_file(img, "::/efiperf/logs/" + jsonl[0]).decode("utf-8", errors="strict")
    assert text.startswith('{"type":"run"') and '"type":"end"' not in text, "the log on the volume: %.200r" % text[-200:]


def shell_boot(arch, d, shell_args):
    img = make_image(arch, d, cfg_text(arch, dict(SMALL, copy_passes="5")), shell_args=shell_args)
    run = boot(arch, img, d)
    if run.jsonl_count == 0:
        con = ""
        if run.console and os.path.exists(run.console):
            with open(run.console, "rb") as f:
                con = f.read().decode("utf-8", "replace")
        if "startup.nsh" not in con and "Shell>" not in con:
            pytest.fail("the firmware's UEFI Shell never ran startup.nsh (no built-in shell reachable?): " + run.why())
    return run


@x86_64
def test_argument_overrides_file(scratch, figure):
    run = shell_boot("x86_64", scratch(), "copy_passes=2")
    run.expect_ok()
    cfg = run.records[0]["config"]
    assert cfg.get("copy_passes") == 2, "config.copy_passes %r, the argument copy_passes=2 did not override the file's 5" % cfg.get("copy_passes")
    assert cfg.get("origin", {}).get("copy_passes") == "argument 1", "config.origin.copy_passes %r, not \"argument 1\"" % cfg.get("origin", {}).get("copy_passes")
    assert cfg.get("origin", {}).get("copy_size") == CFG_PATH + ":%d" % (1 + next(i for i, l in enumerate(cfg_text("x86_64", dict(SMALL, copy_passes="5")).split("\n")) if l.startswith("copy_size"))), "config.origin.copy_size %r does not name the file line" % cfg.get("origin", {}).get("copy_size")
    assert len(run.one("measurement")["passes"]) == 2, "measurement did not run 2 passes"
    assert "copy_passes=2" in (run.records[0].get("cmdline") or ""), "run.cmdline %r lacks the argument as given" % run.records[0].get("cmdline")
    figure("shell arguments", "cmdline %r, origin %s" % (run.records[0].get("cmdline"), cfg.get("origin")))


@x86_64
def test_too_many_arguments_named(scratch):
    # 70 arguments after the program: 63 fit, the 7 past the limit are an error quoting them,
    # none applied (they were once dropped without a word); the run ends with its verdict
    run = shell_boot("x86_64", scratch(), " ".join(["--help"] * 70))
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s (%s)" % (run.rc, run.qemu_exit, run.why())
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    want = "command line: more than 63 arguments: 7 dropped, none of them applied: '%s'" % " ".join(["--help"] * 7)
    assert want in errs, "no error %r in %s" % (want, errs)
    assert run.records[-1].get("status") == "error" and run.of("verdict"), "no error end and verdict"
    assert (run.records[0].get("cmdline") or "").count("--help") == 70, "run.cmdline does not hold the line as given"


@x86_64
def test_utf16_config_named(scratch):
    # the config saved as UTF-16 (Notepad's "Unicode": byte order mark FF FE): one error naming the
    # encoding, not "unknown key \xff\xfee", nothing in it applied; exit=shutdown comes from the
    # shell argument (the file's own exit line is not read), and the run ends with its verdict
    d = scratch()
    data = b"\xff\xfe" + cfg_text("x86_64", SMALL).encode("utf-16-le")
    run = boot("x86_64", make_image("x86_64", d, data, shell_args="exit=shutdown"), d)
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s (%s)" % (run.rc, run.qemu_exit, run.why())
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert errs == [CFG_PATH + ": config file is UTF-16 (little-endian, byte order mark FF FE); save it as UTF-8 or "
                    "ASCII: nothing in it was applied"], "config errors: %s" % errs
    assert run.records[0]["config"]["origin"]["copy_size"] == "default", "a setting of the UTF-16 file was applied"
    assert run.records[-1].get("status") == "error" and run.of("verdict"), "no error end and verdict"


@x86_64
def test_help_lists_every_key(scratch, figure):
    run = shell_boot("x86_64", scratch(), "--help")
    run.expect_ok()
    text = run.text()
    assert "usage: efiperf.efi" in text, "no usage line in the .txt log"
    keys = list(run.records[0]["config"].get("origin", {}))
    assert len(keys) >= 5, "run.config.origin lists too few keys: %s" % keys
    for k in keys:
        assert re.search(r"^\s*%s\b.*\(default [^)]*\)$" % re.escape(k), text, re.M), "--help does not list key %r with its default on one whole line" % k
    assert not run.of("measurement"), "--help ran the measurement"
    figure("--help", "%d keys listed" % len(keys))


@x86_64
def test_bad_argument_named(scratch, figure):
    run = shell_boot("x86_64", scratch(), "copy_passes=2 copy_pases=3")
    assert run.qemu_exit == 0, "QEMU exit %r: no power-off after the argument error (%s)" % (run.qemu_exit, run.why())
    assert run.rc == 1, "qemu.sh exit %d, expected 1 (%s)" % (run.rc, run.why())
    assert run.records[-1].get("status") == "error", "end status %r" % run.records[-1].get("status")
    errs = run.of("error")
    hits = [e for e in errs if "argument 2" in e.get("message", "") and "copy_pases" in e.get("message", "")]
    assert hits, "no error naming \"argument 2\" and copy_pases: %s" % errs
    assert len(errs) == 1, "expected one error, got %s" % errs
    assert hits[0]["message"] in run.text(), "the .txt log lacks %r" % hits[0]["message"]
    figure("argument error", hits[0]["message"])


@pytest.mark.parametrize("arch", [
    pytest.param(a, marks=[getattr(pytest.mark, a), pytest.mark.xdist_group("default_" + a)], id=a) for a in ARCHES])


def test_measurement_sane(arch, request, figure):
    run = request.getfixturevalue("default_" + arch)
    run.expect_ok()
    m, states = check_measurement(run)
    figure("%s boot-to-log wall" % arch, "%.1f s (qemu.sh: QEMU start to power-off, image as built, tests/qemu/base.cfg: copy_size %d, %d passes; app elapsed %s ms)" % (
        run.qemu_wall if run.qemu_wall is not None else run.wall, m["buffer_bytes"], len(m["passes"]), run.records[-1].get("elapsed_ms")))
    figure("%s copy" % arch, "best %s GB/s, counters %s" % (m.get("best_gbps"), {k: sorted(v) for k, v in states.items()}))


@aarch64
def test_platform_el1_pmuv3(default_aarch64, figure):
    run = default_aarch64
    run.expect_ok()
    plat = run.one("platform")
    cpu = plat.get("cpu", {})
    assert cpu.get("current_el") == 1, "cpu.current_el %r, not 1" % cpu.get("current_el")
    for k in ("implementer", "partnum"):
        assert k in cpu, "cpu.%s missing" % k
    probe = plat.get("probes", {}).get("PMUv3")
    assert isinstance(probe, str) and probe.startswith("PMUv3"), "probes.PMUv3 is %r, not a PMUv3 version" % probe
    assert plat.get("core_pmu", {}).get("name") == "Arm PMUv3", "core_pmu.name %r" % plat.get("core_pmu", {}).get("name")
    swinc = plat.get("probes", {}).get("PMSWINC_EL0 read")
    assert isinstance(swinc, str) and swinc.startswith("sync-exception"), "probes[PMSWINC_EL0 read] is %r: the UNDEFINED read was not recovered as a sync exception" % swinc
    assert plat.get("exceptions", {}).get("vectors_registered") == 1, "exceptions %r" % plat.get("exceptions")
    assert (run.records[-1].get("faults_recovered") or 0) >= 1, "end.faults_recovered %r" % run.records[-1].get("faults_recovered")
    figure("aarch64 platform", "MIDR %s implementer %s partnum %s EL%s; PMUv3 probe: %s" % (
        cpu.get("signature"), cpu.get("implementer"), cpu.get("partnum"), cpu.get("current_el"), probe))


@aarch64
@pytest.mark.slow
def test_loop_inst_retired_exact(scratch, figure):
    arch = "aarch64"
    per, fixed = known_loop_constants()
    # The oracle is known_loop.S's instructions, typed here: SUBS + B.NE a turn, and the ISB and
    # the second MRS between the two reads; known_loop.h, whose constants the firmware's
    # `expected` uses, must say the same.
    assert (per, fixed) == (2, 2), ("known_loop.h says %d instructions per iteration and %d fixed; the loop is "
                                    "SUBS + B.NE (2) and ISB + MRS (2)" % (per, fixed))
    # Each window must span firmware timer ticks for the unmasked count to show them: at
    # -icount shift=0 one instruction is 1 ns, so 10M iterations = 20 ms of virtual time (the
    # 10 ms UEFI tick is seen ~2 times); 1M iterations (2 ms) often sees none.
    iters = (10000000, 30000000)
    runs = []
    for n in iters:
        d = scratch(str(n))
        runs.append(boot(arch, make_image(arch, d, cfg_text(arch, dict(SMALL, loop_iterations=str(n)))), d))
    loops = []
    for n, run in zip(iters, runs):
        run.expect_ok()
        lp = run.one("loop")
        assert lp.get("iterations") == n, "loop.iterations %r, config said %d" % (lp.get("iterations"), n)
        assert lp.get("valid") is True, "loop not valid: %r" % lp.get("why")
        exp = lp.get("expected")
        assert exp == per * n + fixed, "%d iterations: expected %r, known_loop.h gives %d*%d+%d = %d" % (n, exp, per, n, fixed, per * n + fixed)
        mk, um = lp.get("masked", {}), lp.get("unmasked", {})
        assert mk.get("counted") == exp and mk.get("extra") == 0, "%d iterations, interrupts masked: counted %r expected %d (extra %r)" % (n, mk.get("counted"), exp, mk.get("extra"))
        reps = lp.get("masked_repeats") or []
        assert len(reps) == 10 and all(c == exp for c in reps) and lp.get("masked_spread") == 0, "%d iterations: the quiesced window must count the same 10 times (0 noise): %s" % (n, reps)
        assert isinstance(um.get("extra"), int) and um["extra"] > 0, "%d iterations, interrupts unmasked: extra %r, expected > 0 (timer ticks)" % (n, um.get("extra"))
        assert um.get("counted") - exp == um["extra"], "unmasked extra %r != counted - expected" % um["extra"]
        loops.append(lp)
    d_exp = loops[1]["expected"] - loops[0]["expected"]
    assert d_exp == 2 * (iters[1] - iters[0]), "expected grew by %d for %d more iterations (not 2 per iteration)" % (d_exp, iters[1] - iters[0])
    figure("aarch64 INST_RETIRED", "; ".join(
        "%d it: expected %d = 2*%d+%d, masked counted %d (extra %d), unmasked counted %d (extra %+d)" % (
            lp["iterations"], lp["expected"], lp["iterations"], lp["expected"] - 2 * lp["iterations"],
            lp["masked"]["counted"], lp["masked"]["extra"], lp["unmasked"]["counted"], lp["unmasked"]["extra"]) for lp in loops))
