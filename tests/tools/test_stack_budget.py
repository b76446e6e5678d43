# SPDX-License-Identifier: BSD-2-Clause
"""Tests of tests/tools/stack_budget.py on the hand-written .ci files of stack_fixtures/ (host only).

ok/:  efi_main (400 bytes) -> helper (1000) -> memset (EXTERNAL: 64), and a UEFI service call
      (BS->Stall: the firmware's share, 0); run_one (100) -> window_spec.kernel, resolved by the
      ".kernel = k1" assignment to k1 (300). Worst: boot 1464, ap 400, nothing fails.
bad/: efi_main of 70000 bytes -> ping (32) -> pong (48): 70080, over the 65536 boot budget; the
      ping <-> pong recursion, an indirect
      call no rule resolves, two callees without a frame or EXTERNAL entry, and run_one of 30016
      bytes (over the x86_64 AP budget of 24576, three quarters of 0x8000).
"""
import io
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import stack_budget as sb  # noqa: E402

FIX = os.path.join(HERE, "stack_fixtures")
TOOL = os.path.join(HERE, "stack_budget.py")


def run(name, arch="x86_64", partial=True):
    root = os.path.join(FIX, name)
    out = io.StringIO()
    fails = sb.check(sb.load([root]), sb.Sources(root), arch, out=out, verbose=True, partial=partial)
    return fails, out.getvalue()


def run_ci(tmp_path, ci_text):
    """check() over one hand-written .ci file (efi/x.c.ci) in tmp_path: (failures, report)."""
    (tmp_path / "efi").mkdir()
    (tmp_path / "efi" / "x.c.ci").write_text(ci_text)
    out = io.StringIO()
    fails = sb.check(sb.load([str(tmp_path)]), sb.Sources(str(tmp_path)), "x86_64", out=out, partial=True)
    return fails, out.getvalue()


def test_budgets_are_the_edk2_facts():
    # DxeIpl.h STACK_SIZE 0x20000; UefiCpuPkg.dec PcdCpuApStackSize 0x8000; ArmPsciMpServicesDxe
    # AP_STACK_SIZE 0x1000: half the DXE stack, three quarters of an AP stack.
    assert sb.BUDGETS["x86_64"] == {"boot": 65536, "ap": 24576}
    assert sb.BUDGETS["aarch64"] == {"boot": 65536, "ap": 3072}


def test_parse_ci():
    funcs = {f.title: f for f in sb.load([os.path.join(FIX, "ok")])}
    assert sorted(funcs) == ["efi/main.c:helper", "efi/window.c:k1", "efi/window.c:run_one", "efi_main", "go"]
    assert funcs["efi_main"].size == 400 and funcs["efi_main"].kind == "static"
    assert funcs["efi_main"].calls == [("efi/main.c:helper", "efi/main.c:4:2"), ("__indirect_call", "efi/main.c:5:2")]


def test_ok_depths_and_paths():
    fails, text = run("ok")
    assert fails == 0, text
    assert "stack x86_64: boot 1464 bytes of 65536, ap 400 bytes of 24576 (efi/window.c:run_one)" in text
    assert "indirect efi/window.c:6:11: window_kernel (efi/measure/window_seq.c) -> k1" in text
    assert "indirect efi/main.c:5:2: UEFI services (BS/RT, protocols) -> firmware" in text
    # the boot path, frame by frame
    path = text.split("boot path of efi_main, 1464 bytes:\n")[1].split("stack x86_64:")[0].split("\n")
    assert [line.split()[:2] for line in path if line.strip()] == [["400", "efi_main"], ["1000", "efi/main.c:helper"],
                                                                   ["64", "memset"]]


def test_bad_fails_each_way():
    fails, text = run("bad")
    assert "FAIL boot entry efi_main (efi/main.c:2:12): 70080 bytes, over its budget of 65536" in text
    assert "FAIL ap entry efi/main.c:run_one (efi/main.c:10:13): 30016 bytes, over its budget of 24576" in text
    assert "FAIL recursion: efi/main.c:ping -> efi/main.c:pong -> efi/main.c:ping" in text
    assert "FAIL indirect: efi/main.c:5:2: unresolved indirect call in efi_main: mystery(arg);" in text
    assert "FAIL external: efi/main.c:6:2: efi_main calls vendor_blob" in text
    assert "FAIL external: efi/main.c:10:51: efi/main.c:run_one calls use" in text
    assert fails == 6, text


