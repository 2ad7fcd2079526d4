#!/usr/bin/env python3
"""A site's year at scale (issue 29, "Scale"): 20,000 jobs from the six Darshan sample logs on a hand-written-style
10,000-node SimGrid platform with 1,000 OSTs, through the job queue; wall time and peak RSS of one `iosim run`.

The inputs, all generated under --work (default build/bench-site-year, git-ignored) and reproducible:
 * workload: `iosim generate darshan $IOSIM_DATA_DIR/darshan-logs` gives the six logs as six applications (log j,
   j = 0..5 in the generator's order). Job k (k = 0 .. JOBS-1) is copy i = k // 6 of log j = k % 6, named
   `<log>-<i>`, with the log's phases and node count unchanged and its release replaced by a date drawn uniformly in
   [0, 365 days) by Python's random.Random(SEED) (SEED = 29 unless --seed), one draw per job in k order; the jobs are
   written in k order (the queue orders them by release).
 * platform: site-10000n-1000ost.xml, the layout of test/fixtures/site-64n-8ost.xml scaled up (platforms/README.md):
   a `<cluster>` of 10,000 compute nodes, each with its own 1 GB/s link (`bw`, and `nic_bw` 1GBps) on a 10 TB/s
   backbone; a 3 TB/s core link to the storage zone; 250 OSS hosts (12.5 GB/s link each) with 4 OSTs each, 1.5 GB/s
   per OST (1,000 OSTs, 1.5 TB/s in all), every OST's route crossing its OSS's link and its own.
   `--layout racked`: site-10000n-1000ost-100racks.xml, the same nodes (node0 .. node9999) and storage, the nodes
   cabled in 100 racks as real machines are: rack r is a `<cluster>` of the 100 nodes node{100r} .. node{100r+99}, each
   with its own 1 GB/s link, on the rack's own 1 TB/s backbone, and an uplink of 120 GB/s (more than its 100 nodes'
   links together, so it never binds here) from the rack's router to the storage zone, then the 3 TB/s core link.
   `both` (the default) runs the two layouts in one run and prints the racked run's wall over the flat one's (target
   <= 1.5x) and the largest relative difference of a job's I/O time between them (target: the same I/O times, 1e-9).
 * scenario: that platform and workload, `"queue": {"enabled": true}`, allocation, placement and sharing as
   docs/whatif/site.json (fixed, greedy-non-clairvoyant, maxmin), no events output. `--sharing fairshare` runs the
   same year under a policy that sets every rate itself (the direct path when no link can bind, docs/engine.md);
   `--flows simgrid` forces the flow path. `--node-groups off` runs it with one SimGrid flow per node of a job and
   resource (IOSIM_NODE_GROUPS=0: no node groups, docs/engine.md); `both` runs each policy both ways, side by side,
   and prints the largest relative difference of a job's I/O time between the two.

Prints one Markdown table row per run: layout, sharing, jobs, node groups, transfer path, events, SimGrid flows
started, wall s (the whole process), CPU s (its user + system time, getrusage of the child: what a busy machine's load
does not inflate), engine s (results.json's wall_time_s), peak RSS MB (getrusage of the child), total I/O time
(results.json's total_io_time_s), makespan, and whether it meets the targets (<= 60 s, <= 2,048 MB).

`--repeat N` runs every row N times, the layouts taking turns, and compares the median times (`make bench`: 3).

Usage: analysis/bench_site_year.py [--jobs 20000] [--seed 29] [--sharing maxmin|fairshare|...]... [--flows auto|simgrid]
                                   [--node-groups on|off|both] [--layout flat|racked|both] [--work DIR] [--keep]
                                   [--repeat N]
Environment: IOSIM_BIN (default build/iosim), IOSIM_DATA_DIR (default ../shared/datasets).
"""
import argparse
import csv
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
YEAR_S = 365 * 86400
NODES, SERVERS, OSTS_PER_SERVER = 10000, 250, 4
TARGET_WALL_S, TARGET_RSS_MB = 60.0, 2048.0
RACKS, RACK_BB, RACK_UPLINK = 100, "1TBps", "120GBps"  # --layout racked: 100 nodes of 1 GB/s under each uplink
TARGET_RACKED_RATIO = 1.5  # racked wall at most 1.5x the flat one (issue 41)


