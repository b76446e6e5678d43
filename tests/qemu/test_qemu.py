#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""QEMU integration tests of efiperf: boot real images under OVMF/AAVMF, read the logs back.

    tests/qemu/test_qemu.py [--arch x86_64|aarch64|all] [-k SUBSTRING]... [--jobs N]
                            [--no-build] [--keep] [--timeout SEC] [-v]

Each test copies build/<arch>/efiperf.img (built by `make image [ARCH=aarch64]`, which this
script runs first unless --no-build) to a scratch image under build/qemu-tests/, edits the
image's \\efiperf\\efiperf.cfg with mtools where it needs to, boots it with
`boot/qemu.sh --quiet` and parses the JSONL log strictly (every line one JSON object, no
duplicate keys, no NaN; first record "run", last "end"). Boots that several tests only read
(e.g. the default image under one CPU model) are made once and shared.

Expected CPU identities come from QEMU itself (QMP query-cpu-model-expansion under TCG), never
from tables written here. The aarch64 loop constant comes from arch/aarch64/known_loop.h.

Tests that only look at platform discovery, config handling or logging shrink copy_size to 4M
(the default 64M copy costs ~6 s of emulated time on x86 TCG); the measurement and boot-time
figures use the image exactly as `make image` builds it.

Output: one line per test, `PASS name (N.Ns)` or `FAIL name: reason`, then figures, then
exactly `qemu: N passed, N failed`. Exit status 1 when any test failed.
Python standard library only (Debian's /usr/bin/python3).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QEMU_SH = os.path.join(REPO, "boot", "qemu.sh")
MKIMAGE_SH = os.path.join(REPO, "boot", "mkimage.sh")
WORK = os.path.join(REPO, "build", "qemu-tests")
CFG_PATH = "\\efiperf\\efiperf.cfg"
BOOTNAME = {"x86_64": "BOOTX64.EFI", "aarch64": "BOOTAA64.EFI"}
X86_MODELS = ["Skylake-Server", "Icelake-Server", "EPYC-Rome", "qemu64"]
DEFAULT_X86_CPU = "Icelake-Server"
SMALL = {"copy_size": "4M"}  # for tests that do not look at the measurement


class TestFailure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def sh(cmd, **kw):
    """Run a command, return CompletedProcess (text); never raises on exit status."""
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---- QEMU slots: at most --jobs QEMUs at once; timing boots take every slot -----------------
class Slots:
    def __init__(self, n):
        self.n, self.free, self.cv = n, n, threading.Condition()
        self.exclusive_waiting = 0

    def acquire(self, k):
        """k slots; a request for all of them goes first (the others wait until it got them)."""
        k = min(k, self.n)
        with self.cv:
            if k == self.n:
                self.exclusive_waiting += 1
                self.cv.wait_for(lambda: self.free >= k)
                self.exclusive_waiting -= 1
            else:
                self.cv.wait_for(lambda: self.free >= k and not self.exclusive_waiting)
            self.free -= k
        return k

    def release(self, k):
        with self.cv:
            self.free += k
            self.cv.notify_all()


SLOTS = Slots(2)
OPTS = None  # argparse namespace, set in main()


# ---- strict JSONL ---------------------------------------------------------------------------
def _no_dup_pairs(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError("duplicate key %r" % k)
        d[k] = v
    return d


def _no_constant(name):
    raise ValueError("non-JSON constant %s" % name)


def parse_jsonl(data, name):
    """bytes -> list of records. Raises TestFailure on anything that is not strict JSONL."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TestFailure("%s: not UTF-8: %s" % (name, e))
    check(text.endswith("\n"), "%s: does not end with a newline (cut short?)" % name)
    records = []
    for i, line in enumerate(text[:-1].split("\n"), 1):
        try:
            r = json.loads(line, object_pairs_hook=_no_dup_pairs, parse_constant=_no_constant)
        except ValueError as e:
            raise TestFailure("%s:%d: invalid JSON (%s): %.120r" % (name, i, e, line))
        check(isinstance(r, dict) and isinstance(r.get("type"), str),
              "%s:%d: not an object with a string \"type\"" % (name, i))
        records.append(r)
    check(records, "%s: empty" % name)
    check(records[0]["type"] == "run", "%s: first record is %r, not run" % (name, records[0]["type"]))
    check(records[-1]["type"] == "end", "%s: last record is %r, not end" % (name, records[-1]["type"]))
    check(records[0].get("schema") == 1, "%s: run.schema is %r, not 1" % (name, records[0].get("schema")))
    return records


# ---- images ---------------------------------------------------------------------------------
def base_image(arch):
    return os.path.join(REPO, "build", arch, "efiperf.img")


def base_efi(arch):
    return os.path.join(REPO, "build", arch, "efiperf.efi")


_base_cfg = {}
_base_cfg_lock = threading.Lock()


def base_cfg(arch):
    """The \\efiperf\\efiperf.cfg inside the built image, as lines."""
    with _base_cfg_lock:
        if arch not in _base_cfg:
            p = sh(["mtype", "-i", base_image(arch), "::/efiperf/efiperf.cfg"])
            check(p.returncode == 0, "cannot read efiperf.cfg from %s: %s" % (base_image(arch), p.stderr.strip()))
            _base_cfg[arch] = p.stdout.replace("\r\n", "\n").split("\n")
            if _base_cfg[arch] and _base_cfg[arch][-1] == "":
                _base_cfg[arch].pop()
        return list(_base_cfg[arch])


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
        check(1 <= lineno <= len(out) + 1, "cannot insert at line %d" % lineno)
        out.insert(lineno - 1, raw)
    text = "\n".join(out) + "\n"
    check(re.search(r"^exit\s*=\s*shutdown\s*$", text, re.M), "test config lost exit = shutdown")
    return text


def test_dir(name):
    d = os.path.join(WORK, re.sub(r"[^A-Za-z0-9_.-]+", "_", name))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def make_image(arch, d, cfg=None, shell_args=None):
    """A scratch image in d: a copy of the built image (config replaced when cfg is given), or in
    shell mode a fresh image from boot/mkimage.sh whose startup.nsh passes shell_args."""
    img = os.path.join(d, "efiperf.img")
    if cfg is not None or shell_args is not None:
        cfgf = os.path.join(d, "efiperf.cfg")
        with open(cfgf, "w") as f:
            f.write(cfg if cfg is not None else "\n".join(base_cfg(arch)) + "\n")
    if shell_args is None:
        shutil.copyfile(base_image(arch), img)
        if cfg is not None:
            p = sh(["mcopy", "-o", "-i", img, cfgf, "::/efiperf/efiperf.cfg"])
            check(p.returncode == 0, "mcopy config into image: %s" % p.stderr.strip())
    else:
        p = sh([MKIMAGE_SH, img, base_efi(arch), BOOTNAME[arch], cfgf, shell_args])
        check(p.returncode == 0, "mkimage.sh (shell mode) failed: %s" % (p.stderr or p.stdout).strip())
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
    check(p.returncode == 0, "cannot read %s from %s" % (path, img))
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
            check(self.jsonl_count == 1, "expected exactly one new .jsonl log, got %d (%s)" % (self.jsonl_count, self.why()))
            check(self.txt is not None, "no .txt log beside the .jsonl (%s)" % self.why())
            with open(self.jsonl, "rb") as f:
                self._records = parse_jsonl(f.read(), os.path.basename(self.jsonl))
        return self._records

    def of(self, rtype):
        return [r for r in self.records if r["type"] == rtype]

    def one(self, rtype):
        rs = self.of(rtype)
        check(len(rs) == 1, "expected one %s record, found %d" % (rtype, len(rs)))
        return rs[0]

    def text(self):
        with open(self.txt, encoding="utf-8", errors="replace") as f:
            return f.read()

    def expect_ok(self):
        check(self.rc == 0, "qemu.sh exit %d, expected 0 (%s)" % (self.rc, self.why()))
        end = self.records[-1]
        check(end.get("status") == "ok", "end status %r: errors %s" % (end.get("status"), self.of("error")))
        check(self.qemu_exit == 0, "QEMU exit %r: the machine did not power off cleanly" % self.qemu_exit)


def boot(arch, img, d, cpu=None, exclusive=False, tag="logs", readonly=False, smp=None, extra=None):
    logs = os.path.join(d, tag)
    cmd = [QEMU_SH, "--arch", arch, "--image", img, "--logs", logs, "--quiet", "--timeout", str(OPTS.timeout)]
    if readonly:
        cmd += ["--readonly"]
    if smp:
        cmd += ["--smp", str(smp)]
    if cpu:
        cmd += ["--cpu", cpu]
    if extra:
        cmd += ["--"] + list(extra)
    k = SLOTS.acquire(SLOTS.n if exclusive else 1)
    try:
        t0 = time.monotonic()
        proc = sh(cmd)
        wall = time.monotonic() - t0
    finally:
        SLOTS.release(k)
    if OPTS.verbose:
        sys.stderr.write("boot %s %s (%.1fs): %s\n" % (arch, img, wall, proc.stdout.strip().replace("\n", " | ")))
    return Run(arch, img, logs, proc, wall)


_shared, _shared_lock = {}, threading.Lock()


def shared(key, fn):
    """fn() once per key, whichever test asks first; the others wait for its result."""
    with _shared_lock:
        ent = _shared.get(key)
        if ent is None:
            ent = _shared[key] = {"lock": threading.Lock(), "done": False}
    with ent["lock"]:
        if not ent["done"]:
            try:
                ent["value"] = fn()
            except BaseException as e:  # every waiter sees the same failure
                ent["error"] = e
            ent["done"] = True
    if "error" in ent:
        raise ent["error"]
    return ent["value"]


def default_boot(arch):
    """The image exactly as `make image` builds it (x86_64 under Icelake-Server). Exclusive: its
    wall time is the boot-to-log figure, measured without a second QEMU competing for the CPUs."""
    def go():
        d = test_dir("%s.default" % arch)
        return boot(arch, make_image(arch, d), d, cpu=DEFAULT_X86_CPU if arch == "x86_64" else None, exclusive=True)
    return shared(("default", arch), go)


def model_boot(model):
    if model == DEFAULT_X86_CPU:
        return default_boot("x86_64")

    def go():
        d = test_dir("x86_64.model.%s" % model)
        return boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", SMALL)), d, cpu=model)
    return shared(("model", model), go)


# ---- the QEMU oracle for CPU identities -----------------------------------------------------
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
    raise TestFailure("QMP query-cpu-model-expansion gave no identity for %s: %s" % (model, last))


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
    check(isinstance(passes, list) and passes, "measurement has no passes")
    check(len(passes) == cfg["copy_passes"], "%d passes, config copy_passes %d" % (len(passes), cfg["copy_passes"]))
    check(m.get("verified") is True, "copy not verified: %r" % m.get("verified"))
    states = {}
    for p in passes:
        check(isinstance(p.get("ns"), int) and p["ns"] > 0, "pass %s: ns %r not > 0" % (p.get("pass"), p.get("ns")))
        check(isinstance(p.get("gbps"), (int, float)) and p["gbps"] > 0, "pass %s: gbps %r not > 0" % (p.get("pass"), p.get("gbps")))
        for c in p.get("counters", []):
            ev, st = c.get("event"), c.get("state")
            states.setdefault(st, set()).add(ev)
            if st == "counted":
                check(isinstance(c.get("delta"), int) and c["delta"] > 0,
                      "pass %s %s: counted with delta %r (a zero count must be not-advancing)" % (p["pass"], ev, c.get("delta")))
                if c.get("after", 0) >= c.get("before", 0):
                    check(c["after"] - c["before"] == c["delta"], "pass %s %s: delta %d != after - before" % (p["pass"], ev, c["delta"]))
            else:
                check(st in ("absent", "not-advancing", "faulted"), "pass %s %s: unknown state %r" % (p["pass"], ev, st))
                check("delta" not in c, "pass %s %s: state %s but carries delta %r" % (p["pass"], ev, st, c.get("delta")))
                if st in ("absent", "faulted"):
                    check(isinstance(c.get("why"), str) and c["why"], "pass %s %s: %s without a why" % (p["pass"], ev, st))
    loop = run.one("loop")
    if loop.get("valid") is not True:
        check(isinstance(loop.get("why"), str) and loop["why"], "loop not valid and no why: %r" % loop)
    return m, states


# ---- tests ----------------------------------------------------------------------------------
TESTS = []  # (name, arch, fn)


def test(name, arch):
    def deco(fn):
        TESTS.append((name, arch, fn))
        return fn
    return deco


FIGURES = {}
FIG_LOCK = threading.Lock()


def figure(key, value):
    with FIG_LOCK:
        FIGURES[key] = value


def cpu_model_test(model):
    def fn():
        want, etype = qmp_cpu_identity(model)
        run = model_boot(model)
        run.expect_ok()
        cpu = run.one("platform")["cpu"]
        got = {k: cpu.get(k) for k in ("family", "model", "stepping", "vendor")}
        check(got == want, "%s: log says %s, QEMU (QMP %s expansion) says %s" % (model, got, etype, want))
        sig = int(cpu["signature"], 16)
        dec = decode_signature(sig, cpu["vendor"])
        check(dec == (want["family"], want["model"], want["stepping"]),
              "signature %s decodes to family/model/stepping %s, QMP says %s" % (cpu["signature"], dec, want))
        figure("cpu " + model, "%s family %d model %d (0x%x) stepping %d, CPUID.1:EAX %s (QMP %s)" % (
            want["vendor"], want["family"], want["model"], want["model"], want["stepping"], cpu["signature"], etype))
    return fn


for _m in X86_MODELS:
    test("x86_64.cpu_model[%s]" % _m, "x86_64")(cpu_model_test(_m))


@test("x86_64.rdpmc_ud_recovered", "x86_64")
def t_rdpmc():
    run = default_boot("x86_64")
    run.expect_ok()
    plat = run.one("platform")
    check(plat.get("probes", {}).get("rdpmc") == "#UD", "probes.rdpmc is %r, not \"#UD\"" % plat.get("probes", {}).get("rdpmc"))
    exc = plat.get("exceptions", {})
    check(exc.get("vectors_registered") == 2, "exceptions.vectors_registered %r, not 2 (why %r)" % (exc.get("vectors_registered"), exc.get("why")))
    fr = run.records[-1].get("faults_recovered")
    check(isinstance(fr, int) and fr >= 1, "end.faults_recovered %r, not >= 1" % fr)
    check(plat.get("topology", {}).get("logical_cpus") == 4, "topology.logical_cpus %r under -smp 4" % plat.get("topology", {}).get("logical_cpus"))


def bad_config_test(arch, insert_line, drop, what):
    def fn():
        d = test_dir("%s.bad_config.%s" % (arch, what.split()[0]))
        small = {k: v for k, v in SMALL.items() if k not in drop}
        img = make_image(arch, d, cfg_text(arch, small, drop_keys=drop, insert={3: insert_line}))
        run = boot(arch, img, d)
        check(run.qemu_exit == 0, "QEMU exit %r: the machine did not power off after the config error (%s)" % (run.qemu_exit, run.why()))
        check(run.rc == 1, "qemu.sh exit %d, expected 1 (end status error) (%s)" % (run.rc, run.why()))
        check(run.records[-1].get("status") == "error", "end status %r, expected error" % run.records[-1].get("status"))
        errs = run.of("error")
        key = insert_line.split("=")[0].strip()
        where = CFG_PATH + ":3"
        hits = [e for e in errs if where in e.get("message", "") and key in e.get("message", "")]
        check(hits, "no error record naming %r and %r: %s" % (where, key, errs))
        check(len(errs) == 1, "expected exactly one error, got %s" % errs)
        msg = hits[0]["message"]
        check(msg in run.text(), "the .txt log does not contain the error message %r" % msg)
        check(not run.of("measurement"), "a measurement ran despite the config error")
        figure("%s config error (%s)" % (arch, what), msg)
    return fn


for _arch in ("x86_64", "aarch64"):
    test("%s.bad_config_key_line3" % _arch, _arch)(bad_config_test(_arch, "copy_sise = 1M", (), "unknown key"))
    test("%s.bad_config_value_line3" % _arch, _arch)(bad_config_test(_arch, "copy_size = 12Q", ("copy_size",), "bad value"))


@test("x86_64.second_run_keeps_first_log", "x86_64")
def t_second_run():
    arch = "x86_64"
    d = test_dir("%s.second_run" % arch)
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
    check(n1 != n2, "second run wrote the same log name %s" % n1)
    on_image = image_logs(img)
    for n in (n1, n2, n1[:-6] + ".txt", n2[:-6] + ".txt"):
        check(n.lower() in [x.lower() for x in on_image], "%s missing from the image after two runs (image has %s)" % (n, on_image))
    check(read_image_file(img, "::/efiperf/logs/" + n1) == first_jsonl, "first run's %s changed after the second run" % n1)
    check(read_image_file(img, "::/efiperf/logs/" + n1[:-6] + ".txt") == first_txt, "first run's .txt changed after the second run")
    check(r2.records[0]["log"] != r1.records[0]["log"], "both run records name log %s" % r1.records[0]["log"])
    figure("second run", "%s then %s" % (n1, n2))


@test("x86_64.trace_hw", "x86_64")
def t_trace():
    arch = "x86_64"
    d = test_dir("%s.trace_hw" % arch)
    # pcie = off: an ECAM bus scan alone is 8192+ reads, more than the 4096-entry trace ring
    run = boot(arch, make_image(arch, d, cfg_text(arch, dict(SMALL, trace="hw", pcie="off"))), d)
    run.expect_ok()
    check(run.records[0]["config"].get("trace") == "hw", "run.config.trace is %r" % run.records[0]["config"].get("trace"))
    hw = run.of("hw")
    check(hw, "no hw records with trace = hw")
    ops = {}
    for r in hw:
        ops.setdefault(r.get("op"), []).append(r)
    check("cpuid" in ops, "no cpuid op among hw records (ops %s)" % sorted(map(str, ops)))
    check("rdpmc" in ops, "no rdpmc op among hw records (ops %s)" % sorted(map(str, ops)))
    check(any(r.get("status") == "#UD" for r in ops["rdpmc"]), "no rdpmc hw record with status #UD: %s" % ops["rdpmc"][:3])
    seqs = [r.get("seq") for r in hw]
    check(all(isinstance(s, int) for s in seqs) and seqs == sorted(seqs), "hw seq numbers not increasing")
    check(run.records[-1].get("trace_dropped") == 0, "end.trace_dropped %r" % run.records[-1].get("trace_dropped"))
    figure("trace=hw", "%d hw records, ops %s" % (len(hw), {k: len(v) for k, v in sorted(ops.items())}))


def console_text(run):
    check(run.console and os.path.exists(run.console), "no console capture (%s)" % run.why())
    with open(run.console, "rb") as f:
        con = f.read().decode("utf-8", "replace")
    return re.sub(r"\x1b\[[0-9;=]*[A-Za-z]", "", con).replace("\r", "")


def console_only_checks(run, why_words):
    """The run could not log: it said so on the console, carried on and powered off."""
    con = console_text(run)
    check(run.qemu_exit == 0, "QEMU exit %r: no power-off (%s)" % (run.qemu_exit, run.why()))
    check("continuing on the console only" in con, "console never says it continues console-only (%s)" % run.why())
    check(any(w in con for w in why_words), "console does not name the cause (%s): %s" % (
        " or ".join(why_words), [l for l in con.splitlines() if l.startswith("log:")]))
    check("measure:" in con and "efiperf: run ok; log (console only)" in con,
          "the run did not carry on to its end console-only (%s)" % run.why())
    return [l for l in con.splitlines() if l.startswith("log:")]


@test("x86_64.readonly_volume_console_only", "x86_64")
def t_readonly():
    d = test_dir("x86_64.readonly")
    img = make_image("x86_64", d, cfg_text("x86_64", SMALL))
    before = image_logs(img)
    run = boot("x86_64", img, d, readonly=True)
    check(run.jsonl_count == 0, "a log was written to a write-protected volume")
    lines = console_only_checks(run, ["write-protected"])
    check(image_logs(img) == before, "the image changed although attached read-only")
    figure("read-only volume", lines[0] if lines else "")


@test("x86_64.full_volume_console_only", "x86_64")
def t_full():
    d = test_dir("x86_64.full")
    img = make_image("x86_64", d, cfg_text("x86_64", SMALL))
    p = sh(["mdir", "-i", img, "::/"])
    m = re.search(r"([0-9 ]+) bytes free", p.stdout)
    check(m, "cannot read free space of the image: %s" % p.stdout)
    free = int(m.group(1).replace(" ", ""))
    filler = os.path.join(d, "filler.bin")
    with open(filler, "wb") as f:
        f.truncate(free)
    p = sh(["mcopy", "-i", img, filler, "::/filler.bin"])
    check(p.returncode == 0, "cannot fill the image: %s" % p.stderr)
    os.remove(filler)
    m = re.search(r"([0-9 ]+) bytes free", sh(["mdir", "-i", img, "::/"]).stdout)
    check(m and int(m.group(1).replace(" ", "")) == 0, "image not full after filling")
    run = boot("x86_64", img, d)
    lines = console_only_checks(run, ["volume full"])
    figure("full volume", lines[0] if lines else "")


def shell_boot(arch, name, shell_args):
    d = test_dir("%s.%s" % (arch, name))
    img = make_image(arch, d, cfg_text(arch, dict(SMALL, copy_passes="5")), shell_args=shell_args)
    run = boot(arch, img, d)
    if run.jsonl_count == 0:
        con = ""
        if run.console and os.path.exists(run.console):
            with open(run.console, "rb") as f:
                con = f.read().decode("utf-8", "replace")
        if "startup.nsh" not in con and "Shell>" not in con:
            raise TestFailure("the firmware's UEFI Shell never ran startup.nsh (no built-in shell reachable?): " + run.why())
    return run


@test("x86_64.argument_overrides_file", "x86_64")
def t_args_override():
    run = shell_boot("x86_64", "args_override", "copy_passes=2")
    run.expect_ok()
    cfg = run.records[0]["config"]
    check(cfg.get("copy_passes") == 2, "config.copy_passes %r, the argument copy_passes=2 did not override the file's 5" % cfg.get("copy_passes"))
    check(cfg.get("origin", {}).get("copy_passes") == "argument 1", "config.origin.copy_passes %r, not \"argument 1\"" % cfg.get("origin", {}).get("copy_passes"))
    check(cfg.get("origin", {}).get("copy_size") == CFG_PATH + ":%d" % (1 + next(i for i, l in enumerate(cfg_text("x86_64", dict(SMALL, copy_passes="5")).split("\n")) if l.startswith("copy_size"))),
          "config.origin.copy_size %r does not name the file line" % cfg.get("origin", {}).get("copy_size"))
    check(len(run.one("measurement")["passes"]) == 2, "measurement did not run 2 passes")
    check("copy_passes=2" in (run.records[0].get("cmdline") or ""), "run.cmdline %r lacks the argument as given" % run.records[0].get("cmdline"))
    figure("shell arguments", "cmdline %r, origin %s" % (run.records[0].get("cmdline"), cfg.get("origin")))


@test("x86_64.help_lists_every_key", "x86_64")
def t_help():
    run = shell_boot("x86_64", "help", "--help")
    run.expect_ok()
    text = run.text()
    check("usage: efiperf.efi" in text, "no usage line in the .txt log")
    keys = list(run.records[0]["config"].get("origin", {}))
    check(len(keys) >= 5, "run.config.origin lists too few keys: %s" % keys)
    for k in keys:
        check(re.search(r"^\s*%s\b.*\(default [^)]*\)$" % re.escape(k), text, re.M),
              "--help does not list key %r with its default on one whole line" % k)
    check(not run.of("measurement"), "--help ran the measurement")
    figure("--help", "%d keys listed" % len(keys))


@test("x86_64.bad_argument_named", "x86_64")
def t_args_bad():
    run = shell_boot("x86_64", "args_bad", "copy_passes=2 copy_pases=3")
    check(run.qemu_exit == 0, "QEMU exit %r: no power-off after the argument error (%s)" % (run.qemu_exit, run.why()))
    check(run.rc == 1, "qemu.sh exit %d, expected 1 (%s)" % (run.rc, run.why()))
    check(run.records[-1].get("status") == "error", "end status %r" % run.records[-1].get("status"))
    errs = run.of("error")
    hits = [e for e in errs if "argument 2" in e.get("message", "") and "copy_pases" in e.get("message", "")]
    check(hits, "no error naming \"argument 2\" and copy_pases: %s" % errs)
    check(len(errs) == 1, "expected one error, got %s" % errs)
    check(hits[0]["message"] in run.text(), "the .txt log lacks %r" % hits[0]["message"])
    figure("argument error", hits[0]["message"])


def measurement_test(arch):
    def fn():
        run = default_boot(arch)
        run.expect_ok()
        m, states = check_measurement(run)
        figure("%s boot-to-log wall" % arch, "%.1f s (qemu.sh: QEMU start to power-off, image as built: copy_size %d, %d passes; app elapsed %s ms)" % (
            run.qemu_wall if run.qemu_wall is not None else run.wall, m["buffer_bytes"], len(m["passes"]), run.records[-1].get("elapsed_ms")))
        figure("%s copy" % arch, "best %s GB/s, counters %s" % (m.get("best_gbps"), {k: sorted(v) for k, v in states.items()}))
    return fn


for _arch in ("x86_64", "aarch64"):
    test("%s.measurement_sane" % _arch, _arch)(measurement_test(_arch))


@test("aarch64.platform_el1_pmuv3", "aarch64")
def t_a64_platform():
    run = default_boot("aarch64")
    run.expect_ok()
    plat = run.one("platform")
    cpu = plat.get("cpu", {})
    check(cpu.get("current_el") == 1, "cpu.current_el %r, not 1" % cpu.get("current_el"))
    for k in ("implementer", "partnum"):
        check(k in cpu, "cpu.%s missing" % k)
    probe = plat.get("probes", {}).get("PMUv3")
    check(isinstance(probe, str) and probe.startswith("PMUv3"), "probes.PMUv3 is %r, not a PMUv3 version" % probe)
    check(plat.get("core_pmu", {}).get("name") == "Arm PMUv3", "core_pmu.name %r" % plat.get("core_pmu", {}).get("name"))
    swinc = plat.get("probes", {}).get("PMSWINC_EL0 read")
    check(isinstance(swinc, str) and swinc.startswith("sync-exception"),
          "probes[PMSWINC_EL0 read] is %r: the UNDEFINED read was not recovered as a sync exception" % swinc)
    check(plat.get("exceptions", {}).get("vectors_registered") == 1, "exceptions %r" % plat.get("exceptions"))
    check((run.records[-1].get("faults_recovered") or 0) >= 1, "end.faults_recovered %r" % run.records[-1].get("faults_recovered"))
    figure("aarch64 platform", "MIDR %s implementer %s partnum %s EL%s; PMUv3 probe: %s" % (
        cpu.get("signature"), cpu.get("implementer"), cpu.get("partnum"), cpu.get("current_el"), probe))


def known_loop_constants():
    path = os.path.join(REPO, "arch", "aarch64", "known_loop.h")
    with open(path) as f:
        text = f.read()
    per = re.search(r"#define\s+ARM_KNOWN_LOOP_INSNS_PER_ITER\s+(\d+)", text)
    fixed = re.search(r"#define\s+ARM_KNOWN_LOOP_INSNS_FIXED\s+(\d+)", text)
    check(per and fixed, "%s does not define ARM_KNOWN_LOOP_INSNS_PER_ITER/FIXED" % path)
    return int(per.group(1)), int(fixed.group(1))


@test("aarch64.loop_inst_retired_exact", "aarch64")
def t_a64_loop():
    arch = "aarch64"
    per, fixed = known_loop_constants()
    check(per == 2, "known_loop.h says %d instructions per iteration, the loop is SUBS + B.NE (2)" % per)
    # Each window must span firmware timer ticks for the unmasked count to show them: at
    # -icount shift=0 one instruction is 1 ns, so 10M iterations = 20 ms of virtual time (the
    # 10 ms UEFI tick is seen ~2 times); 1M iterations (2 ms) often sees none.
    iters = (10000000, 30000000)
    runs = []

    def one(n):
        d = test_dir("%s.loop.%d" % (arch, n))
        return boot(arch, make_image(arch, d, cfg_text(arch, dict(SMALL, loop_iterations=str(n)))), d)
    with ThreadPoolExecutor(2) as ex:
        runs = list(ex.map(one, iters))
    loops = []
    for n, run in zip(iters, runs):
        run.expect_ok()
        lp = run.one("loop")
        check(lp.get("iterations") == n, "loop.iterations %r, config said %d" % (lp.get("iterations"), n))
        check(lp.get("valid") is True, "loop not valid: %r" % lp.get("why"))
        exp = lp.get("expected")
        check(exp == per * n + fixed, "%d iterations: expected %r, known_loop.h gives %d*%d+%d = %d" % (n, exp, per, n, fixed, per * n + fixed))
        mk, um = lp.get("masked", {}), lp.get("unmasked", {})
        check(mk.get("counted") == exp and mk.get("extra") == 0,
              "%d iterations, interrupts masked: counted %r expected %d (extra %r)" % (n, mk.get("counted"), exp, mk.get("extra")))
        reps = lp.get("masked_repeats") or []
        check(len(reps) == 10 and all(c == exp for c in reps) and lp.get("masked_spread") == 0,
              "%d iterations: the quiesced window must count the same 10 times (0 noise): %s" % (n, reps))
        check(isinstance(um.get("extra"), int) and um["extra"] > 0,
              "%d iterations, interrupts unmasked: extra %r, expected > 0 (timer ticks)" % (n, um.get("extra")))
        check(um.get("counted") - exp == um["extra"], "unmasked extra %r != counted - expected" % um["extra"])
        loops.append(lp)
    d_exp = loops[1]["expected"] - loops[0]["expected"]
    check(d_exp == 2 * (iters[1] - iters[0]), "expected grew by %d for %d more iterations (not 2 per iteration)" % (d_exp, iters[1] - iters[0]))
    figure("aarch64 INST_RETIRED", "; ".join(
        "%d it: expected %d = 2*%d+%d, masked counted %d (extra %d), unmasked counted %d (extra %+d)" % (
            lp["iterations"], lp["expected"], lp["iterations"], lp["expected"] - 2 * lp["iterations"],
            lp["masked"]["counted"], lp["masked"]["extra"], lp["unmasked"]["counted"], lp["unmasked"]["extra"]) for lp in loops))


# ---- driver ---------------------------------------------------------------------------------
def build(arch):
    p = sh(["make", "-C", REPO, "image", "ARCH=" + arch])
    if p.returncode != 0:
        return "make image ARCH=%s failed: %s" % (arch, (p.stdout + p.stderr).strip().splitlines()[-3:])
    for f in (base_image(arch), base_efi(arch)):
        if not os.path.exists(f):
            return "%s missing after make image ARCH=%s" % (f, arch)
    return None


def run_one(name, arch, fn, broken):
    t0 = time.monotonic()
    try:
        if arch in broken:
            raise TestFailure(broken[arch])
        fn()
        return name, True, "PASS %s (%.1fs)" % (name, time.monotonic() - t0)
    except TestFailure as e:
        return name, False, "FAIL %s: %s" % (name, str(e).replace("\n", " | "))
    except Exception as e:  # a bug in the test or an unexpected log shape: still one failure
        tb = traceback.format_exc().strip().splitlines()
        return name, False, "FAIL %s: %s: %s (%s)" % (name, type(e).__name__, e, tb[-3].strip() if len(tb) > 2 else "")


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import discovery_tests  # noqa: E402  (registers the issue-3 tests into TESTS)
import window_tests  # noqa: E402
import cha_tests  # noqa: E402
import corepmu_tests  # noqa: E402
import cpus_tests  # noqa: E402
discovery_tests.register(sys.modules[__name__])
window_tests.register(sys.modules[__name__])
cha_tests.register(sys.modules[__name__])
corepmu_tests.register(sys.modules[__name__])
cpus_tests.register(sys.modules[__name__])


def main():
    global OPTS, SLOTS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", choices=("x86_64", "aarch64", "all"), default="all")
    ap.add_argument("-k", action="append", default=[], metavar="SUBSTRING", help="run tests whose name contains SUBSTRING (repeatable)")
    ap.add_argument("--jobs", type=int, default=2, help="QEMU boots at once (default 2: the machine has 2 cores)")
    ap.add_argument("--timeout", type=int, default=240, help="seconds before a boot counts as hung (default 240)")
    ap.add_argument("--no-build", action="store_true", help="use build/<arch>/efiperf.img as it is")
    ap.add_argument("--keep", action="store_true", help="keep the scratch images under build/qemu-tests")
    ap.add_argument("--list", action="store_true", help="list the tests and exit")
    ap.add_argument("-v", "--verbose", action="store_true")
    OPTS = ap.parse_args()
    SLOTS = Slots(max(1, OPTS.jobs))
    arches = ("x86_64", "aarch64") if OPTS.arch == "all" else (OPTS.arch,)
    selected = [t for t in TESTS if t[1] in arches and (not OPTS.k or any(k in t[0] for k in OPTS.k))]
    if OPTS.list:
        for name, _, _ in selected:
            print(name)
        return 0
    if not selected:
        print("qemu: no test matches")
        print("qemu: 0 passed, 0 failed")
        return 1

    t_start = time.monotonic()
    shutil.rmtree(WORK, ignore_errors=True)  # logs of the previous suite run (kept until now)
    os.makedirs(WORK)
    broken = {}
    for arch in sorted({t[1] for t in selected}):
        if not OPTS.no_build:
            why = build(arch)
            if why:
                broken[arch] = why
        if arch not in broken and not os.path.exists(base_image(arch)):
            broken[arch] = "no %s (make image ARCH=%s)" % (base_image(arch), arch)

    # Tests wait on each other's shared boots and on QEMU slots, never on a thread: one thread each.
    passed = failed = 0
    with ThreadPoolExecutor(max_workers=len(selected)) as ex:
        futs = [ex.submit(run_one, name, arch, fn, broken) for name, arch, fn in selected]
        for f in futs:
            name, ok, line = f.result()
            print(line, flush=True)
            passed, failed = passed + ok, failed + (not ok)

    print("figures:")
    for arch in arches:
        for f in (base_image(arch), base_efi(arch)):
            if os.path.exists(f):
                st = os.stat(f)
                figure("%s size %s" % (arch, os.path.basename(f)), "%d bytes (%d KiB allocated)" % (st.st_size, st.st_blocks // 2))
    for k in sorted(FIGURES):
        print("  %-34s %s" % (k + ":", FIGURES[k]))
    print("  %-34s %.1f s (%d QEMU boot(s) at once)" % ("suite wall:", time.monotonic() - t_start, SLOTS.n))
    if not OPTS.keep:
        for root, _, files in os.walk(WORK):
            for fn in files:
                if fn.endswith(".img"):
                    os.unlink(os.path.join(root, fn))
    print("qemu: %d passed, %d failed" % (passed, failed), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
