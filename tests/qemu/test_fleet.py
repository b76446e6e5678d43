# SPDX-License-Identifier: BSD-2-Clause
"""A lab fleet streaming its records to boot/efiperf-collector, in a network namespace of the
test's own (test_netboot.py's Lab: a bridge at 198.18.0.1/24, one tap per machine, no route out,
dnsmasq bound to that bridge only, everything removed on every path). The collector listens on
the bridge's address with a SQLite file; x86_64 QEMU machines PXE-boot efiperf with per-serial
configs from the boot server that set `collector`, `collector_token` and `collector_wait`.

The oracle is the database itself (read with Python's sqlite3, not through the collector) against
each machine's console: the run id the console names has seq 0..N-1 stored once each, the run
record first and the end record last, N the count the console says was sent, the config the
per-serial file set, the verdict the console's EFIPERF RESULT line states; and the fleet page
lists the machines with those verdicts."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time

import sys

import pytest

from efiperf_qemu import REPO, base_efi, console_tail, image_logs, make_image, read_image_file
from test_netboot import NETBOOT_SH, SERVER, Lab, qemu_args, sh

sys.path.insert(0, os.path.join(REPO, "tests", "collector"))
from collector_fixtures import PG_BIN, Postgres  # noqa: E402

COLLECTOR = os.path.join(REPO, "boot", "efiperf-collector")
PORT = 8080
TOKEN = "fleet-token-0123"
COMMON = "exit = shutdown\npcie = off\nstream = off\nlatency = off\ncollector_wait = 60\n"


def lab_root(d, configs):
    """The boot root with efiperf/<serial>.cfg = configs[serial]."""
    root = os.path.join(d, "root")
    sh(NETBOOT_SH, "--root", root, "--server", SERVER, "--range", "198.18.0.100,198.18.0.150", "--interface", "br0",
       "--efi-x86_64", base_efi("x86_64"), "--efi-aarch64", base_efi("x86_64"))
    for serial, text in configs.items():
        with open(os.path.join(root, "efiperf", serial + ".cfg"), "w") as f:
            f.write(text)
    return root


def start_collector(lab, d, db, tag, extra=()):
    tok = os.path.join(d, "token")
    with open(tok, "w") as f:
        f.write(TOKEN + "\n")
    log = os.path.join(d, "collector-%s.log" % tag)
    p = lab.start(["/usr/bin/python3", COLLECTOR, "--listen", "%s:%d" % (SERVER, PORT), "--db", db,
                   "--token-file", tok] + list(extra), log)
    deadline = time.time() + 60
    while time.time() < deadline and "listening on" not in open(log).read():
        assert p.poll() is None, "collector exited: %s" % open(log).read()
        time.sleep(0.5)
    assert "listening on" in open(log).read(), open(log).read()
    return p


def start_dnsmasq(lab, d, root):
    # the DHCP server must answer on the namespace's bridge only: netboot.sh's config binds it
    # there (interface=br0 with bind-interfaces); refuse to start it otherwise
    conf = open(os.path.join(root, "dnsmasq.conf")).read()
    assert "bind-interfaces" in conf and "interface=br0" in conf, conf
    lab.start(["dnsmasq", "--conf-file=" + os.path.join(root, "dnsmasq.conf"), "--no-daemon", "--log-facility=-",
               "--pid-file=" + os.path.join(d, "dnsmasq.pid"), "--user=root", "--group=root"],
              os.path.join(d, "dnsmasq.log"))
    time.sleep(1)


def boot_machines(lab, d, serials, first_tap=0):
    out = {}
    for i, serial in enumerate(serials, first_tap):
        log = os.path.join(d, "console-%s.log" % serial)
        out[serial] = (lab.start(qemu_args(d, serial, "tap%d" % i, "52:54:00:18:01:%02x" % (i + 1)), log), log)
    return out


def wait_all(machines, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline and any(p.poll() is None for p, _ in machines.values()):
        time.sleep(2)


def console(log):
    text = open(log, "rb").read().decode("utf-8", "replace")
    return re.sub(r"\x1b\[[0-9;=]*[A-Za-z]", "", text).replace("\r", "")


def query(db, sql, args):
    """Rows of `sql` (with ? placeholders) on the SQLite file or PostgreSQL URL db, read directly."""
    if db.startswith("postgresql://"):
        import psycopg   # Debian python3-psycopg
        with psycopg.connect(db) as con:
            return con.execute(sql.replace("?", "%s"), args).fetchall()
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def stored(db, run_id):
    """[(seq, type, record)] of a run and its (serial, ended, result)."""
    rows = query(db, "SELECT seq, type, body FROM records WHERE run_id = ? ORDER BY seq", (run_id,))
    run = query(db, "SELECT serial, ended, result FROM runs WHERE run_id = ?", (run_id,))
    return [(s, t, json.loads(b)) for s, t, b in rows], (run[0] if run else None)


def check_delivered(serial, text, db):
    """The run the console names is in the database whole, in order, once. Returns (run_id, records, run row)."""
    m = re.search(r"collector: records go to http://%s:%d/ as run (\S+) " % (re.escape(SERVER), PORT), text)
    assert m, "%s: no collector line on the console: %s" % (serial, text[-2000:])
    run_id = m.group(1)
    assert run_id.startswith(serial + "-"), run_id
    m = re.search(r"collector: (\d+) records not delivered \((\d+) sent to ", text)
    assert m, "%s: no delivery count on the console: %s" % (serial, text[-2000:])
    assert m.group(1) == "0", "%s: %s records not delivered" % (serial, m.group(1))
    sent = int(m.group(2))
    recs, run = stored(db, run_id)
    assert [s for s, _, _ in recs] == list(range(sent)), "%s: seqs %s, console says %d sent" % (
        serial, [s for s, _, _ in recs], sent)
    assert recs[0][1] == "run" and recs[-1][1] == "end", [t for _, t, _ in recs]
    assert [t for _, t, _ in recs].count("end") == 1 and [t for _, t, _ in recs].count("run") == 1
    assert all(r["type"] == t for _, t, r in recs)
    assert run is not None and run[0] == serial and run[1] == 1, run
    return run_id, recs, run


@pytest.mark.x86_64
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_fleet_streams_every_record_to_the_collector(scratch, kind):
    if os.geteuid() != 0 or not shutil.which("dnsmasq"):
        pytest.fail("needs root and dnsmasq (boot/deps.sh --check test installs dnsmasq-base)")
    if kind == "postgresql" and not os.path.exists(os.path.join(PG_BIN, "initdb")):
        pytest.fail("PostgreSQL 15 is not installed (boot/deps.sh --check test installs postgresql-15)")
    d = scratch()
    url = "collector = http://%s:%d/\ncollector_token = %s\n" % (SERVER, PORT, TOKEN)
    sizes = {"LAB1": 2, "LAB2": 3, "LAB3": 4}
    root = lab_root(d, {s: COMMON + url + "copy_size = %dM\ncopy_passes = 1\n" % mib for s, mib in sizes.items()})
    pg = Postgres().start() if kind == "postgresql" else None   # initdb + pg_ctl, a Unix socket only
    db = pg.url() if pg else os.path.join(d, "fleet.sqlite")
    lab = Lab(d, ["tap%d" % i for i in range(3)])
    try:
        start_dnsmasq(lab, d, root)
        start_collector(lab, d, db, "1")
        machines = boot_machines(lab, d, sizes)
        wait_all(machines, 540)
        runs = {}
        for serial, (p, log) in machines.items():
            text = console(log)
            assert p.poll() == 0, "%s did not power off: %s" % (serial, "\n".join(console_tail(log)))
            assert "configuration from tftp://%s/efiperf/%s.cfg" % (SERVER, serial) in text
            run_id, recs, run = check_delivered(serial, text, db)
            cfg = recs[0][2]["config"]
            assert cfg["copy_size"] == sizes[serial] << 20 and cfg["collector"] == "http://%s:%d/" % (SERVER, PORT)
            assert cfg["collector_token"] == "(set)", "the token reached a record"
            assert TOKEN not in json.dumps([r for _, _, r in recs])
            verdict = re.search(r"EFIPERF RESULT: (\w+) serial=%s" % serial, text)
            assert verdict, "%s: no result line" % serial
            assert [r for _, t, r in recs if t == "verdict"], "%s: no verdict record stored" % serial
            assert run[2] == verdict.group(1), "%s: stored result %s, console %s" % (serial, run[2], verdict.group(1))
            assert any(t == "measurement" for _, t, _ in recs)
            runs[serial] = (run_id, verdict.group(1))
        page = lab.run_ns("/usr/bin/python3", "-c", "import urllib.request,sys; sys.stdout.write(urllib.request."
                          "urlopen('http://%s:%d/', timeout=30).read().decode())" % (SERVER, PORT)).stdout
        for serial, (run_id, verdict) in runs.items():
            row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*%s(?:(?!</tr>).)*</tr>" % re.escape(run_id), page, re.S)
            assert row and serial in row.group(0) and verdict in row.group(0), (serial, run_id, verdict, page[:3000])
    finally:
        lab.close()
        if pg:
            pg.stop()
    assert sh("ip", "netns", "list").stdout.find(lab.ns) < 0


def stored_count(db, serial):
    """Records stored for the runs of `serial` (0 before the database has its tables)."""
    if not os.path.exists(db):
        return 0
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM records JOIN runs USING (run_id) WHERE runs.serial = ?",
                           (serial,)).fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


@pytest.mark.x86_64
def test_fleet_collector_down_and_wrong_token(scratch):
    """LAB1: the collector is stopped (after it made its database) when LAB1's run begins, stays
    down until LAB1 has failed to send and 20 s more, then starts again on the same database: the
    records written meanwhile wait and arrive, none lost or twice.
    LAB2 has a wrong token: the collector answers 401, the console says so, nothing is stored."""
    if os.geteuid() != 0 or not shutil.which("dnsmasq"):
        pytest.fail("needs root and dnsmasq (boot/deps.sh --check test installs dnsmasq-base)")
    d = scratch()
    url = "collector = http://%s:%d/\n" % (SERVER, PORT)
    run = "copy_size = 4M\ncopy_passes = 2\n"
    slow = COMMON.replace("latency = off", "latency = on\nlatency_max = 16M")   # records keep coming a while
    root = lab_root(d, {"LAB1": slow + url + "collector_token = %s\n" % TOKEN + run,
                        "LAB2": COMMON + url + "collector_token = not-the-token\n" + run})
    db = os.path.join(d, "fleet.sqlite")
    lab = Lab(d, ["tap0", "tap1"])
    try:
        start_dnsmasq(lab, d, root)
        coll = start_collector(lab, d, db, "1")
        coll.terminate()   # stopped before LAB1 runs: up, then down, as a lab server that goes away
        coll.wait(timeout=30)
        machines = boot_machines(lab, d, ["LAB1", "LAB2"])
        # down until LAB1 has failed to send (its run has begun) and 20 s more: records wait
        deadline = time.time() + 300
        while time.time() < deadline and "records wait in memory" not in console(machines["LAB1"][1]):
            assert machines["LAB1"][0].poll() is None, console(machines["LAB1"][1])[-2000:]
            time.sleep(0.5)
        down_at = stored_count(db, "LAB1")
        time.sleep(20)
        start_collector(lab, d, db, "2")
        wait_all(machines, 480)
        for serial, (p, log) in machines.items():
            assert p.poll() == 0, "%s did not power off: %s" % (serial, "\n".join(console_tail(log)))
        text = console(machines["LAB1"][1])
        assert "records wait in memory and are retried" in text, "LAB1 never saw the collector down: %s" % text[-3000:]
        run_id, recs, _ = check_delivered("LAB1", text, db)
        assert down_at == 0 and len(recs) > 1, (down_at, len(recs))
        bad = console(machines["LAB2"][1])
        assert re.search(r"collector: http://%s:%d/ refused the token \(HTTP 401\): streaming stops" % (
            re.escape(SERVER), PORT), bad), bad[-2000:]
        assert bad.count("refused the token") == 1
        m = re.search(r"collector: (\d+) records not delivered \(0 sent to ", bad)
        assert m and int(m.group(1)) > 0, bad[-2000:]
        assert "efiperf: run ok" in bad, "the run did not go on after the 401"
        assert stored_count(db, "LAB2") == 0
    finally:
        lab.close()
    assert sh("ip", "netns", "list").stdout.find(lab.ns) < 0


@pytest.mark.aarch64
def test_fleet_aarch64_pxe_streams_to_the_collector(scratch):
    """One aarch64 machine (AAVMF, virtio-net) PXE-boots aarch64/efiperf.efi (DHCP client
    architecture 11) and streams its run to the collector on SQLite: whole, in order, once."""
    if os.geteuid() != 0 or not shutil.which("dnsmasq"):
        pytest.fail("needs root and dnsmasq (boot/deps.sh --check test installs dnsmasq-base)")
    d = scratch()
    root = os.path.join(d, "root")
    sh(NETBOOT_SH, "--root", root, "--server", SERVER, "--range", "198.18.0.100,198.18.0.150", "--interface", "br0",
       "--efi-x86_64", base_efi("x86_64"), "--efi-aarch64", base_efi("aarch64"))
    with open(os.path.join(root, "efiperf", "LABA.cfg"), "w") as f:
        f.write(COMMON + "collector = http://%s:%d/\ncollector_token = %s\ncopy_size = 2M\ncopy_passes = 1\n"
                % (SERVER, PORT, TOKEN))
    db = os.path.join(d, "fleet.sqlite")
    lab = Lab(d, ["tap0"])
    try:
        start_dnsmasq(lab, d, root)
        start_collector(lab, d, db, "1")
        vars_fd = os.path.join(d, "vars-LABA.fd")
        shutil.copyfile("/usr/share/AAVMF/AAVMF_VARS.fd", vars_fd)
        log = os.path.join(d, "console-LABA.log")
        p = lab.start(["qemu-system-aarch64", "-M", "virt", "-cpu", "max", "-smp", "2", "-m", "512", "-nographic",
                       "-no-reboot", "-drive", "if=pflash,format=raw,readonly=on,file=/usr/share/AAVMF/AAVMF_CODE.fd",
                       "-drive", "if=pflash,format=raw,file=%s" % vars_fd, "-smbios", "type=1,serial=LABA",
                       "-netdev", "tap,id=n0,ifname=tap0,script=no,downscript=no",
                       "-device", "virtio-net-pci,netdev=n0,romfile=,mac=52:54:00:18:02:01"], log)
        wait_all({"LABA": (p, log)}, 540)
        text = console(log)
        assert p.poll() == 0, "LABA did not power off: %s" % "\n".join(console_tail(log))
        assert "configuration from tftp://%s/efiperf/LABA.cfg" % SERVER in text, text[-2000:]
        _, recs, _ = check_delivered("LABA", text, db)
        assert recs[0][2]["arch"] == "aarch64"
    finally:
        lab.close()
    assert sh("ip", "netns", "list").stdout.find(lab.ns) < 0


@pytest.mark.x86_64
def test_fleet_stick_keeps_its_log_and_streams(scratch):
    """Two x86_64 machines boot efiperf from a stick (FAT image) on the lab network, with
    `collector` in the stick's config: their IPv4 driver has no address (a static policy with
    none), so efiperf sets its policy to DHCP for the run. LABS: every record of the stick's
    .jsonl log is in the database, equal, in the same order, once; the .txt log ends with
    "collector: 0 records not delivered". LABW has a wrong token: the 401 is in its .txt log and
    its .jsonl is whole (it ends with the end record)."""
    if os.geteuid() != 0 or not shutil.which("dnsmasq"):
        pytest.fail("needs root and dnsmasq (boot/deps.sh --check test installs dnsmasq-base)")
    d = scratch()
    root = lab_root(d, {})
    db = os.path.join(d, "fleet.sqlite")
    imgs = {}
    for serial, tok in (("LABS", TOKEN), ("LABW", "not-the-token")):
        sd = os.path.join(d, serial)
        os.makedirs(sd, exist_ok=True)
        imgs[serial] = make_image("x86_64", sd, cfg=COMMON + "collector = http://%s:%d/\ncollector_token = %s\n"
                                  "copy_size = 2M\ncopy_passes = 1\n" % (SERVER, PORT, tok))
    lab = Lab(d, ["tap0", "tap1"])
    try:
        start_dnsmasq(lab, d, root)
        start_collector(lab, d, db, "1")
        machines = {}
        for i, serial in enumerate(imgs):
            args = qemu_args(d, serial, "tap%d" % i, "52:54:00:18:03:%02x" % (i + 1))
            args[-1] += ",bootindex=9"
            args += ["-drive", "if=none,id=d0,format=raw,file=%s" % imgs[serial],
                     "-device", "virtio-blk-pci,drive=d0,bootindex=1"]
            log = os.path.join(d, "console-%s.log" % serial)
            machines[serial] = (lab.start(args, log), log)
        wait_all(machines, 540)
        logs = {}
        for serial, (p, log) in machines.items():
            assert p.poll() == 0, "%s did not power off: %s" % (serial, "\n".join(console_tail(log)))
            names = image_logs(imgs[serial])
            stem = [n for n in names if n.endswith(".jsonl")]
            assert len(stem) == 1, names
            jsonl = read_image_file(imgs[serial], "::/efiperf/logs/" + stem[0]).decode("utf-8")
            txt = read_image_file(imgs[serial], "::/efiperf/logs/" + stem[0][:-len(".jsonl")] + ".txt").decode("utf-8")
            logs[serial] = ([json.loads(line) for line in jsonl.splitlines() if line.strip()], txt.replace("\r", ""))
        recs, txt = logs["LABS"]
        run_id, got, _ = check_delivered("LABS", txt, db)
        assert [r for _, _, r in got] == recs, "the database differs from the stick's log"
        recs, txt = logs["LABW"]
        assert "refused the token (HTTP 401): streaming stops; the FAT log continues" in txt, txt[-2000:]
        assert recs[0]["type"] == "run" and recs[-1]["type"] == "end", [r["type"] for r in recs]
        m = re.search(r"collector: (\d+) records not delivered \(0 sent", txt)
        assert m and int(m.group(1)) == len(recs), (m and m.group(0), len(recs))
        assert stored_count(db, "LABW") == 0
    finally:
        lab.close()
    assert sh("ip", "netns", "list").stdout.find(lab.ns) < 0


def get(lab, path):
    """The collector's answer to GET path, fetched inside the namespace."""
    return lab.run_ns("/usr/bin/python3", "-c", "import urllib.request,sys; sys.stdout.write(urllib.request."
                      "urlopen('http://%s:%d%s', timeout=30).read().decode())" % (SERVER, PORT, path)).stdout


