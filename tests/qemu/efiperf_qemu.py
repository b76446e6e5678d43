# SPDX-License-Identifier: BSD-2-Clause
"""Helpers of the QEMU integration tests (tests/qemu/conftest.py turns them into fixtures).

A test copies build/<arch>/efiperf.img (built by `make image [ARCH=aarch64]`) to a scratch
image under build/qemu-tests/<test>/, edits the image's \\efiperf\\efiperf.cfg with mtools where
it needs to, boots it with `boot/qemu.sh --quiet` and parses the JSONL log strictly with
parse_jsonl() (every line one JSON object, no duplicate keys, no NaN; first record "run", last
"end").

Expected CPU identities come from QEMU itself (QMP query-cpu-model-expansion under TCG), never
from tables written here. Tests that only look at platform discovery, config handling or
logging shrink copy_size to 4M (the default 64M copy costs ~6 s of emulated time on x86 TCG).
"""
import fcntl
import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "boot"))
from report import logs as report_logs  # noqa: E402  the log schema (boot/report/schema/v<N>.json)
QEMU_SH = os.path.join(REPO, "boot", "qemu.sh")
MKIMAGE_SH = os.path.join(REPO, "boot", "mkimage.sh")
CFG_PATH = "\\efiperf\\efiperf.cfg"
BOOTNAME = {"x86_64": "BOOTX64.EFI", "aarch64": "BOOTAA64.EFI"}
ARCHES = ("x86_64", "aarch64")
DEFAULT_X86_CPU = "Icelake-Server"
SMALL = {"copy_size": "4M"}  # for tests that do not look at the measurement


class Settings:
    """Set once per pytest process by conftest.py from the command line."""
    work = os.path.join(REPO, "build", "qemu-tests")   # scratch images and logs, one folder a test
    boot_timeout = 900     # qemu.sh --timeout: a backstop only; pytest-timeout ends a hung test first
    verbose = False


def sh(cmd, **kw):
    """Run a command, return CompletedProcess (text); never raises on exit status."""
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---- strict JSONL ---------------------------------------------------------------------------
def parse_jsonl(data, name):
    """bytes -> list of records. Fails the test on anything that is not strict JSONL."""
    try:
        text = data.decode("utf-8", errors="strict")   # every record is UTF-8: one bad byte fails the test
    except UnicodeDecodeError as e:
        pytest.fail("%s: not UTF-8: %s" % (name, e))
    assert text.endswith("\n"), "%s: does not end with a newline (cut short?)" % name
    records = []
    for i, line in enumerate(text[:-1].split("\n"), 1):
        try:
            r = json.loads(line, object_pairs_hook=report_logs.no_duplicate_keys,
                           parse_constant=report_logs.no_constants)
        except ValueError as e:
            pytest.fail("%s:%d: invalid JSON (%s): %.120r" % (name, i, e, line))
        assert isinstance(r, dict) and isinstance(r.get("type"), str), "%s:%d: not an object with a string \"type\"" % (name, i)
        records.append(r)
    assert records, "%s: empty" % name
    assert records[0]["type"] == "run", "%s: first record is %r, not run" % (name, records[0]["type"])
    assert records[-1]["type"] == "end", "%s: last record is %r, not end" % (name, records[-1]["type"])
    assert records[0].get("schema") == 1, "%s: run.schema is %r, not 1" % (name, records[0].get("schema"))
    try:   # every record against its type's JSON Schema: code and schema cannot drift
        report_logs.validate(records, name)
    except report_logs.InvalidLog as e:
        pytest.fail("log does not match its schema: %s" % e, pytrace=False)
    return records


# ---- images ---------------------------------------------------------------------------------
def base_image(arch):
    return os.path.join(REPO, "build", arch, "efiperf.img")


def base_efi(arch):
    return os.path.join(REPO, "build", arch, "efiperf.efi")


BASE_CFG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "base.cfg")


