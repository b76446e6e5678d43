# SPDX-License-Identifier: BSD-2-Clause
"""An efiperf HTML report as a reader sees it: Debian's chromium, headless, at 1280 CSS px (a
screen) and at A4's printable width (210 mm less the page's 12 mm margins = 186 mm = 703 CSS px
at 96 px per inch, CSS 2.1 4.3.2) with the page's @media print rules applied. A probe script
added to a copy of the page reads the laid-out DOM once it has loaded and writes what it found
as JSON into a marker element; --dump-dom prints it. --screenshot writes a PNG of each width
(the caller keeps them under build/ for a reader to look at).

check_page() asserts, for one report and the records of its log:
  - every image loaded (naturalWidth > 0) and has alt text; every plot is in a <figure> with a
    title (figcaption)
  - no element's box reaches past the page's width
  - the summary comes before the first plot
  - every DMA table cell's text, read from the DOM, is the value of its record's member (the
    row found by bdf, window, bs and iodepth), with thousands separators taken out
  - every DMA plot line (figure data-series) runs through points of one window and one
    iodepth only, each point the bs and bw_bytes of a record of that window and iodepth
"""
import json
import re
import shutil
import struct
import subprocess

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--hide-scrollbars", "--virtual-time-budget=20000"]
A4_PRINT_PX = 703     # (210 - 2 x 12) mm / 25.4 mm per inch x 96 px per inch = 702.99
SCREEN_PX = 1280

PROBE = """<script>
window.addEventListener("load", function () {
  if (%(print)s) {   // apply the page's @media print rules as if printing
    var add = [];
    for (var s of document.styleSheets) for (var r of s.cssRules)
      if (r.media && r.media.mediaText.indexOf("print") >= 0) for (var x of r.cssRules) add.push(x.cssText);
    var st = document.createElement("style"); st.textContent = add.join("\\n"); document.head.appendChild(st);
  }
  var out = {width: document.documentElement.clientWidth, images: [], wide: [], figures: [], cells: [], order: null};
  for (var im of document.images)
    out.images.push({loaded: im.complete && im.naturalWidth > 0, alt: im.alt || "", plot: im.dataset.plot || null,
                     caption: (im.closest("figure") && im.closest("figure").querySelector("figcaption")) ?
                              im.closest("figure").querySelector("figcaption").textContent : null});
  for (var el of document.body.querySelectorAll("*")) {
    var b = el.getBoundingClientRect();
    if (b.right > out.width + 0.5 && b.width > 0)
      out.wide.push(el.tagName + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : "") + " right " + Math.round(b.right));
  }
  for (var f of document.querySelectorAll("figure[data-series]"))
    out.figures.push({plot: f.querySelector("img") ? f.querySelector("img").dataset.plot : null, series: JSON.parse(f.dataset.series)});
  for (var t of document.querySelectorAll("table.dma")) for (var tr of t.tBodies[0].rows) {
    var row = {table: t.id, cells: {}};
    for (var td of tr.cells) if (td.dataset.field) row.cells[td.dataset.field] = td.textContent;
    out.cells.push(row);
  }
  var s = document.getElementById("summary"), p = document.querySelector("img.plot");
  out.order = !s ? "no summary" : !p ? "no plot" : (s.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING) ? "summary first" : "plot first";
  out.verdict = document.getElementById("verdict") ? document.getElementById("verdict").textContent : null;
  var d = document.createElement("pre"); d.id = "efiperf-probe"; d.textContent = JSON.stringify(out);
  document.body.appendChild(d);
});
</script></body>"""


def chromium():
    exe = shutil.which("chromium")
    assert exe, "chromium is not installed: boot/deps.sh --check test installs Debian's chromium"
    return exe


def run_chromium(profile, *args):
    return subprocess.run([chromium()] + FLAGS + ["--user-data-dir=%s" % profile] + list(args), capture_output=True,
                          text=True, timeout=240)


def png_size(path):
    with open(path, "rb") as f:
        data = f.read(24)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "%s is not a PNG" % path
    return struct.unpack(">II", data[16:24])


def probe(page_text, tmp, width, printing):
    """The probe's JSON for the page laid out at width CSS px."""
    tmp.mkdir(parents=True, exist_ok=True)
    p = tmp / ("probe-%d.html" % width)
    p.write_text(page_text.replace("</body>", PROBE % {"print": "true" if printing else "false"}, 1), encoding="utf-8")
    c = run_chromium(tmp / "profile", "--window-size=%d,2000" % width, "--dump-dom", p.as_uri())
    assert c.returncode == 0, c.stderr[-2000:]
    m = re.search(r'<pre id="efiperf-probe">(.*?)</pre>', c.stdout, re.S)
    assert m, "no probe output in the DOM chromium dumped: %s" % c.stdout[-500:]
    import html as H
    return json.loads(H.unescape(m.group(1)))


