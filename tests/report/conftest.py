# SPDX-License-Identifier: BSD-2-Clause
"""Fixtures of the efiperf-report tests (host only, no QEMU): the command and synthetic logs."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
REPORT = os.path.join(REPO, "boot", "efiperf-report")
sys.path.insert(0, HERE)


@pytest.fixture
def report():
    """report(*args) -> CompletedProcess of boot/efiperf-report under Debian's /usr/bin/python3."""
    def run(*args):
        return subprocess.run(["/usr/bin/python3", REPORT] + [str(a) for a in args], capture_output=True, text=True,
                              timeout=300)
    return run
