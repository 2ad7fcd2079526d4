#!/usr/bin/env python3
"""examples/python-policy: a bandwidth-sharing policy written in Python, registered in libiosim at run time and used
by name in a scenario (libiosim's Python module `iosim`, docs/library.md). Every number it prints is computed by hand in
README.md.

usage: example.py OUTPUT_DIR   (the runs write their outputs into OUTPUT_DIR/fairshare and OUTPUT_DIR/weighted)"""
import os
import sys

import iosim


def weighted_by_nodes(view):
    """A weighted proportional share: transfer i gets B * p_i / sum(p), its application's share of the compute nodes
    of the applications doing I/O on this resource, and at most its cap. What is left unused by a capped transfer
    is not given to the others (a rate never exceeds its share)."""
    transfers = view["transfers"]
    total = sum(t["nodes"] for t in transfers)
    return [min(t["cap"], view["capacity"] * t["nodes"] / total) for t in transfers]


iosim.register_sharing("weighted-nodes", weighted_by_nodes, description="B * p_i / sum(p), capped",
                       source="examples/python-policy")

# One decision, called directly: a 1 GB/s resource, applications of 1 and 3 nodes, both capped at 1 GB/s.
rates = iosim.share("weighted-nodes", 1e9, [{"nodes": 1, "cap": 1e9}, {"nodes": 3, "cap": 1e9}])
print("one decision (GB/s):", " ".join(f"{r / 1e9:.2f}" for r in rates))

# The same policy by name in a scenario, beside FairShare (RR-9502 §4.1).
here = os.path.dirname(os.path.abspath(__file__))
for policy, name in (("fairshare", "fairshare"), ("weighted-nodes", "weighted")):
    scenario = iosim.Scenario(os.path.join(here, "scenario.json"),
                              sets=[f"sharing.policy={policy}", f"output.dir={os.path.join(sys.argv[1], name)}"])
    results = scenario.run()
    times = ", ".join(f"{a['name']} {a['io_time_s']:.4f} s" for a in results.apps)
    print(f"{policy}: {results.status}, makespan {results.metric('makespan_s'):.4f} s; I/O time {times}")
