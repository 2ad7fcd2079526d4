#!/usr/bin/env python3
"""Campaigns at scale (issue 41; `make bench-campaign`): a campaign of N runs swept into one database, against the
fork floor of bare `iosim run` processes timed in the same run.

usage: analysis/bench_campaign.py [--runs N] [--floor M] [--jobs J] [--policies P1,P2,...] [--iosim BIN]
                                  [--work DIR] [--keep] [--shards S]

The scenario is small and fast on purpose, so the figures measure the campaign machinery (fork, outputs, database,
report) rather than the simulation: two applications of 3 iterations (10 s and 12 s of work, 1 GiB and 2 GiB per
I/O phase) on platforms/pfs-single.xml. The campaign sweeps the sharing policies (default fairshare, fcfs, maxmin,
timeshare) x seeds 1..N/len(policies) (seeds do not change this scenario's outcome: each point is still a run of its
own, with its own id and rows).

Printed, in this order:
1. the fork floor: M bare `iosim run SCENARIO --out DIR/i --set seed=i` processes, J at a time (a pool of
   subprocesses), as runs/s;
2. the sweep: `iosim sweep CAMPAIGN --jobs J --out OUT` (the database by default), wall time, runs/s and its ratio to
   the floor, the files created under OUT, campaign.db's bytes and bytes per run;
3. `iosim report OUT` (report.md, figures and the campaign page): wall time;
4. with --shards S: the same campaign in S shards (`--shard I/S`, one after the other, J jobs each) and `iosim merge`
   of their databases: the merge's wall time and rows merged (= runs).
Exit 0 when the figures are printed; 1 when a command fails (its stderr printed). The work directory is removed
unless --keep (default: a temporary directory under $TMPDIR).
"""

import argparse
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SCENARIO = {
    "platform": os.path.join(ROOT, "platforms", "pfs-single.xml"),
    "workload": {"applications": [
        {"name": "a", "nodes": 4, "iterations": 3, "work": "10s", "io": "1GiB", "profile": {"1": "1GBps"}},
        {"name": "b", "nodes": 4, "iterations": 3, "work": "12s", "io": "2GiB", "profile": {"1": "1GBps"}}]},
    "sharing": {"policy": "fairshare"},
}


