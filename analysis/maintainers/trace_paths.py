#!/usr/bin/env python3
"""Does a Paje trace change results? (docs/trace.md, "What a trace changes"). Runs every deploy/ scenario three ways:
untraced, traced (--trace) and untraced with engine.flows=simgrid, and prints a Markdown table: the path the untraced
run took (counts.transfers of results.json), and the largest difference |a − b| / max(|a|, |b|, 1) of a results.json
metric (wall times left out) between the traced run and each of the other two (0 when identical; the metric named when not; the floor 1
keeps metrics that are zero to rounding, such as a ρ_con of −5e-15, from reading as large relative changes).

usage: analysis/maintainers/trace_paths.py [--only NAME ...]
Environment: IOSIM_BIN (default build/iosim), IOSIM_DATA_DIR, IOSIM_CROSSCHECK_DIR (default
../shared/crosscheck/rr9502: rr9502-window runs the cross-check instance w0.8-nH20-b0.5-s0.5_seed1.txt).
Storage scenarios are replays whose flows are always SimGrid's: they have no engine.flows run ("—").
Takes a few minutes (the traced storalloc-simulated replay is the longest). Exit 2 when a run fails.
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(binary, scenario, extra, out):
    cmd = [binary, "run", scenario, "--out", out, "--set", "output.progress=false"] + extra
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)


def largest(a, b):
    """(relative difference, metric) of the metrics of results a and b that differ most; (0, '') when equal."""
    worst = (0.0, "")
    for k, x in a["metrics"].items():
        if "wall" in k:  # wall times are not results
            continue
        y = b["metrics"].get(k)
        if x == y:
            continue
        if x is None or y is None:
            return (math.inf, k)
        d = abs(x - y) / max(abs(x), abs(y), 1.0)  # metrics that are zero to rounding compare absolutely
        worst = max(worst, (d, k))
    return worst


def fmt(d):
    rel, key = d
    return "0" if rel == 0 else f"{rel:.2g} (`{key}`)"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", default=None, help="scenario names (deploy/NAME.json)")
    a = ap.parse_args(argv)
    binary = os.path.abspath(os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim")))
    cc = os.environ.get("IOSIM_CROSSCHECK_DIR", os.path.join(ROOT, "..", "shared", "crosscheck", "rr9502"))
    names = sorted(os.path.basename(f)[:-5] for f in glob.glob(os.path.join(ROOT, "deploy", "*.json")))
    if a.only:
        names = [n for n in names if n in a.only]
    print("| scenario | untraced path | traced vs untraced | traced vs `engine.flows=simgrid` |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for n in names:
            scen = os.path.join("deploy", n + ".json")
            extra = []
            if n == "rr9502-window":
                extra = ["--set", "workload.file=" + os.path.join(os.path.abspath(cc), "instances",
                                                                  "w0.8-nH20-b0.5-s0.5_seed1.txt")]
            try:
                u = run(binary, scen, extra, os.path.join(work, n, "u"))
                t = run(binary, scen, extra + ["--trace"], os.path.join(work, n, "t"))
                storage = "storage" in u.get("scenario", {}) and u["scenario"]["storage"] is not None
                f = None if storage else run(binary, scen, extra + ["--set", "engine.flows=simgrid"],
                                             os.path.join(work, n, "f"))
            except RuntimeError as e:
                print(f"trace_paths.py: error: {e}", file=sys.stderr)
                return 2
            path = u.get("counts", {}).get("transfers")
            if path is None:  # a storage scenario: scheduled, and replayed through SimGrid flows when simulated
                path = "simgrid-flows (a replay)" if "sim_bw_mean_Bps" in u["metrics"] else "no SimGrid run"
            print(f"| {n} | {path} | {fmt(largest(t, u))} | {'—' if f is None else fmt(largest(t, f))} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
