# SPDX-License-Identifier: BSD-2-Clause
"""QEMU tests of the `cpus` setting and NUMA-local buffers: CPU lists, ranges and
sockets resolved against MP services; each CPU's buffers inside its own SRAT node's memory;
a `cpus` naming CPUs the machine lacks ends the run as a configuration error."""
import pytest

from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64


# Two sockets of two CPUs, each socket its own NUMA node of 256 MiB (QEMU builds the SRAT from
# -numa: CPUs 0-1 and [0, 256M) on node 0, CPUs 2-3 and [256M, 512M) on node 1).
TWO_NODES = ["-object", "memory-backend-ram,id=m0,size=256M", "-object", "memory-backend-ram,id=m1,size=256M",
             "-numa", "node,nodeid=0,cpus=0-1,memdev=m0", "-numa", "node,nodeid=1,cpus=2-3,memdev=m1"]
TWO_SOCKETS = "4,sockets=2,cores=2,threads=1"
SMALL = {"copy_size": "4M", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000"}


def node_ranges(run):
    """{node: [(start, end)]} from the run's own acpi record (SRAT memory affinity)."""
    out = {}
    for r in (run.one("acpi").get("srat") or {}).get("memory", []):
        start = int(r["base"], 16)
        out.setdefault(r["domain"], []).append((start, start + int(r["length"], 16)))
    return out


def inside(addr, size, ranges):
    return any(lo <= addr and addr + size <= hi for lo, hi in ranges)


@x86_64
def test_cpus_list_socket_numa_local(scratch, figure):
    d = scratch()
    cfg = dict(SMALL, cpus="1, socket1", stream="on", stream_size="1M", stream_passes="1")
    img = make_image("x86_64", d, cfg_text("x86_64", cfg))
    run = boot("x86_64", img, d, smp=TWO_SOCKETS, extra=TWO_NODES)
    run.expect_ok()
    sel = run.one("cpus")
    got = [(c["cpu"], c["package"], c["node"]) for c in sel.get("selected", [])]
    # QEMU numbers CPUs socket-major: CPUs 2 and 3 are socket 1, and -numa put them on node 1
    assert got == [(1, 0, 0), (2, 1, 1), (3, 1, 1)], "cpus '1, socket1' gave (cpu, package, node) %s" % got
    assert sel.get("numa") == "SRAT", "cpus.numa %r" % sel.get("numa")
    nodes = node_ranges(run)
    assert sorted(nodes) == [0, 1], "SRAT memory nodes %s" % nodes
    meas = run.one("measurement")
    per = meas["passes"][0]["per_cpu"]
    assert [c["cpu"] for c in per] == [1, 2, 3], "copy ran on CPUs %s" % [c["cpu"] for c in per]
    size = meas["buffer_bytes"]
    for c in per:
        addr = int(c["buffer"], 16)
        assert c.get("node_local") is True and inside(addr, size, nodes[c["node"]]), ("CPU %s: copy buffer %s (+%d) not inside node %s %s" % (c["cpu"], c["buffer"], size, c["node"],
                                                                 [(hex(a), hex(b)) for a, b in nodes[c["node"]]]))
    streams = run.of("stream")
    assert len(streams) == 6, "stream records: %d" % len(streams)
    for s in streams:
        assert [c["cpu"] for c in s["per_cpu"]] == [1, 2, 3] and s.get("cpus") == 3, "%s per-CPU %s" % (s["function"], s["per_cpu"])
        for c in s["per_cpu"]:
            assert c["node_local"] is True and inside(int(c["buffer"], 16), s["array_bytes"], nodes[c["node"]]), "%s CPU %s array %s outside node %s" % (s["function"], c["cpu"], c["buffer"], c["node"])
        nf = s.get("noise_floor") or {}
        assert nf.get("interrupts_masked") is True and isinstance(nf.get("ns"), int), "%s noise floor %s" % (s["function"], nf)
    figure("cpus = 1, socket1 (2 sockets, 2 NUMA nodes)", "CPUs %s on nodes %s; copy buffers %s" % (
        [c["cpu"] for c in per], [c["node"] for c in per], [c["buffer"] for c in per]))


@x86_64
def test_cpus_range_without_srat(scratch):
    d = scratch()
    img = make_image("x86_64", d, cfg_text("x86_64", dict(SMALL, cpus="2-3")))
    run = boot("x86_64", img, d, smp=4)
    run.expect_ok()
    sel = run.one("cpus")
    assert [c["cpu"] for c in sel["selected"]] == [2, 3], "cpus 2-3 selected %s" % sel["selected"]
    # no -numa: QEMU writes no SRAT, so the buffers come from anywhere and the record says so
    assert sel.get("numa", "").startswith("no SRAT") and all(c["node"] is None for c in sel["selected"]), "cpus record %s" % sel
    per = run.one("measurement")["passes"][0]["per_cpu"]
    assert [c["cpu"] for c in per] == [2, 3] and not any(c["node_local"] for c in per), "per-CPU %s" % per


@x86_64
def test_cpus_absent_cpu_is_a_config_error(scratch, figure):
    d = scratch()
    text = cfg_text("x86_64", dict(SMALL, cpus="0,2-5"))
    line = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith("cpus")][0]
    img = make_image("x86_64", d, text)
    run = boot("x86_64", img, d, smp=4)
    assert run.rc == 1 and run.qemu_exit == 0, "qemu.sh %s, QEMU %s: expected status error and power-off" % (run.rc, run.qemu_exit)
    errs = [e["message"] for e in run.of("error") if e.get("where") == "config"]
    assert errs and "efiperf.cfg:%d" % line in errs[0] and "CPU 4 does not exist" in errs[0] and "0..3" in errs[0], "no config error naming the line, CPU 4 and the CPUs there are: %s" % run.of("error")
    assert not run.of("measurement") and not run.of("cpus"), "measurements ran after the cpus error"
    figure("cpus = 0,2-5 on -smp 4", errs[0])
