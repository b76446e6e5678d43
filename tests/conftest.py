# SPDX-License-Identifier: BSD-2-Clause
"""Command-line options of efiperf's pytest runs. They live here, at the rootdir of
tests/pytest.ini, because pytest parses the command line before it reaches the conftest.py of
a testpaths folder (tests/qemu/conftest.py uses them)."""


def pytest_addoption(parser):
    g = parser.getgroup("efiperf QEMU tests")
    g.addoption("--no-build", action="store_true", help="use build/<arch>/efiperf.img as it is (no make image)")
    g.addoption("--keep", action="store_true", help="keep the scratch images under the work folder")
    g.addoption("--boot-timeout", type=int, default=None,
                help="qemu.sh --timeout of each boot (default 900 s, a backstop: pytest-timeout's "
                     "per-test limit in tests/pytest.ini ends a hung test first)")
    g.addoption("--qemu-work", default=None,
                help="scratch folder, emptied at the start of a run (default build/qemu-tests)")
