#!/usr/bin/env python3
"""Speed of iosim on the RR-9502 authors' own instances, side by side with their reference simulator.

Prints three Markdown tables (docs/engine.md):
 1. every 60-application window of ../shared/crosscheck/rr9502 (instances/ and extended/instances/) under every
    strategy, one process at a time, whole process (parsing and outputs included, like the reference's timings):
    events, rate changes, the median wall s of --repeat runs (7 by default), events/s, peak RSS, the reference's wall
    time for that window (extended/reference_timings.csv, measured on this machine kind; the nine base instances have
    none) and the ratio iosim median / reference; then the mean and largest ratio per strategy;
 2. scaling: §6.2.1 workloads of 60 / 240 / 960 applications at W^GOAL 0.8 on a 1,024-node pfs-single platform, with
    the reference's wall times measured for the speed issue on this machine kind (fcfs 0.20 / 2.2 / 25 s,
    greedy-yield 0.21 / 2.3 / 20 s);
 3. the transfer layer's alternatives on one window (w0.8 seed 1), median of --repeat runs: every transfer a SimGrid
    flow (engine.flows=simgrid) re-rated by moving its max-min bound (the flow path's default), the same with flow
    groups off (IOSIM_FLOW_GROUPS=0), flows re-rated by cancelling them and starting the remaining bytes as a new flow
    (IOSIM_FLOW_RERATE=restart), the direct path with the calendar sleeping on SimGrid's clock from date to date
    (IOSIM_SIMGRID_CLOCK=1), and the calendar keeping its own date (the default).

Usage: analysis/bench_rr9502.py [--quick] [--repeat N] [--only windows|scaling|alternatives]...
  --quick: one window per pressure and no 960-application row, 3 runs each (a minute instead of about ten).
Environment: IOSIM_BIN (default build/iosim), IOSIM_CROSSCHECK_DIR (default ../shared/crosscheck/rr9502).
"""
import argparse
import csv
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRATEGIES = ["fcfs", "fairshare", "greedy-yield", "greedy-com", "lookahead-greedy-yield", "set10",
              "periodic-greedy-yield", "best-next-event"]
# the reference's wall times at scale (s), measured for the speed issue (W 0.8, 1,024-node pfs-single)
REFERENCE_SCALING = {"fcfs": {60: 0.20, 240: 2.2, 960: 25.0}, "greedy-yield": {60: 0.21, 240: 2.3, 960: 20.0}}


