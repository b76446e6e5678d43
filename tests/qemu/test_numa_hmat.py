# SPDX-License-Identifier: BSD-2-Clause
# The firmware's claims beside the measured NUMA matrix: QEMU 7.2 builds an HMAT from
# "-machine hmat=on" and "-numa hmat-lb" (qemu-options: latency in ns, bandwidth in bytes/s;
# HMAT gives ps and MB/s, QEMU dividing bandwidth by 2^20, ACPI 6.5 5.2.28.4) and a SLIT from
# "-numa dist" (ACPI 6.5 5.2.17: 10 local). Each measured cell carries the claims for its
# (CPU node, memory node) with measured / claimed; the health object rides on each read window.
import pytest
from efiperf_qemu import boot, cfg_text, make_image

x86_64 = pytest.mark.x86_64

NODES = ["-machine", "hmat=on",
         "-object", "memory-backend-ram,id=m0,size=256M", "-object", "memory-backend-ram,id=m1,size=256M",
         "-numa", "node,nodeid=0,cpus=0-1,memdev=m0,initiator=0", "-numa", "node,nodeid=1,cpus=2-3,memdev=m1,initiator=1",
         "-numa", "dist,src=0,dst=1,val=21"]
LAT_NS = {(0, 0): 90, (0, 1): 140, (1, 0): 140, (1, 1): 90}
BW_BYTES = {(0, 0): 20 << 30, (0, 1): 10 << 30, (1, 0): 10 << 30, (1, 1): 20 << 30}


@x86_64
def test_hmat_claims_beside_numa_matrix(scratch, figure):
    d = scratch()
    extra = list(NODES)
    for (i, t), v in LAT_NS.items():
        extra += ["-numa", "hmat-lb,initiator=%d,target=%d,hierarchy=memory,data-type=access-latency,latency=%d" % (i, t, v)]
    for (i, t), v in BW_BYTES.items():
        extra += ["-numa", "hmat-lb,initiator=%d,target=%d,hierarchy=memory,data-type=access-bandwidth,bandwidth=%d" % (i, t, v)]
    cfg = {"copy_size": "4M", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000", "cpus": "all",
           "numa_matrix": "on", "numa_size": "1M", "loaded_latency": "on", "loaded_size": "1M", "loaded_delays": "0"}
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, smp=4, extra=extra)
    run.expect_ok()
    nm = run.one("numa_matrix")
    assert nm["hmat_why"] is None, nm["hmat_why"]
    assert len(nm["cells"]) == 4, nm["cells"]
    lines = []
    for c in nm["cells"]:
        key = (c["cpu_node"], c["memory_node"])
        got = {k["claim"]: k for k in c["claims"]}
        assert sorted(got) == ["access_bandwidth", "access_latency"], (key, c["claims"])
        lat, bw = got["access_latency"], got["access_bandwidth"]
        assert (lat["unit"], lat["claimed"]) == ("ps", LAT_NS[key] * 1000), (key, lat)
        assert (bw["unit"], bw["claimed"]) == ("MB/s", BW_BYTES[key] >> 20), (key, bw)
        # measured: the matrix's own numbers in the claim's unit, the fraction their quotient
        ns = nm["latency_ns"][key[0]][key[1]]
        assert abs(lat["measured"] - ns * 1000) <= 1, (key, lat, ns)
        assert abs(lat["fraction"] - lat["measured"] / lat["claimed"]) < 0.002, (key, lat)
        assert abs(bw["fraction"] - bw["measured"] / bw["claimed"]) < 0.002, (key, bw)
        s = c["slit"]
        assert s["distance"] == (10 if key[0] == key[1] else 21) and s["claimed_ratio"] == s["distance"] / 10, (key, s)
        if key[0] == key[1]:
            assert s["measured_ratio"] == 1, (key, s)
        h = c["health"]
        assert {"aer", "mca", "energy", "freq"} <= set(h) and "absent" in h["aer"], (key, h)
        lines.append("%d->%d latency %s of %d ns claimed, read %s of %d MB/s claimed" % (
            key + (lat["fraction"], LAT_NS[key], bw["fraction"], BW_BYTES[key] >> 20)))
    # the loaded latency's idle point beside node 0's claim to its own memory
    ll = run.one("loaded_latency")
    assert ll["hmat_why"] is None, ll["hmat_why"]
    (k,) = ll["idle_claims"]
    idle = ll["points"][0]
    assert idle["delay"] is None and (k["claim"], k["claimed"]) == ("access_latency", LAT_NS[(0, 0)] * 1000), ll["idle_claims"]
    assert abs(k["measured"] - idle["ns_per_load"] * 1000) <= 1 and abs(k["fraction"] - k["measured"] / k["claimed"]) < 0.002, (k, idle)
    assert all({"mca", "energy", "freq"} <= set(p["health"]) for p in ll["points"]), ll["points"]
    lines.append("loaded idle %s of %d ns claimed" % (k["fraction"], LAT_NS[(0, 0)]))
    figure("HMAT claims beside the NUMA matrix (TCG)", lines)


@x86_64
def test_no_hmat_named(scratch):
    d = scratch()
    cfg = {"copy_size": "4M", "copy_passes": "1", "pcie": "off", "loop_iterations": "1000", "cpus": "all",
           "numa_matrix": "on", "numa_size": "1M"}
    run = boot("x86_64", make_image("x86_64", d, cfg_text("x86_64", cfg)), d, smp=4, extra=NODES[2:6] + [
        "-numa", "node,nodeid=0,cpus=0-1,memdev=m0", "-numa", "node,nodeid=1,cpus=2-3,memdev=m1"])
    run.expect_ok()
    nm = run.one("numa_matrix")
    assert nm["hmat_why"] == "no ACPI HMAT", nm["hmat_why"]
    assert all(c["claims"] == [] and c["slit"] is None for c in nm["cells"]), nm["cells"]
    assert all({"mca", "energy", "freq"} <= set(c["health"]) for c in nm["cells"]), nm["cells"]
