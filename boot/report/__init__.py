# SPDX-License-Identifier: BSD-2-Clause
"""efiperf-report: the host side of an efiperf run (boot/efiperf-report is the command).

    logs.py       reading a JSONL log strictly, schema validation, classification
    recompute.py  derived metrics recomputed from the raw values, independently of the firmware
    html.py       the HTML report of one log, with its plots (matplotlib, PNG inline)
    fleet.py      many logs across machines: a table per metric, HTML and CSV
    junit.py      JUnit XML, one test case per check
    cli.py        the command line and exit status
"""
