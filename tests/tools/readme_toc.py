#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""The README's table of contents, made from its own headings (python3 standard library only).

    tests/tools/readme_toc.py [README.md]           rewrite the contents between the markers
    tests/tools/readme_toc.py --check [README.md]   exit 1 when the contents there are stale

The contents stand between the lines <!-- toc --> and <!-- /toc -->: one item per '## ' heading,
its '### ' headings nested under it, each a link to the anchor GitHub gives the heading (lower
case, punctuation but '-' and '_' dropped, blanks as '-'; a repeated anchor gets -1, -2 ...).
Headings inside ``` fences do not count. `make test` runs --check (tests/run-all.sh, tools)."""
import re
import sys

BEGIN, END = "<!-- toc -->", "<!-- /toc -->"


def anchor(title, seen):
    a = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
    n = seen.get(a, 0)
    seen[a] = n + 1
    return a if n == 0 else "%s-%d" % (a, n)


def contents(text):
    out, seen, fence = [], {}, False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        m = re.match(r"^(##|###) (.+)$", line)
        if not m:
            if line.startswith("# "):
                anchor(line[2:], seen)
            continue
        title = m.group(2).strip()
        a = anchor(title, seen)
        indent = "" if m.group(1) == "##" else "  "
        out.append("%s- [%s](#%s)" % (indent, title.replace("`", "`"), a))
    return "\n".join(out)


def rebuild(text):
    if BEGIN not in text or END not in text:
        raise SystemExit("readme_toc: README has no %s ... %s markers" % (BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return "%s%s\n%s\n%s%s" % (head, BEGIN, contents(head + tail), END, tail)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv[1:] if a != "--check"]
    path = args[0] if args else "README.md"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = rebuild(text)
    if check:
        if new != text:
            print("readme_toc: %s's table of contents is stale: run tests/tools/readme_toc.py" % path)
            return 1
        print("readme_toc: %s's table of contents matches its %d headings" % (path, contents(text).count("\n") + 1))
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
