# SPDX-License-Identifier: BSD-2-Clause
"""The HTML report in a real browser: Debian's chromium, headless. A copy of the report gets a
script that, once the page has loaded, counts the images whose naturalWidth > 0 and the verdict
table's rows into a marker element; --dump-dom prints the DOM after that, --screenshot renders
the page to a PNG (its size read from the PNG header, ISO/IEC 15948 / RFC 2083 IHDR)."""
import re
import shutil
import struct
import subprocess

import synth

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--virtual-time-budget=15000"]
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


def chromium():
    exe = shutil.which("chromium")
    assert exe, "chromium is not installed: boot/deps.sh --check test installs Debian's chromium"
    return exe


def run_chromium(tmp_path, *args):
    prof = tmp_path / "profile"
    prof.mkdir(exist_ok=True)
    return subprocess.run([chromium()] + FLAGS + ["--user-data-dir=%s" % prof] + list(args), capture_output=True,
                          text=True, timeout=180)


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
    c = run_chromium(tmp_path, "--dump-dom", probe.as_uri())
    assert c.returncode == 0, c.stderr[-2000:]
    m = re.search(r'<div id="efiperf-probe">images=(\d+) loaded=(\d+) verdict_rows=(-?\d+)</div>', c.stdout)
    assert m, "no probe marker in the DOM chromium dumped: %s" % c.stdout[-500:]
    images, loaded, rows = map(int, m.groups())
    assert images == n_plots and loaded == images, "%d of %d images loaded" % (loaded, images)
    assert rows == 2, "verdict table rows %d (header + one check)" % rows
    assert re.search(r'<tr class="fail"><td>FAIL</td><td>check = stream.triad.best_rate_mbps &gt;= 20000</td>', c.stdout)

    shot = tmp_path / "shot.png"
    c = run_chromium(tmp_path, "--screenshot=%s" % shot, "--window-size=1200,3000", probe.as_uri())
    assert c.returncode == 0 and shot.exists(), c.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1200, 3000), (width, height)
    assert len(data) > 20000, "a screenshot of %d bytes: an empty page?" % len(data)
