# SPDX-License-Identifier: BSD-2-Clause
"""JUnit XML: a <testsuite> per log, a <testcase> per check (a failure carries the value, the
threshold and why). A log without checks gets one test case for the run itself, failed when the
run is INCOMPLETE, ERROR or INVALID."""
import xml.etree.ElementTree as ET


def build(entries):
    """entries: (name, Log or None, result, message) per log given on the command line."""
    root = ET.Element("testsuites", name="efiperf")
    for name, log, result, msg in entries:
        suite = ET.SubElement(root, "testsuite", name=name)
        cases = 0
        fails = errors = 0
        checks = log.checks if log is not None else []
        for c in checks:
            tc = ET.SubElement(suite, "testcase", classname="efiperf.%s" % (log.serial if log else "log"),
                               name="%s %s %s" % (c["path"], c["op"], c["threshold"]))
            cases += 1
            if c["result"] != "PASS":
                fails += 1
                f = ET.SubElement(tc, "failure", message="value %s; %s" % (c["value"], c.get("why") or "does not hold"))
                f.text = c["setting"]
        if result in ("INCOMPLETE", "ERROR", "INVALID") or not checks:
            tc = ET.SubElement(suite, "testcase", classname="efiperf.run", name="run %s" % name)
            cases += 1
            if result in ("INCOMPLETE", "ERROR", "INVALID"):
                errors += 1
                ET.SubElement(tc, "error", message="%s: %s" % (result, msg or ""))
        suite.set("tests", str(cases))
        suite.set("failures", str(fails))
        suite.set("errors", str(errors))
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