def row_of(page, run_id):
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*%s(?:(?!</tr>).)*</tr>" % re.escape(run_id), page, re.S)
    return row.group(0) if row else ""


# Runs first in <head>: keeps every error event (a script's, or an element's that failed to load,
# caught in the capture phase) and every console.error/warn call for the probe.
EARLY = """<script>window.__errs = [];
window.addEventListener("error", function (e) { __errs.push(e.message || ((e.target && e.target.tagName) + " failed to load")); }, true);
["error", "warn"].forEach(function (k) { var f = console[k]; console[k] = function () {
  __errs.push(k + ": " + Array.prototype.join.call(arguments, " ")); f.apply(console, arguments); }; });
</script>"""
# Runs after the load event: every <img> with its natural size, inline SVGs and canvases.
PROBE = """<script>window.addEventListener("load", function () {
  var out = {images: [], svg: document.querySelectorAll("svg").length, canvas: [], errors: window.__errs};
  for (var im of document.images) out.images.push({alt: im.alt, complete: im.complete, w: im.naturalWidth, h: im.naturalHeight});
  for (var c of document.querySelectorAll("canvas")) out.canvas.push([c.width, c.height]);
  out.rows = document.querySelectorAll("tr").length;
  var d = document.createElement("pre"); d.id = "efiperf-probe"; d.textContent = JSON.stringify(out); document.body.appendChild(d);
});</script></body>"""