def children_cpu():
    """CPU time (user + system, s) of this process's finished children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, **kw):
    """Runs cmd; (wall time in s, CompletedProcess with .cpu_s, its CPU time and its children's). Exits 1 with its
    stderr when it fails."""
    t0, c0 = time.monotonic(), children_cpu()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    dt = time.monotonic() - t0
    p.cpu_s = children_cpu() - c0
    if p.returncode != 0:
        sys.exit(f"bench_campaign: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-3000:]}")
    return dt, p


def fork_floor(iosim, scenario, work, m, jobs):
    """Wall time of m bare `iosim run` processes, `jobs` at a time."""
    os.makedirs(work, exist_ok=True)
    pending, running, t0 = list(range(m)), [], time.monotonic()
    while pending or running:
        while pending and len(running) < jobs:
            i = pending.pop()
            running.append(subprocess.Popen([iosim, "run", scenario, "--out", os.path.join(work, str(i)), "--set",
                                             f"seed={i + 1}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        p = running.pop(0)
        _, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f"bench_campaign: bare iosim run exited {p.returncode}: {err.decode()[-2000:]}")
    return time.monotonic() - t0


def count_files(d):
    return sum(len(files) for _, _, files in os.walk(d))


def db_rows(path, table="runs"):
    con = sqlite3.connect(f"file:{path}?mode=rw", uri=True)  # closed read-write: no WAL files left behind
    try:
        return con.execute(f"select count(*) from {table}").fetchone()[0]
    finally:
        con.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=100_000, help="runs of the campaign (default 100000)")
    ap.add_argument("--floor", type=int, default=2000, help="bare iosim run processes timed first (default 2000)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at a time (default: the cores)")
    ap.add_argument("--policies", default="fairshare,fcfs,maxmin,timeshare", help="sharing policies swept")
    ap.add_argument("--shards", type=int, default=0, help="also sweep in S shards and merge their databases")
    ap.add_argument("--iosim", default=os.path.join(ROOT, "build", "iosim"), help="the iosim binary")
    ap.add_argument("--work", help="work directory (default: a temporary one, removed at the end)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    a = ap.parse_args(argv)
    policies = [p for p in a.policies.split(",") if p]
    if a.runs < len(policies) or a.runs % len(policies):
        ap.error(f"--runs {a.runs}: give a multiple of the {len(policies)} policies")
    work = a.work or tempfile.mkdtemp(prefix="iosim-bench-campaign-")
    os.makedirs(work, exist_ok=True)
    try:
        scen = os.path.join(work, "tiny.json")
        with open(scen, "w") as f:
            json.dump(SCENARIO, f)
        camp = os.path.join(work, "bench.json")
        with open(camp, "w") as f:
            json.dump({"name": "bench", "base": "tiny.json", "grid": {"sharing.policy": policies},
                       "seeds": {"from": 1, "count": a.runs // len(policies)},
                       "report": {"metrics": ["min_yield", "makespan_s"]}}, f)
        print(f"iosim campaign benchmark: {a.runs} runs ({len(policies)} sharing policies x {a.runs // len(policies)} "
              f"seeds) of 2 applications on pfs-single.xml, {a.jobs} jobs, {os.cpu_count()} cores")

        c0 = children_cpu()
        t = fork_floor(a.iosim, scen, os.path.join(work, "floor"), a.floor, a.jobs)
        floor, floor_cpu = a.floor / t, (children_cpu() - c0) / a.floor
        shutil.rmtree(os.path.join(work, "floor"))
        print(f"fork floor: {a.floor} bare `iosim run` processes in {t:.1f} s: {floor:.1f} runs/s; CPU "
              f"{1000 * floor_cpu:.0f} ms per run")

        out = os.path.join(work, "out")
        t, p = run([a.iosim, "sweep", camp, "--jobs", str(a.jobs), "--out", out])
        files = count_files(out)  # before this script opens the database
        db = os.path.join(out, "campaign.db")
        size = os.path.getsize(db)
        rows = db_rows(db)
        print(f"sweep: {a.runs} runs in {t:.1f} s: {a.runs / t:.1f} runs/s ({a.runs / t / floor:.2f} x the fork "
              f"floor); {files} files under OUT; campaign.db {size / 1e6:.1f} MB, {size / a.runs:.0f} "
              f"bytes per run; {rows} rows in runs; CPU {1000 * p.cpu_s / a.runs:.0f} ms per run (the sweep and its "
              f"runs, user + system: {a.runs / p.cpu_s:.1f} runs/s per core when the cores are free)")

        t, _ = run([a.iosim, "report", out])
        print(f"iosim report: {t:.1f} s")

        if a.shards:
            dirs, tsum = [], 0.0
            for i in range(1, a.shards + 1):
                d = os.path.join(work, f"shard-{i}")
                dt, _ = run([a.iosim, "sweep", camp, "--jobs", str(a.jobs), "--shard", f"{i}/{a.shards}", "--out", d])
                tsum += dt
                dirs.append(d)
            merged = os.path.join(work, "merged")
            t, _ = run([a.iosim, "merge", *dirs, "--out", merged])
            mdb = os.path.join(merged, "campaign.db")
            print(f"shards: {a.shards} shards swept one after the other in {tsum:.1f} s; iosim merge: {t:.2f} s, "
                  f"{db_rows(mdb)} rows merged into runs ({os.path.getsize(mdb) / 1e6:.1f} MB)")
    finally:
        if not a.keep and not a.work:
            shutil.rmtree(work, ignore_errors=True)
        elif a.keep:
            print(f"kept {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