def timed(cmd, env=None):
    """Runs cmd; returns (wall s, peak RSS MB) of that process alone."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_rr9502.py: {' '.join(cmd)} failed:\n{err}")
    return wall, usage.ru_maxrss / 1024


def run(binary, scenario, sets, out, env=None):
    cmd = [binary, "run", scenario, "--out", out, "--set", "output.progress=false"]
    for s in sets:
        cmd += ["--set", s]
    wall, rss = timed(cmd, env)
    r = json.load(open(os.path.join(out, "results.json")))
    shutil.rmtree(out, ignore_errors=True)
    return wall, rss, r["counts"]["events"], r["counts"]["rate_changes"], r["counts"].get("transfers", "?")


def median_run(repeat, binary, scenario, sets, out, env=None):
    """run() `repeat` times; the median wall s, the largest peak RSS and the counts of the last."""
    walls, rss = [], 0.0
    for _ in range(repeat):
        wall, r, ev, rc, path = run(binary, scenario, sets, out, env)
        walls.append(wall)
        rss = max(rss, r)
    return statistics.median(walls), rss, ev, rc, path


def windows(binary, xdir, work, quick, repeat):
    names = {}  # instance file name -> path of an uncompressed copy
    base = os.path.join(xdir, "instances")
    for f in sorted(os.listdir(base)):
        if f.endswith(".txt") and (not quick or "_seed1." in f):
            names[f] = os.path.join(base, f)
    ext = os.path.join(xdir, "extended", "instances")
    for f in sorted(os.listdir(ext)):
        if f.endswith(".txt.gz") and (not quick or "_seed11." in f):
            dst = os.path.join(work, f[:-3])
            with gzip.open(os.path.join(ext, f)) as src, open(dst, "wb") as o:
                shutil.copyfileobj(src, o)
            names[f[:-3]] = dst
    strategy_of = {}
    with open(os.path.join(xdir, "extended", "reference_results.csv")) as f:
        for row in csv.DictReader(f):
            strategy_of[row["reference_strategy"]] = row["iosim_strategy"]
    ref = {}
    with open(os.path.join(xdir, "extended", "reference_timings.csv")) as f:
        for row in csv.DictReader(f):
            ref[(row["instance"], strategy_of.get(row["reference_strategy"], row["reference_strategy"]))] = float(
                row["wall_s"])
    print("| instance | strategy | events | rate changes | wall s | events/s | peak RSS MB | reference s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    scenario = os.path.join(ROOT, "deploy", "rr9502-window.json")
    for name, path in names.items():
        for s in STRATEGIES:
            wall, rss, ev, rc, _ = median_run(repeat, binary, scenario,
                                              [f"workload.file={path}", f"sharing.policy={s}"], os.path.join(work, "out"))
            r = ref.get((name, s))
            rows.append((name, s, wall, r))
            print(f"| {name.removesuffix('.txt')} | {s} | {ev} | {rc} | {wall:.3f} | {ev / wall:,.0f} | {rss:.0f} | "
                  + (f"{r:.3f} | {wall / r:.2f} |" if r else "- | - |"), flush=True)
    print()
    print("| strategy | windows | mean wall s | max wall s | windows with a reference | mean reference s "
          "| mean ratio | max ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for s in STRATEGIES:
        mine = [x for x in rows if x[1] == s]
        withref = [x for x in mine if x[3]]
        walls = [x[2] for x in mine]
        line = f"| {s} | {len(mine)} | {sum(walls) / len(walls):.3f} | {max(walls):.3f} | {len(withref)} | "
        if withref:
            ratios = [x[2] / x[3] for x in withref]
            line += (f"{sum(x[3] for x in withref) / len(withref):.3f} | {sum(ratios) / len(ratios):.2f} "
                     f"| {max(ratios):.2f} |")
        else:
            line += "- | - | - |"
        print(line)


def scaling(binary, work, quick):
    platform = os.path.join(work, "pfs-1024.xml")
    subprocess.run([binary, "platform", "pfs-single", "--set", "compute=1024", "-o", platform], check=True,
                   stdout=subprocess.DEVNULL)
    print("| applications | strategy | events | rate changes | wall s | events/s | µs per event | peak RSS MB "
          "| reference s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in (60, 240) if quick else (60, 240, 960):
        scenario = os.path.join(work, f"scale-{n}.json")
        json.dump({"platform": platform,
                   "workload": {"generator": {"kind": "rr9502", "count": n, "n_small": n // 3, "pressure": 0.8}},
                   "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "fcfs"},
                   "window": {"stop_at_end": True}, "seed": 1}, open(scenario, "w"))
        for s in ("fcfs", "greedy-yield", "fairshare"):
            wall, rss, ev, rc, _ = run(binary, scenario, [f"sharing.policy={s}"], os.path.join(work, "out"))
            r = REFERENCE_SCALING.get(s, {}).get(n)
            print(f"| {n} | {s} | {ev} | {rc} | {wall:.3f} | {ev / wall:,.0f} | {1e6 * wall / ev:.2f} | {rss:.0f} | "
                  + (f"{r:.2f} | {wall / r:.3f} |" if r else "- | - |"), flush=True)


def alternatives(binary, xdir, work, repeat):
    inst = os.path.join(xdir, "instances", "w0.8-nH20-b0.5-s0.5_seed1.txt")
    scenario = os.path.join(ROOT, "deploy", "rr9502-window.json")
    flows = ["engine.flows=simgrid"]
    ways = [("SimGrid flows, bounds re-rated in place (flow-path default)", flows, {}),
            ("SimGrid flows, no flow groups", flows, {"IOSIM_FLOW_GROUPS": "0"}),
            ("SimGrid flows, cancel + restart at each new rate", flows, {"IOSIM_FLOW_RERATE": "restart"}),
            ("direct, calendar sleeping on SimGrid's clock", [], {"IOSIM_SIMGRID_CLOCK": "1"}),
            ("direct, calendar keeping its own date (default)", [], {})]
    print("| strategy | " + " | ".join(w[0] for w in ways) + " |")
    print("|---|" + "---|" * len(ways))
    for s in ("fcfs", "greedy-yield", "fairshare", "set10"):
        cells = []
        for _, sets, extra in ways:
            env = dict(os.environ, **extra)
            wall, _, ev, rc, path = median_run(repeat, binary, scenario,
                                               [f"workload.file={inst}", f"sharing.policy={s}"] + sets,
                                               os.path.join(work, "out"), env)
            cells.append(f"{wall:.3f} s ({1e6 * wall / ev:.1f} µs/event)")
        print(f"| {s} | " + " | ".join(cells) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", action="append", choices=["windows", "scaling", "alternatives"])
    ap.add_argument("--repeat", type=int, default=None, help="runs per cell, the median kept (7; 3 with --quick)")
    args = ap.parse_args()
    repeat = args.repeat or (3 if args.quick else 7)
    binary = os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim"))
    xdir = os.environ.get("IOSIM_CROSSCHECK_DIR", os.path.join(ROOT, "..", "shared", "crosscheck", "rr9502"))
    if not os.path.isdir(os.path.join(xdir, "extended")):
        sys.exit(f"bench_rr9502.py: no cross-check set at {xdir}: set IOSIM_CROSSCHECK_DIR")
    only = args.only or ["windows", "scaling", "alternatives"]
    work = tempfile.mkdtemp(prefix="iosim-bench-")
    try:
        print(f"# iosim on the RR-9502 instances ({os.uname().nodename}, {os.cpu_count()} cores, one process at a "
              f"time, median wall time of the whole process over {repeat} runs)\n")
        if "windows" in only:
            print("## Every window, every strategy\n")
            windows(binary, xdir, work, args.quick, repeat)
            print()
        if "scaling" in only:
            print("## Scaling (W^GOAL 0.8, 1,024-node pfs-single)\n")
            scaling(binary, work, args.quick)
            print()
        if "alternatives" in only:
            print("## The transfer layer's alternatives (w0.8 seed 1)\n")
            alternatives(binary, xdir, work, repeat)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
