# SPDX-License-Identifier: BSD-2-Clause
"""A boot that never powers off, for test_harness.py only: it runs this file in a pytest of its
own with a short --timeout and checks what pytest-timeout made of it. Not collected by the
suite (the name does not start with test_)."""
import re

import pytest

from efiperf_qemu import SMALL, boot, cfg_text, make_image, parse_jsonl


@pytest.mark.x86_64
def test_boot_that_never_powers_off(scratch):
    d = scratch()
    # exit = return: efiperf hands the machine back to the firmware, which never powers it off
    cfg = re.sub(r"^exit\s*=.*$", "exit = return", cfg_text("x86_64", SMALL), flags=re.M)
    run = boot("x86_64", make_image("x86_64", d, cfg), d)
    pytest.fail("the boot ended (%s) although its image never powers the machine off" % run.why())


@pytest.mark.x86_64
def test_the_next_test_still_runs():
    # the smallest log the schema (boot/report/schema/v1.json) takes: a run record and an end
    records = parse_jsonl(b'{"type":"run","schema":1,"tool":"efiperf","version":"x","arch":"x86_64","started":"s",'
                          b'"log":null,"config":{"exit":"return","origin":{}}}\n{"type":"end","status":"ok","faults_recovered":0,"exit":"return"}\n',
                          "two.jsonl")
    assert [r["type"] for r in records] == ["run", "end"], records
