#!/usr/bin/env python3
"""Seed by seed, a striping policy against a baseline in a TAPP-IO campaign (docs/striping.md).

usage: analysis/tappio_paired.py DIR [--policy POLICY] [--baseline POLICY] [--job NAME] [--tol REL]

DIR is an `iosim sweep` directory of deploy/campaigns/tappio-*.json. For every (layout, writers, background jobs)
point, the measured job's bandwidth (analysis/tappio.py's: bytes over I/O time of application NAME, default `ior`)
under POLICY (default bpio) is compared with the baseline's (default optimized-striping) run of the same seed:
relative difference bw / bw_baseline − 1. Prints one line per point: how many seeds POLICY is ahead, equal (within
--tol, default 1e-15 relative) and behind, the least and largest difference in %, and the seeds that differ when
fewer than half do. Same seed means the same scenario but for the measured job's policy (the background jobs' own
placements may still differ, through the usage state they share with the measured job). Exit 2 on bad input.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, cli  # noqa: E402
from tappio import load  # noqa: E402


def paired(df, policy, baseline, tol):
    """Lines of text, one per (layout, nodes, background) point present under both policies."""
    for name in (policy, baseline):
        if name not in set(df["policy"]):
            raise InputError(f"no run of striping policy '{name}'; fix: give --policy/--baseline among "
                             f"{sorted(set(df['policy']))}")
    out = []
    for (layout, nodes, bg), g in df.groupby(["layout", "nodes", "background"]):
        p = g.pivot_table(index="seed", columns="policy", values="bw")
        if policy not in p or baseline not in p:
            continue
        rel = (p[policy] / p[baseline] - 1).dropna()
        ahead, behind = (rel > tol).sum(), (rel < -tol).sum()
        equal = len(rel) - ahead - behind
        where = f"{layout} {nodes} writers" + (f", {bg} background jobs" if bg >= 0 else "")
        line = (f"{where}: {policy} ahead in {ahead}, equal in {equal}, behind in {behind} of {len(rel)} seeds; "
                f"difference {100 * rel.min():+.2f} % to {100 * rel.max():+.2f} %")
        moved = rel[abs(rel) > tol]
        if 0 < len(moved) < len(rel) / 2:
            line += "; differing: " + ", ".join(f"seed {s} {100 * v:+.2f} %" for s, v in moved.items())
        out.append(line)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--policy", default="bpio")
    ap.add_argument("--baseline", default="optimized-striping")
    ap.add_argument("--job", default="ior")
    ap.add_argument("--tol", type=float, default=1e-15)
    a = ap.parse_args(argv)
    return cli("tappio_paired.py", lambda: "\n".join(paired(load(a.dir, a.job), a.policy, a.baseline, a.tol)))


if __name__ == "__main__":
    sys.exit(main())
