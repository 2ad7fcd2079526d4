#!/usr/bin/env python3
"""Two policies of a campaign compared instance by instance (same point and seed): per value of the swept x, the mean
difference A − B of a metric, its standard error, and the share of instances where A is above B.

Usage: analysis/paired.py DIR A B [--metric efficiency] [--x workload.generator.pressure] [--policy sharing.policy]
(docs/rr9502.md uses it for LookAheadGreedyYield against FairShare on the Figure 5 campaign).
"""
import argparse

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import cli, read_runs


def run(args):
    df = read_runs(args.dir, "paired.py", [args.x, args.policy, "seed", args.metric])
    lines = []
    out = lines.append  # the table, returned to cli() which prints it
    out(f"| {args.x} | instances | mean {args.metric} {args.a} − {args.b} | standard error | {args.a} above |")
    out("|---|---|---|---|---|")
    for x, g in df.groupby(args.x):
        a = g[g[args.policy] == args.a].set_index("seed")[args.metric]
        b = g[g[args.policy] == args.b].set_index("seed")[args.metric]
        d = (a - b).dropna()
        if d.empty:
            continue
        sem = d.std() / len(d) ** 0.5 if len(d) > 1 else float("nan")
        out(f"| {x} | {len(d)} | {d.mean():+.2e} | {sem:.1e} | {100 * (d > 0).mean():.0f} % |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--metric", default="efficiency")
    ap.add_argument("--x", default="workload.generator.pressure")
    ap.add_argument("--policy", default="sharing.policy")
    raise SystemExit(cli("paired.py", lambda: run(ap.parse_args())))


if __name__ == "__main__":
    main()
