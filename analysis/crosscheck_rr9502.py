#!/usr/bin/env python3
"""Every RR-9502 strategy on every cross-check instance: iosim against the reference simulator.

Runs `iosim run deploy/rr9502-window.json` for each (instance, strategy) row of
../shared/crosscheck/rr9502/reference_results.csv and prints a Markdown table of the reference's MinYield,
Efficiency and Utilization (6 significant digits) beside iosim's, with the relative difference. The causes of the
differences are in test/crosscheck_rr9502.cpp, which checks them. About 15 CPU-minutes for the 72 runs.

Usage: analysis/crosscheck_rr9502.py [--jobs N] [--strategy NAME] [--set key=value]...
Environment: IOSIM_BIN (default build/iosim), IOSIM_CROSSCHECK_DIR (default ../shared/crosscheck/rr9502).
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--strategy", help="only this iosim strategy")
    ap.add_argument("--set", action="append", default=[], help="extra scenario override, e.g. sharing.ties=1")
    args = ap.parse_args()
    binary = os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim"))
    xdir = os.environ.get("IOSIM_CROSSCHECK_DIR", os.path.join(ROOT, "..", "shared", "crosscheck", "rr9502"))
    try:
        rows = list(csv.DictReader(open(os.path.join(xdir, "reference_results.csv"))))
    except OSError as e:
        sys.exit(f"crosscheck_rr9502.py: {e}: set IOSIM_CROSSCHECK_DIR to the cross-check set")
    rows = [r for r in rows if args.strategy in (None, r["iosim_strategy"])]
    metrics = ("min_yield", "efficiency", "utilization")
    work = tempfile.mkdtemp(prefix="iosim-crosscheck-")

    def run(r):
        out = os.path.join(work, f"{r['iosim_strategy']}-{r['instance']}")
        cmd = [binary, "run", os.path.join(ROOT, "deploy", "rr9502-window.json"),
               "--set", f"workload.file={os.path.join(xdir, 'instances', r['instance'])}",
               "--set", f"sharing.policy={r['iosim_strategy']}", "--set", "output.progress=false", "--out", out]
        for s in args.set:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        res = json.load(open(os.path.join(out, "results.json")))
        return r, res["metrics"], res["wall_time_s"]

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(run, rows))
    print("| strategy | instance | " + " | ".join(f"{m} ref / iosim (rel. diff)" for m in metrics) + " | wall s |")
    print("|---|---|" + "---|" * len(metrics) + "---|")
    for r, m, wall in sorted(results, key=lambda x: (x[0]["iosim_strategy"], x[0]["instance"])):
        cells = []
        for k in metrics:
            ref, got = float(r[k]), m[k]
            same = float(f"{got:.6g}") == ref
            cells.append(f"{ref:.6g} / {got:.6g} ({'=' if same else f'{got / ref - 1:+.1e}'})")
        print(f"| {r['iosim_strategy']} | {r['instance'].removesuffix('.txt')} | " + " | ".join(cells)
              + f" | {wall:.1f} |")


if __name__ == "__main__":
    main()