def test_missing_entry_fails():
    # Without --partial every AP_ENTRIES function must be in the .ci files: a renamed callback
    # would otherwise drop out of the check unseen. arm_ap_main is aarch64's only.
    fails, text = run("ok", partial=False)
    assert "FAIL entry: ap entry corepmu_call is in no .ci file" in text
    assert "arm_ap_main is in no" not in text
    # every AP entry but run_one (in the fixture) and arm_ap_main, and on_exception, on_fatal
    assert fails == len(sb.AP_ENTRIES) - 2 + 2, text
    fails, text = run("ok", "aarch64", partial=False)
    assert "FAIL entry: ap entry arm_ap_main is in no .ci file" in text


def test_aarch64_budget_is_smaller():
    fails, text = run("ok", "aarch64")
    assert fails == 0 and "ap 400 bytes of 3072" in text


def test_command_exit_status(tmp_path):
    ok = subprocess.run(["/usr/bin/python3", TOOL, "--arch", "x86_64", "--partial", "--src", os.path.join(FIX, "ok"),
                         os.path.join(FIX, "ok")], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run(["/usr/bin/python3", TOOL, "--arch", "x86_64", "--partial", "--src", os.path.join(FIX, "bad"),
                          os.path.join(FIX, "bad")], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "6 failures" in bad.stdout, bad.stdout
    none = subprocess.run(["/usr/bin/python3", TOOL, "--arch", "x86_64", str(tmp_path)], capture_output=True,
                          text=True, timeout=60)
    assert none.returncode == 1 and "no .ci files" in none.stderr
    usage = subprocess.run(["/usr/bin/python3", TOOL], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "usage" in usage.stderr and "Traceback" not in usage.stderr


def test_known_cycle_rounds_and_dynamic_frame(tmp_path):
    # walk() calls itself: KNOWN_CYCLES bounds it at AML_MAX_DEPTH + 1 = 17 rounds, so the path
    # is efi_main 16 + walk 100 + 16 more rounds of 100 = 1716 bytes, and no failure. A frame
    # GCC calls "dynamic" (alloca) with no bound fails.
    fails, text = run_ci(tmp_path,
        'graph: { title: "efi/aml.c"\n'
        'node: { title: "efi/aml.c:walk" label: "efi/aml.c:walk\\nefi/aml.c:3:13\\n100 bytes (static)" }\n'
        'edge: { sourcename: "efi/aml.c:walk" targetname: "efi/aml.c:walk" label: "efi/aml.c:4:2" }\n'
        'node: { title: "efi_main" label: "efi_main\\nefi/aml.c:1:12\\n16 bytes (static)" }\n'
        'edge: { sourcename: "efi_main" targetname: "efi/aml.c:walk" label: "efi/aml.c:2:2" }\n'
        'node: { title: "efi/aml.c:run_one" label: "efi/aml.c:run_one\\nefi/aml.c:5:13\\n64 bytes (dynamic)" }\n'
        '}\n')
    assert "boot 1716 bytes of 65536" in text, text
    assert "known cycle, at most 17 round(s)" in text
    assert "FAIL dynamic: efi/aml.c:run_one (efi/aml.c:5:13): frame size dynamic" in text
    assert fails == 1, text


def test_exception_handler_added_to_every_path(tmp_path):
    # on_exception (100 bytes) may run on top of the deepest frame of any path: efi_main
    # 400 -> helper 1000 gives 1400 + 100 = 1500, run_one 50 + 100 = 150; the fatal path on_fatal (2000) is reported
    # with the handler, 2100, against the boot budget.
    fails, text = run_ci(tmp_path,
        'graph: { title: "efi/x.c"\n'
        'node: { title: "efi/x.c:helper" label: "efi/x.c:helper\\nefi/x.c:2:13\\n1000 bytes (static)" }\n'
        'node: { title: "efi_main" label: "efi_main\\nefi/x.c:1:12\\n400 bytes (static)" }\n'
        'edge: { sourcename: "efi_main" targetname: "efi/x.c:helper" label: "efi/x.c:1:20" }\n'
        'node: { title: "efi/x.c:on_exception" label: "on_exception\\nefi/x.c:3:20\\n100 bytes (static)" }\n'
        'node: { title: "efi/x.c:on_fatal" label: "on_fatal\\nefi/x.c:4:13\\n2000 bytes (static)" }\n'
        'node: { title: "efi/x.c:run_one" label: "run_one\\nefi/x.c:5:13\\n50 bytes (static)" }\n'
        '}\n')
    assert fails == 0, text
    assert "exception handler efi/x.c:on_exception: 100 bytes" in text
    assert "boot 1500 bytes of 65536, ap 150 bytes of 24576" in text
    assert "fatal-exception path efi/x.c:on_fatal: 2100 bytes with the handler" in text