@functools.lru_cache(maxsize=None)
def _base_cfg(arch):
    # not the image's boot/efiperf.cfg: that one runs the main job (test_run.py boots it)
    with open(BASE_CFG, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return tuple(lines)


def base_cfg(arch):
    """The tests' base configuration (tests/qemu/base.cfg), as lines."""
    return list(_base_cfg(arch))


KEY_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=")


def cfg_text(arch, set_keys=None, drop_keys=(), insert=None):
    """The image's config with keys replaced in place (or appended), keys dropped, and raw lines
    inserted so that they land on the given 1-based line numbers (applied in ascending order)."""
    lines = base_cfg(arch)
    set_keys = dict(set_keys or {})
    out = []
    for ln in lines:
        m = KEY_RE.match(ln)
        if m and m.group(1) in drop_keys:
            continue
        if m and m.group(1) in set_keys:
            out.append("%s = %s" % (m.group(1), set_keys.pop(m.group(1))))
            continue
        out.append(ln)
    for k, v in set_keys.items():
        out.append("%s = %s" % (k, v))
    for lineno, raw in sorted((insert or {}).items()):
        assert 1 <= lineno <= len(out) + 1, "cannot insert at line %d" % lineno
        out.insert(lineno - 1, raw)
    text = "\n".join(out) + "\n"
    assert re.search(r"^exit\s*=\s*shutdown\s*$", text, re.M), "test config lost exit = shutdown"
    return text


def test_dir(name):
    d = os.path.join(Settings.work, re.sub(r"[^A-Za-z0-9_.-]+", "_", name))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def make_image(arch, d, cfg=None, shell_args=None):
    """A scratch image in d: a copy of the built image with cfg (default: the tests' base
    configuration, tests/qemu/base.cfg; text, or bytes written as they are) as its
    \\efiperf\\efiperf.cfg, or in shell mode a fresh image from boot/mkimage.sh whose startup.nsh
    passes shell_args."""
    img = os.path.join(d, "efiperf.img")
    cfgf = os.path.join(d, "efiperf.cfg")
    with open(cfgf, "wb") as f:
        text = cfg if cfg is not None else "\n".join(base_cfg(arch)) + "\n"
        f.write(text if isinstance(text, bytes) else text.encode("utf-8"))
    if shell_args is None:
        with base_image_lock():
            shutil.copyfile(base_image(arch), img)
        p = sh(["mcopy", "-o", "-i", img, cfgf, "::/efiperf/efiperf.cfg"])
        assert p.returncode == 0, "mcopy config into image: %s" % p.stderr.strip()
    else:
        with base_image_lock():
            p = sh([MKIMAGE_SH, img, base_efi(arch), BOOTNAME[arch], cfgf, shell_args])
        assert p.returncode == 0, "mkimage.sh (shell mode) failed: %s" % (p.stderr or p.stdout).strip()
    return img


def acpi_install_image(d, cfg, tables):
    """An aarch64 shell-mode image whose startup.nsh runs \\acpi_install.efi (tests/efi/acpi_install.c:
    installs the tables, QEMU virt refusing -acpitable) and then efiperf. tables: [(host file,
    name on the volume, e.g. "ssdt.aml")]. Returns the image's path."""
    img = make_image("aarch64", d, cfg, shell_args="")
    nsh = os.path.join(d, "startup.nsh")
    with open(nsh, "w", newline="\r\n") as f:
        f.write("@echo -off\nfor %v in fs0 fs1 fs2 fs3 fs4 fs5 fs6 fs7 fs8 fs9\n"
                "  if exist %v:\\efiperf\\efiperf.efi then\n    %v:\n    \\acpi_install.efi\n"
                "    \\efiperf\\efiperf.efi\n    goto done\n  endif\nendfor\n:done\n")
    installer = os.path.join(REPO, "build", "aarch64", "acpi_install.efi")
    assert os.path.exists(installer), "%s missing: make image ARCH=aarch64 builds it" % installer
    for src, name in [(nsh, "startup.nsh"), (installer, "acpi_install.efi")] + list(tables):
        p = sh(["mcopy", "-o", "-i", img, src, "::/" + name])
        assert p.returncode == 0, "mcopy %s: %s" % (name, p.stderr)
    return img


def image_logs(img):
    """Names of the files in \\efiperf\\logs of an image."""
    p = sh(["mdir", "-b", "-i", img, "::/efiperf/logs"])
    if p.returncode != 0:
        return []
    return sorted(os.path.basename(x.strip().rstrip("/")) for x in p.stdout.splitlines()
                  if x.strip() and not x.strip().endswith(("/.", "/..")))


def read_image_file(img, path):
    p = subprocess.run(["mtype", "-i", img, path], capture_output=True)
    assert p.returncode == 0, "cannot read %s from %s" % (path, img)
    return p.stdout


# ---- boots ----------------------------------------------------------------------------------
class Run:
    """One boot: qemu.sh's exit status, the logs it copied out, the parsed records."""

    def __init__(self, arch, img, logs, proc, wall):
        self.arch, self.img, self.logs_dir, self.rc, self.wall = arch, img, logs, proc.returncode, wall
        self.out = proc.stdout + proc.stderr
        self.paths = [l[5:].strip() for l in proc.stdout.splitlines() if l.startswith("log: ")]
        m = re.search(r"^qemu: \S+ \S+ wall ([0-9.]+)s exit (\d+)$", proc.stdout, re.M)
        self.qemu_wall = float(m.group(1)) if m else None
        self.qemu_exit = int(m.group(2)) if m else None
        m = re.search(r"^console: (.*)$", proc.stdout, re.M)
        self.console = m.group(1).strip() if m else None
        jl = [p for p in self.paths if p.endswith(".jsonl")]
        tx = [p for p in self.paths if p.endswith(".txt")]
        self.jsonl = jl[0] if len(jl) == 1 else None
        self.txt = tx[0] if len(tx) == 1 else None
        self.jsonl_count = len(jl)
        self._records = None

    def why(self):
        tail = "\n".join(self.out.strip().splitlines()[-6:])
        con = ""
        if self.console and os.path.exists(self.console):
            with open(self.console, "rb") as f:
                con = f.read()[-400:].decode("utf-8", "replace")
            con = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", con).strip().replace("\r", "")
        return "qemu.sh exit %s; %s%s" % (self.rc, tail.replace("\n", " | "),
                                           ("; console tail: " + con[-200:].replace("\n", " | ")) if con else "")

    @property
    def records(self):
        if self._records is None:
            assert self.jsonl_count == 1, "expected exactly one new .jsonl log, got %d (%s)" % (self.jsonl_count, self.why())
            assert self.txt is not None, "no .txt log beside the .jsonl (%s)" % self.why()
            with open(self.jsonl, "rb") as f:
                self._records = parse_jsonl(f.read(), os.path.basename(self.jsonl))
        return self._records

    def of(self, rtype):
        return [r for r in self.records if r["type"] == rtype]

    def one(self, rtype):
        rs = self.of(rtype)
        assert len(rs) == 1, "expected one %s record, found %d" % (rtype, len(rs))
        return rs[0]

    def text(self):
        with open(self.txt, encoding="utf-8", errors="replace") as f:
            return f.read()

    def expect_ok(self):
        assert self.rc == 0, "qemu.sh exit %d, expected 0 (%s)" % (self.rc, self.why())
        end = self.records[-1]
        assert end.get("status") == "ok", "end status %r: errors %s" % (end.get("status"), self.of("error"))
        assert self.qemu_exit == 0, "QEMU exit %r: the machine did not power off cleanly" % self.qemu_exit


# ---- boots ----------------------------------------------------------------------------------
class Flock:
    """flock(2) on a file of the work folder, shared by every pytest worker and by the pytest of
    a self-test only when it uses the same folder."""

    def __init__(self, name, exclusive):
        self.name, self.exclusive = name, exclusive

    def __enter__(self):
        self.fd = os.open(os.path.join(Settings.work, self.name), os.O_CREAT | os.O_RDWR, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX if self.exclusive else fcntl.LOCK_SH)

    def __exit__(self, *exc):
        os.close(self.fd)


def qemu_slot(exclusive=False):
    """The QEMU boots of every worker share the machine's cores: a timing boot holds this alone
    (no second QEMU competes with it), every other boot holds it shared."""
    return Flock(".qemu-slots.lock", exclusive)


def startup_twice(img, d, first_args):
    """Replace img's \\startup.nsh (shell mode) by one that runs \\efiperf\\efiperf.efi twice in
    one boot: first with first_args, then with none."""
    nsh = os.path.join(d, "startup.nsh")
    with open(nsh, "w", newline="") as f:
        f.write("\r\n".join(["@echo -off", "for %v in fs0 fs1 fs2 fs3 fs4 fs5 fs6 fs7 fs8 fs9",
                             "  if exist %v:\\efiperf\\efiperf.efi then", "    %v:",
                             "    \\efiperf\\efiperf.efi " + first_args, "    \\efiperf\\efiperf.efi",
                             "    goto done", "  endif", "endfor", ":done", ""]))
    p = sh(["mcopy", "-o", "-i", img, nsh, "::/startup.nsh"])
    assert p.returncode == 0, p.stderr


def two_runs(run, first_args="exit=return"):
    """The records of both runs of a startup_twice() boot, the one given first_args first (both
    cmdlines hold the program path; the log names order the runs only when they started in
    different seconds)."""
    logs = sorted(x for x in run.paths if x.endswith(".jsonl"))
    assert len(logs) == 2, "expected two runs' logs, got %s (%s)" % (logs, run.why())
    runs = []
    for path in logs:
        with open(path, "rb") as f:
            runs.append(parse_jsonl(f.read(), os.path.basename(path)))
    runs.sort(key=lambda recs: first_args not in (recs[0].get("cmdline") or ""))
    return runs


def base_image_lock(exclusive=False):
    """Held shared while build/<arch>/efiperf.img is read or copied, alone while it is built or
    booted in place (`make run` writes its logs into it)."""
    return Flock(".base-image.lock", exclusive)


def _session_pids(sid):
    """Processes of session sid: qemu.sh, its `timeout` (which leaves qemu.sh's process group)
    and QEMU."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid:
            pids.append(int(name))
    return pids


def kill_session(p):
    """SIGKILL every process of the session Popen p leads (qemu.sh, timeout, QEMU) and reap p: a
    machine that loses power."""
    for pid in _session_pids(p.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.communicate()


def console_tail(path, lines=25):
    """The last non-blank lines of a console capture: terminal escapes and control characters
    removed, the firmware's screen-painting runs of spaces shortened."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - 65536))
        text = f.read().decode("utf-8", "replace")
    text = re.sub(r"\x1b\[[0-9;=?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|[\x00-\x09\x0b-\x1f\x7f]", "", text)
    out = [re.sub(r" {3,}", "  ", l).strip() for l in text.splitlines()]
    return [l[:300] for l in out if l][-lines:]


def _qemu_sh(cmd, logs):
    """qemu.sh in a session of its own. When the test is ended while it runs (pytest-timeout's
    failure, ^C), every process of that session is killed and a timeout says which boot hung
    and what its console showed last."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    ended = None
    try:
        out, err = p.communicate()
    except BaseException as e:
        kill_session(p)
        if not isinstance(e, pytest.fail.Exception):
            raise
        ended = e.msg
    if ended is not None:   # outside the except: the report shows this failure alone
        cons = sorted(f for f in os.listdir(logs) if f.startswith("console-")) if os.path.isdir(logs) else []
        tail = console_tail(os.path.join(logs, cons[-1])) if cons else ["(no console capture)"]
        pytest.fail("%s in %s: the boot `%s` never powered off (QEMU killed). Console tail (%s):\n%s" % (
            ended, os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" ", 1)[0], " ".join(cmd[1:]),
            os.path.join(logs, cons[-1]) if cons else logs, "\n".join(tail)), pytrace=False)
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def boot(arch, img, d, cpu=None, exclusive=False, tag="logs", readonly=False, smp=None, extra=None,
         secure_boot=False):
    """Boot img with boot/qemu.sh --quiet; its logs go to d/tag. exclusive: no other QEMU runs
    meanwhile (boots whose wall time is a figure)."""
    logs = os.path.join(d, tag)
    cmd = [QEMU_SH, "--arch", arch, "--image", img, "--logs", logs, "--quiet", "--timeout", str(Settings.boot_timeout)]
    if readonly:
        cmd += ["--readonly"]
    if secure_boot:
        cmd += ["--secure-boot"]
    if smp:
        cmd += ["--smp", str(smp)]
    if cpu:
        cmd += ["--cpu", cpu]
    if extra:
        cmd += ["--"] + list(extra)
    with qemu_slot(exclusive):
        t0 = time.monotonic()
        proc = _qemu_sh(cmd, logs)
        wall = time.monotonic() - t0
    # captured by pytest: shown with a failure's report
    print("boot %s %s (%.1fs): %s" % (arch, img, wall, proc.stdout.strip().replace("\n", " | ")))
    return Run(arch, img, logs, proc, wall)


# ---- the QEMU oracle for CPU identities -----------------------------------------------------
@functools.lru_cache(maxsize=None)
def qmp_cpu_identity(model):
    """family/model/stepping/vendor of a QEMU x86 CPU model, from query-cpu-model-expansion.
    model may carry properties as on the command line: "Icelake-Server,model=106"."""
    last = None
    name, _, rest = model.partition(",")
    props_in = {}
    for kv in filter(None, rest.split(",")):
        k, _, v = kv.partition("=")
        props_in[k] = int(v, 0) if v.lstrip("-").isdigit() or v.startswith("0x") else v
    spec = {"name": name, "props": props_in} if props_in else {"name": name}
    for etype in ("full", "static"):
        cmds = [{"execute": "qmp_capabilities"},
                {"execute": "query-cpu-model-expansion", "arguments": {"type": etype, "model": spec}},
                {"execute": "quit"}]
        p = subprocess.run(["qemu-system-x86_64", "-machine", "none", "-nodefaults", "-nographic",
                            "-accel", "tcg", "-qmp", "stdio"],
                           input="\n".join(json.dumps(c) for c in cmds) + "\n",
                           capture_output=True, text=True, timeout=60)
        for line in p.stdout.splitlines():
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg.get("return"), dict) and "model" in msg["return"]:
                props = msg["return"]["model"].get("props", {})
                if all(k in props for k in ("family", "model", "stepping", "vendor")):
                    return {k: props[k] for k in ("family", "model", "stepping", "vendor")}, etype
            if "error" in msg:
                last = msg["error"]
    pytest.fail("QMP query-cpu-model-expansion gave no identity for %s: %s" % (model, last))


def decode_signature(sig, vendor):
    """Display family/model/stepping from CPUID.1:EAX (Intel SDM Vol.2A CPUID; AMD APM Vol.3
    E.3.2): family = base + extended when base is 0xF; model gains the extended model when the
    base family is 0xF, or (Intel only) 6."""
    base_family, base_model = (sig >> 8) & 0xF, (sig >> 4) & 0xF
    ext_family, ext_model = (sig >> 20) & 0xFF, (sig >> 16) & 0xF
    family = base_family + ext_family if base_family == 0xF else base_family
    use_ext = base_family == 0xF or (base_family == 6 and vendor == "GenuineIntel")
    model = (ext_model << 4) + base_model if use_ext else base_model
    return family, model, sig & 0xF


# ---- checks shared by tests -----------------------------------------------------------------
def check_measurement(run):
    cfg = run.records[0]["config"]
    m = run.one("measurement")
    passes = m.get("passes")
    assert isinstance(passes, list) and passes, "measurement has no passes"
    assert len(passes) == cfg["copy_passes"], "%d passes, config copy_passes %d" % (len(passes), cfg["copy_passes"])
    assert m.get("verified") is True, "copy not verified: %r" % m.get("verified")
    states = {}
    for p in passes:
        assert isinstance(p.get("ns"), int) and p["ns"] > 0, "pass %s: ns %r not > 0" % (p.get("pass"), p.get("ns"))
        assert isinstance(p.get("gbps"), (int, float)) and p["gbps"] > 0, "pass %s: gbps %r not > 0" % (p.get("pass"), p.get("gbps"))
        for c in p.get("counters", []):
            ev, st = c.get("event"), c.get("state")
            states.setdefault(st, set()).add(ev)
            if st == "counted":
                assert isinstance(c.get("delta"), int) and c["delta"] > 0, "pass %s %s: counted with delta %r (a zero count must be not-advancing)" % (p["pass"], ev, c.get("delta"))
                if c.get("after", 0) >= c.get("before", 0):
                    assert c["after"] - c["before"] == c["delta"], "pass %s %s: delta %d != after - before" % (p["pass"], ev, c["delta"])
            else:
                assert st in ("absent", "not-advancing", "faulted"), "pass %s %s: unknown state %r" % (p["pass"], ev, st)
                assert "delta" not in c, "pass %s %s: state %s but carries delta %r" % (p["pass"], ev, st, c.get("delta"))
                if st in ("absent", "faulted"):
                    assert isinstance(c.get("why"), str) and c["why"], "pass %s %s: %s without a why" % (p["pass"], ev, st)
    loop = run.one("loop")
    if loop.get("valid") is not True:
        assert isinstance(loop.get("why"), str) and loop["why"], "loop not valid and no why: %r" % loop
    return m, states


def console_text(run):
    assert run.console and os.path.exists(run.console), "no console capture (%s)" % run.why()
    with open(run.console, "rb") as f:
        con = f.read().decode("utf-8", "replace")
    return re.sub(r"\x1b\[[0-9;=]*[A-Za-z]", "", con).replace("\r", "")


def console_only_checks(run, why_words):
    """The run could not log: it said so on the console, carried on and powered off."""
    con = console_text(run)
    assert run.qemu_exit == 0, "QEMU exit %r: no power-off (%s)" % (run.qemu_exit, run.why())
    assert "continuing on the console only" in con, "console never says it continues console-only (%s)" % run.why()
    assert any(w in con for w in why_words), ("console does not name the cause (%s): %s" % (
        " or ".join(why_words), [l for l in con.splitlines() if l.startswith("log:")]))
    assert "measure:" in con and "efiperf: run ok; log (console only)" in con, "the run did not carry on to its end console-only (%s)" % run.why()
    return [l for l in con.splitlines() if l.startswith("log:")]


def known_loop_constants():
    path = os.path.join(REPO, "arch", "aarch64", "known_loop.h")
    with open(path) as f:
        text = f.read()
    per = re.search(r"#define\s+ARM_KNOWN_LOOP_INSNS_PER_ITER\s+(\d+)", text)
    fixed = re.search(r"#define\s+ARM_KNOWN_LOOP_INSNS_FIXED\s+(\d+)", text)
    assert per and fixed, "%s does not define ARM_KNOWN_LOOP_INSNS_PER_ITER/FIXED" % path
    return int(per.group(1)), int(fixed.group(1))
