#!/usr/bin/env python3
"""The transfer layer's two paths side by side: every RR-9502 cross-check instance and strategy run with
engine.flows=auto (the direct path where no link can bind the policy's rates) and engine.flows=simgrid (every transfer
a SimGrid flow); prints, per strategy, the largest relative difference of every metric of results.json, the events and
rate changes, and the wall times of both paths (docs/engine.md).

Usage: analysis/maintainers/flows_exactness.py [--jobs N] [--set extended|base|all] [--strategy NAME] [--limit K] [--csv FILE]
       analysis/maintainers/flows_exactness.py --from-csv FILE... (the table again from saved runs)
Environment: IOSIM_BIN (default build/iosim), IOSIM_CROSSCHECK_DIR (default ../shared/crosscheck/rr9502).
The flow path is the slow one (up to a minute per fairshare window): all 39 instances take about an hour of CPU.
"""
import argparse
import concurrent.futures
import csv
import gzip
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATEGIES = ["fcfs", "fairshare", "greedy-yield", "greedy-com", "lookahead-greedy-yield", "set10",
              "periodic-greedy-yield", "best-next-event"]


def instances(xdir, which, work):
    """Paths of the sample files of the chosen sets (the extended ones decompressed into `work`)."""
    out = []
    if which in ("base", "all"):
        d = os.path.join(xdir, "instances")
        out += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".txt")]
    if which in ("extended", "all"):
        d = os.path.join(xdir, "extended", "instances")
        for f in sorted(os.listdir(d)):
            if f.endswith(".txt.gz"):
                dst = os.path.join(work, f[:-3])
                with gzip.open(os.path.join(d, f)) as src, open(dst, "wb") as o:
                    shutil.copyfileobj(src, o)
                out.append(dst)
    return out


def run(binary, instance, strategy, flows, work):
    out = os.path.join(work, f"{os.path.basename(instance)}-{strategy}-{flows}")
    cmd = [binary, "run", os.path.join(ROOT, "deploy", "rr9502-window.json"), "--set", f"workload.file={instance}",
           "--set", f"sharing.policy={strategy}", "--set", f"engine.flows={flows}",
           "--set", "output.progress=false", "--out", out]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    r = json.load(open(os.path.join(out, "results.json")))
    shutil.rmtree(out, ignore_errors=True)
    return r


def num(v):
    if v is None or v in ("", "None", "null"):
        return None
    return float(v)


def rel(a, b, quantity=""):
    """Relative difference; absolute for platform_limited_share (a share of bytes, ~1e-14 of rounding on both)."""
    a, b = num(a), num(b)
    if a is None or b is None:
        return 0.0 if a is b else math.inf
    if a == b:
        return 0.0
    if quantity == "platform_limited_share":
        return abs(a - b)
    return abs(a - b) / max(abs(a), abs(b))


def summary(rows, strategies):
    n = len({r[0] for r in rows})
    print(f"{n} instances; largest relative difference, direct vs SimGrid flows, over them "
          "(platform_limited_share: absolute):")
    print("| strategy | min_yield | efficiency | utilization | worst other metric | events | rate changes "
          "| wall s direct | wall s flows |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in strategies:
        mine = [r for r in rows if r[1] == s]
        if not mine:
            continue

        def worst(keys):
            return max((rel(r[3], r[4], r[2]) for r in mine if r[2] in keys), default=0.0)

        others = sorted({r[2] for r in mine} - {"min_yield", "efficiency", "utilization", "events", "rate_changes",
                                                "wall_time_s"})
        wo = max(others, key=lambda k: worst([k]))
        walls = [(float(r[3]), float(r[4])) for r in mine if r[2] == "wall_time_s"]
        print(f"| {s} | {worst(['min_yield']):.1e} | {worst(['efficiency']):.1e} | {worst(['utilization']):.1e} "
              f"| {wo} {worst([wo]):.1e} | {worst(['events']):.1e} | {worst(['rate_changes']):.1e} "
              f"| {sum(w[0] for w in walls) / len(walls):.3f} | {sum(w[1] for w in walls) / len(walls):.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--set", dest="which", default="base", choices=["base", "extended", "all"])
    ap.add_argument("--strategy", action="append", help="only these strategies (repeatable)")
    ap.add_argument("--limit", type=int, default=0, help="only the first K instances")
    ap.add_argument("--csv", help="also write one row per (instance, strategy, metric) here")
    ap.add_argument("--from-csv", nargs="+", metavar="CSV", help="only print the table of CSVs written by --csv")
    args = ap.parse_args()
    if args.from_csv:
        rows = []
        for f in args.from_csv:
            with open(f) as i:
                rows += [(r["instance"], r["strategy"], r["quantity"], r["direct"], r["simgrid_flows"])
                         for r in csv.DictReader(i)]
        summary(rows, args.strategy or STRATEGIES)
        return
    binary = os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim"))
    xdir = os.environ.get("IOSIM_CROSSCHECK_DIR", os.path.join(ROOT, "..", "shared", "crosscheck", "rr9502"))
    work = tempfile.mkdtemp(prefix="iosim-flows-")
    try:
        files = instances(xdir, args.which, work)
    except OSError as e:
        sys.exit(f"flows_exactness.py: {e}: set IOSIM_CROSSCHECK_DIR to the cross-check set")
    if args.limit:
        files = files[:args.limit]
    jobs = [(f, s) for f in files for s in (args.strategy or STRATEGIES)]

    def one(job):
        f, s = job
        return f, s, run(binary, f, s, "auto", work), run(binary, f, s, "simgrid", work)

    rows = []
    out = open(args.csv, "w", newline="") if args.csv else None  # written as the runs finish
    w = csv.writer(out) if out else None
    if w:
        w.writerow(["instance", "strategy", "quantity", "direct", "simgrid_flows"])
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for f, s, d, g in ex.map(one, jobs):
            if d["counts"].get("transfers") != "direct":
                sys.exit(f"flows_exactness.py: {f} {s}: engine.flows=auto did not take the direct path")
            mine = [(os.path.basename(f), s, k, d["metrics"][k], g["metrics"][k]) for k in d["metrics"]]
            mine += [(os.path.basename(f), s, k, d["counts"][k], g["counts"][k]) for k in ("events", "rate_changes")]
            mine.append((os.path.basename(f), s, "wall_time_s", d["wall_time_s"], g["wall_time_s"]))
            rows += mine
            if w:
                w.writerows(mine)
                out.flush()
    shutil.rmtree(work, ignore_errors=True)
    if out:
        out.close()
    summary(rows, args.strategy or STRATEGIES)

if __name__ == "__main__":
    main()
