#!/usr/bin/env python3
"""What the record of `iosim view` (timeline.bin, written by every run without output.events) costs an untraced run,
on the RR-9502 windows of the cross-check set (../shared/crosscheck/rr9502/instances, deploy/rr9502-window.json).

For every window and strategy, paired runs one after the other, with the record (the default) and without it
(IOSIM_TIMELINE=0, which only this benchmark sets), REPS times each in alternating order; per pair the process's CPU
time (user + system, from wait4) and wall time; medians over the repetitions. Prints one Markdown table row per
window and strategy, then per strategy the median and the maximum of the ratios with / without, the record's size,
and for comparison what output.events (events.csv) costs on the same windows.

usage: analysis/bench_view.py [--reps N] [--strategies a,b,...] [--quick]
Environment: IOSIM_BIN (default build/iosim), IOSIM_CROSSCHECK_DIR (default ../shared/crosscheck/rr9502).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one(binary, window, strategy, out, env_extra, sets=()):
    """(cpu s, wall s, bytes of the record) of one run."""
    cmd = [binary, "run", os.path.join(ROOT, "deploy", "rr9502-window.json"), "--set", f"workload.file={window}",
           "--set", f"sharing.policy={strategy}", "--set", "output.progress=false", "-o", out]
    for s in sets:
        cmd += ["--set", s]
    env = dict(os.environ, **env_extra)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_view.py: {' '.join(cmd)} failed:\n{err}")
    size = 0
    for f in ("timeline.bin", "events.csv"):
        if os.path.exists(os.path.join(out, f)):
            size += os.path.getsize(os.path.join(out, f))
    shutil.rmtree(out, ignore_errors=True)
    return ru.ru_utime + ru.ru_stime, wall, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--strategies", default="fcfs,fairshare,greedy-yield,set10")
    ap.add_argument("--quick", action="store_true", help="seed 1 of each pressure only")
    args = ap.parse_args()
    binary = os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim"))
    xdir = os.environ.get("IOSIM_CROSSCHECK_DIR", os.path.join(ROOT, "..", "shared", "crosscheck", "rr9502"))
    idir = os.path.join(xdir, "instances")
    if not os.path.isdir(idir):
        sys.exit(f"bench_view.py: {idir} not found; fix: set IOSIM_CROSSCHECK_DIR to the folder holding instances/")
    windows = sorted(f for f in os.listdir(idir) if f.endswith(".txt") and (not args.quick or "_seed1." in f))
    strategies = args.strategies.split(",")
    work = tempfile.mkdtemp(prefix="iosim-bench-view-")
    ratios = {s: [] for s in strategies}
    wall_ratios = {s: [] for s in strategies}
    sizes = {s: [] for s in strategies}
    ev_ratios = {s: [] for s in strategies}
    print("| window | strategy | CPU s without | CPU s with | ratio | wall s without | wall s with | timeline.bin MB "
          "| events.csv instead: CPU ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    try:
        for w in windows:
            path = os.path.join(idir, w)
            for s in strategies:
                off, on = [], []
                for k in range(args.reps):
                    order = [(False, off), (True, on)] if k % 2 == 0 else [(True, on), (False, off)]
                    for record, acc in order:
                        acc.append(one(binary, path, s, os.path.join(work, "o"), {} if record else
                                       {"IOSIM_TIMELINE": "0"}))
                ev = [one(binary, path, s, os.path.join(work, "o"), {}, ["output.events=true"])
                      for _ in range(max(1, args.reps // 2))]
                c0, c1 = statistics.median(x[0] for x in off), statistics.median(x[0] for x in on)
                w0, w1 = statistics.median(x[1] for x in off), statistics.median(x[1] for x in on)
                ce = statistics.median(x[0] for x in ev)
                ratios[s].append(c1 / c0)
                wall_ratios[s].append(w1 / w0)
                sizes[s].append(on[0][2])
                ev_ratios[s].append(ce / c0)
                print(f"| {w} | {s} | {c0:.3f} | {c1:.3f} | {c1 / c0:.2f} | {w0:.3f} | {w1:.3f} | "
                      f"{on[0][2] / 1e6:.2f} | {ce / c0:.2f} |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print(f"Per strategy over {len(windows)} windows ({args.reps} paired repetitions each, medians):")
    print()
    print("| strategy | median CPU ratio | max CPU ratio | median wall ratio | max wall ratio | mean timeline.bin MB "
          "| median CPU ratio with events.csv instead |")
    print("|---|---|---|---|---|---|---|")
    for s in strategies:
        print(f"| {s} | {statistics.median(ratios[s]):.3f} | {max(ratios[s]):.3f} | "
              f"{statistics.median(wall_ratios[s]):.3f} | {max(wall_ratios[s]):.3f} | "
              f"{statistics.mean(sizes[s]) / 1e6:.2f} | {statistics.median(ev_ratios[s]):.2f} |")


if __name__ == "__main__":
    main()