def screenshot(page_path, tmp, width, printing, shot):
    """A PNG of the page at width (height: the whole page, up to 16000 px)."""
    info = probe(page_path.read_text(encoding="utf-8"), tmp, width, printing)
    text = page_path.read_text(encoding="utf-8")
    if printing:   # the same print rules, then the screenshot
        text = text.replace("</head>", "<style>%s</style></head>" % print_rules(text), 1)
    src = tmp / ("shot-%d.html" % width)
    src.write_text(text, encoding="utf-8")
    height = 16000
    c = run_chromium(tmp / "profile", "--window-size=%d,%d" % (width, height), "--screenshot=%s" % shot, src.as_uri())
    assert c.returncode == 0 and shot.exists(), c.stderr[-2000:]
    assert png_size(shot) == (width, height), png_size(shot)
    return info


def print_rules(text):
    m = re.search(r"@media print\{(.*)\}\s*</style>", text, re.S)
    return m.group(1) if m else ""


def number(text):
    """A cell's text as the record wrote it: '1,234,567' -> 1234567, '0.5' -> 0.5, '-'/dash -> None."""
    t = text.replace(",", "").replace("!", "").strip()
    if t in ("", "-", "\u2013"):
        return None
    if t in ("true", "false"):
        return t == "true"
    try:
        return int(t)
    except ValueError:
        try:
            return float(t)
        except ValueError:
            return t


def member(r, path):
    v = r
    for k in path.split("."):
        v = v.get(k) if isinstance(v, dict) else None
    return v


def check_page(page_path, records, tmp, shots_prefix):
    """Open the report at both widths, screenshot each to shots_prefix-<width>.png; assert the
    checks of this module's docstring. Returns {width: probe JSON}."""
    out = {}
    nvme = [r for r in records if r.get("type") == "nvme"]
    for width, printing in ((SCREEN_PX, False), (A4_PRINT_PX, True)):
        shot = shots_prefix.parent / ("%s-%d.png" % (shots_prefix.name, width))
        shot.parent.mkdir(parents=True, exist_ok=True)
        info = screenshot(page_path, tmp / str(width), width, printing, shot)
        tag = "%s at %d px%s" % (page_path.name, width, " (print rules)" if printing else "")
        assert info["images"], "%s: no images" % tag
        bad = [i for i in info["images"] if not i["loaded"] or not i["alt"] or not i["caption"]]
        assert not bad, "%s: images not loaded or without alt text or title: %s" % (tag, bad)
        assert not info["wide"], "%s: elements wider than the page (%d px): %s" % (tag, info["width"], info["wide"][:8])
        assert info["order"] == "summary first", "%s: %s" % (tag, info["order"])
        # the DMA tables: every row is one record's, every cell its member's value
        assert len(info["cells"]) == len(nvme), "%s: %d DMA table rows for %d nvme records" % (tag, len(info["cells"]), len(nvme))
        for row in info["cells"]:
            c = row["cells"]
            bdf = row["table"][4:]
            key = (c["window"], number(c["bs"]), number(c["iodepth"]))
            match = [r for r in nvme if (r.get("window"), r.get("bs"), r.get("iodepth")) == key
                     and r.get("bdf", "").replace(":", "-").replace(".", "-") == bdf]
            assert len(match) == 1, "%s: table %s row %s matches %d records" % (tag, row["table"], c, len(match))
            for field, text in c.items():
                want = member(match[0], field)
                assert number(text) == want, "%s: %s %s: the page says %r, the record %r" % (tag, row["table"], field, text, want)
        # the DMA plots: each line is one window and one iodepth, through that window's records
        dma_figs = [f for f in info["figures"] if f["plot"] == "dma"]
        assert len(dma_figs) == len({r.get("bdf") for r in nvme}), "%s: %d DMA plots for controllers %s" % (
            tag, len(dma_figs), sorted({r.get("bdf") for r in nvme}))
        for f in dma_figs:
            for s in f["series"]:
                pts = list(zip(s["x"], s["y"]))
                assert len(pts) == len(set(s["x"])), "%s: line %s has two points at one bs" % (tag, s["label"])
                for x, y in pts:
                    recs = [r for r in nvme if r.get("bs") == x and r.get("bw_bytes") == y]
                    assert recs, "%s: line %s point (%s, %s) is no record's" % (tag, s["label"], x, y)
                    assert {r.get("window") for r in recs} == {s["window"]} and {r.get("iodepth") for r in recs} == {s["iodepth"]}, \
                        "%s: line %s (window %s, iodepth %s) joins a point of window %s iodepth %s" % (
                            tag, s["label"], s["window"], s["iodepth"], [r.get("window") for r in recs], [r.get("iodepth") for r in recs])
        out[width] = info
    return out