def platform_xml(path, racks=0):
    """Writes the 10,000-node, 1,000-OST platform (module docstring) to path: flat (racks 0), or its nodes in `racks`
    racks of NODES // racks nodes each (module docstring, --layout racked)."""
    osts = SERVERS * OSTS_PER_SERVER
    shape = f"{NODES} compute nodes" if racks == 0 else f"{racks} racks of {NODES // racks} compute nodes"
    out = ["<?xml version='1.0'?>", '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           f"<!-- written by analysis/bench_site_year.py: {shape} with 1 GB/s links, {SERVERS} OSS x "
           f"{OSTS_PER_SERVER} OSTs of 1.5 GB/s -->",
           '<platform version="4.1">', '  <zone id="site" routing="Full">']
    if racks == 0:
        out += [f'    <cluster id="compute" prefix="node" suffix="" radical="0-{NODES - 1}" speed="1Gf" bw="1GBps"'
                ' lat="0"', '             bb_bw="10TBps" bb_lat="0" router_id="compute_router">',
                '      <prop id="role" value="compute"/>', '      <prop id="nic_bw" value="1GBps"/>', "    </cluster>"]
    else:
        per = NODES // racks
        for r in range(racks):
            out += [f'    <cluster id="rack{r}" prefix="node" suffix="" radical="{r * per}-{(r + 1) * per - 1}"'
                    ' speed="1Gf" bw="1GBps" lat="0"',
                    f'             bb_bw="{RACK_BB}" bb_lat="0" router_id="rack{r}_router">',
                    '      <prop id="role" value="compute"/>', '      <prop id="nic_bw" value="1GBps"/>',
                    "    </cluster>"]
        out += [f'    <link id="uplink{r}" bandwidth="{RACK_UPLINK}" latency="0"/>' for r in range(racks)]
    out += ['    <link id="core" bandwidth="3TBps" latency="0"/>',
            '    <link id="controller_link" bandwidth="100GBps" latency="0"/>']
    out += [f'    <link id="oss{s}" bandwidth="12.5GBps" latency="0"/>' for s in range(SERVERS)]
    out += [f'    <link id="ost{o}" bandwidth="1.5GBps" latency="0"/>' for o in range(osts)]
    out += ['    <zone id="storage" routing="Full">',
            '      <host id="controller" speed="1Gf"><prop id="role" value="controller"/></host>']
    out += [f'      <host id="oss{s}" speed="1Gf"><prop id="role" value="oss"/><prop id="link" value="oss{s}"/></host>'
            for s in range(SERVERS)]
    out += [f'      <host id="ost{o}" speed="1Gf"><prop id="role" value="ost"/><prop id="link" value="ost{o}"/></host>'
            for o in range(osts)]
    out += ['      <router id="fabric"/>',
            '      <route src="fabric" dst="controller"><link_ctn id="controller_link"/></route>']
    out += [f'      <route src="fabric" dst="oss{s}"><link_ctn id="oss{s}"/></route>' for s in range(SERVERS)]
    out += [f'      <route src="fabric" dst="ost{o}"><link_ctn id="oss{o // OSTS_PER_SERVER}"/>'
            f'<link_ctn id="ost{o}"/></route>' for o in range(osts)]
    out += ["    </zone>"]
    if racks == 0:
        out += ['    <zoneRoute src="compute" dst="storage" gw_src="compute_router" gw_dst="fabric">'
                '<link_ctn id="core"/></zoneRoute>']
    else:
        out += [f'    <zoneRoute src="rack{r}" dst="storage" gw_src="rack{r}_router" gw_dst="fabric">'
                f'<link_ctn id="uplink{r}"/><link_ctn id="core"/></zoneRoute>' for r in range(racks)]
    out += ["  </zone>", "</platform>"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def workload_json(binary, data_dir, path, jobs, seed):
    """Writes the year's jobs (module docstring) to path; returns the six logs' names."""
    logs_json = path + ".logs.json"
    subprocess.run([binary, "generate", "darshan", os.path.join(data_dir, "darshan-logs"), "-o", logs_json],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    logs = json.load(open(logs_json))
    rng = random.Random(seed)
    apps = []
    for k in range(jobs):
        i, j = divmod(k, len(logs))
        app = dict(logs[j], name=f"{logs[j]['name']}-{i}", release=rng.uniform(0.0, YEAR_S))
        apps.append(app)
    with open(path, "w") as f:
        json.dump(apps, f)
    return [a["name"] for a in logs]


def run(binary, scenario, out, sets, node_groups=True):
    cmd = [binary, "run", scenario, "--out", out] + [x for s in sets for x in ("--set", s)]
    env = dict(os.environ)
    env.pop("IOSIM_NODE_GROUPS", None)
    if not node_groups:
        env["IOSIM_NODE_GROUPS"] = "0"
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_site_year.py: {' '.join(cmd)} failed:\n{err}")
    cpu = usage.ru_utime + usage.ru_stime  # the child's CPU seconds: what a busy machine's load does not inflate
    return wall, cpu, usage.ru_maxrss / 1024, json.load(open(os.path.join(out, "results.json")))


def io_times(out):
    """{job name: io_time_s} from a run's apps.csv."""
    with open(os.path.join(out, "apps.csv"), newline="") as f:
        return {row["name"]: float(row["io_time_s"]) for row in csv.DictReader(f)}


def largest_difference(a, b):
    """The largest |a - b| / max(|a|, |b|) over the jobs of both runs (0 when equal)."""
    worst = 0.0
    for name, x in a.items():
        y = b[name]
        scale = max(abs(x), abs(y))
        if scale > 0:
            worst = max(worst, abs(x - y) / scale)
    return worst


def median_times(times):
    """The median wall and the median CPU seconds of a list of (wall, CPU) pairs."""
    return statistics.median(w for w, _ in times), statistics.median(c for _, c in times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--sharing", action="append", help="sharing policy (repeatable; default maxmin as site.json)")
    ap.add_argument("--flows", default="auto", choices=["auto", "simgrid"])
    ap.add_argument("--node-groups", default="on", choices=["on", "off", "both"],
                    help="one flow per resource for a job's alike nodes (on, the default), one per node (off), or both")
    ap.add_argument("--layout", default="both", choices=["flat", "racked", "both"],
                    help="the nodes in one <cluster> (flat), in 100 racks of 100 (racked), or both in one run "
                         "(the default)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "bench-site-year"))
    ap.add_argument("--keep", action="store_true", help="keep the run's output directories under --work")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run every row this many times, the layouts taking turns (flat, racked, flat, ...); the "
                         "racked / flat ratio is then of the median times (a shared machine's times vary by 1.5x "
                         "from one run to the next)")
    a = ap.parse_args()
    if a.repeat < 1:
        sys.exit(f"bench_site_year.py: --repeat {a.repeat}: give 1 or more")
    a.work = os.path.abspath(a.work)
    binary = os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim"))
    data_dir = os.environ.get("IOSIM_DATA_DIR", os.path.join(ROOT, "..", "shared", "datasets"))
    if not os.path.isdir(os.path.join(data_dir, "darshan-logs")):
        sys.exit(f"bench_site_year.py: {data_dir}/darshan-logs not found: set IOSIM_DATA_DIR to the datasets "
                 "directory (traces/README.md)")
    os.makedirs(a.work, exist_ok=True)
    wl = os.path.join(a.work, f"year-{a.jobs}-seed{a.seed}.json")
    logs = workload_json(binary, data_dir, wl, a.jobs, a.seed)
    layouts = ["flat", "racked"] if a.layout == "both" else [a.layout]
    scenarios = {}
    for lay in layouts:
        racks = RACKS if lay == "racked" else 0
        plat = os.path.join(a.work, f"site-{NODES}n-{SERVERS * OSTS_PER_SERVER}ost" +
                            (f"-{racks}racks" if racks else "") + ".xml")
        platform_xml(plat, racks)
        scenario = os.path.join(a.work, "site-year.json" if lay == "flat" else f"site-year-{lay}.json")
        with open(scenario, "w") as f:
            json.dump({"platform": plat, "workload": {"file": wl}, "queue": {"enabled": True},
                       "allocation": {"policy": "fixed"}, "placement": {"policy": "greedy-non-clairvoyant"},
                       "sharing": {"policy": "maxmin"}, "output": {"progress": False, "events": False}}, f, indent=1)
        scenarios[lay] = scenario
        print(f"{lay}: platform {plat}")
    print(f"{a.jobs} jobs: copy i of log j (j over {', '.join(logs)}) released uniformly in [0, 365 d), "
          f"random.Random({a.seed})\n")
    print("| layout | sharing | engine.flows | node groups | jobs | path | events | flows | wall s | CPU s | engine s "
          "| peak RSS MB | total I/O time s | makespan s | targets (<= 60 s, <= 2 GB) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    modes = {"on": [True], "off": [False], "both": [True, False]}[a.node_groups]
    diffs, walls, kept = [], {}, {}
    for pol in a.sharing or ["maxmin"]:
        for rep in range(a.repeat):
            for lay in layouts:
                outs = []
                for groups in modes:
                    out = os.path.join(a.work, f"out-{lay}-{pol}-{a.flows}" + ("" if groups else "-legs"))
                    sets = [f"sharing.policy={pol}", "output.progress=false"]
                    if a.flows == "simgrid":
                        sets.append("engine.flows=simgrid")
                    wall, cpu, rss, r = run(binary, scenarios[lay], out, sets, groups)
                    c = r.get("counts", {})
                    m = r.get("metrics", r)
                    path = c.get("transfers", "?")
                    ok = "met" if wall <= TARGET_WALL_S and rss <= TARGET_RSS_MB else "MISSED"
                    print(f"| {lay} | {pol} | {a.flows} | {'on' if groups else 'off'} | {a.jobs} | {path} "
                          f"| {c.get('events', '?')} | {c.get('flows', '?')} | {wall:.2f} | {cpu:.2f} "
                          f"| {r.get('wall_time_s', float('nan')):.2f} | {rss:.0f} "
                          f"| {m.get('total_io_time_s', float('nan')):.6g} "
                          f"| {m.get('makespan_s', r.get('makespan_s', float('nan'))):.6g} | {ok} |", flush=True)
                    outs.append(out)
                    walls.setdefault((lay, pol, groups), []).append((wall, cpu))
                    if rep == 0:
                        kept[(lay, pol, groups)] = io_times(out)
                if len(outs) == 2 and rep == 0:
                    diffs.append((f"{lay}, {pol}",
                                  largest_difference(kept[(lay, pol, True)], kept[(lay, pol, False)])))
                if not a.keep:
                    for out in outs:
                        shutil.rmtree(out, ignore_errors=True)
    for what, d in diffs:
        print(f"\n{what}: the largest relative difference of a job's I/O time, node groups on against off: {d:.3g}")
    if len(layouts) == 2:
        for pol in a.sharing or ["maxmin"]:
            for groups in modes:
                rw, rc = median_times(walls[("racked", pol, groups)])
                fw, fc = median_times(walls[("flat", pol, groups)])
                ratio = rw / fw
                d = largest_difference(kept[("flat", pol, groups)], kept[("racked", pol, groups)])
                verdict = "met" if ratio <= TARGET_RACKED_RATIO and d <= 1e-9 else "MISSED"
                med = f" (medians of {a.repeat} runs each)" if a.repeat > 1 else ""
                print(f"\n{pol}, node groups {'on' if groups else 'off'}{med}: racked / flat wall = {rw:.2f} / {fw:.2f} s "
                      f"= {ratio:.2f} (CPU {rc:.2f} / {fc:.2f} s = {rc / fc:.2f}); the largest relative difference of "
                      f"a job's I/O time, racked against flat: {d:.3g} (target: <= {TARGET_RACKED_RATIO}x the flat "
                      f"wall, the same I/O times to 1e-9: {verdict})")


if __name__ == "__main__":
    main()
