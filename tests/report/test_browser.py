# SPDX-License-Identifier: BSD-2-Clause
"""The HTML report in a real browser: Debian's chromium, headless (tests/report/pagecheck.py runs
it). A copy of the report gets a script that, once the page has loaded, counts the images whose naturalWidth > 0 and the verdict
table's rows into a marker element; --dump-dom prints the DOM after that, --screenshot renders
the page to a PNG (its size read from the PNG header, ISO/IEC 15948 / RFC 2083 IHDR)."""
import os
import pathlib
import re
import struct

import pytest

import synth
from pagecheck import run_chromium

PROBE = """<script>
window.addEventListener("load", function () {
  var imgs = document.images, ok = 0;
  for (var i = 0; i < imgs.length; i++) if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;
  var v = document.getElementById("verdict");
  var d = document.createElement("div");
  d.id = "efiperf-probe";
  d.textContent = "images=" + imgs.length + " loaded=" + ok + " verdict_rows=" + (v ? v.querySelectorAll("tr").length : -1);
  document.body.appendChild(d);
});
</script></body>"""


def test_report_in_chromium(tmp_path, report):
    recs = synth.records(triad=(1000, 1000, 1000, 1000))    # FAIL: a verdict row that fails
    p = report(synth.write(tmp_path / "B1.jsonl", recs), "--html", tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    with open(tmp_path / "B1.html") as f:
        page = f.read()
    n_plots = len(re.findall(r'<img class="plot"', page))
    assert n_plots == 4   # latency, stream, dma (one NVMe), topdown
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", PROBE, 1))
    c = run_chromium(tmp_path / "profile", "--dump-dom", probe.as_uri())
    assert c.returncode == 0, c.stderr[-2000:]
    m = re.search(r'<div id="efiperf-probe">images=(\d+) loaded=(\d+) verdict_rows=(-?\d+)</div>', c.stdout)
    assert m, "no probe marker in the DOM chromium dumped: %s" % c.stdout[-500:]
    images, loaded, rows = map(int, m.groups())
    assert images == n_plots and loaded == images, "%d of %d images loaded" % (loaded, images)
    assert rows == 2, "verdict table rows %d (header + one check)" % rows
    assert re.search(r'<tr class="fail"><td>FAIL</td><td>check = stream.triad.best_rate_mbps &gt;= 20000</td>', c.stdout)

    shot = tmp_path / "shot.png"
    c = run_chromium(tmp_path / "profile", "--screenshot=%s" % shot, "--window-size=1200,3000", probe.as_uri())
    assert c.returncode == 0 and shot.exists(), c.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1200, 3000), (width, height)
    assert len(data) > 20000, "a screenshot of %d bytes: an empty page?" % len(data)


# Logs QEMU boots wrote: `make run`'s main job (two NVMe controllers, one behind a switch, with
# cha = on under Icelake-Server,model=106) and test_nvme.py's two-controller boot (cha = off).
BROWSER_LOGS = ["qemu-x86_64-make-run.jsonl", "qemu-x86_64-nvme-two-controllers.jsonl"]


@pytest.mark.parametrize("name", BROWSER_LOGS)
def test_dma_report_in_chromium(tmp_path, report, name):
    """The report of a log with NVMe points, laid out by chromium at a screen's and at A4's print
    width (tests/report/pagecheck.py): images, widths, order, the DMA tables' values and the DMA
    plot lines. Screenshots: build/report-pages/<log>-1280.png and -703.png."""
    import json
    import pagecheck
    from conftest import HERE, REPO
    log = os.path.join(HERE, "logs", name)
    p = report(log, "--html", tmp_path / "html")
    assert p.returncode in (0, 1, 2), p.stdout + p.stderr
    page = tmp_path / "html" / (name[:-len(".jsonl")] + ".html")
    with open(log, encoding="utf-8") as f:
        records = [json.loads(l) for l in f]
    assert any(r["type"] == "nvme" for r in records), "%s has no nvme records" % name
    shots = pathlib.Path(REPO) / "build" / "report-pages" / name[:-len(".jsonl")]
    info = pagecheck.check_page(page, records, tmp_path, shots)
    # no checks configured: said so, not an empty table
    verdict = [r for r in records if r["type"] == "verdict"][0]
    if not verdict["checks"]:
        assert info[pagecheck.SCREEN_PX]["verdict"].startswith("No checks configured"), info[pagecheck.SCREEN_PX]["verdict"]
