#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Layering check of efiperf's C sources (python3 standard library only).

    tests/tools/layering.py [ROOT]        ROOT defaults to the repository root
    tests/tools/layering.py --self-test   checks the checker on a small tree it writes, with
                                          one violation of each kind and look-alikes that are not

The layers are efi/ (the application) -> pmu/ (PMU drivers) -> arch/ (CPU primitives, helpers,
named registers). Three rules, each violation printed on one line:

  layer:    a file under pmu/ includes a file under efi/, or a file under arch/ includes a file
            under pmu/ or efi/ (quoted includes only; <...> system headers are not ours).
  folder:   a file directly in a folder of FOLDER_RULES includes a file that folder's row does
            not allow (the README's Layout table, "may include"): the row lists folders whose
            files it may include ("efi/fw/"), whole trees ("pmu/**") and single headers
            ("efi/out/jsonl.h"). A folder with no row has only the layer rule.
  include:  a cycle of quoted includes, of any length, among the files under efi/, pmu/, arch/
            and tests/ (a header including a header that includes it back is the short case).
  calls:    two .c files under efi/, pmu/ and arch/ where each uses a non-static function or
            object the other defines. A definition is found by a regex over the source with
            comments, strings and preprocessor lines removed (one at column 0, not static);
            a use is any identifier token. The two
            alternative arch/x86_64/ and arch/aarch64/ builds are never linked together, so a
            pair with one file in each is not compared.

Exits 0 when nothing was found, 1 otherwise.
"""
import fnmatch
import os
import re
import sys

LAYERS = ("efi", "pmu", "arch")
INCLUDE_DIRS = LAYERS + ("tests",)
# What a file in the key's folder may not include.
FORBIDDEN = {"pmu": ("efi",), "arch": ("pmu", "efi")}
ALTERNATIVES = ("arch/x86_64/", "arch/aarch64/")

# What the files directly in a folder may include besides system headers (the README's Layout
# table). "X/" is a file directly in folder X, "X/**" one anywhere under X, anything else one
# file. Rules on the way down: config and fw are parsers over bytes and strings; pcie and nvme
# drive hardware through arch/hw.h only; measure runs traffic and counters; out writes records
# from result structs; efi/ itself (entry, firmware services, the run) may use everything.
ARCH_IF = ("arch/", "arch/lib/", "arch/regs/")
# efi/'s own services a measurement may use: the platform and discovery results it runs on, the
# CPU sets, pool and page allocation, the cleanups, and MP services (window.c, measure.c and
# loop_measure.c still start CPUs through efi/mp.h; the window-ops struct is to replace that).
EFI_SERVICES = ("efi/platform.h", "efi/discovery.h", "efi/cpus.h", "efi/pages.h", "efi/cleanup.h", "efi/mp.h")
FOLDER_RULES = {
    "arch/lib": ("arch/lib/",),
    "arch/regs": ("arch/regs/",),
    # the config and its keys' value syntax: the owners' pure parsers of NVMe lists, DDIO sweep
    # sizes and kernel names, the check-expression parser, and the JSON writer for cfg_to_json
    "efi/config": ("efi/config/", "arch/lib/", "efi/nvme/nvme_params.h", "efi/measure/ddio.h", "arch/kernel.h",
                   "efi/verdict/check.h", "efi/out/jsonl.h"),
    "efi/fw": ("efi/fw/", "arch/", "arch/lib/", "efi/out/jsonl.h", "efi/out/report.h"),
    "efi/pcie": ("efi/pcie/", "efi/fw/", "efi/out/jsonl.h", "pmu/**") + ARCH_IF,
    "efi/nvme": ("efi/nvme/", "efi/config/bdf.h", "efi/config/config_value.h", "efi/measure/dma_pattern.h") + ARCH_IF,
    "efi/verdict": ("efi/verdict/", "efi/config/", "efi/out/", "arch/lib/", "efi/pages.h"),
    "efi/out": ("efi/out/", "pmu/**", "efi/fw/", "efi/pcie/", "efi/measure/*_run.h", "efi/measure/ddio.h") + ARCH_IF,
    "efi/measure": ("efi/measure/", "efi/config/", "efi/fw/", "efi/pcie/", "efi/nvme/", "efi/out/", "efi/verdict/",
                    "pmu/**", "arch/**") + EFI_SERVICES,
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
COMMENT_RE = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING_RE = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
PREPROC_RE = re.compile(r'^\s*#(?:[^\n]*\\\n)*[^\n]*', re.M)
# A definition at column 0: return type words (not "static"), the name, a parameter list
# without ';', '{' or '}', optional attributes, then the body's '{'.
DEF_RE = re.compile(r'^(?!static\b)(?!typedef\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*'
                    r'\(([^;{}()]|\([^;{}()]*\))*\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)*\{',
                    re.M)
# A non-static object defined at file scope, at column 0: "type name[...] = ..." or "type name;".
DATA_RE = re.compile(r'^(?!static\b|extern\b|typedef\b|return\b)[A-Za-z_][\w \t\*]*?[\s\*]'
                     r'([A-Za-z_]\w*)\s*(?:\[[^\];]*\]\s*)*(?:=|;)', re.M)
# Any function definition, static too: a file's own static helper is no use of another file's.
LOCAL_DEF_RE = re.compile(r'^static\b[\w \t\*]*?\b([A-Za-z_]\w*)\s*\(', re.M)
IDENT_RE = re.compile(r'\b[A-Za-z_]\w*\b')
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "else", "do"}


def sources(root, dirs, exts):
    out = []
    for d in dirs:
        for base, subdirs, files in os.walk(os.path.join(root, d)):
            subdirs.sort()
            for f in sorted(files):
                if f.endswith(exts):
                    out.append(os.path.relpath(os.path.join(base, f), root))
    return out


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def resolve(root, rel, inc):
    """The repository path a quoted include names: beside the file, else from the root."""
    for cand in (os.path.join(os.path.dirname(rel), inc), inc):
        cand = os.path.normpath(cand)
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def include_graph(root, files):
    graph = {}
    for rel in files:
        graph[rel] = []
        for inc in INCLUDE_RE.findall(read(root, rel)):
            target = resolve(root, rel, inc)
            if target:
                graph[rel].append(target)
    return graph


def layer_violations(graph):
    out = []
    for rel, targets in sorted(graph.items()):
        top = rel.split("/")[0]
        for t in targets:
            if t.split("/")[0] in FORBIDDEN.get(top, ()):
                out.append("layer: %s includes %s (%s/ may not include %s/)"
                           % (rel, t, top, t.split("/")[0]))
    return out


def allowed(rule, target):
    folder = os.path.dirname(target) + "/"
    for entry in rule:
        if entry.endswith("/**"):
            if target.startswith(entry[:-2]):
                return True
        elif entry.endswith("/"):
            if folder == entry:
                return True
        elif "*" in entry:
            if fnmatch.fnmatchcase(target, entry) and folder == os.path.dirname(entry) + "/":
                return True
        elif target == entry:
            return True
    return False


def folder_violations(graph):
    out = []
    for rel, targets in sorted(graph.items()):
        rule = FOLDER_RULES.get(os.path.dirname(rel))
        if rule is None:
            continue
        for t in targets:
            if not allowed(rule, t):
                out.append("folder: %s includes %s (%s/ may include %s)"
                           % (rel, t, os.path.dirname(rel), ", ".join(rule)))
    return out


def include_cycles(graph):
    """Every strongly connected component of more than one file (or a file including itself),
    reported as one cycle through it."""
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def strongconnect(v):
        # Iterative Tarjan: include graphs are small but recursion depth is not worth risking.
        work = [(v, iter(graph.get(v, ())))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(graph.get(w, ()))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                sccs.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)

    out = []
    for comp in sccs:
        if len(comp) == 1 and comp[0] not in graph.get(comp[0], ()):
            continue
        members = set(comp)
        # One concrete cycle: breadth-first from the first member back to itself.
        start = comp[0]
        prev, frontier, found = {}, [start], None
        while frontier and not found:
            nxt = []
            for n in frontier:
                for w in sorted(graph.get(n, ())):
                    if w not in members:
                        continue
                    if w == start:
                        found = n
                        break
                    if w not in prev:
                        prev[w] = n
                        nxt.append(w)
                if found:
                    break
            frontier = nxt
        path = [start]
        n = found
        while n is not None and n != start:
            path.insert(1, n)
            n = prev.get(n)
        out.append("include: cycle %s -> %s" % (" -> ".join(path), start))
    return out


def strip(text):
    text = COMMENT_RE.sub(" ", text)
    text = STRING_RE.sub('""', text)
    return PREPROC_RE.sub(" ", text)


def call_cycles(root, files):
    defs, uses = {}, {}
    for rel in files:
        code = strip(read(root, rel))
        defs[rel] = ({m.group(1) for m in DEF_RE.finditer(code)} |
                     {m.group(1) for m in DATA_RE.finditer(code)}) - KEYWORDS
        local = {m.group(1) for m in LOCAL_DEF_RE.finditer(code)}
        uses[rel] = set(IDENT_RE.findall(code)) - defs[rel] - local
    out = []
    for i, a in enumerate(files):
        for b in files[i + 1:]:
            if any(a.startswith(x) for x in ALTERNATIVES) and \
               any(b.startswith(y) for y in ALTERNATIVES) and \
               a.split("/")[1] != b.split("/")[1]:
                continue
            ab = sorted(uses[a] & defs[b])
            ba = sorted(uses[b] & defs[a])
            if ab and ba:
                out.append("calls: %s uses %s from %s; %s uses %s from %s"
                           % (a, ", ".join(ab), b, b, ", ".join(ba), a))
    return out


def check(root):
    graph = include_graph(root, sources(root, INCLUDE_DIRS, (".c", ".h", ".S")))
    return layer_violations(graph) + folder_violations(graph) + include_cycles(graph) + \
        call_cycles(root, sources(root, LAYERS, (".c",)))


# A tree with one violation of each kind, and things that must not count: a static function
# (z.c's own fb, while y.c, which defines another fb, uses z.c's fz), a name in a comment or a
# string, the same name defined in both alternative arch builds.
SELF_TEST_TREE = {
    "efi/a/a.h": '#include "efi/a/b.h"\n',
    "efi/a/b.h": '#include "c.h"\n',
    "efi/a/c.h": '#include "efi/a/a.h"\n',
    "pmu/p.h": '#include "efi/a/a.h"\n#include <efi.h>\n',
    "arch/r.h": '#include "pmu/p.h"\n',
    "arch/lib/l.h": '#include "arch/lib/m.h"\n#include "arch/r.h"\n',
    "arch/lib/m.h": '#include <stdint.h>\n',
    "efi/a/x.c": 'static int s(void) { return 0; }\nint fa(int x)\n{\n\treturn fb(x) + tbl[0];\n}\n',
    "efi/a/y.c": 'const int tbl[2] = { 1, 2 };\nint fb(int x) { return fa(x) + fz(); }\n',
    "efi/a/z.c": '/* fa fb */\nstatic int fb(void) { return 1; }\nint fz(void) { return s() + fb(); }\n'
                 'const char *n = "fa";\n',
    "arch/x86_64/k.c": 'int arch_f(void) { return arch_g(); }\nint arch_g(void) { return 1; }\n',
    "arch/aarch64/k.c": 'int arch_f(void) { return arch_g(); }\nint arch_g(void) { return 1; }\n',
}
SELF_TEST_EXPECT = [
    "layer: arch/r.h includes pmu/p.h (arch/ may not include pmu/)",
    "layer: pmu/p.h includes efi/a/a.h (pmu/ may not include efi/)",
    "folder: arch/lib/l.h includes arch/r.h (arch/lib/ may include arch/lib/)",
    "include: cycle efi/a/a.h -> efi/a/b.h -> efi/a/c.h -> efi/a/a.h",
    "calls: efi/a/x.c uses fb, tbl from efi/a/y.c; efi/a/y.c uses fa from efi/a/x.c",
]


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        for rel, text in SELF_TEST_TREE.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        found = check(root)
    if found != SELF_TEST_EXPECT:
        print("layering self-test FAILED:\n  found:\n    %s\n  expected:\n    %s"
              % ("\n    ".join(found), "\n    ".join(SELF_TEST_EXPECT)))
        return 1
    print("layering self-test: %d violations found as expected" % len(found))
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    found = check(root)
    for line in found:
        print(line)
    print("layering: %d violation(s)" % len(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
