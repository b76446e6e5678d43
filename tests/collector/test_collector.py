# SPDX-License-Identifier: BSD-2-Clause
"""boot/efiperf-collector over loopback, on SQLite and on PostgreSQL 15: a fleet's records arrive
in order and once, retries and restarts lose and duplicate nothing, bad uploads are refused with
a reason and leave the database as it was, stale runs are INCOMPLETE, pages and exports work."""
import csv
import io
import json
import random
import time

# The fixtures (collector, postgres) come from collector_fixtures.py, imported here rather than from a
# conftest.py: tests/report's tests import their own conftest by name, and a second conftest module
# in the same pytest run would shadow it.
from collector_fixtures import TOKEN, collector, postgres, records_of  # noqa: F401


def upload(client, run_id, recs, rnd, retry_every=0):
    """Post `recs` in random batches of 1-9; with retry_every, post some batches twice (a client
    whose answer was lost). Returns the number of duplicate records the collector reported."""
    i, dups, n = 0, 0, 0
    while i < len(recs):
        k = rnd.randint(1, 9)
        batch = [(s, recs[s]) for s in range(i, min(len(recs), i + k))]
        st, out = client.post(run_id, batch)
        assert st == 200, out
        n += 1
        if retry_every and n % retry_every == 0:
            st, again = client.post(run_id, batch)
            assert st == 200 and again["accepted"] == 0 and again["duplicates"] == len(batch), again
            dups += again["duplicates"]
        i += len(batch)
    return dups


def stored(client, run_id):
    st, body = client.request("GET", "/api/v1/runs/%s/records" % run_id)
    assert st == 200
    return [json.loads(line) for line in body.decode().splitlines()]


def test_fleet_arrives_in_order_once(collector):
    srv = collector()
    c = srv.client
    rnd = random.Random(7)
    fleet = {}
    for serial in ("LAB1", "LAB2", "LAB3"):
        recs = records_of(serial=serial)
        fleet[serial] = recs
        dups = upload(c, "run-" + serial, recs, rnd, retry_every=3)
        assert dups > 0
    for serial, recs in fleet.items():
        assert stored(c, "run-" + serial) == recs
        run = c.get_json("/api/v1/runs/run-" + serial)
        assert run["serial"] == serial and run["ended"] == 1 and run["state"] == "PASS"
        assert run["next_seq"] == len(recs) and run["product"] == "Standard PC (Q35 + ICH9, 2009)"
    health = c.get_json("/healthz")
    assert health["runs"] == 3 and health["records"] == 3 * len(fleet["LAB1"])
    st, page = c.request("GET", "/")
    page = page.decode()
    assert st == 200
    for serial in fleet:
        assert '<td>%s</td>' % serial in page and 'href="/runs/run-%s"' % serial in page
    assert page.count('class="PASS">PASS<') == 3
    st, rep = c.request("GET", "/runs/run-LAB2")
    assert st == 200 and "LAB2" in rep.decode() and "<img" in rep.decode()
    assert [r["run_id"] for r in c.get_json("/api/v1/runs?serial=LAB3")] == ["run-LAB3"]
    assert len(c.get_json("/api/v1/runs?result=PASS")) == 3 and c.get_json("/api/v1/runs?result=FAIL") == []
    st, body = c.request("GET", "/api/v1/runs.csv")
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert sorted(r["serial"] for r in rows) == ["LAB1", "LAB2", "LAB3"] and {r["state"] for r in rows} == {"PASS"}
    st, junit = c.request("GET", "/api/v1/junit.xml")
    assert st == 200 and junit.count(b"<testsuite ") == 3


def test_restart_loses_nothing(collector):
    """The collector stopped mid-run and started again over the same database: the client sends
    again from the start; the first half is dropped as duplicates, the rest stored, once."""
    srv = collector()
    recs = records_of(serial="LAB4")
    half = len(recs) // 2
    st, out = srv.client.post("r4", list(enumerate(recs[:half])))
    assert st == 200 and out["accepted"] == half
    srv.stop()
    srv.start()
    st, out = srv.client.post("r4", list(enumerate(recs)))
    assert st == 200 and out == {"accepted": len(recs) - half, "duplicates": half, "next_seq": len(recs)}
    assert stored(srv.client, "r4") == recs


