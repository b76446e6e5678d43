# SPDX-License-Identifier: BSD-2-Clause
"""efiperf-report over synthetic logs (tests/report/synth.py, values worked out by hand) and a
log a QEMU boot wrote (tests/report/logs/): classification and exit status, schema, the
recompute, HTML with every plot, fleet mode, JUnit, and bad input."""
import csv
import json
import os
import re
import xml.etree.ElementTree as ET

import pytest

import synth
from conftest import HERE

QEMU_LOG = os.path.join(HERE, "logs", "qemu-x86_64-stream-latency.jsonl")
PLOTS = ("latency", "stream", "dma", "topdown")


def plots_in(html_text):
    return re.findall(r'<img class="plot" data-plot="([a-z]+)"[^>]* src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html_text)


def test_synthetic_log_html_has_every_plot(tmp_path, report):
    log = synth.write(tmp_path / "S1.jsonl", synth.records())
    p = report(log, "--html", tmp_path / "out")
    assert p.returncode == 0, p.stdout + p.stderr
    assert re.match(r"PASS +serial=S1 log=\S+S1.jsonl checks=1/1$", p.stdout.splitlines()[0]), p.stdout
    with open(tmp_path / "out" / "S1.html") as f:
        text = f.read()
    kinds = [k for k, _ in plots_in(text)]
    assert sorted(set(kinds)) == sorted(PLOTS), kinds
    for _, b64 in plots_in(text):
        assert b64.startswith("iVBORw0KGgo"), "not a PNG"   # base64 of the PNG signature
    assert '<table id="verdict">' in text and "stream[triad].best_rate_mbps" in text
    # the tree: 0000:02:00.0 trains at 8 GT/s x4 of 16 GT/s x16 and is red
    assert re.search(r'<tr class="downtrained"><td[^>]*>0000:02:00.0</td>.*?8 GT/s x4 \(max 16 GT/s x16\) DOWNTRAINED', text)
    assert not re.search(r'<tr class="downtrained"><td[^>]*>0000:01:00.0<', text)


CXL_LOG = os.path.join(HERE, "logs", "qemu-x86_64-cxl.jsonl")


def test_cxl_in_pcie_tree(tmp_path, report):
    # A QEMU 7.2 log with a CXL root port and type 3 device (tests/qemu/test_discovery.py
    # test_cxl_dvsecs): the tree's CXL column shows each function's role, decoders and capacity.
    p = report(CXL_LOG, "--html", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    html_files = [f for f in os.listdir(tmp_path) if f.endswith(".html")]
    with open(tmp_path / html_files[0]) as f:
        text = f.read()
    assert "<th>CXL</th>" in text
    assert re.search(r'<td[^>]*>0000:0c:00.0</td>.*?<td>CXL root_port, 1 decoder\(s\), none committed</td>', text)
    assert re.search(r'<td[^>]*>0000:0d:00.0</td>.*?<td>CXL device, 1 decoder\(s\), none committed, 256 MiB</td>', text)
    assert re.search(r'<td[^>]*>0000:00:00.0</td>(<td>[^<]*</td>){4}<td></td></tr>', text)   # not CXL: empty cell


def test_qemu_log_html(tmp_path, report):
    p = report(QEMU_LOG, "--html", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    with open(tmp_path / "qemu-x86_64-stream-latency.html") as f:
        text = f.read()
    assert {"latency", "stream"} <= {k for k, _ in plots_in(text)}
    assert '<table id="verdict">' in text and "expect_cpus = 4" in text


@pytest.mark.parametrize("case, status, word", [
    ("pass", 0, "PASS"), ("fail", 1, "FAIL"), ("incomplete", 2, "INCOMPLETE"), ("error", 2, "ERROR"),
    ("noverdict_error", 2, "ERROR"), ("noverdict_ok", 0, "PASS")])
def test_exit_status(tmp_path, report, case, status, word):
    recs = synth.records()
    if case == "fail":
        recs = synth.records(triad=(1000, 1000, 1000, 1000))
    elif case == "incomplete":
        recs = recs[:9]
    elif case == "error":
        recs.insert(5, {"type": "error", "where": "stream", "message": "x"})
        recs[-2].update(result="ERROR", errors=1)
        recs[-1]["status"] = "error"
    elif case.startswith("noverdict"):
        recs = [r for r in recs if r["type"] != "verdict"]
        recs[-1]["status"] = "error" if case.endswith("error") else "ok"
    p = report(synth.write(tmp_path / "l.jsonl", recs))
    assert p.returncode == status, p.stdout + p.stderr
    assert p.stdout.split()[0] == word
    if case == "incomplete":
        assert "no end record: the run stopped after 9 records, the last 'measurement'" in p.stdout


def test_worst_status_of_several(tmp_path, report):
    a = synth.write(tmp_path / "a.jsonl", synth.records())
    b = synth.write(tmp_path / "b.jsonl", synth.records(triad=(1, 1, 1, 1)))
    assert report(a, b).returncode == 1
    c = tmp_path / "c.jsonl"
    c.write_text("nonsense\n")
    assert report(a, b, c).returncode == 3


@pytest.mark.parametrize("content, message", [
    (b'{"type":"run","schema":1,"tool":"efiperf"', "truncated last line"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8 text"),
    (b"hello world\n", "invalid JSON"),
    (b"", "empty"),
    (b'{"type":"platform"}\n', "not the run record"),
    (b'{"type":"run","schema":2,"tool":"efiperf"}\n{"type":"end"}\n', "log schema 2 is newer than this efiperf-report knows (1)"),
    (b'{"type":"run","schema":1,"a":1,"a":2}\n', "duplicate key 'a'"),
    (b'{"type":"run","schema":1,"x":NaN}\n', "non-JSON constant NaN"),
])
def test_bad_input(tmp_path, report, content, message):
    f = tmp_path / "bad.jsonl"
    f.write_bytes(content)
    p = report(f)
    assert p.returncode == 3, p.stdout + p.stderr
    assert "Traceback" not in p.stderr
    assert message in p.stderr and "bad.jsonl" in p.stderr, p.stderr


def test_bad_command_line(tmp_path, report):
    for args in ([], ["--no-such-option", "x"], [tmp_path / "missing.jsonl"]):
        p = report(*args)
        assert p.returncode == 3 and "Traceback" not in p.stderr, p.stderr
    assert "No such file" in report(tmp_path / "missing.jsonl").stderr


def test_schema_violations(tmp_path, report):
    cases = [
        (lambda r: r[4]["link"].update(width="16"), "pcie record, link/width: '16' is not of type 'integer', 'null'"),
        (lambda r: r.insert(3, {"type": "no_such_record"}), "record type 'no_such_record' is not in schema 1"),
        (lambda r: r[-2]["checks"][0].update(result="MAYBE"), "verdict record, checks/0/result"),
        (lambda r: r[0].pop("config"), "run record, (record): 'config' is a required property"),
        # a shape records share is no record type
        (lambda r: r.insert(3, {"type": "load_source", "table": "x"}), "record type 'load_source' is not in schema 1"),
        # every record type lists every member its writers produce: another one is refused
        (lambda r: r[0].update(colour=1), "run record, (record): Additional properties are not allowed ('colour' was unexpected)"),
        (lambda r: r[-1].update(colour=1), "end record, (record): Additional properties are not allowed ('colour' was unexpected)"),
        # nested objects whose writer is read whole are closed too
        (lambda r: r[8]["passes"][0].update(colour=1), "measurement record, passes/0: Additional properties are not allowed ('colour' was unexpected)"),
        (lambda r: r[15]["link_limit"].update(colour=1), "nvme record, link_limit: Additional properties are not allowed ('colour' was unexpected)"),
    ]
    # every other record type lists every member its writers produce: an unknown one is refused
    # (the synthetic log's own records, and a small valid record of each type it lacks)
    own = {"platform": 1, "smbios": 2, "pcie": 3, "measurement": 8, "stream": 9, "latency": 11, "nvme": 12,
           "topdown": 16, "cha": 17, "verdict": -2}
    for rtype, i in own.items():
        cases.append((lambda r, i=i: r[i].update(colour=1),
                      "%s record, (record): Additional properties are not allowed ('colour' was unexpected)" % rtype))
    self_check = {"state": "absent", "expected_read_bytes": 0, "expected_write_bytes": 4096, "counted_read_bytes": None,
                  "counted_write_bytes": None, "ratio_read": None, "ratio_write": None, "tolerance": 0.1, "why": "cha = off"}
    link_limit = {"status": "absent", "why": "0000:00:1f.2 sits on a root bus", "path": [], "links": [], "bottleneck": None,
                  "raw_gbps": None, "mps": None, "mrrs": None, "effective_read_gbps": None, "effective_write_gbps": None,
                  "direction": None, "effective_gbps": None, "fraction": None}
    small = {
        "acpi": {"error": "no ACPI RSDP in the EFI configuration table"},
        "cpus": {"setting": "all", "count": 1, "package_source": "PPTT", "selected": [{"cpu": 0, "node": None}]},
        "corepmu": {"backend": "amd-core", "vendor": "AuthenticAMD", "family": 25, "model": 1, "smt": True,
                    "topdown": {"method": None, "why": "TopDown: Intel only"}, "lacks": []},
        "pcie_scan": {"method": "ECAM (MCFG)", "ranges": [], "functions": 0, "overflow": 0, "read_errors": 0, "nvidia_map_lines": 0},
        "core_counters": {"kernel": "copy", "pass": 0, "cpu": 0, "backend": "Arm PMUv3", "counters": []},
        "ibs": {"kernel": "copy", "pass": 0, "cpu": 0, "mode": "off", "present": False, "why": "ibs = off"},
        "loop": {"counter": "instructions retired", "iterations": 10, "valid": False, "why": "no core PMU"},
        "uncore": {"pmu": "uncore_imc", "platform": "ICX", "status": "off", "why": "uncore = off"},
        "uncore_iio_map": {"pmu": "uncore_iio", "platform": "ICX", "socket": 0, "status": "absent", "map_source": "none",
                           "why": "no map"},
        "nvme_controller": {"bdf": "0000:01:00.0", "path": "own-queues", "bound_before": True, "given_back": "reconnected",
                            "blockio_after": "present"},
        "c2c": {"median_ns": [], "min_ns": [], "cpus": []},
        "numa_matrix": {"nodes": []},
        "cache_bw": {"level": "L1", "kernels": []},
        "loaded_latency": {"points": []},
        "ddio": {"point": 0, "buffer_bytes": 4096, "self_check": self_check, "link_limit": link_limit,
                 "io_llc_hit_ratio": {"state": "absent", "hits": 0, "misses": 0, "ratio": None, "why": "cha = off"}},
        "dma_cpu_traffic": {"dma": {}, "stream": {}, "self_check": self_check, "link_limit": link_limit},
    }
    # x86 multiplexed core counters (README "x86 core counter multiplexing"), as
    # tests/unit/test_x86_mux.c's windows write them: a fixed counter, a counted and a
    # not-counted event, the groups
    x86_mux = {"type": "core_counters", "kernel": "copy", "pass": 0, "cpu": 0, "backend": "intel-arch-perfmon", "ticks": 0,
               "counters": [{"event": "INST_RETIRED.ANY", "state": "counted", "reads": 2, "time_enabled": 400000,
                             "time_running": 400000, "raw": 350, "scaled": 350, "delta": 350},
                            {"event": "cpu/event=0xc5,umask=0x0/", "config": "0xc5", "state": "counted", "reads": 2, "group": 1,
                             "time_enabled": 400000, "time_running": 150000, "raw": 100, "scaled": 266, "delta": 266},
                            {"event": "cpu/event=0xc4,umask=0x0/", "config": "0xc4", "state": "not-counted", "group": 2,
                             "time_enabled": 400000, "time_running": 0,
                             "why": "not counted: its group 2 never ran; the window had 1 rotations"}],
               "multiplexed": True, "group_count": 3, "rotations": 1, "window_ns": 400000, "slice_ns": 100000,
               "groups": [{"events": ["cpu/event=0xc0,umask=0x0/"], "running_ns": 250000, "fraction": 0.625},
                          {"events": ["cpu/event=0xc5,umask=0x0/"], "running_ns": 150000, "fraction": 0.375},
                          {"events": ["cpu/event=0xc4,umask=0x0/"], "running_ns": 0, "fraction": 0.0}]}
    cases.append((lambda r: r.insert(3, dict(x86_mux)), None))
    cases.append((lambda r: r.insert(3, dict(x86_mux, counters=[dict(x86_mux["counters"][2], state="uncounted")])),
                  "core_counters record, counters/0/state: 'uncounted' is not one of"))
    for rtype, rec in small.items():
        rec = dict(rec, type=rtype)
        cases.append((lambda r, rec=rec: r.insert(3, dict(rec)), None))   # valid as it is
        cases.append((lambda r, rec=rec: r.insert(3, dict(rec, colour=1)),
                      "%s record, (record): Additional properties are not allowed ('colour' was unexpected)" % rtype))
    # any record may say the CPU is in none of efiperf's tables (schema top-level properties), as a string
    note = "GenuineIntel family 0x13 model 0x1: not in efiperf's CPU tables, architectural events only"
    cases.append((lambda r: [x.update(cpu_not_in_tables=note) for x in r[1:]], None))
    cases.append((lambda r: r[-1].update(cpu_not_in_tables=19), "end record, cpu_not_in_tables: 19 is not of type 'string'"))
    for edit, message in cases:
        recs = synth.records()
        edit(recs)
        p = report(synth.write(tmp_path / "s.jsonl", recs))
        if message is None:
            assert p.returncode != 3, p.stderr
            continue
        assert p.returncode == 3 and message in p.stderr, (message, p.stderr)


@pytest.mark.parametrize("where, edit", [
    ("measurement copy pass 0 gbps", lambda r: r[8]["passes"][0].update(gbps=2.7)),
    ("measurement copy pass 0 cpu 1 gbps", lambda r: r[8]["passes"][0]["per_cpu"][1].update(gbps=1.8)),
    ("stream triad best_rate_mbps", lambda r: r[10].update(best_rate_mbps=r[10]["best_rate_mbps"] + 50)),
    ("nvme 0000:01:00.0 bs 4096 iodepth 1 bw_bytes", lambda r: r[12].update(bw_bytes=2100000000)),
    ("nvme 0000:01:00.0 bs 4096 iodepth 1 iops", lambda r: r[12].update(iops=510000)),
    ("topdown copy cpu 0 retiring", lambda r: r[16]["ratio"].update(retiring=0.45)),
    ("cha dma socket 0 pcie_read_bytes", lambda r: r[17]["sockets"][0]["metrics"].update(pcie_read_bytes=70000)),
    ("cha dma total pcie_write_bytes", lambda r: r[17]["total"].update(pcie_write_bytes=2048)),
    ("cha dma self_check ratio_read", lambda r: r[17]["self_check"].update(ratio_read=1.2)),
    ("topdown copy cpu 0 retiring milli_pct", lambda r: r[18]["retiring"].update(milli_pct=27000)),
    ("topdown copy cpu 0 slots", lambda r: r[18].update(slots=6000)),
    # a valid AMD record whose cycle count was taken out: nothing left to recompute it from
    ("topdown copy cpu 0", lambda r: r[18]["counts"].update(ls_not_halted_cyc=None)),
    # level 2 (topdown = l2): a metric changed, a level-2 count changed, a level-1 count both levels use
    ("topdown copy cpu 0 level2 retiring_from_microcode milli_pct",
     lambda r: r[18]["level2"]["retiring_from_microcode"].update(milli_pct=2700)),
    ("topdown copy cpu 0 level2 backend_bound_by_memory milli_pct",
     lambda r: r[18]["level2_counts"].update({"ex_no_retire.not_complete": 800})),
    ("topdown copy cpu 0 level2 frontend_bound_by_latency milli_pct",
     lambda r: r[18]["level2_counts"].update({"cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8/": 160})),
])
def test_recompute_flags_tampering(tmp_path, report, where, edit):
    clean = report(synth.write(tmp_path / "c.jsonl", synth.records()))
    assert clean.returncode == 0 and "disagrees" not in clean.stderr, clean.stderr
    recs = synth.records()
    edit(recs)
    p = report(synth.write(tmp_path / "t.jsonl", recs))
    assert p.returncode == 3, p.stdout + p.stderr
    assert "recomputed value disagrees: %s is" % where in p.stderr, p.stderr
    assert p.stdout.startswith("INVALID")


def test_recompute_allows_rounding(tmp_path, report):
    recs = synth.records()
    recs[8]["passes"][0]["gbps"] = 2.685          # 134217728 / 50000000 = 2.68435: 3 decimals either way
    p = report(synth.write(tmp_path / "r.jsonl", recs))
    assert p.returncode == 0, p.stderr


def test_fleet_marks_the_slow_machine(tmp_path, report):
    logs = [synth.write(tmp_path / ("%s.jsonl" % s), synth.records(serial=s, triad=t))
            for s, t in (("A1", (6000, 6000, 6000, 6000)), ("B2", (6100, 6000, 5900, 6000)), ("C3", (4000, 4000, 4000, 4000)))]
    p = report(*logs, "--fleet", tmp_path / "fleet", "--below", "10")
    assert p.returncode == 1, p.stdout + p.stderr    # C3's triad check fails
    assert "fleet: %s (3 machines, 1 marked below the median)" % (tmp_path / "fleet" / "fleet.html") in p.stdout
    with open(tmp_path / "fleet" / "fleet.csv") as f:
        rows = list(csv.DictReader(f))
    triad = {r["machine"]: r for r in rows if r["metric"] == "stream triad MB/s"}
    assert set(triad) == {"A1", "B2", "C3"}
    assert float(triad["A1"]["fleet_median"]) == 24000                      # median of 24000, 24000, 16000
    assert [m for m, r in triad.items() if r["below"] == "True"] == ["C3"]
    assert triad["C3"]["pct_of_median"] == "66.7"
    with open(tmp_path / "fleet" / "fleet.html") as f:
        text = f.read()
    assert re.search(r'<tr class="below"><td>C3</td><td class="n">16,000</td>', text)
    # machines as rows, metrics as columns: C3's triad cell marked, its serial linking to its log
    row = re.search(r'<tr><td><a href="([^"]+)">C3</a></td><td>FAIL</td>(.*?)</tr>', text)
    assert row and row.group(1) == os.path.relpath(logs[2], tmp_path / "fleet"), row and row.group(1)
    assert re.search(r'<td class="n below" title="66.7% of the median">16,000</td>', row.group(2)), row.group(2)
    assert '<td class="n" title="100.0% of the median">24,000</td>' in text
    assert "<td>A1</td><td>0000:02:00.0</td><td>8.0 GT/s x4 of 16.0 GT/s x16</td>" in text   # downtrained list
    assert "<td>C3</td><td>check = stream.triad.best_rate_mbps &gt;= 20000</td><td>16000</td>" in text


def test_junit(tmp_path, report):
    good = synth.write(tmp_path / "g.jsonl", synth.records())
    bad = synth.write(tmp_path / "b.jsonl", synth.records(triad=(1, 1, 1, 1)))
    inc = synth.write(tmp_path / "i.jsonl", synth.records()[:5])
    p = report(good, bad, inc, "--junit", tmp_path / "j.xml")
    assert p.returncode == 2
    root = ET.parse(tmp_path / "j.xml").getroot()
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"g.jsonl", "b.jsonl", "i.jsonl"}
    g = suites["g.jsonl"].findall("testcase")
    assert [c.get("name") for c in g] == ["stream[triad].best_rate_mbps >= 20000"]
    assert g[0].find("failure") is None
    f = suites["b.jsonl"].find("testcase/failure")
    assert f is not None and f.get("message").startswith("value 4; ")
    assert suites["b.jsonl"].get("failures") == "1"
    err = suites["i.jsonl"].find("testcase/error")
    assert err is not None and err.get("message").startswith("INCOMPLETE")


def test_qemu_log_is_what_the_schema_says():
    """The committed QEMU log: every record type it holds has a schema definition."""
    with open(QEMU_LOG) as f:
        types = {json.loads(l)["type"] for l in f}
    with open(os.path.join(os.path.dirname(HERE), "..", "boot", "report", "schema", "v1.json")) as f:
        defs = json.load(f)["definitions"]
    assert types <= set(defs), types - set(defs)


def test_make_report(tmp_path):
    """`make report` as the README shows it, over given logs: the results, HTML and JUnit under
    build/<arch>/report, the tool's exit status (FAIL: 1)."""
    import subprocess
    from conftest import REPO
    a = synth.write(tmp_path / "M1.jsonl", synth.records(serial="M1"))
    b = synth.write(tmp_path / "M2.jsonl", synth.records(serial="M2", triad=(1, 1, 1, 1)))
    p = subprocess.run(["make", "--no-print-directory", "-C", REPO, "report", "LOGS=%s %s" % (a, b)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode != 0 and "Error 1" in p.stderr, p.stdout + p.stderr
    assert re.search(r"^PASS +serial=M1 ", p.stdout, re.M) and re.search(r"^FAIL +serial=M2 ", p.stdout, re.M)
    out = os.path.join(REPO, "build", "x86_64", "report")
    assert os.path.exists(os.path.join(out, "M1.html")) and os.path.exists(os.path.join(out, "junit.xml"))
    p = subprocess.run(["make", "--no-print-directory", "-C", REPO, "report", "LOGS=%s" % a], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    # `make report` without LOGS: the logs under build/<arch>/logs/ (B, the build folder, pointed at
    # tmp_path so that the logs of other tests' boots are not read), and none there: exit status 3
    b = tmp_path / "b"
    (b / "logs").mkdir(parents=True)
    p = subprocess.run(["make", "--no-print-directory", "-C", REPO, "report", "B=%s" % b], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode != 0 and "report: no logs in %s/logs" % b in p.stderr, p.stdout + p.stderr
    synth.write(b / "logs" / "M3.jsonl", synth.records(serial="M3"))
    p = subprocess.run(["make", "--no-print-directory", "-C", REPO, "report", "B=%s" % b], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0 and re.search(r"^PASS +serial=M3 ", p.stdout, re.M), p.stdout + p.stderr
    assert (b / "report" / "M3.html").exists() and (b / "report" / "junit.xml").exists()


def test_readme_commands(tmp_path):
    """The report's README commands as written: the tool run as a program (its #!/usr/bin/python3)
    with --html, --fleet and --junit, and boot/deps.sh report (a no-op when the packages are in)."""
    import subprocess
    from conftest import REPO, REPORT
    a = synth.write(tmp_path / "R1.jsonl", synth.records(serial="R1"))
    p = subprocess.run([REPORT, a, "--html", tmp_path / "html", "--fleet", tmp_path / "fleet", "--junit",
                        tmp_path / "j.xml"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    for f in ("html/R1.html", "fleet/fleet.html", "fleet/fleet.csv", "j.xml"):
        assert (tmp_path / f).stat().st_size > 0, f
    # --quiet prints nothing but errors: silent on a passing log, still the exit status of a failing one
    p = subprocess.run([REPORT, a, "--quiet"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout == "" and p.stderr == "", p.stdout + p.stderr
    b = synth.write(tmp_path / "R2.jsonl", synth.records(serial="R2", triad=(1, 1, 1, 1)))
    p = subprocess.run([REPORT, a, b, "--quiet"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and p.stdout == "", p.stdout + p.stderr
    bad = tmp_path / "R3.jsonl"
    bad.write_text("not json\n")
    p = subprocess.run([REPORT, bad, "--quiet"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 3 and p.stdout == "" and "efiperf-report: invalid log: " in p.stderr, p.stdout + p.stderr
    p = subprocess.run([os.path.join(REPO, "boot", "deps.sh"), "report"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr


def test_matrices_as_heat_maps():
    """c2c and NUMA matrices become heat maps with titles and alt text; a matrix of n nodes has
    n x n cells drawn (the figure's series is empty: a heat map has no lines)."""
    import sys
    from conftest import REPO
    sys.path.insert(0, os.path.join(REPO, "boot"))
    from report import html as H

    class Log:
        def __init__(self, recs):
            self.records = recs

        def of(self, t):
            return [r for r in self.records if r.get("type") == t]

    log = Log([{"type": "c2c", "cpus": [{"cpu": i} for i in range(3)],
                "median_ns": [[0, 50.5, 60], [50.5, 0, 55], [60, 55, 0]]},
               {"type": "numa_matrix", "nodes": [{"node": 0}, {"node": 1}],
                "latency_ns": [[80.1, 130.2], [131.3, 79.4]], "read_gbps": [[10.5, 6.2], [6.1, 10.4]]}])
    text = H.matrices(log)
    kinds = re.findall(r'<img class="plot" data-plot="([a-z0-9]+)" alt="([^"]+)"', text)
    assert [k for k, _ in kinds] == ["c2c", "numa", "numa"], kinds
    assert all(alt for _, alt in kinds) and text.count("<figcaption>") == 3
    assert "Heat map of the median one-way latency between 3 CPUs" in text
    assert H.matrices(Log([])) == "", "a log without matrices gets no section"
