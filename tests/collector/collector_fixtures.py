# SPDX-License-Identifier: BSD-2-Clause
"""Helpers and fixtures of the collector tests (test_collector.py imports the fixtures; it and
tests/bench/bench_collector.py import the helpers from here): boot/efiperf-collector started on a free loopback port over a
fresh SQLite file or a PostgreSQL 15 server the fixture starts itself (initdb + pg_ctl in a
temporary folder, Unix socket only, no TCP), a client, and recorded logs with rewritten serials.
Nothing listens beyond 127.0.0.1; every server is stopped on every path."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
COLLECTOR = os.path.join(REPO, "boot", "efiperf-collector")
LOG = os.path.join(REPO, "tests", "report", "logs", "qemu-x86_64-stream-latency.jsonl")
TOKEN = "lab-token-0123"
PG_BIN = "/usr/lib/postgresql/15/bin"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def records_of(path=LOG, serial=None):
    """The records of a recorded log; with `serial`, the log name and SMBIOS serial rewritten."""
    recs = [json.loads(line) for line in open(path, encoding="utf-8")]
    if serial is not None:
        for r in recs:
            if r["type"] == "run":
                r["log"] = "\\efiperf\\logs\\%s-20261127-120000" % serial
            if r["type"] == "smbios":
                r["log_serial"] = serial
                r["system"]["serial"] = serial
    return recs


class Client:
    def __init__(self, base, token=TOKEN):
        self.base, self.token = base, token

    def request(self, method, path, body=None, token=None, raw=None):
        data = raw if raw is not None else body
        req = urllib.request.Request(self.base + path, data=data, method=method)
        tok = self.token if token is None else token
        if tok:
            req.add_header("Authorization", "Bearer " + tok)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def post(self, run_id, items, token=None):
        """items: [(seq, record)]. Returns (status, decoded JSON answer)."""
        body = "".join(json.dumps({"seq": s, "record": r}) + "\n" for s, r in items).encode()
        st, out = self.request("POST", "/api/v1/runs/%s/records" % run_id, body, token)
        return st, json.loads(out)

    def get_json(self, path):
        st, out = self.request("GET", path)
        assert st == 200, (path, st, out)
        return json.loads(out)


class Server:
    def __init__(self, db, tmp, **opts):
        self.db, self.tmp, self.opts = db, tmp, opts
        self.proc = None
        self.port = free_port()
        self.client = Client("http://127.0.0.1:%d" % self.port)

    def start(self):
        tokf = os.path.join(self.tmp, "token")
        with open(tokf, "w") as f:
            f.write(TOKEN + "\n")
        args = ["/usr/bin/python3", COLLECTOR, "--listen", "127.0.0.1:%d" % self.port, "--db", self.db,
                "--token-file", tokf]
        for k, v in self.opts.items():
            args += ["--" + k.replace("_", "-"), str(v)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("collector exited: %s" % self.proc.stdout.read())
            try:
                with urllib.request.urlopen(self.client.base + "/healthz", timeout=2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("collector did not answer in 30 s")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Postgres:
    """A PostgreSQL 15 server of its own: initdb and pg_ctl as the `postgres` user (the server
    refuses to run as root), listening on a Unix socket in its folder only."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="efiperf-pg-")
        shutil.chown(self.dir, "postgres", "postgres")
        self.data = os.path.join(self.dir, "data")

    def _pg(self, *args):
        return subprocess.run(["runuser", "-u", "postgres", "--"] + list(args), capture_output=True, text=True,
                              timeout=120)

    def start(self):
        r = self._pg(os.path.join(PG_BIN, "initdb"), "-D", self.data, "-A", "trust", "-U", "postgres")
        assert r.returncode == 0, r.stderr
        r = self._pg(os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-w", "-l", os.path.join(self.dir, "log"),
                     "-o", "-k %s -c listen_addresses='' -c fsync=off" % self.dir, "start")
        assert r.returncode == 0, r.stderr + open(os.path.join(self.dir, "log")).read()
        return self

    def url(self, db="postgres"):
        return "postgresql://postgres@/%s?host=%s" % (db, self.dir)

    def createdb(self, name):
        r = self._pg(os.path.join(PG_BIN, "createdb"), "-h", self.dir, "-U", "postgres", name)
        assert r.returncode == 0, r.stderr
        return self.url(name)

    def stop(self):
        self._pg(os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    if not os.path.exists(os.path.join(PG_BIN, "initdb")):
        pytest.fail("PostgreSQL 15 is not installed (boot/deps.sh --check test installs postgresql-15)")
    pg = Postgres()
    try:
        yield pg.start()
    finally:
        pg.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def collector(request, tmp_path):
    """collector(**opts) -> a started Server over a fresh database of the parameter's kind."""
    servers = []
    n = [0]

    def make(**opts):
        n[0] += 1
        if request.param == "sqlite":
            db = str(tmp_path / "collector.sqlite")
        else:
            db = request.getfixturevalue("postgres").createdb("c_%s_%d" % (os.getpid(), int(time.time() * 1000) % 10**9))
        s = Server(db, str(tmp_path), **opts)
        servers.append(s)
        return s.start()
    yield make
    for s in servers:
        s.stop()
