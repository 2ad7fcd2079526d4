#!/usr/bin/env python3
"""The SimGrid flow path before and after its rewrite (issue 23), on the 39 RR-9502 cross-check windows: every
instance and strategy run on the flow path (engine.flows=simgrid) with an OLD and a NEW iosim binary, and on NEW's
direct path; prints per strategy the largest relative difference of every shared results.json metric, OLD flows vs
NEW flows and NEW flows vs NEW direct, and FairShare's chaos measured the same way (docs/engine.md "Exactness").

Usage: analysis/maintainers/flows_before_after.py --old OLD_IOSIM [--new NEW_IOSIM] [--set base|extended|all] [--strategy S]...
           [--limit K] [--jobs N] --csv FILE [--variants] [--chaos]
       analysis/maintainers/flows_before_after.py --from-csv FILE... [--strategy S]...
Runs (the `run` column of the CSV):
  old-flows, new-flows, new-direct          every (instance, strategy);
  new-flows-restart, new-flows-nogroups     with --variants: NEW re-rating by cancel + restart
                                            (IOSIM_FLOW_RERATE=restart), without flow groups (IOSIM_FLOW_GROUPS=0);
  old-flows-x1e-12, new-flows-x1e-12        with --chaos (fairshare only): the instance with every duration and volume
                                            scaled by 1 + 1e-12 (analysis/crosscheck_rr9502.py --perturb), which
                                            changes nothing in exact arithmetic: the spread rounding alone produces.
The CSV (instance, strategy, run, quantity, value) is appended as runs finish; runs already in it are not run again,
so an interrupted run goes on where it stopped and --from-csv prints the tables from it. The OLD flow path is slow (up
to a minute per fairshare window, about an hour of CPU for all 312 runs): run it with --jobs 1 on a shared machine.
Environment: IOSIM_CROSSCHECK_DIR (default ../shared/crosscheck/rr9502).
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
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # analysis/: crosscheck_rr9502
from crosscheck_rr9502 import scaled_copy  # noqa: E402  the instance with every duration and volume scaled (--perturb)
from flows_exactness import instances, num, rel  # noqa: E402  the sample files of the sets; metrics compared

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATEGIES = ["fcfs", "fairshare", "greedy-yield", "greedy-com", "lookahead-greedy-yield", "set10",
              "periodic-greedy-yield", "best-next-event"]
HEAD = ["min_yield", "efficiency", "utilization"]
COUNTS = ["events", "rate_changes"]
# run name -> (binary role, engine.flows, environment, scale factor of the instance)
RUNS = {
    "old-flows": ("old", "simgrid", {}, 1.0),
    "new-flows": ("new", "simgrid", {}, 1.0),
    "new-direct": ("new", "auto", {}, 1.0),
    "new-flows-restart": ("new", "simgrid", {"IOSIM_FLOW_RERATE": "restart"}, 1.0),
    "new-flows-nogroups": ("new", "simgrid", {"IOSIM_FLOW_GROUPS": "0"}, 1.0),
    "old-flows-x1e-12": ("old", "simgrid", {}, 1 + 1e-12),
    "new-flows-x1e-12": ("new", "simgrid", {}, 1 + 1e-12),
}


def run_one(binary, instance, strategy, flows, env, work, tag):
    """results.json's metrics and counts (and the process's wall time) of one run."""
    out = os.path.join(work, f"{os.path.basename(instance)}-{strategy}-{tag}")
    cmd = [binary, "run", os.path.join(ROOT, "deploy", "rr9502-window.json"), "--set", f"workload.file={instance}",
           "--set", f"sharing.policy={strategy}", "--set", f"engine.flows={flows}", "--set", "output.progress=false",
           "--out", out]
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, **env})
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    r = json.load(open(os.path.join(out, "results.json")))
    shutil.rmtree(out, ignore_errors=True)
    want = "simgrid-flows" if flows == "simgrid" else "direct"
    if r["counts"].get("transfers") != want:
        raise RuntimeError(f"{' '.join(cmd)}: took the {r['counts'].get('transfers')} path, not {want}")
    vals = dict(r["metrics"])
    vals.update({k: r["counts"][k] for k in COUNTS})
    vals["process_wall_s"] = wall
    return vals


def load(paths):
    """{(instance, strategy, run): {quantity: value}} from CSVs written by --csv."""
    data = {}
    for p in paths:
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            for r in csv.DictReader(f):
                data.setdefault((r["instance"], r["strategy"], r["run"]), {})[r["quantity"]] = r["value"]
    return data


def pair_table(data, strategies, a, b, title):
    """Per strategy: the largest relative difference of each shared quantity between runs a and b."""
    print(f"\n{title}\n")
    print("| strategy | instances | identical | min_yield | efficiency | utilization | worst other metric | events "
          "| rate changes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in strategies:
        pairs = [(data[k], data[(k[0], k[1], b)]) for k in data
                 if k[1] == s and k[2] == a and (k[0], k[1], b) in data]
        if not pairs:
            continue
        shared = sorted(set.intersection(*[set(x) & set(y) for x, y in pairs]) - {"process_wall_s"})

        def worst(q):
            return max(rel(x[q], y[q], q) for x, y in pairs)

        same = sum(all(rel(x[q], y[q], q) == 0 for q in shared) for x, y in pairs)
        others = [q for q in shared if q not in HEAD + COUNTS and "wall" not in q]
        wo = max(others, key=worst)
        cells = [f"{worst(q):.1e}" if q in shared else "-" for q in HEAD]
        counts = [f"{worst(q):.1e}" for q in COUNTS]
        print(f"| {s} | {len(pairs)} | {same} | " + " | ".join(cells) + f" | {wo} {worst(wo):.1e} | "
              + " | ".join(counts) + " |")


def chaos_table(data, strategy="fairshare"):
    """FairShare's chaos: OLD/NEW against each binary's spread under a rescaling that changes nothing exactly."""
    rows = []
    for q in HEAD + ["mean_rho_con"]:
        def diffs(a, b):
            return sorted(rel(data[k][q], data[(k[0], k[1], b)][q], q) for k in data
                          if k[1] == strategy and k[2] == a and (k[0], k[1], b) in data)

        rows.append((q, diffs("old-flows", "new-flows"), diffs("old-flows", "old-flows-x1e-12"),
                     diffs("new-flows", "new-flows-x1e-12"), diffs("new-flows", "new-direct")))
    if not rows[0][2]:
        return
    print(f"\n{strategy}'s chaos: relative differences over the instances (median / largest); 'x1e-12': the same "
          "binary and path on the instance scaled by 1 + 1e-12\n")
    print("| metric | OLD flows vs NEW flows | OLD flows vs OLD flows x1e-12 | NEW flows vs NEW flows x1e-12 "
          "| NEW flows vs NEW direct |")
    print("|---|---|---|---|---|")

    def cell(v):
        return f"{v[len(v) // 2]:.1e} / {v[-1]:.1e} ({len(v)})" if v else "-"

    for q, *cols in rows:
        print(f"| {q} | " + " | ".join(cell(c) for c in cols) + " |")


def walls(data, strategies):
    print("\nProcess wall time per run, mean over the instances (s; measured while other jobs ran, orientation only)\n")
    names = [n for n in RUNS if any(k[2] == n for k in data)]
    print("| strategy | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for s in strategies:
        cells = []
        for n in names:
            w = [float(v["process_wall_s"]) for k, v in data.items() if k[1] == s and k[2] == n and
                 "process_wall_s" in v]
            cells.append(f"{sum(w) / len(w):.3f}" if w else "-")
        if any(c != "-" for c in cells):
            print(f"| {s} | " + " | ".join(cells) + " |")


def tables(data, strategies):
    n = len({k[0] for k in data})
    print(f"{n} instances")
    pair_table(data, strategies, "old-flows", "new-flows", "OLD flows vs NEW flows: largest relative difference "
               "(platform_limited_share absolute)")
    if any(k[2] == "new-flows-restart" for k in data):
        pair_table(data, strategies, "old-flows", "new-flows-restart", "OLD flows vs NEW flows with "
                   "IOSIM_FLOW_RERATE=restart")
        pair_table(data, strategies, "old-flows", "new-flows-nogroups", "OLD flows vs NEW flows with "
                   "IOSIM_FLOW_GROUPS=0")
    pair_table(data, strategies, "new-direct", "new-flows", "NEW direct vs NEW flows")
    chaos_table(data)
    walls(data, strategies)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="the iosim binary before the rewrite")
    ap.add_argument("--new", default=os.path.join(ROOT, "build", "iosim"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--set", dest="which", default="all", choices=["base", "extended", "all"])
    ap.add_argument("--strategy", action="append", help="only these strategies (repeatable)")
    ap.add_argument("--limit", type=int, default=0, help="only the first K instances")
    ap.add_argument("--csv", help="append one row per (instance, strategy, run, quantity) here; runs in it are kept")
    ap.add_argument("--variants", action="store_true", help="also NEW flows with restart re-rates, without groups")
    ap.add_argument("--chaos", action="store_true", help="also fairshare on instances scaled by 1 + 1e-12")
    ap.add_argument("--from-csv", nargs="+", metavar="CSV", help="only print the tables of CSVs written by --csv")
    a = ap.parse_args()
    strategies = a.strategy or STRATEGIES
    if a.from_csv:
        tables(load(a.from_csv), strategies)
        return
    if not a.old or not a.csv:
        ap.error("--old and --csv are needed to run (or --from-csv to print)")
    for b in (a.old, a.new):
        if not os.access(b, os.X_OK):
            sys.exit(f"flows_before_after.py: {b}: not an executable iosim binary")
    xdir = os.environ.get("IOSIM_CROSSCHECK_DIR", os.path.join(ROOT, "..", "shared", "crosscheck", "rr9502"))
    work = tempfile.mkdtemp(prefix="iosim-before-after-")
    try:
        try:
            files = instances(xdir, a.which, work)
        except OSError as e:
            sys.exit(f"flows_before_after.py: {e}: set IOSIM_CROSSCHECK_DIR to the cross-check set "
                     "(../shared/crosscheck/rr9502)")
        if a.limit:
            files = files[:a.limit]
        done = load([a.csv]) if os.path.exists(a.csv) else {}
        names = ["old-flows", "new-flows", "new-direct"] + (["new-flows-restart", "new-flows-nogroups"]
                                                             if a.variants else [])
        jobs = [(f, s, n) for f in files for s in strategies for n in names]
        if a.chaos and "fairshare" in strategies:
            jobs += [(f, "fairshare", n) for f in files for n in ("old-flows-x1e-12", "new-flows-x1e-12")]
        jobs = [j for j in jobs if (os.path.basename(j[0]), j[1], j[2]) not in done]
        new_file = not os.path.exists(a.csv)
        out = open(a.csv, "a", newline="")
        w = csv.writer(out)
        if new_file:
            w.writerow(["instance", "strategy", "run", "quantity", "value"])
        lock = threading.Lock()

        def one(job):
            f, s, n = job
            role, flows, env, factor = RUNS[n]
            path = f
            if factor != 1.0:
                path = os.path.join(work, f"{n}-{s}-{os.path.basename(f)}")
                scaled_copy(f, path, factor)
            v = run_one(a.old if role == "old" else a.new, path, s, flows, env, work, n)
            with lock:
                w.writerows([os.path.basename(f), s, n, q, x] for q, x in v.items())
                out.flush()
            return job

        print(f"{len(jobs)} runs to do", file=sys.stderr)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            for i, (f, s, n) in enumerate(ex.map(one, jobs)):
                print(f"[{i + 1}/{len(jobs)}] {os.path.basename(f)} {s} {n}", file=sys.stderr)
        out.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tables(load([a.csv]), strategies)


if __name__ == "__main__":
    main()