def test_bad_uploads_are_refused(collector):
    srv = collector(max_body=200000)
    c = srv.client
    recs = records_of(serial="LAB5")
    st, out = c.post("r5", list(enumerate(recs[:5])))
    assert st == 200
    before = stored(c, "r5")

    # no token, a wrong token
    assert c.post("r5", [(5, recs[5])], token="")[0] == 401
    st, out = c.post("r5", [(5, recs[5])], token="wrong")
    assert st == 401 and "token" in out["error"]
    # a gap, a different record at a stored seq, a replay
    st, out = c.post("r5", [(7, recs[7])])
    assert st == 409 and out["error"] == "gap: expected seq 5, got 7"
    st, out = c.post("r5", [(2, recs[3])])
    assert st == 409 and "seq 2 already holds a different" in out["error"]
    st, out = c.post("r5", [(4, recs[4])])
    assert st == 200 and out == {"accepted": 0, "duplicates": 1, "next_seq": 5}
    # not our envelope, not JSON, not UTF-8
    for raw, why in ((b'{"seq":5}\n', 'exactly "seq" and "record"'), (b"{nope\n", "invalid JSON"),
                     (b'\xff\xfe{}\n', "not UTF-8"), (b'{"seq":-1,"record":{"type":"end"}}\n', "seq is not")):
        st, body = c.request("POST", "/api/v1/runs/r5/records", raw=raw)
        assert st == 400 and why in json.loads(body)["error"], (raw, body)
    # a body over the limit
    st, body = c.request("POST", "/api/v1/runs/r5/records", raw=b"x" * 300000)
    assert st == 413
    # run ids that would be paths or SQL
    for rid in ("..%2F..%2Fetc", "a%20b", "x" * 65):
        st, body = c.request("POST", "/api/v1/runs/%s/records" % rid, raw=b'{"seq":0,"record":{"type":"run"}}\n')
        assert st in (400, 404), (rid, st, body)
    assert stored(c, "r5") == before

    # a record that breaks the schema: refused with the member named, the run marked INVALID,
    # nothing of the upload stored
    bad = dict(recs[5])
    bad["unexpected_member"] = 1
    st, out = c.post("r5", [(5, recs[5]), (6, dict(recs[6], type="end"))])
    assert st == 422 and out["error"].startswith("seq 6: end record"), out
    assert stored(c, "r5") == before
    run = c.get_json("/api/v1/runs/r5")
    assert run["state"] == "INVALID" and run["invalid_reason"].startswith("seq 6: end record")

    # serials that look like SQL or a path are data: stored as given, nothing else touched
    for i, serial in enumerate(("x'); DROP TABLE runs; --", "../../etc/passwd", "LAB1\" OR 1=1")):
        rr = records_of(serial=serial)
        st, out = c.post("s%d" % i, list(enumerate(rr)))
        assert st == 200 and out["accepted"] == len(rr)
        assert c.get_json("/api/v1/runs/s%d" % i)["serial"] == serial
        assert [r["run_id"] for r in c.get_json("/api/v1/runs?serial=" + __import__("urllib.parse").parse.quote(serial))] == ["s%d" % i]
    assert c.get_json("/healthz")["runs"] == 4
    st, page = c.request("GET", "/")
    assert "x&#x27;); DROP TABLE runs; --" in page.decode() and "../../etc/passwd" in page.decode()
    # a first upload that is not the run record
    st, out = c.post("fresh", [(0, recs[1])])
    assert st == 409 and "starts with seq 0, the run record" in out["error"]
    assert c.request("GET", "/api/v1/runs/fresh")[0] == 404


def test_cpu_note_on_any_record(collector):
    """`cpu_not_in_tables` (efi/out/report.c rep_begin) may ride on any record after the run
    record, as efiperf-report accepts it (boot/report/logs.py COMMON); not as a number."""
    c = collector().client
    recs = records_of(serial="LAB7")
    note = "GenuineIntel family 6 model 0x86 is in none of efiperf's CPU tables"
    noted = [recs[0]] + [dict(r, cpu_not_in_tables=note) for r in recs[1:]]
    st, out = c.post("r7", list(enumerate(noted)))
    assert st == 200 and out["next_seq"] == len(recs), out
    assert [r.get("cpu_not_in_tables") for r in stored(c, "r7")[1:]] == [note] * (len(recs) - 1)
    st, out = c.post("r8", [(0, recs[0]), (1, dict(recs[1], cpu_not_in_tables=19))])
    assert st == 422 and "cpu_not_in_tables" in out["error"] and "19 is not of type 'string'" in out["error"], out


def test_stale_run_is_incomplete(collector):
    srv = collector(stale=4)
    recs = records_of(serial="LAB6")
    st, _ = srv.client.post("r6", list(enumerate(recs[:10])))
    assert st == 200
    assert srv.client.get_json("/api/v1/runs/r6")["state"] == "RUNNING"
    st, page = srv.client.request("GET", "/")
    assert 'id="running"><li><a href="/runs/r6">' in page.decode()
    time.sleep(4.5)
    assert srv.client.get_json("/api/v1/runs/r6")["state"] == "INCOMPLETE"
    assert [r["run_id"] for r in srv.client.get_json("/api/v1/runs?result=INCOMPLETE")] == ["r6"]
    # the end arrives late: the run is classified after all
    st, out = srv.client.post("r6", [(i, recs[i]) for i in range(10, len(recs))])
    assert st == 200 and srv.client.get_json("/api/v1/runs/r6")["state"] == "PASS"


def test_token_is_required_to_start(tmp_path):
    import subprocess
    from collector_fixtures import COLLECTOR
    r = subprocess.run(["/usr/bin/python3", COLLECTOR, "--db", str(tmp_path / "x.sqlite")], capture_output=True,
                       text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert r.returncode == 2 and "no upload token" in r.stderr
    for _ in range(2):
        r = subprocess.run(["/usr/bin/python3", COLLECTOR, "--db", str(tmp_path / "x.sqlite"), "--migrate-only"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "at schema version 1" in r.stdout, r.stderr
