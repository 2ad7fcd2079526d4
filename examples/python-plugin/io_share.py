#!/usr/bin/env python3
"""python-plugin: a Python SimGrid simulation (python3-simgrid) with iosim's I/O controller plugged in, and the
bandwidth-sharing policy written in Python.

usage: io_share.py PLATFORM.xml [by-nodes|fairshare]

Two applications share the machine's one I/O node: "big" (3 nodes) and "small" (1 node). Each computes 2 s (its own
SimGrid execution), then writes its output through iosim: big 3 GB, small 0.5 GB. The sharing policy `by-nodes`,
defined below in Python, gives each pending transfer a share of the I/O node in proportion to its application's node
count; `fairshare` is iosim's own equal share. README.md computes every date by hand.
"""
import sys

import iosim
import simgrid


def by_nodes(view):
    """The rates of one resource's pending transfers (bytes/s): the resource's capacity in proportion to each
    application's compute nodes, each at most its cap (what its application's bandwidth allows per resource)."""
    transfers = view["transfers"]
    nodes = sum(t["nodes"] for t in transfers)
    return [min(t["cap"], view["capacity"] * t["nodes"] / nodes) for t in transfers]


def application(app, hosts, flops, volume):
    app.begin(hosts)
    simgrid.this_actor.execute(flops)
    app.write(volume)
    app.end()


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: io_share.py PLATFORM.xml [by-nodes|fairshare]")
    policy = sys.argv[2] if len(sys.argv) > 2 else "by-nodes"
    iosim.register_sharing("by-nodes", by_nodes, description="shares in proportion to the applications' nodes",
                           source="examples/python-plugin")
    # iosim's rates hold on CM02 without cross-traffic (docs/library.md): SimGrid's own --cfg settings
    e = simgrid.Engine(["io_share.py", "--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                        "--log=root.thres:critical"])
    e.load_platform(sys.argv[1])
    iosim.plugin_init({"allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": policy}})
    big = iosim.app_declare("big", 3, volume=3e9, work=2)
    small = iosim.app_declare("small", 1, volume=0.5e9, work=2)
    simgrid.Actor.create("big", e.host_by_name("n0"), application, big, ["n0", "n1", "n2"], 2e9, 3e9)
    simgrid.Actor.create("small", e.host_by_name("n3"), application, small, ["n3"], 2e9, 0.5e9)
    e.run()
    iosim.plugin_finish()
    for app in (big, small):
        print(f"{app.name}: end {app.metric('end_s'):.6g} s, I/O time {app.metric('io_time_s'):.6g} s")
    print(f"{policy}: total I/O time {iosim.plugin_metric('total_io_time_s'):.6g} s")


if __name__ == "__main__":
    main()
