# SPDX-License-Identifier: BSD-2-Clause
"""Fixtures of the QEMU integration tests: the images, a scratch folder per test, the boots
several tests only read, and the figures a test reports.

    /usr/bin/python3 -m pytest tests/qemu [-n 2] [-m x86_64|aarch64|"not slow"] [-k WORDS]
                               [--no-build] [--keep] [--boot-timeout SEC] [--junitxml FILE]

Every test carries the marker of the architecture it boots (x86_64 or aarch64); `slow` marks
the tests whose boots take the longest. Boots of several pytest-xdist workers share the
machine's cores through a lock file (efiperf_qemu.qemu_slot); the tests that read one shared boot
are put in one xdist group, so that boot happens once (tests/pytest.ini: --dist loadgroup).
"""
import os
import re
import shutil
import subprocess

import pytest

pytest.register_assert_rewrite("efiperf_qemu")
import efiperf_qemu as q  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_BOOTS = ("default_x86_64", "default_aarch64")


def _in_qemu_suite(path):
    return os.path.commonpath([HERE, os.path.abspath(str(path))]) == HERE


def pytest_configure(config):
    # options: tests/conftest.py
    q.Settings.work = os.path.abspath(config.getoption("--qemu-work") or q.Settings.work)
    q.Settings.boot_timeout = config.getoption("--boot-timeout") or q.Settings.boot_timeout
    # the controller (or a run without xdist), once; --collect-only boots nothing and keeps it
    if not hasattr(config, "workerinput") and not config.option.collectonly:
        shutil.rmtree(q.Settings.work, ignore_errors=True)  # the previous run's logs, kept until now
    os.makedirs(q.Settings.work, exist_ok=True)


@pytest.hookimpl(tryfirst=True)   # before xdist's loadgroup reads the xdist_group markers
def pytest_collection_modifyitems(config, items):
    for item in items:
        if not _in_qemu_suite(item.path):
            continue
        arches = [a for a in q.ARCHES if item.get_closest_marker(a)]
        if not arches:
            raise pytest.UsageError("%s has no x86_64 or aarch64 marker" % item.nodeid)
        for name in SHARED_BOOTS:
            if name in item.fixturenames and not item.get_closest_marker("xdist_group"):
                item.add_marker(pytest.mark.xdist_group(name))


def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput") or session.config.getoption("--keep") or session.config.option.collectonly:
        return
    for root, _, files in os.walk(q.Settings.work):
        for fn in files:
            if fn.endswith(".img"):
                os.unlink(os.path.join(root, fn))


# ---- images -------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def built(pytestconfig):
    """built(arch): `make image ARCH=arch` once per pytest process, one process at a time."""
    results = {}

    def build(arch):
        if arch not in results:
            why = None
            if not pytestconfig.getoption("--no-build"):
                with q.base_image_lock(exclusive=True):
                    p = subprocess.run(["make", "-C", q.REPO, "--no-print-directory", "image", "ARCH=" + arch],
                                       capture_output=True, text=True)
                if p.returncode != 0:
                    why = "make image ARCH=%s failed: %s" % (arch, (p.stdout + p.stderr).strip().splitlines()[-3:])
            for f in (q.base_image(arch), q.base_efi(arch)):
                if why is None and not os.path.exists(f):
                    why = "%s missing (make image ARCH=%s)" % (f, arch)
            results[arch] = why
        if results[arch]:
            pytest.fail(results[arch], pytrace=False)
    return build


@pytest.fixture(autouse=True)
def _images_of_the_test(request, built):
    """The image of every architecture the test is marked with is built before it runs."""
    if _in_qemu_suite(request.node.path):
        for arch in q.ARCHES:
            if request.node.get_closest_marker(arch):
                built(arch)


@pytest.fixture
def scratch(request):
    """scratch(suffix=""): an empty folder for the test's images and logs, named after the test
    (kept after the run, its images deleted unless --keep)."""
    base = re.sub(r"[^A-Za-z0-9_.=-]+", "_", request.node.name)   # no comma: QEMU's -drive file=

    def make(suffix=""):
        d = os.path.join(q.Settings.work, base + ("." + suffix if suffix else ""))
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        return d
    return make


# ---- boots several tests only read ----------------------------------------------------------
def _default_boot(built, arch):
    """The image as `make image` builds it with the tests' base configuration (tests/qemu/base.cfg;
    the image's own main job is booted by test_run.py), x86_64 under Icelake-Server. Exclusive: its
    wall time is the boot-to-log figure, measured without a second QEMU competing for the CPUs."""
    built(arch)
    # one folder per xdist worker: with --dist load (no groups) each worker boots its own
    d = os.path.join(q.Settings.work, "%s.default%s" % (arch, os.environ.get("PYTEST_XDIST_WORKER", "")))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return q.boot(arch, q.make_image(arch, d), d, cpu=q.DEFAULT_X86_CPU if arch == "x86_64" else None, exclusive=True)


@pytest.fixture(scope="session")
def default_x86_64(built):
    return _default_boot(built, "x86_64")


@pytest.fixture(scope="session")
def default_aarch64(built):
    return _default_boot(built, "aarch64")


# ---- figures: what a run measured, printed after the results and kept in the JUnit XML -----
@pytest.fixture
def figure(record_property):
    def add(key, value):
        record_property("figure: " + key, value)
    return add


def pytest_terminal_summary(terminalreporter):
    figs = {}
    for reports in terminalreporter.stats.values():
        for rep in reports:
            for k, v in getattr(rep, "user_properties", ()):
                if isinstance(k, str) and k.startswith("figure: "):
                    figs[k[len("figure: "):]] = v
    for arch in q.ARCHES:
        for f in (q.base_image(arch), q.base_efi(arch)):
            if figs and os.path.exists(f):
                st = os.stat(f)
                figs["%s size %s" % (arch, os.path.basename(f))] = "%d bytes (%d KiB allocated)" % (st.st_size, st.st_blocks // 2)
    if figs:
        terminalreporter.section("figures")
        for k in sorted(figs):
            terminalreporter.write_line("  %-34s %s" % (k + ":", figs[k]))