def page_console(stderr):
    """The console lines chromium logged (--enable-logging=stderr) but those of its own chrome://
    pages (the headless shell's UI, e.g. its font fallback notice)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line and "source: chrome://" not in line]


def browse(lab, d, path, name):
    """Open the collector's page `path` in Debian's chromium, headless, inside the namespace: a copy
    of the served HTML with a probe (its <base> the collector, so links resolve there) for the DOM
    after the load event, then the live URL itself for a screenshot (build/qemu-fleet/NAME.png).
    Returns (served HTML, probe JSON, console lines chromium logged)."""
    from html import unescape
    sys.path.insert(0, os.path.join(REPO, "tests", "report"))
    from pagecheck import FLAGS, chromium, png_size
    page = get(lab, path)
    url = "http://%s:%d%s" % (SERVER, PORT, path)
    probe = os.path.join(d, "probe-%s.html" % name)
    with open(probe, "w", encoding="utf-8") as f:
        f.write(page.replace("<head>", '<head><base href="%s">%s' % (url, EARLY), 1).replace("</body>", PROBE, 1))
    base = ["ip", "netns", "exec", lab.ns, chromium()] + FLAGS + [
        "--user-data-dir=%s" % os.path.join(d, "chromium-profile"), "--enable-logging=stderr", "--v=0"]
    c = subprocess.run(base + ["--window-size=1280,2000", "--dump-dom", "file://" + probe],
                       capture_output=True, text=True, timeout=240)
    assert c.returncode == 0, c.stderr[-2000:]
    m = re.search(r'<pre id="efiperf-probe">(.*?)</pre>', c.stdout, re.S)
    assert m, "%s: no probe output in the DOM chromium dumped: %s" % (name, c.stdout[-500:])
    info = json.loads(unescape(m.group(1)))
    consoles = page_console(c.stderr)
    shots = os.path.join(REPO, "build", "qemu-fleet")
    os.makedirs(shots, exist_ok=True)
    shot = os.path.join(shots, name + ".png")
    if os.path.exists(shot):
        os.unlink(shot)
    c = subprocess.run(base + ["--window-size=1280,2400", "--screenshot=%s" % shot, url],
                       capture_output=True, text=True, timeout=240)
    assert c.returncode == 0 and os.path.exists(shot), c.stderr[-2000:]
    assert png_size(shot) == (1280, 2400)
    consoles += page_console(c.stderr)
    return page, info, consoles


def check_drawn(name, page, info, consoles):
    """Every <img> of the served HTML loaded with a non-zero natural size, every canvas has a size,
    and the page wrote nothing to the console and raised no error."""
    assert len(info["images"]) == len(re.findall(r"<img\b", page)), (name, len(info["images"]))
    bad = [i for i in info["images"] if not i["complete"] or i["w"] <= 0 or i["h"] <= 0]
    assert not bad, "%s: images not drawn: %s" % (name, bad)
    assert all(w > 0 and h > 0 for w, h in info["canvas"]), (name, info["canvas"])
    assert not info["errors"], "%s: errors in the page: %s" % (name, info["errors"])
    assert not consoles, "%s: console messages: %s" % (name, consoles)


@pytest.mark.x86_64
def test_fleet_killed_machine_is_incomplete_and_pages_load_in_chromium(scratch):
    """LAB1 runs to its end; LAB2 is killed (SIGKILL to its QEMU) once its first records are
    stored. The collector runs with --stale 15: LAB2's run is RUNNING right after the kill, and
    INCOMPLETE on the fleet page (not under runs in progress) and in the JSON API (the run, and
    the runs filtered by result) once 15 s passed with no record; LAB1's stays its verdict.
    Then the fleet page and both runs' HTML reports load in headless chromium with every image
    drawn and no console message or error (screenshots under build/qemu-fleet/)."""
    if os.geteuid() != 0 or not shutil.which("dnsmasq"):
        pytest.fail("needs root and dnsmasq (boot/deps.sh --check test installs dnsmasq-base)")
    d = scratch()
    url = "collector = http://%s:%d/\ncollector_token = %s\n" % (SERVER, PORT, TOKEN)
    lat = COMMON.replace("latency = off", "latency = on\nlatency_max = %s")   # a latency plot in the report
    root = lab_root(d, {"LAB1": lat % "1M" + url + "copy_size = 2M\ncopy_passes = 1\n",
                        "LAB2": lat % "64M" + url + "copy_size = 16M\ncopy_passes = 40\n"})
    db = os.path.join(d, "fleet.sqlite")
    stale = 15
    lab = Lab(d, ["tap0", "tap1"])
    try:
        start_dnsmasq(lab, d, root)
        start_collector(lab, d, db, "1", ["--stale", str(stale)])
        machines = boot_machines(lab, d, ["LAB1", "LAB2"])
        victim, vlog = machines["LAB2"]
        deadline = time.time() + 300
        while time.time() < deadline and stored_count(db, "LAB2") < 3:
            assert victim.poll() is None, "LAB2 ended before it was killed: %s" % console(vlog)[-2000:]
            time.sleep(0.2)
        assert stored_count(db, "LAB2") >= 3, console(vlog)[-2000:]
        victim.kill()   # SIGKILL: no end record, no goodbye
        victim.wait()
        killed_at = time.time()
        m = re.search(r"collector: records go to http://%s:%d/ as run (\S+) " % (re.escape(SERVER), PORT), console(vlog))
        assert m, console(vlog)[-2000:]
        lost = m.group(1)
        run = json.loads(get(lab, "/api/v1/runs/" + lost))
        assert time.time() - killed_at < stale - 5, "too slow to see the run before its timeout"
        assert run["state"] == "RUNNING" and not run["ended"], run
        wait_all({"LAB1": machines["LAB1"]}, 480)
        p, log = machines["LAB1"]
        assert p.poll() == 0, "LAB1 did not power off: %s" % "\n".join(console_tail(log))
        text = console(log)
        done, _, _ = check_delivered("LAB1", text, db)
        verdict = re.search(r"EFIPERF RESULT: (\w+) serial=LAB1", text).group(1)
        time.sleep(max(0.0, killed_at + stale + 2 - time.time()))
        recs, row = stored(db, lost)
        assert row == ("LAB2", 0, None) and "end" not in [t for _, t, _ in recs] and len(recs) >= 3, (row, len(recs))
        run = json.loads(get(lab, "/api/v1/runs/" + lost))
        assert run["state"] == "INCOMPLETE" and run["next_seq"] == len(recs), run
        listed = json.loads(get(lab, "/api/v1/runs?result=INCOMPLETE"))
        assert [r["run_id"] for r in listed] == [lost], listed
        assert json.loads(get(lab, "/api/v1/runs/" + done))["state"] == verdict
        page = get(lab, "/")
        assert 'class="INCOMPLETE">INCOMPLETE<' in row_of(page, lost) and "LAB2" in row_of(page, lost), page[:3000]
        assert verdict in row_of(page, done)
        running = page[page.index('<ul id="running">'):]
        assert lost not in running[:running.index("</ul>")], "the killed run is still listed in progress"

        for name, path in (("fleet", "/"), ("LAB1-report", "/runs/" + done), ("LAB2-report", "/runs/" + lost)):
            page, info, consoles = browse(lab, d, path, name)
            check_drawn(name, page, info, consoles)
            if name == "LAB1-report":
                assert info["images"], "LAB1's report has no plot"
    finally:
        lab.close()
    assert sh("ip", "netns", "list").stdout.find(lab.ns) < 0
