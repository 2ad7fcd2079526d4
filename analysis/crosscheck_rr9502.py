#!/usr/bin/env python3
"""Every RR-9502 strategy on every cross-check instance: iosim against the reference simulator.

Runs `iosim run deploy/rr9502-window.json` for each (instance, strategy) row of
../shared/crosscheck/rr9502/reference_results.csv (9 instances) and extended/reference_results.csv (30 more, gzip;
decompressed into a temporary directory, as the sample-file reader does not read gzip) and prints a Markdown table
of the reference's MinYield, Efficiency and Utilization (6 significant digits) beside iosim's, with the relative
difference. --summary adds, per strategy and metric, on how many instances iosim equals the reference to 6
digits and the range of the relative difference. The causes of the differences are in test/crosscheck_rr9502.cpp,
which checks them. The 312 runs take about 3 CPU-minutes (best-next-event at W = 1.1 most of it).

--perturb K re-runs each selected row on K copies of its instance with every duration and volume scaled by
1 + k·1e-12 (k = 1..K; yields, Efficiency and Utilization are ratios, so in exact arithmetic nothing changes) and
prints iosim's spread beside the reference: where a strategy's schedule is chaotic in the rounding of event dates,
the spread is as large as the difference to the reference, which then lies inside it or next to it.

Usage: analysis/crosscheck_rr9502.py [--jobs N] [--strategy NAME] [--instance TEXT] [--set key=value]...
       [--base-only] [--summary] [--perturb K]
Environment: IOSIM_BIN (default build/iosim), IOSIM_CROSSCHECK_DIR (default ../shared/crosscheck/rr9502).
"""
import argparse
import concurrent.futures
import csv
import gzip
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
    ap.add_argument("--base-only", action="store_true", help="only the 9 instances of the base set")
    ap.add_argument("--summary", action="store_true", help="also per strategy and metric: matches and range of differences")
    ap.add_argument("--instance", help="only instances whose name contains this")
    ap.add_argument("--perturb", type=int, default=0, help="K rescaled copies per instance (spread of iosim's values)")
    args = ap.parse_args()
    binary = os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim"))
    xdir = os.environ.get("IOSIM_CROSSCHECK_DIR", os.path.join(ROOT, "..", "shared", "crosscheck", "rr9502"))
    work = tempfile.mkdtemp(prefix="iosim-crosscheck-")
    rows = []
    try:
        for r in csv.DictReader(open(os.path.join(xdir, "reference_results.csv"))):
            r["path"] = os.path.join(xdir, "instances", r["instance"])
            rows.append(r)
        if not args.base_only:
            for r in csv.DictReader(open(os.path.join(xdir, "extended", "reference_results.csv"))):
                path = os.path.join(work, r["instance"])
                if not os.path.exists(path):
                    with gzip.open(os.path.join(xdir, "extended", "instances", r["instance"] + ".gz"), "rb") as z:
                        open(path, "wb").write(z.read())
                r["path"] = path
                rows.append(r)
    except OSError as e:
        sys.exit(f"crosscheck_rr9502.py: {e}: set IOSIM_CROSSCHECK_DIR to the cross-check set")
    rows = [r for r in rows if args.strategy in (None, r["iosim_strategy"])
            and (args.instance is None or args.instance in r["instance"])]
    metrics = ("min_yield", "efficiency", "utilization")

    def run(r):
        out = os.path.join(work, f"{r['iosim_strategy']}-{r['instance']}")
        cmd = [binary, "run", os.path.join(ROOT, "deploy", "rr9502-window.json"),
               "--set", f"workload.file={r['path']}",
               "--set", f"sharing.policy={r['iosim_strategy']}", "--set", "output.progress=false", "--out", out]
        for s in args.set:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        res = json.load(open(os.path.join(out, "results.json")))
        return r, res["metrics"], res["wall_time_s"]

    if args.perturb:
        perturbed(rows, run, work, args, metrics)
        return
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
    if args.summary:
        print()
        summary(results, metrics)


def scaled_copy(src, dst, factor):
    """Writes the sample file `src` with age, progress, agePhase, wIter and every phase length x_i times `factor`."""
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            t = line.split()
            if len(t) < 8:
                out.write(line)
                continue
            for i in (2, 3, 4, 6):
                t[i] = repr(float(t[i]) * factor)
            t[8:] = [repr(float(x) * factor) for x in t[8:]]
            out.write(" ".join(t) + "\n")


def perturbed(rows, run, work, args, metrics):
    """Per row: the reference, iosim unperturbed, and min .. max of iosim over the rescaled copies."""
    jobs = []
    for r in rows:
        for k in range(args.perturb + 1):
            q = dict(r)
            if k:
                q["path"] = os.path.join(work, f"k{k}-{r['instance']}")
                q["instance"] = f"k{k}-{r['instance']}"
                scaled_copy(r["path"], q["path"], 1 + k * 1e-12)
            jobs.append((r, k, q))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        out = list(ex.map(lambda j: (j[0], j[1], run(j[2])[1]), jobs))
    print("| strategy | instance | " + " | ".join(f"{m}: ref / iosim / rescaled min .. max" for m in metrics) + " |")
    print("|---|---|" + "---|" * len(metrics))
    for r in rows:
        mine = [(k, m) for rr, k, m in out if rr is r]
        cells = []
        for key in metrics:
            base = [m[key] for k, m in mine if k == 0][0]
            vals = [m[key] for k, m in mine if k]
            cells.append(f"{float(r[key]):.6g} / {base:.6g} / {min(vals):.6g} .. {max(vals):.6g}")
        print(f"| {r['iosim_strategy']} | {r['instance'].removesuffix('.txt')} | " + " | ".join(cells) + " |")


def summary(results, metrics):
    """Per strategy: instances, then per metric the count equal to 6 digits and the min/max relative difference."""
    by = {}
    for r, m, _ in results:
        by.setdefault(r["iosim_strategy"], []).append((r, m))
    print("| strategy | instances | " + " | ".join(f"{k}: equal, rel. diff min .. max" for k in metrics) + " |")
    print("|---|---|" + "---|" * len(metrics))
    for strat in sorted(by):
        cells = []
        for k in metrics:
            diffs = [m[k] / float(r[k]) - 1 for r, m in by[strat]]
            eq = sum(float(f"{m[k]:.6g}") == float(r[k]) for r, m in by[strat])
            cells.append(f"{eq}/{len(diffs)}, {min(diffs):+.1e} .. {max(diffs):+.1e}")
        print(f"| {strat} | {len(by[strat])} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
