# SPDX-License-Identifier: BSD-2-Clause
"""The collector tests' fixtures, from collector_fixtures.py (a module name of its own: tests/report
has a conftest.py too, and pytest collects both folders in one run)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from collector_fixtures import collector, postgres  # noqa: E402,F401
